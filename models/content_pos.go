package models

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"tablecam/internal/yamlpos"
)

// Where a problem of a content file is: the entry, the key in it and the
// line, read from the file's YAML nodes (internal/yamlpos), so that a
// broken override names them as the config file and the marker map do.

// decodeError turns an error of decoding file into a *ValidationError for
// each problem (a decode can find several), each naming its entry, key and
// line.
func decodeError(file string, root *yaml.Node, err error) error {
	var errs []error
	for _, e := range yamlpos.Errors(root, err) {
		entry, key := entryOfKey(root, e.Key)
		errs = append(errs, &ValidationError{File: file, Line: e.Line, Entry: entry, Key: key, Problem: e.Msg})
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// itemKeyRE splits "face_sets[1].faces[0].hits" into the section, the
// item's index and the key in the item.
var itemKeyRE = regexp.MustCompile(`^([^.\[]+)\[(\d+)\](?:\.(.*))?$`)

// entryOfKey names the entry a dotted key of a content file lies in, as
// Validate names entries (`face_sets "vats"`, or `face_sets[1]` for an item
// without an id; "rules"; "document" for none), and the key within it.
func entryOfKey(root *yaml.Node, path string) (entry, key string) {
	if path == "" {
		return "document", ""
	}
	m := itemKeyRE.FindStringSubmatch(path)
	if m == nil {
		sec, rest, _ := strings.Cut(path, ".")
		return sec, rest
	}
	entry = fmt.Sprintf("%s[%s]", m[1], m[2])
	i, _ := strconv.Atoi(m[2])
	if _, seq, ok := yamlpos.Get(root, m[1]); ok && seq.Kind == yaml.SequenceNode && i < len(seq.Content) {
		if _, id, ok := yamlpos.Get(seq.Content[i], "id"); ok && id.Kind == yaml.ScalarNode {
			entry = fmt.Sprintf("%s %q", m[1], id.Value)
		}
	}
	return entry, m[3]
}

// lineOf is the line of an entry named as Validate names it (`face_sets
// "vats"`, "rules") in a content file's tree, or of key in the entry when
// the file writes it; 0 when the file does not hold the entry.
func lineOf(root *yaml.Node, entry, key string) int {
	sec, quoted, isItem := strings.Cut(entry, " ")
	k, node, ok := yamlpos.Get(root, sec)
	if !ok {
		return 0
	}
	line := k.Line
	if isItem {
		id, err := strconv.Unquote(quoted)
		if err != nil || node.Kind != yaml.SequenceNode {
			return 0
		}
		var item *yaml.Node
		for _, it := range node.Content {
			// The last item of an id is the one merged (upsert).
			if _, v, ok := yamlpos.Get(it, "id"); ok && v.Value == id {
				item = it
			}
		}
		if item == nil {
			return 0
		}
		node, line = item, item.Line
	}
	if kk, _, ok := yamlpos.Get(node, key); ok && key != "" {
		line = kk.Line
	}
	return line
}
