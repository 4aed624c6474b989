package announce

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"tablecam/models"
)

// VoiceOptions configures a [Voice]. The zero value speaks with espeak-ng.
type VoiceOptions struct {
	// Engine is the speech program, a name looked up in PATH or a path; it is
	// called like espeak-ng: -v VOICE -s RATE [-w FILE] --stdin. Default "espeak-ng".
	Engine string
	// Rate is the speaking rate in words per minute (-s). Default 160.
	Rate int
	// Voices maps an announcement's Lang to the engine voice (-v). A language
	// missing here is passed as the voice name itself; an empty Lang is "en".
	// Default {"en": "en", "de": "de"}.
	Voices map[string]string
	// QueueSize bounds the announcements waiting to be spoken; when the queue
	// is full the oldest waiting one is dropped. Default 8.
	QueueSize int
	// WAVDir, when set, makes the voice write each announcement to a WAV file
	// in this directory (espeak-ng -w) instead of playing it: 000001.wav,
	// 000002.wav, … in the order spoken, numbered on after the files an
	// earlier run left there, which are never overwritten. The directory is
	// created if needed.
	WAVDir string
	// Logger receives the voice's diagnostics. Default slog.Default().
	Logger *slog.Logger
	// Notice, if set, receives the sentence telling the user that the voice
	// is off or failing (once); otherwise it is logged as a warning.
	Notice func(string)
	// Started, if set, is called from the voice's worker when the engine
	// process for an announcement has started (for latency figures).
	Started func(a models.Announcement, at time.Time)
}

// Voice speaks announcements through espeak-ng. Announce only queues: one
// worker goroutine speaks the queue in order, so a slow or missing audio
// device never holds up the caller. Problems while speaking (no sound
// device, a failing engine) are logged once as a warning, then at debug
// level, and never returned: text output goes on without speech.
type Voice struct {
	opts   VoiceOptions
	engine string // resolved engine path; "" when the voice is disabled
	log    *slog.Logger

	ctx    context.Context // lives until Close
	cancel context.CancelFunc
	wake   chan struct{} // a job was queued
	done   chan struct{} // closed when the worker has stopped

	mu         sync.Mutex
	queue      []voiceJob
	busy       bool          // the worker is speaking
	idle       chan struct{} // closed while nothing is queued or being spoken
	idleClosed bool
	closed     bool
	wavSeq     int
	warned     bool
	dropped    int64
	spoken     int64
	failed     int64
}

type voiceJob struct {
	ctx context.Context
	a   models.Announcement
}

// NewVoice returns a Voice. When the engine is not installed it returns a
// disabled voice, whose Announce does nothing, and logs one warning saying
// how to install it.
func NewVoice(opts VoiceOptions) *Voice {
	if opts.Engine == "" {
		opts.Engine = "espeak-ng"
	}
	if opts.Rate <= 0 {
		opts.Rate = 160
	}
	if opts.Voices == nil {
		opts.Voices = map[string]string{"en": "en", "de": "de"}
	}
	if opts.QueueSize <= 0 {
		opts.QueueSize = 8
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	idle := make(chan struct{})
	close(idle)
	v := &Voice{opts: opts, log: opts.Logger, idle: idle, idleClosed: true}
	if opts.WAVDir != "" {
		v.wavSeq = lastWAV(opts.WAVDir)
	}
	path, err := exec.LookPath(opts.Engine)
	if err != nil {
		v.notice(fmt.Sprintf("There is no voice: %s is not installed (install it with `apt-get install espeak-ng`). Announcements go on as text.", opts.Engine), "")
		return v
	}
	v.engine = path
	v.ctx, v.cancel = context.WithCancel(context.Background())
	v.wake = make(chan struct{}, 1)
	v.done = make(chan struct{})
	go v.run()
	return v
}

// Enabled reports whether the voice can speak (its engine was found).
func (v *Voice) Enabled() bool { return v.engine != "" }

// Announce queues a to be spoken and returns at once. ctx covers the whole
// life of the announcement: cancelled before a is spoken, a is skipped;
// cancelled while a is spoken, speech stops. Pass a context that lives as
// long as the speech should. Announcements without text are ignored.
func (v *Voice) Announce(ctx context.Context, a models.Announcement) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.closed {
		return ErrClosed
	}
	if v.engine == "" || strings.TrimSpace(a.Text) == "" {
		return nil
	}
	if len(v.queue) >= v.opts.QueueSize {
		v.log.Debug("voice: queue full, dropping the oldest announcement", "kind", v.queue[0].a.Kind, "seq", v.queue[0].a.Seq)
		v.queue[0] = voiceJob{}
		v.queue = v.queue[1:]
		v.dropped++
	}
	v.queue = append(v.queue, voiceJob{ctx: ctx, a: a})
	if v.idleClosed {
		v.idle = make(chan struct{})
		v.idleClosed = false
	}
	select {
	case v.wake <- struct{}{}:
	default:
	}
	return nil
}

// Flush waits until every announcement queued so far has been spoken,
// skipped or dropped, or until ctx is done.
func (v *Voice) Flush(ctx context.Context) error {
	v.mu.Lock()
	idle := v.idle
	v.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops speech at once: the announcement being spoken is cut off and
// the queued ones are discarded. It waits for the worker to stop.
func (v *Voice) Close() error {
	v.mu.Lock()
	if v.closed {
		v.mu.Unlock()
		return nil
	}
	v.closed = true
	v.queue = nil
	v.mu.Unlock()
	if v.cancel != nil {
		v.cancel()
		<-v.done
	}
	v.mu.Lock()
	v.busy = false
	v.settle()
	v.mu.Unlock()
	return nil
}

// Dropped returns how many announcements were dropped because the queue was full.
func (v *Voice) Dropped() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.dropped
}

