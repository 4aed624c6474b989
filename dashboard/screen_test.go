package dashboard

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/draw"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tablecam/tracker"
)

// envShots names a directory to write the README's screenshots to
// (dashboard-1080p.png, dashboard-1280x800.png); unset: none.
const envShots = "TABLECAM_DASHBOARD_SHOTS"

// midGame is a round in progress: three survivors, enemies of both kinds
// on the map, a fight rolled with one reroll left.
const midGame = `setup capital-wasteland loyal brotherhood survivors carla:10:LI dan:12:SE ines:11:A first dan
enemy add super-mutant-1 with carla
enemy add creature-1 adjacent dan
enemy add enclave inactive
enemy add super-mutant-2 adjacent ines
fight carla e1 assist dan
roll head arms 2h assist hit-hurt
goal
card activation-1
round
test ines 1 A
roll torso head legs
done
fight dan e2 assist ines rerolls 1
roll arms torso legs assist hit
`

// tableFrame draws a stand-in for the plain camera picture of a table and
// the labels the recogniser gives it: three V.A.T.S. dice, the assist die
// and an enemy token with its sticker.
func tableFrame(w, h int) ([]byte, []FrameLabel) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), &image.Uniform{color.RGBA{58, 52, 44, 255}}, image.Point{}, draw.Src)
	rng := rand.New(rand.NewPCG(3, 9))
	for y := 0; y < h; y++ { // wood grain
		shade := uint8(rng.IntN(10))
		for x := 0; x < w; x++ {
			if (x+y/3)%37 < 2 {
				img.Set(x, y, color.RGBA{48 + shade, 42 + shade, 35 + shade, 255})
			}
		}
	}
	board := image.Rect(w/20, h/12, w*11/20, h*11/12) // a corner of the map
	draw.Draw(img, board, &image.Uniform{color.RGBA{92, 104, 78, 255}}, image.Point{}, draw.Src)
	for x := board.Min.X; x < board.Max.X; x += w / 10 {
		draw.Draw(img, image.Rect(x, board.Min.Y, x+2, board.Max.Y), &image.Uniform{color.RGBA{70, 80, 60, 255}}, image.Point{}, draw.Src)
	}
	s := h / 7
	var labels []FrameLabel
	die := func(cx, cy int, fill color.RGBA, text, kind string) {
		r := image.Rect(cx-s/2, cy-s/2, cx+s/2, cy+s/2)
		draw.Draw(img, r, &image.Uniform{fill}, image.Point{}, draw.Src)
		draw.Draw(img, r.Inset(s/3), &image.Uniform{color.RGBA{120, 60, 20, 255}}, image.Point{}, draw.Src)
		b := r.Inset(-6)
		labels = append(labels, FrameLabel{X: b.Min.X, Y: b.Min.Y, W: b.Dx(), H: b.Dy(), Text: text, Kind: kind})
	}
	die(w*64/100, h*30/100, color.RGBA{244, 208, 63, 255}, "arms", "die")
	die(w*85/100, h*42/100, color.RGBA{244, 208, 63, 255}, "torso", "die")
	die(w*68/100, h*66/100, color.RGBA{244, 208, 63, 255}, "legs", "uncertain")
	die(w*88/100, h*80/100, color.RGBA{230, 230, 230, 255}, "assist: hit", "die")
	tok := image.Rect(w*22/100, h*40/100, w*22/100+s*3/2, h*40/100+s*3/2)
	draw.Draw(img, tok, &image.Uniform{color.RGBA{150, 150, 150, 255}}, image.Point{}, draw.Src)
	draw.Draw(img, tok.Inset(s/4), &image.Uniform{color.RGBA{245, 245, 245, 255}}, image.Point{}, draw.Src)
	draw.Draw(img, tok.Inset(s/3), &image.Uniform{color.RGBA{20, 20, 20, 255}}, image.Point{}, draw.Src)
	b := tok.Inset(-6)
	labels = append(labels, FrameLabel{X: b.Min.X, Y: b.Min.Y, W: b.Dx(), H: b.Dy(), Text: "super-mutant-2", Kind: "card"})
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 85})
	return buf.Bytes(), labels
}

