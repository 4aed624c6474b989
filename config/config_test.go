package config

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// isolate gives the test an empty working directory, user config directory
// and home, and no TABLECAM_* variables; it returns the home directory.
func isolate(t *testing.T) string {
	t.Helper()
	t.Chdir(t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "TABLECAM_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	return home
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// wantErr fails unless err's text contains every part.
func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

func TestRootConfigIsTheEmbeddedDefault(t *testing.T) {
	root, err := os.ReadFile("../config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(root, DefaultYAML()) {
		t.Fatal("../config.yaml differs from config/config.yaml: copy config/config.yaml to the repository root")
	}
}

func TestEveryKeyIsDocumented(t *testing.T) {
	sc, err := parseSchema()
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.order) < 18 {
		t.Fatalf("only %d keys: %v", len(sc.order), sc.order)
	}
	for _, key := range sc.order {
		if sc.keys[key].doc == "" {
			t.Errorf("key %q has no comment in config.yaml", key)
		}
	}
}

func TestDefaultsWhenNoFile(t *testing.T) {
	home := isolate(t)
	cfg, src, err := Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != FromDefaults || src.Path != "" {
		t.Errorf("source = %+v, want embedded defaults", src)
	}
	dataDir := filepath.Join(home, ".local/share/tablecam")
	want := Config{
		Language: "en", DataDir: dataDir, ContentDir: "",
		Session:   Session{DB: filepath.Join(dataDir, "tablecam.db")},
		Voice:     Voice{Enabled: true, Engine: "espeak-ng", Rate: 160, VoiceEN: "en", VoiceDE: "de"},
		Output:    Output{JSON: false},
		Log:       Log{Level: "info"},
		Camera:    Camera{Device: "0", Width: 1280, Height: 720, FPS: 30},
		Vision:    Vision{SettleFrames: 3, DiceSets: "vats,assist", DiceReader: "tuned", CardFrames: 8, OpenCVThreads: 1},
		Dashboard: Dashboard{Addr: "127.0.0.1:8080"},
		Rules:     Rules{DeckEmpty: ""},
	}
	if cfg != want {
		t.Errorf("defaults:\n got %+v\nwant %+v", cfg, want)
	}
}

func TestFileLookupOrder(t *testing.T) {
	isolate(t)
	userFile := filepath.Join(os.Getenv("XDG_CONFIG_HOME"), "tablecam", "config.yaml")
	writeFile(t, userFile, "language: de\n")

	cfg, src, err := Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != FromUserConfig || src.Path != userFile || cfg.Language != "de" {
		t.Errorf("user config: source %+v, language %q", src, cfg.Language)
	}

	writeFile(t, "config.yaml", "log:\n  level: debug\n")
	cfg, src, err = Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != FromWorkDir || cfg.Log.Level != "debug" || cfg.Language != "en" {
		t.Errorf("work dir: source %+v, level %q, language %q", src, cfg.Log.Level, cfg.Language)
	}

	writeFile(t, "other.yaml", "camera:\n  fps: 15\n")
	cfg, src, err = Load(nil, "other.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if src.Kind != FromExplicit || src.Path != "other.yaml" || cfg.Camera.FPS != 15 || cfg.Log.Level != "info" {
		t.Errorf("explicit: source %+v, fps %d, level %q", src, cfg.Camera.FPS, cfg.Log.Level)
	}
}

func TestMissingExplicitFileIsAnError(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", "language: de\n") // must not be used instead
	_, src, err := Load(nil, "nope/tablecam.yaml")
	wantErr(t, err, "nope/tablecam.yaml", "does not exist")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v is not fs.ErrNotExist", err)
	}
	if src.Kind != FromExplicit {
		t.Errorf("source = %+v", src)
	}
}

