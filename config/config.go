// Package config loads tablecam's settings.
//
// The defaults are the embedded config.yaml, which documents every key (the
// copy at the repository root is the same file, byte for byte). On top of the
// defaults, each layer overriding the one before:
//
//  1. one config file: the path given to [Load] (the --config flag), else
//     ./config.yaml if it exists, else $XDG_CONFIG_HOME/tablecam/config.yaml
//     (~/.config/tablecam/config.yaml) if it exists;
//  2. environment variables named by [EnvName]: TABLECAM_VOICE_RATE for
//     key "voice.rate";
//  3. command-line flags that were set, named by [FlagName]: --voice-rate.
//
// Viper merges the layers. Before that, the config file is checked against the
// defaults with the YAML node API, so that an unknown key or a value of the
// wrong type is an error naming the file, the line and the key; environment
// variables and flags are type-checked the same way, and every value is then
// validated. A fresh viper instance is used for each Load; the package keeps no
// mutable state.
package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/go-viper/mapstructure/v2"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"

	"tablecam/models"
)

//go:embed config.yaml
var defaultYAML string

// DefaultYAML returns the embedded default config file (a fresh copy).
func DefaultYAML() []byte { return []byte(defaultYAML) }

// Config is tablecam's complete configuration. After [Load], paths are
// expanded: a leading ~ is the home directory and Session.DB is inside DataDir
// unless it was given as an absolute path.
type Config struct {
	// Language of announcements and the dashboard: "en" or "de".
	Language string `mapstructure:"language"`
	// DataDir holds the sessions database and taught profiles.
	DataDir string `mapstructure:"data_dir"`
	// ContentDir holds user YAML overriding the embedded rules content; "" for none.
	ContentDir string    `mapstructure:"content_dir"`
	Session    Session   `mapstructure:"session"`
	Voice      Voice     `mapstructure:"voice"`
	Output     Output    `mapstructure:"output"`
	Log        Log       `mapstructure:"log"`
	Camera     Camera    `mapstructure:"camera"`
	Vision     Vision    `mapstructure:"vision"`
	Dashboard  Dashboard `mapstructure:"dashboard"`
	Rules      Rules     `mapstructure:"rules"`
}

// Session configures the session store.
type Session struct {
	// DB is the sessions database file.
	DB string `mapstructure:"db"`
}

// Voice configures spoken announcements.
type Voice struct {
	// Enabled turns speech on; text output never depends on it.
	Enabled bool `mapstructure:"enabled"`
	// Engine is the text-to-speech program (espeak-ng compatible).
	Engine string `mapstructure:"engine"`
	// Rate is the speaking rate in words per minute.
	Rate int `mapstructure:"rate"`
	// VoiceEN is the engine's voice for English.
	VoiceEN string `mapstructure:"voice_en"`
	// VoiceDE is the engine's voice for German.
	VoiceDE string `mapstructure:"voice_de"`
}

// Voices maps a language code to the engine voice that speaks it.
func (v Voice) Voices() map[string]string {
	return map[string]string{"en": v.VoiceEN, "de": v.VoiceDE}
}

// Output configures machine-readable output.
type Output struct {
	// JSON writes every announcement as a JSON line on standard output.
	JSON bool `mapstructure:"json"`
}

// Log configures logging.
type Log struct {
	// Level is "debug", "info", "warn" or "error".
	Level string `mapstructure:"level"`
}

// SlogLevel returns Level as a slog level (info for anything unknown).
func (l Log) SlogLevel() slog.Level {
	switch l.Level {
	case "debug":
		return slog.LevelDebug
	case "warn":
		return slog.LevelWarn
	case "error":
		return slog.LevelError
	}
	return slog.LevelInfo
}

// Camera configures the camera.
type Camera struct {
	// Device is a device index such as "0" or a device path.
	Device string `mapstructure:"device"`
	// Width and Height are the requested frame size in pixels.
	Width  int `mapstructure:"width"`
	Height int `mapstructure:"height"`
	// FPS is the requested frame rate.
	FPS int `mapstructure:"fps"`
	// Crop is the table area "x0,y0,x1,y1" in frame pixels; "" for the whole frame.
	Crop string `mapstructure:"crop"`
}