// essentialsJS measures the elements a group needs during a round: each
// selector must match, be drawn, lie inside the viewport and not be cut
// off by a scrolling panel. It returns {name: problem} for the failures.
const essentialsJS = `(() => {
  const want = {
    "latest announcement": "#latest-text",
    "power track": "#power-track",
    "power space": "#power-text",
    "roll context": "#pending .ctx",
    "roll dice": "#pending .dice",
    "odds": "#odds-p",
    "reroll advice": "#advice",
    "confirm": "#confirm",
    "camera view": "#camera-frame",
    "camera labels": "#camera-labels .cam-label",
    "enemies": "#enemy-list .enemy",
    "controls": "#controls",
    "set test": "#set-test",
    "set fight": "#set-fight",
    "next round": "#round-next",
    "undo": "#undo",
    "survivors": "#party-list .member",
  };
  const vw = window.innerWidth, vh = window.innerHeight;
  const bad = {};
  const inside = (r, l, t, rr, b) => r.left >= l - 0.5 && r.top >= t - 0.5 && r.right <= rr + 0.5 && r.bottom <= b + 0.5;
  for (const [name, sel] of Object.entries(want)) {
    const els = document.querySelectorAll(sel);
    if (!els.length) { bad[name] = "missing (" + sel + ")"; continue; }
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const where = sel + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
      if (r.width < 1 || r.height < 1) { bad[name] = "not shown: " + where; break; }
      if (!inside(r, 0, 0, vw, vh)) { bad[name] = "outside the " + vw + "x" + vh + " viewport: " + where; break; }
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
        const ar = a.getBoundingClientRect();
        const l = ar.left + a.clientLeft, t = ar.top + a.clientTop;
        if (!inside(r, l, t, l + a.clientWidth, t + a.clientHeight)) {
          bad[name] = "cut off by " + (a.id || a.className) + ": " + where;
          break;
        }
      }
      if (bad[name]) break;
    }
  }
  if (window.scrollY !== 0) bad["scroll"] = "page scrolled to " + window.scrollY;
  if (document.documentElement.scrollWidth > vw) bad["width"] = "page " + document.documentElement.scrollWidth + " px wide";
  return JSON.stringify(bad);
})()`

// On a 1080p screen and on a landscape tablet, one screen holds what a
// group needs during a round — the latest announcement, the power track,
// the roll with its odds, the camera with readable labels, the enemies and
// the controls — without scrolling.
func TestBrowserOneScreen(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser test skipped in -short mode")
	}
	chrome := findChromium(t)
	c := testContent(t)
	s := newSession(t, c)
	feed := &FrameBuffer{}
	frame, labels := tableFrame(1280, 720)
	feed.PutLabeled(frame, 1280, 720, labels)
	srv := newServer(t, Options{Session: s, Content: c, Frames: feed, Mute: func(bool) {}})
	for _, a := range submitScript(t, c, s, midGame) {
		must(t, srv.Announcer().Announce(context.Background(), a))
	}
	if p := srv.snapshot(false).Pending; p == nil || !p.Rolled || p.Advice == nil {
		t.Fatalf("the mid-game script leaves no rolled fight with advice: %+v", p)
	}
	base := serve(t, srv)
	for _, vp := range []struct {
		name   string
		w, h   int
		shot   string
		minPx  float64 // smallest camera label type
		minOdd float64 // smallest odds type
	}{
		{"1080p", 1920, 1080, "dashboard-1080p.png", 14, 48},
		{"tablet", 1280, 800, "dashboard-1280x800.png", 14, 48},
	} {
		t.Run(vp.name, func(t *testing.T) {
			ctx := newBrowser(t, chrome, vp.w, vp.h)
			var perr pageErrors
			perr.watch(ctx)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(vp.w), int64(vp.h)),
				chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#enemy-list .enemy"))); err != nil {
				t.Fatalf("open the dashboard: %v", err)
			}
			waitJS(t, ctx, "mid-game state and camera labels shown", `document.getElementById('conn').textContent === 'live' && !!document.getElementById('advice')
				&& document.querySelectorAll('#camera-labels .cam-label').length === 5
				&& (() => { const i = document.getElementById('camera-img'); return !!i && i.naturalWidth === 1280; })()`)
			// Let the camera panel settle on its size.
			must(t, chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)))
			js, err := chromedp.Run(ctx, chromedp.Evaluate[string](essentialsJS))
			if err != nil {
				t.Fatal(err)
			}
			var bad map[string]string
			must(t, json.Unmarshal([]byte(js), &bad))
			for name, why := range bad {
				t.Errorf("%s at %dx%d: %s", name, vp.w, vp.h, why)
			}
			sizes, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`[...document.querySelectorAll('#camera-labels .cam-label')].map((e) => parseFloat(getComputedStyle(e).fontSize))`))
			if err != nil {
				t.Fatal(err)
			}
			for _, px := range sizes {
				if px < vp.minPx {
					t.Errorf("a camera label is %.1f px at %dx%d, want ≥ %.0f", px, vp.w, vp.h, vp.minPx)
				}
			}
			t.Logf("%dx%d: camera labels %v px", vp.w, vp.h, sizes)
			odds, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`parseFloat(getComputedStyle(document.getElementById('odds-p')).fontSize)`))
			if err != nil || odds < vp.minOdd {
				t.Errorf("the odds are %.1f px (%v), want ≥ %.0f", odds, err, vp.minOdd)
			}
			// Enemies carry the names the announcements use, and the token
			// printed on them when it is known.
			var want []string
			for _, e := range srv.snapshot(false).Enemies {
				want = append(want, e.Name)
			}
			ids, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#enemy-list .enemy-id')].map((e) => e.textContent)`))
			if err != nil || strings.Join(ids, " ") != strings.Join(want, " ") {
				t.Errorf("enemy names on the page %q (%v), want %q", ids, err, want)
			}
			if tok := textOf(t, ctx, `#enemy-list .enemy[data-enemy="e4"] .enemy-token`); tok != "super-mutant-2" {
				t.Errorf("e4's token on the page %q, want super-mutant-2", tok)
			}
			if dir := os.Getenv(envShots); dir != "" {
				png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatalf("screenshot: %v", err)
				}
				must(t, os.WriteFile(filepath.Join(dir, vp.shot), png, 0o644))
			}
			for _, e := range perr.get() {
				t.Errorf("page error: %s", e)
			}
		})
	}
}