func TestPrecedence(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", "language: de\nvoice:\n  rate: 120\n  engine: espeak\ncamera:\n  fps: 15\n  width: 640\n")
	t.Setenv("TABLECAM_VOICE_RATE", "200")
	t.Setenv("TABLECAM_CAMERA_FPS", "24")
	t.Setenv("TABLECAM_LOG_LEVEL", "") // empty counts as unset

	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	fs.Int("camera.width", 0, "a flag named exactly like its key")
	if err := fs.Parse([]string{"--voice-rate=300", "--camera.width=800"}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Load(fs, "")
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		key       string
		got, want any
	}{
		{"voice.rate (flag over env over file)", cfg.Voice.Rate, 300},
		{"camera.width (flag named like the key)", cfg.Camera.Width, 800},
		{"camera.fps (env over file)", cfg.Camera.FPS, 24},
		{"language (file over default)", cfg.Language, "de"},
		{"voice.engine (file; unchanged flag default ignored)", cfg.Voice.Engine, "espeak"},
		{"log.level (default; empty env ignored)", cfg.Log.Level, "info"},
		{"camera.height (default)", cfg.Camera.Height, 720},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.key, c.got, c.want)
		}
	}
}

func TestEnvOverride(t *testing.T) {
	isolate(t)
	t.Setenv("TABLECAM_VOICE_ENABLED", "false")
	t.Setenv("TABLECAM_DATA_DIR", "~/games")
	t.Setenv("TABLECAM_SESSION_DB", "/var/lib/t.db")
	t.Setenv("TABLECAM_VOICE_VOICE_DE", "de+f3")
	t.Setenv("TABLECAM_OUTPUT_JSON", "1")
	cfg, _, err := Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	if cfg.Voice.Enabled || !cfg.Output.JSON || cfg.Voice.VoiceDE != "de+f3" ||
		cfg.DataDir != filepath.Join(home, "games") || cfg.Session.DB != "/var/lib/t.db" {
		t.Errorf("env not applied: %+v", cfg)
	}
}

func TestEnvWrongTypeNamesTheVariable(t *testing.T) {
	isolate(t)
	t.Setenv("TABLECAM_CAMERA_FPS", "fast")
	t.Setenv("TABLECAM_VOICE_ENABLED", "yes")
	_, _, err := Load(nil, "")
	wantErr(t, err,
		`environment variable TABLECAM_CAMERA_FPS: key "camera.fps": want an integer, got "fast"`,
		`environment variable TABLECAM_VOICE_ENABLED: key "voice.enabled": want true or false, got "yes"`)
}

