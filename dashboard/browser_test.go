package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"tablecam/models"
)

// Environment variables of the browser test.
const (
	// envScreenshot names a PNG file to write a full-page screenshot of the
	// dashboard to (e.g. /tmp/dashboard.png); unset: no screenshot.
	envScreenshot = "TABLECAM_DASHBOARD_SCREENSHOT"
	// envViewport is the browser's viewport as WIDTHxHEIGHT (default 1280x800,
	// a landscape tablet).
	envViewport = "TABLECAM_DASHBOARD_VIEWPORT"
)

// findChromium returns the path of the headless browser. Without one the
// test fails in CI (CI=true) and is skipped elsewhere.
func findChromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "the browser test needs Chromium, which is not installed: apt-get install -y --no-install-recommends chromium " +
		"(Debian package chromium; make test installs it through TEST_PKGS)"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// newBrowser starts headless Chromium with the flags this machine's closed
// network needs and a fresh profile; it is stopped when the test ends.
func newBrowser(t *testing.T, path string, width, height int) context.Context {
	t.Helper()
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
	})
	return ctx
}

// pageErrors collects uncaught exceptions and error-level log entries
// (content security policy violations among them) of the page.
type pageErrors struct {
	mu   sync.Mutex
	list []string
}

func (p *pageErrors) watch(ctx context.Context) {
	exc := chromedp.Events(ctx, runtime.ExceptionThrown)
	logs := chromedp.Events(ctx, log.EntryAdded)
	go func() {
		for ev, err := range exc {
			if err != nil {
				return
			}
			d := ev.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			p.add(fmt.Sprintf("exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
		}
	}()
	go func() {
		for ev, err := range logs {
			if err != nil {
				return
			}
			// The 422 of the command the test sends on purpose is expected.
			if e := ev.Entry; e != nil && e.Level == log.EntryLevelError &&
				!(e.Source == log.EntrySourceNetwork && strings.Contains(e.Text, "422") && strings.HasSuffix(e.URL, "/api/command")) {
				p.add(fmt.Sprintf("console %s error: %s (%s)", e.Source, e.Text, e.URL))
			}
		}
	}()
}

func (p *pageErrors) add(s string) {
	p.mu.Lock()
	p.list = append(p.list, s)
	p.mu.Unlock()
}

func (p *pageErrors) get() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.list...)
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// waitJS waits until the JavaScript expression is true.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("%s: waited 10 s for %s: %v", what, expr, err)
	}
}