// Sets returns DiceSets as a list (spaces and empty names dropped).
func (v Vision) Sets() []string {
	var out []string
	for _, s := range strings.Split(v.DiceSets, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Vision configures recognition.
type Vision struct {
	// SettleFrames is the number of still frames before a roll is read.
	SettleFrames int `mapstructure:"settle_frames"`
	// DiceSets lists the face sets to look for, comma-separated.
	DiceSets string `mapstructure:"dice_sets"`
	// DiceReader is the dice reader of play: "tuned" or "learned".
	DiceReader string `mapstructure:"dice_reader"`
	// CardFrames is the number of steady frames before a card counts as shown.
	CardFrames int `mapstructure:"card_frames"`
	// Markers is the marker map file merged over the default; "" for DATA_DIR/markers.yaml if present.
	Markers string `mapstructure:"markers"`
	// OpenCVThreads is the threads of OpenCV's parallel loops; 0 for OpenCV's default.
	OpenCVThreads int `mapstructure:"opencv_threads"`
}

// The dice readers of vision.dice_reader.
const (
	DiceReaderTuned   = "tuned"
	DiceReaderLearned = "learned"
)

// Dashboard configures the web dashboard.
type Dashboard struct {
	// Addr is the host:port the dashboard listens on.
	Addr string `mapstructure:"addr"`
}

// Rules overrides rule options of the rules content.
type Rules struct {
	// DeckEmpty is "reshuffle", "stop", or "" for the content's default.
	DeckEmpty string `mapstructure:"deck_empty"`
}

// SourceKind says where the config file came from.
type SourceKind int

const (
	// FromDefaults: no config file was used, only the embedded defaults.
	FromDefaults SourceKind = iota
	// FromExplicit: the file given to Load (the --config flag).
	FromExplicit
	// FromWorkDir: ./config.yaml.
	FromWorkDir
	// FromUserConfig: $XDG_CONFIG_HOME/tablecam/config.yaml.
	FromUserConfig
)

// Source says which config file Load used.
type Source struct {
	Kind SourceKind
	// Path is the file as it appears in error messages; "" for FromDefaults.
	Path string
}

// String describes the source for a log line.
func (s Source) String() string {
	switch s.Kind {
	case FromExplicit:
		return s.Path + " (--config)"
	case FromWorkDir:
		return s.Path + " (working directory)"
	case FromUserConfig:
		return s.Path + " (user config)"
	}
	return "embedded defaults"
}

// Error is one problem with the configuration, located where it was found.
// Load returns all problems it finds joined with errors.Join; use errors.As
// to get the first *Error.
type Error struct {
	// Where is the config file name, "environment variable TABLECAM_…",
	// "flag --…" or "defaults".
	Where string
	// Line is the line in the config file; 0 when Where is not a file.
	Line int
	// Key is the config key concerned, "" when the problem is not one key's.
	Key string
	// Msg says what is wrong (it includes the key).
	Msg string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Where, e.Line, e.Msg)
	}
	return e.Where + ": " + e.Msg
}