// A fresh session offers the setup form instead of the game, and the form
// starts the game with what was chosen: the setup event in the log.
func TestBrowserSetupForm(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser test skipped in -short mode")
	}
	chrome := findChromium(t)
	c := testContent(t)
	s := newSession(t, c)
	srv := newServer(t, Options{Session: s, Content: c})
	base := serve(t, srv)
	ctx := newBrowser(t, chrome, 1280, 800)
	var perr pageErrors
	perr.watch(ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("setup-form"))); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	waitJS(t, ctx, "scenarios offered", `document.querySelectorAll('#setup-scenario option').length === `+jsString(strings.Repeat("x", len(c.Scenarios)))+`.length`)
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('play').hidden`)); err != nil || !hidden {
		t.Errorf("the game panels show before a setup (hidden %v, %v)", hidden, err)
	}
	js, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const r = document.getElementById('setup-start').getBoundingClientRect();
		return r.bottom <= innerHeight && r.right <= innerWidth ? "" : "start button at " + r.bottom + " of " + innerHeight; })()`))
	if err != nil || js != "" {
		t.Errorf("the setup form does not fit 1280x800: %s %v", js, err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById('setup-scenario'); s.value = 'capital-wasteland'; s.dispatchEvent(new Event('change')); })()`),
		chromedp.Click(chromedp.CSS(`#setup-loyal input[value="enclave"]`)),
		chromedp.SendKeys(chromedp.CSS(`#setup-survivors .setup-row:nth-child(1) [name=name]`), "Carla"),
		chromedp.SendKeys(chromedp.CSS(`#setup-survivors .setup-row:nth-child(1) [name=hp]`), "10"),
		chromedp.SendKeys(chromedp.CSS(`#setup-survivors .setup-row:nth-child(1) [name=special]`), "li"),
		chromedp.SendKeys(chromedp.CSS(`#setup-survivors .setup-row:nth-child(2) [name=name]`), "Dan"),
		chromedp.Click(chromedp.CSS(`#setup-survivors .setup-row:nth-child(2) [name=first]`)),
	); err != nil {
		t.Fatalf("fill in the setup form: %v", err)
	}
	const want = "setup capital-wasteland loyal enclave survivors carla:10:LI dan first dan"
	if got := textOf(t, ctx, "#setup-preview"); got != want {
		t.Errorf("the form's command %q, want %q", got, want)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.ID("setup-start"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "setup submitted", `document.getElementById('setup').hidden || !document.getElementById('error').hidden`)
	if msg := textOf(t, ctx, "#error-text"); msg != "" {
		t.Fatalf("the setup form's command was refused: %s", msg)
	}
	waitJS(t, ctx, "game shown", `document.getElementById('setup').hidden && !document.getElementById('play').hidden && document.getElementById('round').textContent === '1'`)
	evs := s.Events()
	if len(evs) != 1 || evs[0].Event.Type != tracker.EvSetup || evs[0].Event.Setup == nil {
		t.Fatalf("events after the form: %+v", evs)
	}
	su := evs[0].Event.Setup
	if su.Scenario != "capital-wasteland" || su.Loyal != "enclave" || len(su.Survivors) != 2 || su.FirstPlayer != 1 ||
		su.Survivors[0].ID != "carla" || su.Survivors[0].MaxHP != 10 || su.Survivors[0].Special != "LI" ||
		su.Survivors[1].ID != "dan" || su.Survivors[1].MaxHP != 0 {
		t.Errorf("setup from the form: %+v", su)
	}
	if got := textOf(t, ctx, "#first"); got != "Dan" {
		t.Errorf("first player on the page %q, want Dan", got)
	}
	for _, e := range perr.get() {
		t.Errorf("page error: %s", e)
	}
}