// Spoken returns how many announcements the engine spoke (or wrote) without a problem.
func (v *Voice) Spoken() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.spoken
}

// Failed returns how many announcements the engine could not speak.
func (v *Voice) Failed() int64 {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.failed
}

// settle marks the voice idle when nothing is queued or spoken; v.mu is held.
func (v *Voice) settle() {
	if len(v.queue) == 0 && !v.busy && !v.idleClosed {
		close(v.idle)
		v.idleClosed = true
	}
}

// run is the worker: it speaks queued announcements one at a time.
func (v *Voice) run() {
	defer close(v.done)
	for {
		v.mu.Lock()
		for len(v.queue) == 0 {
			v.mu.Unlock()
			select {
			case <-v.wake:
			case <-v.ctx.Done():
				return
			}
			v.mu.Lock()
		}
		job := v.queue[0]
		v.queue[0] = voiceJob{}
		v.queue = v.queue[1:]
		v.busy = true
		v.mu.Unlock()

		problem, audio := v.speak(job)

		v.mu.Lock()
		v.busy = false
		switch {
		case problem == "":
			v.spoken++
		case problem != "cancelled":
			v.failed++
			if !v.warned {
				v.warned = true
				msg := "The voice stopped: " + filepath.Base(v.engine) + " failed. Announcements go on as text."
				if audio {
					msg = "There is no sound: " + filepath.Base(v.engine) + " found no audio output (is a sound device connected?). Announcements go on as text."
				}
				v.notice(msg, problem)
			} else {
				v.log.Debug("voice: could not speak", "problem", problem, "kind", job.a.Kind)
			}
		}
		v.settle()
		v.mu.Unlock()
	}
}

// speak runs the engine for one announcement. It returns "" on success,
// "cancelled" when the job's or the voice's context ended, or what went
// wrong; audio is true when the problem is the audio output.
func (v *Voice) speak(job voiceJob) (problem string, audio bool) {
	text := strings.Join(strings.Fields(job.a.Text), " ")
	words := len(strings.Fields(text))
	expected := time.Duration(float64(words) / float64(v.opts.Rate) * float64(time.Minute))
	ctx, cancel := context.WithTimeout(v.ctx, 10*time.Second+3*expected)
	defer cancel()
	stop := context.AfterFunc(job.ctx, cancel)
	defer stop()
	if ctx.Err() != nil {
		return "cancelled", false
	}

	args := []string{"-v", v.voiceFor(job.a.Lang), "-s", strconv.Itoa(v.opts.Rate)}
	wav := ""
	if v.opts.WAVDir != "" {
		if err := os.MkdirAll(v.opts.WAVDir, 0o755); err != nil {
			return err.Error(), false
		}
		v.mu.Lock()
		v.wavSeq++
		wav = filepath.Join(v.opts.WAVDir, fmt.Sprintf("%06d.wav", v.wavSeq))
		v.mu.Unlock()
		args = append(args, "-w", wav)
	}
	args = append(args, "--stdin")

	cmd := exec.CommandContext(ctx, v.engine, args...)
	cmd.Stdin = strings.NewReader(text)
	stderr := &capBuffer{max: 4096}
	cmd.Stderr = stderr
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Start()
	if err == nil {
		if v.opts.Started != nil {
			v.opts.Started(job.a, time.Now())
		}
		err = cmd.Wait()
	}

	if job.ctx.Err() != nil || v.ctx.Err() != nil {
		return "cancelled", false
	}
	detail := lastLine(stderr.String())
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "timed out", false
	case err != nil:
		if detail != "" {
			return fmt.Sprintf("%v: %s", err, detail), false
		}
		return err.Error(), false
	case wav != "":
		if fi, err := os.Stat(wav); err != nil || fi.Size() <= 44 {
			return "no WAV data written to " + wav, false
		}
	case audioTrouble(stderr.String()):
		// espeak-ng exits 0 when it cannot open an audio device; it only
		// says so on stderr ("ALSA lib ... Unknown PCM default",
		// "error: No such file or directory").
		return detail, true
	}
	return "", false
}

// voiceFor returns the engine voice for a language code.
func (v *Voice) voiceFor(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if lang == "" {
		lang = "en"
	}
	if name := v.opts.Voices[lang]; name != "" {
		return name
	}
	return lang
}

// audioTrouble reports whether espeak-ng's stderr says audio output failed.
func audioTrouble(stderr string) bool {
	s := strings.ToLower(stderr)
	return strings.Contains(s, "alsa lib") || strings.Contains(s, "error")
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// capBuffer keeps the first max bytes written to it.
type capBuffer struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (b *capBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (b *capBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// notice tells the user about the voice once, as a sentence; problem is the
// engine's own words, for the log.
func (v *Voice) notice(msg, problem string) {
	if v.opts.Notice != nil {
		v.opts.Notice(msg)
		if problem != "" {
			v.log.Debug("voice problem", "problem", problem)
		}
		return
	}
	if problem != "" {
		v.log.Warn(msg, "problem", problem)
		return
	}
	v.log.Warn(msg)
}

// lastWAV is the highest number of a NNNNNN.wav file in dir (0 for none).
func lastWAV(dir string) int {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	last := 0
	for _, e := range ents {
		name := e.Name()
		if len(name) != 10 || !strings.HasSuffix(name, ".wav") {
			continue
		}
		if n, err := strconv.Atoi(name[:6]); err == nil && n > last {
			last = n
		}
	}
	return last
}