// EnvName is the environment variable that sets key: "voice.rate" →
// "TABLECAM_VOICE_RATE". Empty variables count as unset.
func EnvName(key string) string {
	return "TABLECAM_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// FlagName is the command-line flag that sets key: "voice.rate" →
// "voice-rate", "data_dir" → "data-dir". Load also accepts a flag named
// exactly like the key ("voice.rate").
func FlagName(key string) string {
	return strings.NewReplacer(".", "-", "_", "-").Replace(key)
}

// Keys returns every config key in the order of the default file.
func Keys() []string {
	sc, err := parseSchema()
	if err != nil {
		return nil
	}
	return append([]string(nil), sc.order...)
}

// RegisterFlags adds one flag per config key to fs, named by [FlagName],
// typed like the default and documented with the key's comment. Load picks up
// the ones the user set. With sections, only the keys of those top-level
// keys or sections (camera, vision, data_dir, ...) are added, so that a
// command offers the settings it uses. It does not add --config.
func RegisterFlags(fs *pflag.FlagSet, sections ...string) {
	sc, err := parseSchema()
	if err != nil {
		return
	}
	for _, key := range sc.order {
		if !inSections(key, sections) {
			continue
		}
		info := sc.keys[key]
		name := FlagName(key)
		if fs.Lookup(name) != nil {
			continue
		}
		switch v := info.def.(type) {
		case int:
			fs.Int(name, v, info.doc)
		case bool:
			fs.Bool(name, v, info.doc)
		case string:
			fs.String(name, v, info.doc)
		}
	}
}

// inSections reports whether key is one of sections or lies in one (all
// keys when sections is empty).
func inSections(key string, sections []string) bool {
	if len(sections) == 0 {
		return true
	}
	for _, s := range sections {
		if key == s || strings.HasPrefix(key, s+".") {
			return true
		}
	}
	return false
}

// Load returns the configuration: the embedded defaults, overridden by one
// config file, by TABLECAM_* environment variables and by the flags in flags
// that were set (flags may be nil; flags that are not config keys, such as
// --config itself, are ignored).
//
// explicitPath is the file the user named (the value of --config), or "" to
// look for ./config.yaml and then $XDG_CONFIG_HOME/tablecam/config.yaml. A
// missing explicit file is an error; a missing default file means the
// embedded defaults alone. Source tells which file was used, also when err is
// not nil. Errors name the file and line, the environment variable or the
// flag, and the key.
func Load(flags *pflag.FlagSet, explicitPath string) (Config, Source, error) {
	src, data, err := findFile(explicitPath)
	if err != nil {
		return Config{}, src, err
	}
	cfg, err := load(src.Path, data, flags)
	return cfg, src, err
}

// findFile picks and reads the config file.
func findFile(explicitPath string) (Source, []byte, error) {
	if explicitPath != "" {
		src := Source{Kind: FromExplicit, Path: explicitPath}
		data, err := os.ReadFile(explicitPath)
		if errors.Is(err, fs.ErrNotExist) {
			return src, nil, fmt.Errorf("config file %s does not exist: %w", explicitPath, fs.ErrNotExist)
		}
		if err != nil {
			return src, nil, fmt.Errorf("config file: %w", err)
		}
		return src, data, nil
	}
	candidates := []Source{{Kind: FromWorkDir, Path: "config.yaml"}}
	if dir, err := os.UserConfigDir(); err == nil {
		candidates = append(candidates, Source{Kind: FromUserConfig, Path: filepath.Join(dir, "tablecam", "config.yaml")})
	}
	for _, src := range candidates {
		data, err := os.ReadFile(src.Path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return src, nil, fmt.Errorf("config file: %w", err)
		}
		return src, data, nil
	}
	return Source{Kind: FromDefaults}, nil, nil
}

// load merges the layers; fileName is "" when there is no config file.
func load(fileName string, data []byte, flags *pflag.FlagSet) (Config, error) {
	sc, err := parseSchema()
	if err != nil {
		return Config{}, fmt.Errorf("config: embedded defaults: %w", err)
	}
	v := viper.New()
	for _, key := range sc.order {
		v.SetDefault(key, sc.keys[key].def)
	}

	var errs []error
	origin := map[string]*Error{} // key → where its value came from, for validation errors

	if fileName != "" {
		fv, ferrs := checkFile(fileName, data, sc)
		errs = append(errs, ferrs...)
		if err := v.MergeConfigMap(nest(fv.values)); err != nil {
			errs = append(errs, &Error{Where: fileName, Msg: err.Error()})
		}
		for key, line := range fv.lines {
			origin[key] = &Error{Where: fileName, Line: line, Key: key}
		}
	}

	for _, key := range sc.order {
		name := EnvName(key)
		if err := v.BindEnv(key, name); err != nil {
			errs = append(errs, &Error{Where: "environment variable " + name, Key: key, Msg: err.Error()})
			continue
		}
		val, ok := os.LookupEnv(name)
		if !ok || val == "" {
			continue
		}
		where := "environment variable " + name
		origin[key] = &Error{Where: where, Key: key}
		if _, msg := parseText(sc.keys[key].kind, val); msg != "" {
			errs = append(errs, &Error{Where: where, Key: key, Msg: fmt.Sprintf("key %q: %s", key, msg)})
		}
	}

	if flags != nil {
		byName := map[string]string{}
		for _, key := range sc.order {
			byName[FlagName(key)] = key
			byName[key] = key
		}
		flags.VisitAll(func(f *pflag.Flag) {
			key, ok := byName[f.Name]
			if !ok || !f.Changed {
				return
			}
			where := "flag --" + f.Name
			origin[key] = &Error{Where: where, Key: key}
			if _, msg := parseText(sc.keys[key].kind, f.Value.String()); msg != "" {
				errs = append(errs, &Error{Where: where, Key: key, Msg: fmt.Sprintf("key %q: %s", key, msg)})
				return
			}
			if err := v.BindPFlag(key, f); err != nil {
				errs = append(errs, &Error{Where: where, Key: key, Msg: err.Error()})
			}
		})
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}

	var cfg Config
	strict := func(c *mapstructure.DecoderConfig) { c.ErrorUnused, c.ErrorUnset = true, true }
	if err := v.Unmarshal(&cfg, strict); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if errs := finish(&cfg, origin); len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return cfg, nil
}

// finish expands paths and validates values; origin locates each key's value.
func finish(cfg *Config, origin map[string]*Error) []error {
	var errs []error
	bad := func(key, format string, args ...any) {
		e := &Error{Where: "defaults", Key: key}
		if o := origin[key]; o != nil {
			e.Where, e.Line = o.Where, o.Line
		}
		e.Msg = fmt.Sprintf("key %q: ", key) + fmt.Sprintf(format, args...)
		errs = append(errs, e)
	}
	expand := func(key string, p *string) {
		if *p != "~" && !strings.HasPrefix(*p, "~/") {
			return
		}
		home, err := os.UserHomeDir()
		if err != nil {
			bad(key, "cannot expand ~ in %q: %v", *p, err)
			return
		}
		*p = filepath.Join(home, strings.TrimPrefix(*p, "~"))
	}
	oneOf := func(key, got string, allowed ...string) {
		for _, a := range allowed {
			if got == a {
				return
			}
		}
		quoted := make([]string, len(allowed))
		for i, a := range allowed {
			quoted[i] = strconv.Quote(a)
		}
		bad(key, "want one of %s, got %q", strings.Join(quoted, ", "), got)
	}
	notEmpty := func(key, got string) {
		if strings.TrimSpace(got) == "" {
			bad(key, "must not be empty")
		}
	}
	between := func(key string, got, lo, hi int) {
		if got < lo || got > hi {
			bad(key, "want %d to %d, got %d", lo, hi, got)
		}
	}

	oneOf("language", cfg.Language, "en", "de")
	notEmpty("data_dir", cfg.DataDir)
	expand("data_dir", &cfg.DataDir)
	expand("content_dir", &cfg.ContentDir)
	notEmpty("session.db", cfg.Session.DB)
	expand("session.db", &cfg.Session.DB)
	if cfg.Session.DB != "" && !filepath.IsAbs(cfg.Session.DB) {
		cfg.Session.DB = filepath.Join(cfg.DataDir, cfg.Session.DB)
	}
	notEmpty("voice.engine", cfg.Voice.Engine)
	between("voice.rate", cfg.Voice.Rate, 80, 450)
	notEmpty("voice.voice_en", cfg.Voice.VoiceEN)
	notEmpty("voice.voice_de", cfg.Voice.VoiceDE)
	oneOf("log.level", cfg.Log.Level, "debug", "info", "warn", "error")
	notEmpty("camera.device", cfg.Camera.Device)
	between("camera.width", cfg.Camera.Width, 1, 16384)
	between("camera.height", cfg.Camera.Height, 1, 16384)
	between("camera.fps", cfg.Camera.FPS, 1, 1000)
	if c := strings.TrimSpace(cfg.Camera.Crop); c != "" {
		ok := true
		var v []int
		for _, p := range strings.Split(c, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			ok = ok && err == nil && n >= 0
			v = append(v, n)
		}
		if !ok || len(v) != 4 || v[2]-v[0] < 32 || v[3]-v[1] < 32 {
			bad("camera.crop", "want x0,y0,x1,y1 in pixels (at least 32x32) such as 100,50,1180,700, got %q", cfg.Camera.Crop)
		}
	}
	between("vision.settle_frames", cfg.Vision.SettleFrames, 1, 1000)
	if len(cfg.Vision.Sets()) == 0 {
		bad("vision.dice_sets", "want set names such as vats,assist, got %q", cfg.Vision.DiceSets)
	}
	oneOf("vision.dice_reader", cfg.Vision.DiceReader, DiceReaderTuned, DiceReaderLearned)
	between("vision.card_frames", cfg.Vision.CardFrames, 1, 1000)
	expand("vision.markers", &cfg.Vision.Markers)
	between("vision.opencv_threads", cfg.Vision.OpenCVThreads, 0, 64)
	if host, port, err := net.SplitHostPort(cfg.Dashboard.Addr); err != nil || strings.ContainsAny(host, " /") || !validPort(port) {
		bad("dashboard.addr", "want host:port such as 127.0.0.1:8080, got %q", cfg.Dashboard.Addr)
	}
	oneOf("rules.deck_empty", cfg.Rules.DeckEmpty, "", models.DeckReshuffle, models.DeckStop)
	return errs
}

func validPort(p string) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n >= 0 && n <= 65535
}