func textOf(t *testing.T, ctx context.Context, css string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector(`+jsString(css)+`) || {}).textContent || ""`))
	if err != nil {
		t.Fatalf("text of %s: %v", css, err)
	}
	return s
}

// syntheticFrame draws a stand-in for an annotated camera frame: a table
// with three dice and the recogniser's boxes around them.
func syntheticFrame(w, h int, seed uint64) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{34, 74, 52, 255}}, image.Point{}, draw.Src)
	rng := rand.New(rand.NewPCG(seed, 7))
	for y := 0; y < h; y += 2 { // a little texture
		for x := 0; x < w; x += 2 {
			if rng.IntN(9) == 0 {
				img.Set(x, y, color.RGBA{44, 88, 62, 255})
			}
		}
	}
	box := func(r image.Rectangle, c color.Color, width int) {
		for i := 0; i < width; i++ {
			rr := r.Inset(-i)
			draw.Draw(img, image.Rect(rr.Min.X, rr.Min.Y, rr.Max.X, rr.Min.Y+1), &image.Uniform{c}, image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(rr.Min.X, rr.Max.Y-1, rr.Max.X, rr.Max.Y), &image.Uniform{c}, image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(rr.Min.X, rr.Min.Y, rr.Min.X+1, rr.Max.Y), &image.Uniform{c}, image.Point{}, draw.Src)
			draw.Draw(img, image.Rect(rr.Max.X-1, rr.Min.Y, rr.Max.X, rr.Max.Y), &image.Uniform{c}, image.Point{}, draw.Src)
		}
	}
	s := h / 6
	for i, x := range []int{w / 4, w / 2, 3 * w / 4} {
		y := h/2 + (i-1)*s/3
		die := image.Rect(x-s/2, y-s/2, x+s/2, y+s/2)
		draw.Draw(img, die, &image.Uniform{color.RGBA{244, 208, 63, 255}}, image.Point{}, draw.Src)
		draw.Draw(img, die.Inset(s/3), &image.Uniform{color.RGBA{120, 60, 20, 255}}, image.Point{}, draw.Src)
		box(die.Inset(-8), color.RGBA{0, 230, 255, 255}, 4)
		draw.Draw(img, image.Rect(die.Min.X-8, die.Min.Y-8-s/4, die.Max.X+8, die.Min.Y-8), &image.Uniform{color.RGBA{0, 230, 255, 255}}, image.Point{}, draw.Src)
	}
	var b bytes.Buffer
	_ = jpeg.Encode(&b, img, &jpeg.Options{Quality: 80})
	return b.Bytes()
}

func viewport(t *testing.T) (int, int) {
	t.Helper()
	v := os.Getenv(envViewport)
	if v == "" {
		return 1280, 800
	}
	ws, hs, ok := strings.Cut(v, "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 200 || h < 200 {
		t.Fatalf("%s=%q: want WIDTHxHEIGHT", envViewport, v)
	}
	return w, h
}

// A real browser shows the dashboard of a scripted game: announcements
// appear live, a correction made with the page's controls changes the
// displayed state, and the undo button takes it back.
func TestBrowserDashboard(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser test skipped in -short mode")
	}
	chrome := findChromium(t)
	c := testContent(t)
	s := newSession(t, c)
	frames := t.TempDir()
	feed := &FrameBuffer{}
	feed.Put(syntheticFrame(960, 540, 1))
	var muted atomic.Bool
	srv := newServer(t, Options{Session: s, Content: c, Frames: feed, FramesDir: frames, Mute: muted.Store})
	announce := func(script string) []models.Announcement {
		t.Helper()
		as := submitScript(t, c, s, script)
		for _, a := range as {
			must(t, srv.Announcer().Announce(context.Background(), a))
		}
		return as
	}
	// The game of testdata/games/won.events up to its correction: not over.
	announce(wonUntil(t, "correct"))
	base := serve(t, srv)

	w, h := viewport(t)
	ctx := newBrowser(t, chrome, w, h)
	var perr pageErrors
	perr.watch(ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#log-list .entry"))); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	waitJS(t, ctx, "state shown", `document.getElementById('round').textContent === '3' && document.getElementById('conn').textContent === 'live'`)
	if got := textOf(t, ctx, "#survivor-dan [data-stat=hp]"); got != "11/12" {
		t.Fatalf("Dan's HP on the page: %q, want 11/12", got)
	}

	// 1. An announcement made now appears in the page.
	as := announce("camps +1\n")
	start := time.Now()
	last := as[len(as)-1].Text
	waitJS(t, ctx, "live announcement", `document.getElementById('latest-text').textContent === `+jsString(last)+
		` && document.querySelector('#log-list .entry .entry-text').textContent === `+jsString(last)+
		` && document.getElementById('camps').textContent === '2'`)
	t.Logf("announcement → rendered in the browser: %v", time.Since(start))

	// 2. Correct reading 5 with the page's controls: the assist die showed
	// "hit", not "hit-hurt", so Dan was not hurt. The readings are a
	// details panel below the screen.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#rolls > summary`)),
		chromedp.Click(chromedp.CSS(`#roll-list .roll[data-seq="5"] button.correct`)),
		chromedp.WaitVisible(chromedp.CSS(`#correct-dialog[open] .pick-faces[data-die="3"]`)),
		chromedp.Click(chromedp.CSS(`#correct-dice .pick-faces[data-die="3"] button[data-face="hit"]`)),
		chromedp.Click(chromedp.ID("correct-apply")),
	); err != nil {
		t.Fatalf("correct through the dialog: %v", err)
	}
	waitJS(t, ctx, "correction shown", `document.querySelector('#survivor-dan [data-stat=hp]').textContent === '12/12'`)
	if hp := survivor(t, srv.snapshot(false), "dan").HP; hp != 12 {
		t.Errorf("the server's Dan has %d HP after the correction, want 12", hp)
	}
	if textOf(t, ctx, `#roll-list .roll[data-seq="5"] .face-assist`) != "A: one hit" {
		t.Errorf("reading 5 on the page: %q", textOf(t, ctx, `#roll-list .roll[data-seq="5"]`))
	}

	// 3. Undo takes the correction back.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("undo"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "undo shown", `document.querySelector('#survivor-dan [data-stat=hp]').textContent === '11/12'`)
	if hp := survivor(t, srv.snapshot(false), "dan").HP; hp != 11 {
		t.Errorf("the server's Dan has %d HP after undo, want 11", hp)
	}

	// 4. A refused command shows the tracker's error.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("command-line"), "done"),
		chromedp.Click(chromedp.CSS(`#command-form button[type=submit]`)),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "error shown", `!document.getElementById('error').hidden && document.getElementById('error-text').textContent.includes('no roll is waiting')`)

	// 5. Set a test with the controls, roll it: odds and reroll advice show.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.ID("test-survivor"), "dan"),
		chromedp.SetValue(chromedp.ID("test-difficulty"), "2"),
		chromedp.Click(chromedp.CSS(`#special button[data-letter="E"]`)),
		chromedp.Click(chromedp.ID("set-test")),
	); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "test context shown", `!!document.getElementById('odds-p') && document.querySelector('#pending .ctx').textContent.includes('Dan')`)
	p := srv.snapshot(false).Pending
	if p == nil || p.Kind != "test" || p.Difficulty != 2 || p.Special != "E" || p.Odds == nil {
		t.Fatalf("pending after the test control: %+v", p)
	}
	if got, want := textOf(t, ctx, "#odds-p"), pct(p.Odds.P); got != want {
		t.Errorf("odds on the page %q, want %q", got, want)
	}
	// Some earlier readings for the fairness panel, then the test's roll
	// with its frame.
	rng := rand.New(rand.NewPCG(42, 1))
	faces := []string{"head", "arms", "legs", "torso", "1h", "2h"}
	var script strings.Builder
	script.WriteString("nocontext\n")
	for i := range 11 {
		name := fmt.Sprintf("roll-%02d.jpg", i)
		must(t, os.WriteFile(filepath.Join(frames, name), syntheticFrame(320, 180, uint64(i+2)), 0o644))
		fmt.Fprintf(&script, "roll %s %s %s frame %s\n", faces[rng.IntN(6)], faces[rng.IntN(6)], faces[rng.IntN(6)], name)
	}
	fmt.Fprintf(&script, "test dan 2 E\nroll torso arms legs frame roll-10.jpg\n")
	announce(script.String())
	waitJS(t, ctx, "advice shown", `!!document.getElementById('advice') && document.getElementById('advice').textContent.includes('Reroll')`)
	waitJS(t, ctx, "fairness shown", `document.querySelector('#fairness .chi') !== null`)
	waitJS(t, ctx, "camera frame shown", `(() => { const i = document.getElementById('camera-img'); return !!i && i.naturalWidth === 960; })()`)

	// 6. Mute.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("mute"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "muted", `document.getElementById('mute').getAttribute('aria-pressed') === 'true'`)
	if !muted.Load() {
		t.Error("the mute button did not call Options.Mute")
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("mute"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "unmuted", `document.getElementById('mute').getAttribute('aria-pressed') === 'false'`)
	waitJS(t, ctx, "error cleared by a later command", `document.getElementById('error').hidden`)

	// Big type: the page's base font is at least 24 px.
	size, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`parseFloat(getComputedStyle(document.documentElement).fontSize)`))
	if err != nil || size < 24 {
		t.Errorf("base font size %v px (%v), want ≥ 24", size, err)
	}
	if path := os.Getenv(envScreenshot); path != "" {
		// Back to the top, so the sticky bar is drawn where it belongs.
		must(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(300*time.Millisecond)))
		view, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		must(t, os.WriteFile(path, png, 0o644))
		// What the table sees without scrolling.
		must(t, os.WriteFile(strings.TrimSuffix(path, ".png")+"-viewport.png", view, 0o644))
		t.Logf("screenshot (%dx%d viewport) written to %s", w, h, path)
	}
	for _, e := range perr.get() {
		t.Errorf("page error: %s", e)
	}
}

// pct formats a probability as the page does.
func pct(p float64) string {
	v := p * 100
	if v >= 99.95 || v < 0.05 {
		return strconv.FormatFloat(v, 'f', 0, 64) + "%"
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + "%"
}
