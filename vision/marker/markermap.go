package marker

// The marker map: which content entry each ArUco sticker stands for.

import (
	"bytes"
	_ "embed"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"tablecam/internal/yamlpos"
	"tablecam/models"
)

//go:embed markermap_default.yaml
var defaultMarkerMapYAML []byte

// DefaultMapYAML returns the embedded default marker map, comments
// included: the documentation of the format and of the default ids.
func DefaultMapYAML() []byte { return bytes.Clone(defaultMarkerMapYAML) }

// Kinds of marker map entries.
const (
	KindActivation = "activation" // an activation card (activation-3)
	KindToken      = "token"      // an enemy or faction token (ghoul-2, ncr-1)
	KindGoal       = "goal"       // a goal card (goal-4)
	KindCard       = "card"       // a numbered card (card-017)
	KindOther      = "other"
)

// Entry is what one marker id stands for.
type Entry struct {
	// Marker is the marker id in the map's dictionary.
	Marker int `json:"marker"`
	// Content is the content id: activation-3, ghoul-2, goal-4, card-017.
	Content string `json:"content"`
	// Kind is one of the MarkerKind constants.
	Kind string `json:"kind"`
	// Label is printed under the sticker; the content id when not set.
	Label string `json:"label,omitempty"`
}

// Map maps the ids of ArUco markers of one dictionary to content
// entries. The zero value is empty; use [DefaultMap] or
// [LoadMap]. A Map is not changed after loading and is safe for
// concurrent reads.
type Map struct {
	dict    Dict
	entries map[int]Entry
}

// MapError is a problem in a marker map file, tied to its line and
// entry.
type MapError struct {
	File    string // "embedded:markermap_default.yaml" or the path
	Line    int    // 0 when unknown
	Entry   string // e.g. `markers[3] (id 12)`, "dictionary", "document"
	Problem string
}

func (e *MapError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	return fmt.Sprintf("%s: %s: %s", loc, e.Entry, e.Problem)
}

const defaultMarkerMapName = "embedded:markermap_default.yaml"

// DefaultMap returns the embedded default map (DICT_4X4_250; see
// [DefaultMapYAML] for its ids).
func DefaultMap() *Map {
	m, err := parseMarkerMap(&Map{}, defaultMarkerMapName, defaultMarkerMapYAML)
	if err != nil {
		panic("marker: embedded marker map: " + err.Error())
	}
	return m
}

// LoadMap returns the default marker map with the file at path merged
// over it; path "" returns the default map. In the file, an entry for an id
// the default maps replaces it, content "" removes it, "replace: true"
// drops every default entry first, and "dictionary" switches the
// dictionary (default entries whose ids the new dictionary does not have
// are dropped). Errors name the file, the line and the entry.
func LoadMap(path string) (*Map, error) {
	def := DefaultMap()
	if path == "" {
		return def, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("marker: read marker map: %w", err)
	}
	return def.Merge(path, data)
}

// Merge returns a copy of m with the YAML document data (named file in
// errors) merged over it, as LoadMap does.
func (m *Map) Merge(file string, data []byte) (*Map, error) {
	return parseMarkerMap(m, file, data)
}

// Dict returns the dictionary of the map's markers.
func (m *Map) Dict() Dict { return m.dict }

// Lookup returns the entry of marker id.
func (m *Map) Lookup(id int) (Entry, bool) {
	e, ok := m.entries[id]
	return e, ok
}

// Entries returns every entry, by marker id.
func (m *Map) Entries() []Entry {
	out := make([]Entry, 0, len(m.entries))
	for _, e := range m.entries {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return a.Marker - b.Marker })
	return out
}

// MarkerFor returns the lowest marker id that stands for content.
func (m *Map) MarkerFor(content string) (int, bool) {
	best := -1
	for id, e := range m.entries {
		if e.Content == content && (best < 0 || id < best) {
			best = id
		}
	}
	return best, best >= 0
}

// Labels returns the sticker labels of every mapped id, for
// [tablecam/stickers.Spec].Labels.
func (m *Map) Labels() map[int]string {
	out := make(map[int]string, len(m.entries))
	for id, e := range m.entries {
		out[id] = e.Label
		if out[id] == "" {
			out[id] = e.Content
		}
	}
	return out
}

