package config

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"tablecam/internal/yamlpos"
)

// schema is the key set of the embedded defaults.
type schema struct {
	keys     map[string]keyInfo // leaf keys such as "voice.rate"
	sections map[string]bool    // keys holding a mapping, such as "voice"
	order    []string           // leaf keys in file order
}

type keyInfo struct {
	kind kind
	def  any    // default value: string, int or bool
	doc  string // the key's comment in the default file
}

// parseSchema reads the key set, kinds, defaults and comments of the embedded
// config.yaml: top-level keys and one level of sections.
func parseSchema() (*schema, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(defaultYAML), &doc); err != nil {
		return nil, err
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("not a mapping")
	}
	sc := &schema{keys: map[string]keyInfo{}, sections: map[string]bool{}}
	var walk func(m *yaml.Node, prefix string) error
	walk = func(m *yaml.Node, prefix string) error {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			key := k.Value
			if prefix != "" {
				key = prefix + "." + key
			}
			if v.Kind == yaml.MappingNode && prefix == "" {
				sc.sections[key] = true
				if err := walk(v, key); err != nil {
					return err
				}
				continue
			}
			val, msg := convert(kindOfTag(v.Tag), v)
			if v.Kind != yaml.ScalarNode || msg != "" {
				return fmt.Errorf("line %d: key %q: unsupported default", k.Line, key)
			}
			doc := strings.TrimSpace(k.HeadComment + " " + k.LineComment)
			if lines := strings.Split(doc, "\n"); len(lines) > 0 {
				for j := range lines {
					lines[j] = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[j]), "#"))
				}
				doc = strings.Join(lines, " ")
			}
			sc.keys[key] = keyInfo{kind: kindOfTag(v.Tag), def: val, doc: doc}
			sc.order = append(sc.order, key)
		}
		return nil
	}
	if err := walk(doc.Content[0], ""); err != nil {
		return nil, err
	}
	return sc, nil
}

func kindOfTag(tag string) kind {
	switch tag {
	case "!!int":
		return kindInt
	case "!!bool":
		return kindBool
	}
	return kindString
}

// fileValues are the typed values of a config file and the line of each key.
type fileValues struct {
	values map[string]any
	lines  map[string]int
}

// checkFile parses a config file with the YAML node API and checks every key
// against the schema. It returns the values that are fine and an *Error for
// each problem.
func checkFile(name string, data []byte, sc *schema) (fv fileValues, errs []error) {
	fv = fileValues{values: map[string]any{}, lines: map[string]int{}}
	fail := func(line int, key, format string, args ...any) {
		errs = append(errs, &Error{Where: name, Line: line, Key: key, Msg: fmt.Sprintf(format, args...)})
	}

	root, err := yamlpos.Parse(data)
	if err != nil {
		e := yamlpos.Errors(root, err)[0]
		fail(e.Line, e.Key, "%s", e.Msg)
		return fv, errs
	}
	if root == nil || (root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
		return fv, nil // empty file: all defaults
	}
	if root.Kind != yaml.MappingNode {
		fail(root.Line, "", "want a mapping of keys such as \"language: en\", got %s", describe(root))
		return fv, errs
	}

	known := make([]string, 0, len(sc.keys)+len(sc.sections))
	known = append(known, sc.order...)
	known = append(known, sortedKeys(sc.sections)...)

	var walk func(m *yaml.Node, prefix string)
	walk = func(m *yaml.Node, prefix string) {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], resolve(m.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				fail(k.Line, "", "keys must be plain names, got %s", describe(k))
				continue
			}
			if k.Tag == "!!merge" {
				fail(k.Line, "", "YAML merge keys (<<) are not supported; write the keys out")
				continue
			}
			key := yamlpos.Join(prefix, k.Value)
			if first, dup := fv.lines[key]; dup {
				fail(k.Line, key, "key %q is set twice (first on line %d)", key, first)
				continue
			}
			fv.lines[key] = k.Line
			switch info, leaf := sc.keys[key]; {
			case leaf:
				val, msg := convert(info.kind, v)
				if msg != "" {
					fail(k.Line, key, "key %q: %s", key, msg)
					continue
				}
				fv.values[key] = val
			case sc.sections[key]:
				if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
					continue // "voice:" with every key commented out
				}
				if v.Kind != yaml.MappingNode {
					fail(k.Line, key, "key %q: want a mapping of %s.* keys, got %s", key, key, describe(v))
					continue
				}
				walk(v, key)
			default:
				delete(fv.lines, key)
				msg := fmt.Sprintf("unknown key %q", key)
				if s := suggest(key, known); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				fail(k.Line, key, "%s", msg)
			}
		}
	}
	walk(root, "")
	return fv, errs
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; i < 8 && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
}

// describe names a node's value for an error message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "nothing"
		case "!!str":
			return quoteShort(n.Value)
		}
		if r := []rune(n.Value); len(r) > 40 {
			return string(r[:40]) + "…"
		}
		return n.Value
	}
	return "an empty value"
}

// convert checks a YAML value against a key's kind and returns it typed.
func convert(k kind, n *yaml.Node) (any, string) {
	wrong := func() (any, string) {
		msg := fmt.Sprintf("want %s, got %s", k.want(), describe(n))
		if k == kindString && n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			msg += ` (write "" for an empty string)`
		}
		if k == kindString && n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
			msg += fmt.Sprintf(` (quote it: "%s")`, n.Value)
		}
		return nil, msg
	}
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return wrong()
	}
	switch k {
	case kindInt:
		var i int
		switch n.Tag {
		case "!!int":
			if err := n.Decode(&i); err != nil {
				return wrong()
			}
			return i, ""
		case "!!str":
			if v, msg := parseText(kindInt, strings.TrimSpace(n.Value)); msg == "" {
				return v, ""
			}
		}
		return wrong()
	case kindBool:
		switch n.Tag {
		case "!!bool":
			var b bool
			if err := n.Decode(&b); err != nil {
				return wrong()
			}
			return b, ""
		case "!!str":
			if v, msg := parseText(kindBool, strings.TrimSpace(n.Value)); msg == "" {
				return v, ""
			}
		}
		return wrong()
	}
	if n.Tag == "!!bool" {
		return wrong()
	}
	return n.Value, ""
}
