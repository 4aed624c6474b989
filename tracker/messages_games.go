package tracker

import (
	"maps"
	"slices"
	"strings"
)

// gameCatalogs holds the sentences of the games other than Fallout: The
// Board Game, by language and outcome kind.
func gameCatalogs() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, part := range []map[string]map[string]string{twomMessages(), warfareMessages(), wastelandMessages(), moveWaitMessages()} {
		for lang, msgs := range part {
			if out[lang] == nil {
				out[lang] = map[string]string{}
			}
			maps.Copy(out[lang], msgs)
		}
	}
	return out
}

// pick is a template that writes the text for a var's value: a chain of
// {{if eq .field "value"}}text{{else if ...}}{{end}}, values sorted.
func pick(field string, texts map[string]string) string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(texts)) {
		if i > 0 {
			b.WriteString("{{else ")
		} else {
			b.WriteString("{{")
		}
		b.WriteString(`if eq .` + field + ` "` + k + `"}}` + texts[k])
	}
	b.WriteString("{{end}}")
	return b.String()
}
