package tracker

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// notAtThePrompt are the files whose errors a player does not meet at the
// prompt or in a replay: the store's internals, the event codec, the
// catalogs.
var notAtThePrompt = map[string]bool{
	"event.go": true, "messages.go": true, "store.go": true, "store_check.go": true, "store_sessions.go": true,
	"store_lock_unix.go": true, "store_lock_other.go": true,
}

// Every error the engines (engine/*.go and the other games') and the
// tracker's commands write has a German text: a German session says none of them in English.
// An error that is a command word and another error ("fight: %w") is
// covered by the other's text.
func TestEveryPromptErrorHasGerman(t *testing.T) {
	// %w in a text translates that value too; the code may write it with
	// %s.
	verbs := strings.NewReplacer("%w", "%s", "%v", "%s", "%.0f", "%s", "%.64q", "%q")
	have := map[string]bool{}
	for _, e := range errorTexts {
		have[verbs.Replace(e.en)] = true
	}
	var files []string
	for _, dir := range []string{"../engine", "../engine/twom", "../engine/warfare", "../engine/wasteland"} {
		fs, _ := filepath.Glob(dir + "/*.go")
		files = append(files, fs...)
	}
	own, _ := filepath.Glob("*.go")
	files = append(files, own...)
	letters := regexp.MustCompile(`[A-Za-z]{2,}`)
	prefix := regexp.MustCompile(`^[a-z]+: `)
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || notAtThePrompt[filepath.Base(f)] {
			continue
		}
		for pos, format := range errorFormats(t, f) {
			format = verbs.Replace(format)
			text := format
			for !have[text] && prefix.MatchString(text) {
				text = prefix.ReplaceAllString(text, "")
			}
			if have[text] || !letters.MatchString(regexp.MustCompile(`%[a-z]`).ReplaceAllString(text, "")) {
				checked++
				continue
			}
			t.Errorf("%s: no German text for %q (tracker/ui.go errorTexts)", pos, format)
		}
	}
	if checked < 100 {
		t.Errorf("only %d errors found: the source was not read", checked)
	}
}

// errorFormats returns the format strings of fmt.Errorf and errors.New in
// file, by position.
func errorFormats(t *testing.T, file string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		sel, ok := c.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || !(x.Name == "fmt" && sel.Sel.Name == "Errorf" || x.Name == "errors" && sel.Sel.Name == "New") {
			return true
		}
		if lit, ok := c.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			s, err := strconv.Unquote(lit.Value)
			if err == nil {
				out[fset.Position(lit.Pos()).String()] = s
			}
		}
		return true
	})
	return out
}

// Every English text of errorTexts is recognised as itself (no earlier
// text takes it) and said in German with its values in place.
func TestErrorTextsMatchThemselves(t *testing.T) {
	de, _ := NewCatalog("de")
	verb := regexp.MustCompile(`%[qsdw]`)
	for _, e := range errorTexts {
		var vals []any
		i := 0
		msg := verb.ReplaceAllStringFunc(e.en, func(v string) string {
			i++
			switch v {
			case "%q":
				vals = append(vals, strconv.Quote("x"+strconv.Itoa(i)))
			case "%d":
				vals = append(vals, strconv.Itoa(i+6)) // not 1: a text may say one alone
			case "%w":
				vals = append(vals, `unbekannter Überlebender "carl"`)
				return `unknown survivor "carl"`
			default:
				vals = append(vals, "v"+strconv.Itoa(i))
			}
			return vals[len(vals)-1].(string)
		})
		want := fmt.Sprintf(e.de, vals...)
		if got := de.Error(errors.New(msg)); got != want {
			t.Errorf("%q said as %q, want %q", msg, got, want)
		}
	}
}
