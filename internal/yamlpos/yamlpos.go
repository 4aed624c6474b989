// Package yamlpos reads a YAML file as a tree of nodes and names where a
// problem is: the line, and the key as a dotted path (voice.rate,
// face_sets[1].faces). The config file, the marker map and the content
// pack all read YAML this way, so a broken file of each says the key and
// the line alike.
//
//	root, err := yamlpos.Parse(data) // err: *yamlpos.Error with the line
//	if err := root.Decode(&v); err != nil {
//		for _, e := range yamlpos.Errors(root, err) {
//			fmt.Printf("%s:%d: %s: %s\n", name, e.Line, e.Key, e.Msg)
//		}
//	}
//
// It imports no package of tablecam.
package yamlpos

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Error is one problem at a place in a YAML document.
type Error struct {
	Line int    // 1-based; 0 when yaml does not say
	Key  string // dotted path of the key on Line; "" when none is
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Parse decodes exactly one YAML document into its node tree: the root
// node, nil for an empty document. A syntax error, a second document and a
// panic of the parser are an *Error naming the line where yaml does.
func Parse(data []byte) (root *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{Msg: fmt.Sprintf("cannot parse YAML: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return nil, nil
	} else if err != nil {
		return nil, Errors(nil, err)[0]
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: max(extra.Line, 1), Msg: "only one YAML document is allowed"}
	} else if !errors.Is(err, io.EOF) {
		return nil, Errors(nil, err)[0]
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// lineRE finds the line in yaml's messages: "yaml: line 3: …" for syntax
// errors, "line 3: …" for each of a decode's type errors.
var lineRE = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Errors splits an error of yaml.v3 into one *Error a problem: a decode's
// *yaml.TypeError holds several, one a line. The key at each line is
// looked up in root (nil: no keys named). It gives at least one *Error for
// a non-nil err.
func Errors(root *yaml.Node, err error) []*Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return []*Error{e}
	}
	msgs := []string{err.Error()}
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msgs = te.Errors
	}
	out := make([]*Error, 0, len(msgs))
	for _, m := range msgs {
		m = strings.TrimSpace(m)
		pe := &Error{Msg: strings.TrimPrefix(m, "yaml: ")}
		if s := lineRE.FindStringSubmatch(m); s != nil && s[2] != "" {
			if n, err := strconv.Atoi(s[1]); err == nil {
				pe.Line, pe.Msg = n, s[2]
			}
		}
		if pe.Msg == "" {
			pe.Msg = "cannot parse YAML"
		}
		word := ""
		if w := wordRE.FindStringSubmatch(pe.Msg); w != nil {
			word = w[1] + w[2]
		}
		pe.Key = keyAt(root, pe.Line, word)
		out = append(out, pe)
	}
	return out
}

// KeyAt is the dotted path of the first key written on line in the tree
// under root: "voice.rate", "face_sets[1].faces[0].id". A list item
// without a key is named by its index ("markers[2]"); a line with nothing
// on it gives "".
func KeyAt(root *yaml.Node, line int) string { return keyAt(root, line, "") }

// keyAt is KeyAt preferring, on a line of several keys, the key named
// word or the key whose value is word.
func keyAt(root *yaml.Node, line int, word string) string {
	if root == nil || line <= 0 {
		return ""
	}
	var first, named string
	var walk func(n *yaml.Node, path string, depth int)
	walk = func(n *yaml.Node, path string, depth int) {
		if depth > 64 || named != "" {
			return // a deeper document is not one tablecam reads
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				kp := Join(path, k.Value)
				if k.Line == line {
					if first == "" {
						first = kp
					}
					if word != "" && (k.Value == word || (v.Kind == yaml.ScalarNode && v.Value == word)) {
						named = kp
						return
					}
				}
				walk(v, kp, depth+1)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				walk(item, fmt.Sprintf("%s[%d]", path, i), depth+1)
			}
		case yaml.ScalarNode:
			if n.Line == line && first == "" {
				first = path
			}
		}
	}
	walk(root, "", 0)
	if named != "" {
		return named
	}
	return first
}

// wordRE finds the value or key a yaml type error names: "cannot
// unmarshal !!str `seven` into int", "field facez not found in type …".
var wordRE = regexp.MustCompile("`([^`]*)`|field (\\S+) not found")

// Join appends a key to a dotted path.
func Join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// Get returns the key node and the value node of key in the mapping m; ok
// is false when m is no mapping or has no such key.
func Get(m *yaml.Node, key string) (k, v *yaml.Node, ok bool) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil, false
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1], true
		}
	}
	return nil, nil, false
}