func TestFlagOverride(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", "voice:\n  enabled: true\n  rate: 120\n")
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	fs.String("config", "", "config file") // not a key: ignored
	if err := fs.Parse([]string{"--voice-enabled=false", "--camera-device", "/dev/video2", "--config", "x", "--rules-deck-empty", "stop"}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Load(fs, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Voice.Enabled || cfg.Camera.Device != "/dev/video2" || cfg.Rules.DeckEmpty != "stop" {
		t.Errorf("flags not applied: %+v", cfg)
	}
	if cfg.Voice.Rate != 120 {
		t.Errorf("unset flag --voice-rate overrode the file: rate %d", cfg.Voice.Rate)
	}
}

func TestFlagWrongTypeNamesTheFlag(t *testing.T) {
	isolate(t)
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	fs.String("camera-fps", "", "declared as a string by the caller")
	if err := fs.Parse([]string{"--camera-fps=fast"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(fs, "")
	wantErr(t, err, `flag --camera-fps: key "camera.fps": want an integer, got "fast"`)
}

func TestUnknownKeyNamesFileAndLine(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", "# my settings\nlanguage: de\n\nvoice:\n  enabled: true\n\n  rat: 120\nlang: en\nrate: 100\nvoyce:\n  rate: 100\n")
	_, _, err := Load(nil, "")
	wantErr(t, err,
		`config.yaml:7: unknown key "voice.rat" (did you mean "voice.rate"?)`,
		`config.yaml:8: unknown key "lang" (did you mean "language"?)`,
		`config.yaml:9: unknown key "rate" (did you mean "voice.rate"?)`,
		`config.yaml:10: unknown key "voyce" (did you mean "voice"?)`)
	var ce *Error
	if !errors.As(err, &ce) || ce.Where != "config.yaml" || ce.Line != 7 || ce.Key != "voice.rat" {
		t.Errorf("first *Error = %+v", ce)
	}
}

func TestWrongTypeNamesFileAndLine(t *testing.T) {
	cases := []struct{ name, file, want string }{
		{"int", "language: en\ncamera:\n  fps: fast\n", `config.yaml:3: key "camera.fps": want an integer, got "fast"`},
		{"float for int", "camera:\n  fps: 29.97\n", `config.yaml:2: key "camera.fps": want an integer, got 29.97`},
		{"bool", "voice:\n  enabled: yes\n", `config.yaml:2: key "voice.enabled": want true or false, got "yes"`},
		{"list for string", "language: [en, de]\n", `config.yaml:1: key "language": want a string, got a list`},
		{"bool for string", "camera:\n  device: true\n", `config.yaml:2: key "camera.device": want a string, got true (quote it: "true")`},
		{"null for string", "content_dir:\n", `config.yaml:1: key "content_dir": want a string, got nothing (write "" for an empty string)`},
		{"scalar for section", "voice: off\n", `config.yaml:1: key "voice": want a mapping of voice.* keys, got "off"`},
		{"twice", "language: en\nlanguage: de\n", `config.yaml:2: key "language" is set twice (first on line 1)`},
		{"syntax", "language: en\ncamera:\n  fps: 30\n fps: 20\n", `config.yaml:3: did not find expected key`},
		{"not a mapping", "- language\n", `config.yaml:1: want a mapping of keys`},
		{"two documents", "language: en\n---\nlanguage: de\n", `config.yaml:2: only one YAML document is allowed`},
		{"merge key", "base: &b {rate: 100}\n", `config.yaml:1: unknown key "base"`},
		{"value", "language: fr\n", `config.yaml:1: key "language": want one of "en", "de", got "fr"`},
		{"range", "camera:\n  width: 640\n  fps: 0\n", `config.yaml:3: key "camera.fps": want 1 to 1000, got 0`},
		{"addr", "dashboard:\n  addr: localhost\n", `config.yaml:2: key "dashboard.addr": want host:port`},
		{"crop", "camera:\n  crop: 10,10,20\n", `config.yaml:2: key "camera.crop": want x0,y0,x1,y1`},
		{"dice sets", "vision:\n  dice_sets: \" , \"\n", `config.yaml:2: key "vision.dice_sets": want set names`},
		{"dice reader", "vision:\n  settle_frames: 3\n  dice_reader: neural\n", `config.yaml:3: key "vision.dice_reader"`},
		{"threads", "vision:\n  card_frames: 8\n  opencv_threads: -1\n", `config.yaml:3: key "vision.opencv_threads": want 0 to 64, got -1`},
		{"deck", "rules:\n  deck_empty: burn\n", `config.yaml:2: key "rules.deck_empty": want one of "", "reshuffle", "stop", got "burn"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			isolate(t)
			writeFile(t, "config.yaml", c.file)
			_, _, err := Load(nil, "")
			wantErr(t, err, c.want)
		})
	}
}

func TestValueErrorNamesEnvAndFlag(t *testing.T) {
	isolate(t)
	t.Setenv("TABLECAM_LANGUAGE", "fr")
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	RegisterFlags(fs)
	if err := fs.Parse([]string{"--log-level=loud"}); err != nil {
		t.Fatal(err)
	}
	_, _, err := Load(fs, "")
	wantErr(t, err,
		`environment variable TABLECAM_LANGUAGE: key "language": want one of "en", "de", got "fr"`,
		`flag --log-level: key "log.level": want one of "debug", "info", "warn", "error", got "loud"`)
}

func TestLenientButExactValues(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", `
defaults: &d
camera:
  device: 0           # unquoted index is still the string "0"
  fps: "25"           # quoted integer
  width: 0x280        # YAML hex integer: 640
voice:
  enabled: "false"
vision:
session:              # section with every key commented out
`)
	_, _, err := Load(nil, "")
	wantErr(t, err, `config.yaml:2: unknown key "defaults"`)

	writeFile(t, "config.yaml", "camera:\n  device: 0\n  fps: \"25\"\n  width: 0x280\nvoice:\n  enabled: \"false\"\nvision:\n")
	cfg, _, err := Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Camera.Device != "0" || cfg.Camera.FPS != 25 || cfg.Camera.Width != 640 || cfg.Voice.Enabled || cfg.Vision.SettleFrames != 3 {
		t.Errorf("got %+v", cfg)
	}
}

func TestEmptyFileMeansDefaults(t *testing.T) {
	for _, text := range []string{"", "# nothing set\n", "---\n"} {
		isolate(t)
		writeFile(t, "config.yaml", text)
		cfg, src, err := Load(nil, "")
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if src.Kind != FromWorkDir || cfg.Language != "en" {
			t.Errorf("%q: source %+v, language %q", text, src, cfg.Language)
		}
	}
}

func TestAliases(t *testing.T) {
	isolate(t)
	writeFile(t, "config.yaml", "voice:\n  voice_en: &v en-gb\n  voice_de: *v\n")
	cfg, _, err := Load(nil, "")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Voice.VoiceDE != "en-gb" || cfg.Voice.Voices()["de"] != "en-gb" {
		t.Errorf("alias not followed: %+v", cfg.Voice)
	}
}

func TestNames(t *testing.T) {
	if got := EnvName("voice.voice_en"); got != "TABLECAM_VOICE_VOICE_EN" {
		t.Errorf("EnvName = %q", got)
	}
	if got := FlagName("vision.settle_frames"); got != "vision-settle-frames" {
		t.Errorf("FlagName = %q", got)
	}
	keys := Keys()
	if len(keys) == 0 || keys[0] != "language" {
		t.Errorf("Keys() = %v", keys)
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	RegisterFlags(fs)
	if f := fs.Lookup("voice-rate"); f == nil || f.DefValue != "160" || f.Value.Type() != "int" || f.Usage == "" {
		t.Errorf("--voice-rate = %+v", f)
	}
}

// FuzzConfig feeds arbitrary bytes as a config file: Load must not panic,
// every error must say something, and a config it accepts must be valid.
func FuzzConfig(f *testing.F) {
	f.Add(DefaultYAML())
	for _, s := range []string{
		"", "language: de\n", "voice:\n  rat: 5\n", "camera:\n  fps: fast\n", "[1, 2]\n",
		"a: &a [*a]\n", "voice: &v\n  rate: 100\nlog: *v\n", "<<: {language: de}\n",
		"language: en\n---\nx: 1\n", "camera: {fps: 0x1e, width: \"640\"}\n", "\t:\n",
		"voice:\n  enabled: 1\n", "data_dir: ~\n", "rules: {deck_empty: stop}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := load("fuzz.yaml", data, nil)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatal("empty error text")
			}
			var joined interface{ Unwrap() []error }
			if errors.As(err, &joined) {
				for _, e := range joined.Unwrap() {
					if strings.TrimSpace(e.Error()) == "" {
						t.Fatalf("empty error text in %q", err)
					}
				}
			}
			return
		}
		if cfg.Language != "en" && cfg.Language != "de" || cfg.Camera.FPS < 1 || cfg.Voice.Rate < 80 || cfg.DataDir == "" {
			t.Fatalf("accepted an invalid config: %+v", cfg)
		}
	})
}

// A broken config file is an *Error holding the file, the line and the
// dotted key: of a wrong value, and the line of a syntax error.
func TestBrokenFileErrorHoldsKeyAndLine(t *testing.T) {
	for _, tc := range []struct {
		file string
		line int
		key  string
	}{
		{"language: en\nvoice:\n  enabled: true\n  rate: fast\n", 4, "voice.rate"},
		{"camera:\n  fps: 30\n  crop: [1, 2]\n", 3, "camera.crop"},
		{"language: en\nvoice:\n  rate: [\n", 3, ""},
	} {
		isolate(t)
		writeFile(t, "config.yaml", tc.file)
		_, _, err := Load(nil, "")
		var ce *Error
		if !errors.As(err, &ce) || ce.Where != "config.yaml" || ce.Line != tc.line || ce.Key != tc.key {
			t.Errorf("%q: %v (%+v), want line %d key %q", tc.file, err, ce, tc.line, tc.key)
		}
	}
}