// CheckContent reports the entries whose content the rules content does
// not know: activation entries must name an activation card, token entries
// an enemy or faction token. Goals, numbered cards and others are not
// checked (the content pack does not list them).
func (m *Map) CheckContent(c *models.Content) error {
	var bad []string
	for _, e := range m.Entries() {
		switch e.Kind {
		case KindActivation:
			if _, ok := c.Card(e.Content); !ok {
				bad = append(bad, fmt.Sprintf("marker %d: no activation card %q", e.Marker, e.Content))
			}
		case KindToken:
			if _, _, ok := c.Token(e.Content); !ok {
				bad = append(bad, fmt.Sprintf("marker %d: no enemy token %q", e.Marker, e.Content))
			}
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("marker: marker map names unknown content: %s", strings.Join(bad, "; "))
	}
	return nil
}

var (
	markerContentRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.#-]*$`)
	markerRangeRE   = regexp.MustCompile(`^\s*(\d+)\s*-\s*(\d+)\s*$`)
	markerTokenRE   = regexp.MustCompile(`^[a-z][a-z0-9-]*-\d+$`)
	markerHashesRE  = regexp.MustCompile(`#+`)
)

// markerKindOf infers an entry's kind from its content id.
func markerKindOf(content string) string {
	switch {
	case strings.HasPrefix(content, "activation-"):
		return KindActivation
	case strings.HasPrefix(content, "goal-"):
		return KindGoal
	case strings.HasPrefix(content, "card-"):
		return KindCard
	case markerTokenRE.MatchString(content):
		return KindToken
	}
	return KindOther
}

var markerEntryKeys = []string{"id", "ids", "content", "first", "kind", "label"}

func parseMarkerMap(base *Map, file string, data []byte) (*Map, error) {
	out := &Map{dict: base.dict, entries: make(map[int]Entry, len(base.entries))}
	for id, e := range base.entries {
		out.entries[id] = e
	}
	if base.entries == nil {
		out.dict = Dict4X4_250
	}
	fail := func(line int, entry, format string, args ...any) error {
		return &MapError{File: file, Line: line, Entry: entry, Problem: fmt.Sprintf(format, args...)}
	}
	root, err := yamlpos.Parse(data)
	if err != nil {
		e := yamlpos.Errors(nil, err)[0]
		return nil, fail(e.Line, "document", "%s", e.Msg)
	}
	if root == nil {
		return out, nil // an empty file changes nothing
	}
	if root.Kind != yaml.MappingNode {
		return nil, fail(root.Line, "document", "want a mapping with dictionary and markers")
	}
	var markers *yaml.Node
	replace := false
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "dictionary":
			d, err := ParseDict(v.Value)
			if err != nil || v.Kind != yaml.ScalarNode {
				return nil, fail(v.Line, "dictionary", "unknown dictionary %q (want e.g. DICT_4X4_250)", v.Value)
			}
			out.dict = d
		case "replace":
			if err := v.Decode(&replace); err != nil {
				return nil, fail(v.Line, "replace", "want true or false")
			}
		case "markers":
			if v.Kind != yaml.SequenceNode && !(v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
				return nil, fail(v.Line, "markers", "want a list of entries")
			}
			markers = v
		default:
			return nil, fail(k.Line, k.Value, "unknown key (want dictionary, replace, markers)")
		}
	}
	if replace {
		clear(out.entries)
	}
	// Default entries the (new) dictionary cannot hold are dropped.
	for id := range out.entries {
		if id >= out.dict.Size() {
			delete(out.entries, id)
		}
	}
	if markers == nil {
		return out, nil
	}
	seen := map[int]int{} // id → line, within this file
	for n, item := range markers.Content {
		entry := fmt.Sprintf("markers[%d]", n)
		if item.Kind != yaml.MappingNode {
			return nil, fail(item.Line, entry, "want a mapping such as {id: 3, content: activation-4}")
		}
		var (
			raw      = map[string]*yaml.Node{}
			lo, hi   int
			first    = 1
			content  string
			kind     string
			label    string
			hasRange bool
		)
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, v := item.Content[i], item.Content[i+1]
			if !slices.Contains(markerEntryKeys, k.Value) {
				return nil, fail(k.Line, entry, "unknown key %q (want %s)", k.Value, strings.Join(markerEntryKeys, ", "))
			}
			if _, dup := raw[k.Value]; dup {
				return nil, fail(k.Line, entry, "key %q given twice", k.Value)
			}
			if v.Kind != yaml.ScalarNode {
				return nil, fail(v.Line, entry, "%s: want a single value", k.Value)
			}
			raw[k.Value] = v
		}
		idNode, idsNode := raw["id"], raw["ids"]
		switch {
		case idNode != nil && idsNode != nil:
			return nil, fail(item.Line, entry, "give id or ids, not both")
		case idNode != nil:
			id, err := strconv.Atoi(strings.TrimSpace(idNode.Value))
			if err != nil {
				return nil, fail(idNode.Line, entry, "id %q is not a whole number", idNode.Value)
			}
			lo, hi = id, id
			entry = fmt.Sprintf("markers[%d] (id %d)", n, id)
		case idsNode != nil:
			m := markerRangeRE.FindStringSubmatch(idsNode.Value)
			if m == nil {
				return nil, fail(idsNode.Line, entry, "ids %q: want a range such as 100-249", idsNode.Value)
			}
			lo, _ = strconv.Atoi(m[1])
			hi, _ = strconv.Atoi(m[2])
			hasRange = true
			entry = fmt.Sprintf("markers[%d] (ids %d-%d)", n, lo, hi)
			if hi < lo {
				return nil, fail(idsNode.Line, entry, "range runs backwards")
			}
		default:
			return nil, fail(item.Line, entry, "no id (want id: N or ids: A-B)")
		}
		line := item.Line
		if lo < 0 || hi >= out.dict.Size() {
			return nil, fail(line, entry, "id out of range for %v (0..%d)", out.dict, out.dict.Size()-1)
		}
		cn, ok := raw["content"]
		if !ok {
			return nil, fail(line, entry, `no content (use content: "" to remove a marker)`)
		}
		content = strings.TrimSpace(cn.Value)
		if v := raw["first"]; v != nil {
			f, err := strconv.Atoi(strings.TrimSpace(v.Value))
			if err != nil || f < 0 {
				return nil, fail(v.Line, entry, "first %q is not a whole number ≥ 0", v.Value)
			}
			if !hasRange {
				return nil, fail(v.Line, entry, "first is for ranges (ids: A-B)")
			}
			first = f
		}
		if v := raw["kind"]; v != nil {
			kind = strings.TrimSpace(v.Value)
			switch kind {
			case KindActivation, KindToken, KindGoal, KindCard, KindOther:
			default:
				return nil, fail(v.Line, entry, "kind %q (want activation, token, goal, card or other)", kind)
			}
		}
		if v := raw["label"]; v != nil {
			label = v.Value
			if hasRange && label != "" && !strings.Contains(label, "#") {
				return nil, fail(v.Line, entry, "a range's label needs a # for the number")
			}
		}
		hashes := markerHashesRE.FindAllString(content, -1)
		switch {
		case content == "":
		case !markerContentRE.MatchString(content) || len(content) > 64:
			return nil, fail(cn.Line, entry, "content %q: want an id of letters, digits, '-', '_' or '.' (at most 64)", content)
		case hasRange && len(hashes) != 1:
			return nil, fail(cn.Line, entry, "a range's content needs one run of # for the number (card-###)")
		case !hasRange && len(hashes) > 0:
			return nil, fail(cn.Line, entry, "# is for ranges (ids: A-B)")
		}
		for id := lo; id <= hi; id++ {
			if prev, dup := seen[id]; dup {
				return nil, fail(line, entry, "marker %d is already mapped on line %d", id, prev)
			}
			seen[id] = line
			if content == "" {
				delete(out.entries, id)
				continue
			}
			num := first + id - lo
			c := markerNumbered(content, num)
			e := Entry{Marker: id, Content: c, Kind: kind, Label: markerNumbered(label, num)}
			if e.Kind == "" {
				e.Kind = markerKindOf(c)
			}
			out.entries[id] = e
		}
	}
	return out, nil
}

// markerNumbered replaces the first run of # in s with num, zero-padded to
// the run's length.
func markerNumbered(s string, num int) string {
	loc := markerHashesRE.FindStringIndex(s)
	if loc == nil {
		return s
	}
	return s[:loc[0]] + fmt.Sprintf("%0*d", loc[1]-loc[0], num) + s[loc[1]:]
}