// kind is the type of a config key, taken from its default value.
type kind int

const (
	kindString kind = iota
	kindInt
	kindBool
)

// want names what a value of the kind looks like, for error messages.
func (k kind) want() string {
	switch k {
	case kindInt:
		return "an integer"
	case kindBool:
		return "true or false"
	}
	return "a string"
}

// parseText converts text from the environment or a flag to the key's kind,
// the way viper's decoder will; msg says what is wrong.
func parseText(k kind, s string) (v any, msg string) {
	switch k {
	case kindInt:
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			return nil, fmt.Sprintf("want %s, got %s", k.want(), quoteShort(s))
		}
		return int(n), ""
	case kindBool:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Sprintf("want %s, got %s", k.want(), quoteShort(s))
		}
		return b, ""
	}
	return s, ""
}

// quoteShort quotes s for an error message, shortened when long.
func quoteShort(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

// nest turns {"voice.rate": 1} into {"voice": {"rate": 1}} for viper.
func nest(flat map[string]any) map[string]any {
	out := map[string]any{}
	for key, val := range flat {
		m := out
		parts := strings.Split(key, ".")
		for _, p := range parts[:len(parts)-1] {
			sub, ok := m[p].(map[string]any)
			if !ok {
				sub = map[string]any{}
				m[p] = sub
			}
			m = sub
		}
		m[parts[len(parts)-1]] = val
	}
	return out
}

// suggest returns the known key closest to an unknown one, or "".
func suggest(unknown string, known []string) string {
	last := unknown[strings.LastIndex(unknown, ".")+1:]
	best, bestDist := "", 1<<30
	for _, k := range known {
		if k[strings.LastIndex(k, ".")+1:] == last && strings.Contains(k, ".") != strings.Contains(unknown, ".") {
			return k // right name at the wrong level: "rate" for "voice.rate"
		}
		d := levenshtein(unknown, k)
		if len(unknown) >= 3 && strings.HasPrefix(k, unknown) {
			d = min(d, 2)
		}
		if d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	limit := 2
	if len(unknown) >= 8 {
		limit = 3
	}
	if bestDist <= limit {
		return best
	}
	return ""
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
