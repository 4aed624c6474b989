package announce

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tablecam/models"
)

// logCapture returns a logger writing text records into a buffer.
func logCapture() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

func countWarnings(log string) int { return strings.Count(log, "level=WARN") }

// script writes an executable shell script standing in for espeak-ng.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-espeak")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func flush(t *testing.T, v *Voice) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := v.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

func say(lang, text string) models.Announcement {
	return models.Announcement{Kind: "test.result", Text: text, Lang: lang}
}

func TestVoiceMissingEngineWarnsOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{Logger: log})
	defer v.Close()
	if v.Enabled() {
		t.Fatal("voice enabled without espeak-ng")
	}
	for range 3 {
		if err := v.Announce(context.Background(), say("en", "two hits")); err != nil {
			t.Fatalf("Announce on a disabled voice: %v", err)
		}
	}
	flush(t, v)
	want := "There is no voice: espeak-ng is not installed (install it with `apt-get install espeak-ng`). Announcements go on as text."
	if countWarnings(buf.String()) != 1 || !strings.Contains(buf.String(), want) {
		t.Errorf("log = %q, want one warning %q", buf.String(), want)
	}
}

func TestVoiceCallsEngineWithVoiceRateAndStdin(t *testing.T) {
	dir := t.TempDir()
	engine := script(t, `printf '%s ' "$@" >> `+dir+`/args; echo >> `+dir+`/args; cat >> `+dir+`/text; echo >> `+dir+`/text`)
	v := NewVoice(VoiceOptions{Engine: engine, Rate: 140, Voices: map[string]string{"en": "en-gb", "de": "de"}})
	defer v.Close()
	ctx := context.Background()
	v.Announce(ctx, say("en", "-v two hits"))
	v.Announce(ctx, say("de", "zwei Treffer"))
	v.Announce(ctx, say("fr", "deux"))
	v.Announce(ctx, say("", ""))
	flush(t, v)
	args, _ := os.ReadFile(dir + "/args")
	text, _ := os.ReadFile(dir + "/text")
	wantArgs := "-v en-gb -s 140 --stdin \n-v de -s 140 --stdin \n-v fr -s 140 --stdin \n"
	if string(args) != wantArgs || string(text) != "-v two hits\nzwei Treffer\ndeux\n" {
		t.Errorf("args %q text %q", args, text)
	}
	if v.Spoken() != 3 || v.Failed() != 0 {
		t.Errorf("spoken %d failed %d", v.Spoken(), v.Failed())
	}
}

func TestVoiceWithoutAudioDeviceFailsSoftly(t *testing.T) {
	// What espeak-ng 1.51 does on a machine without a sound card: exit 0,
	// complain on stderr.
	engine := script(t, `cat >/dev/null
echo "ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM default" >&2
echo "error: No such file or directory" >&2
exit 0`)
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{Engine: engine, Logger: log})
	defer v.Close()
	for range 3 {
		if err := v.Announce(context.Background(), say("en", "two hits")); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, v)
	if countWarnings(buf.String()) != 1 || !strings.Contains(buf.String(), "found no audio output") {
		t.Errorf("want one 'no audio output' warning, log = %q", buf.String())
	}
	if v.Failed() != 3 || v.Spoken() != 0 {
		t.Errorf("failed %d spoken %d", v.Failed(), v.Spoken())
	}
}

func TestVoiceEngineErrorFailsSoftly(t *testing.T) {
	engine := script(t, `cat >/dev/null; echo "Error: The specified espeak-ng voice does not exist." >&2; exit 1`)
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{Engine: engine, Logger: log})
	defer v.Close()
	v.Announce(context.Background(), say("en", "a"))
	v.Announce(context.Background(), say("en", "b"))
	flush(t, v)
	if countWarnings(buf.String()) != 1 || !strings.Contains(buf.String(), "voice does not exist") {
		t.Errorf("log = %q", buf.String())
	}
}

func TestVoiceQueueDropsOldestAndNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	engine := script(t, `text=$(cat)
echo "$text" >> `+dir+`/started
while [ ! -e `+dir+`/gate ]; do sleep 0.02; done
echo "$text" >> `+dir+`/spoken`)
	v := NewVoice(VoiceOptions{Engine: engine, QueueSize: 3})
	defer v.Close()
	ctx := context.Background()
	v.Announce(ctx, say("en", "one"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, _ := os.ReadFile(dir + "/started"); string(b) == "one\n" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("engine never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	start := time.Now()
	for _, s := range []string{"two", "three", "four", "five", "six"} {
		if err := v.Announce(ctx, say("en", s)); err != nil {
			t.Fatal(err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Announce blocked for %v while the engine was busy", d)
	}
	if v.Dropped() != 2 {
		t.Errorf("dropped %d, want 2", v.Dropped())
	}
	os.WriteFile(dir+"/gate", nil, 0o644)
	flush(t, v)
	spoken, _ := os.ReadFile(dir + "/spoken")
	if string(spoken) != "one\nfour\nfive\nsix\n" {
		t.Errorf("spoken %q, want one four five six", spoken)
	}
}

func TestVoiceContextCancelsSpeech(t *testing.T) {
	engine := script(t, `exec sleep 30`)
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{Engine: engine, Logger: log})
	defer v.Close()
	ctx, cancel := context.WithCancel(context.Background())
	v.Announce(ctx, say("en", "a long speech"))
	v.Announce(ctx, say("en", "never spoken"))
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cancel()
	flush(t, v)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancel took %v", d)
	}
	if v.Failed() != 0 || countWarnings(buf.String()) != 0 {
		t.Errorf("cancellation counted as failure: failed %d, log %q", v.Failed(), buf.String())
	}
	if err := v.Announce(ctx, say("en", "x")); err == nil {
		t.Error("Announce with a cancelled ctx returned nil")
	}
}

func TestVoiceCloseStopsAtOnce(t *testing.T) {
	v := NewVoice(VoiceOptions{Engine: script(t, `exec sleep 30`)})
	v.Announce(context.Background(), say("en", "a"))
	v.Announce(context.Background(), say("en", "b"))
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := v.Close(); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
	flush(t, v)
	if err := v.Announce(context.Background(), say("en", "c")); err != ErrClosed {
		t.Errorf("Announce after Close: %v", err)
	}
	if err := v.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func needEspeak(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("espeak-ng"); err != nil {
		t.Skip("espeak-ng is not installed (make deps installs it)")
	}
}

func TestEspeakWritesWAV(t *testing.T) {
	needEspeak(t)
	dir := filepath.Join(t.TempDir(), "wav")
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{WAVDir: dir, Logger: log})
	defer v.Close()
	v.Announce(context.Background(), say("en", "Two hits. Difficulty two passed."))
	v.Announce(context.Background(), say("de", "Zwei Treffer. Probe bestanden."))
	flush(t, v)
	for _, name := range []string{"000001.wav", "000002.wav"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() <= 44 {
			t.Errorf("%s has %d bytes: no speech", name, fi.Size())
		}
	}
	if v.Spoken() != 2 || v.Failed() != 0 {
		t.Errorf("spoken %d failed %d, log %q", v.Spoken(), v.Failed(), buf.String())
	}
}

func TestEspeakPlaybackNeverErrors(t *testing.T) {
	needEspeak(t)
	log, buf := logCapture()
	v := NewVoice(VoiceOptions{Logger: log})
	defer v.Close()
	for range 2 {
		if err := v.Announce(context.Background(), say("en", "hello")); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, v)
	// With a sound device both are spoken; without one (CI) both fail softly
	// with a single warning.
	if v.Spoken()+v.Failed() != 2 || countWarnings(buf.String()) > 1 {
		t.Errorf("spoken %d failed %d log %q", v.Spoken(), v.Failed(), buf.String())
	}
	t.Logf("spoken %d, failed %d; log: %s", v.Spoken(), v.Failed(), buf.String())
}

// With Notice set, the user gets one plain sentence, not a log record.
func TestVoiceNoticeIsASentence(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	log, buf := logCapture()
	var notices []string
	v := NewVoice(VoiceOptions{Logger: log, Notice: func(s string) { notices = append(notices, s) }})
	defer v.Close()
	v.Announce(context.Background(), say("en", "two hits"))
	flush(t, v)
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "There is no voice: ") || !strings.HasSuffix(notices[0], ".") {
		t.Errorf("notices %q", notices)
	}
	if countWarnings(buf.String()) != 0 {
		t.Errorf("also logged: %q", buf.String())
	}
}

// WAV files of an earlier run are never overwritten: numbering goes on
// after the highest one in the folder.
func TestVoiceWAVNumberingGoesOn(t *testing.T) {
	dir := t.TempDir()
	engine := script(t, `cat >/dev/null; while [ "$1" != "" ]; do if [ "$1" = "-w" ]; then head -c 100 /dev/zero > "$2"; fi; shift; done`)
	for _, name := range []string{"000001.wav", "000007.wav"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("earlier"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := NewVoice(VoiceOptions{Engine: engine, WAVDir: dir})
	v.Announce(context.Background(), say("en", "a"))
	v.Announce(context.Background(), say("en", "b"))
	flush(t, v)
	v.Close()
	for _, name := range []string{"000001.wav", "000007.wav"} {
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != "earlier" {
			t.Errorf("%s was overwritten", name)
		}
	}
	for _, name := range []string{"000008.wav", "000009.wav"} {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() != 100 {
			t.Errorf("%s: %v", name, err)
		}
	}
}
