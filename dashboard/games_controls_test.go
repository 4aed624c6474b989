package dashboard

import (
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tablecam/models"
)

// The panel of another game offers the lines that fit its state as
// buttons (tracker's Game.Suggested): This War of Mine's Journal step.
func TestOtherGameControls(t *testing.T) {
	c := testContent(t)
	s := newSession(t, c)
	submitScript(t, c, s, "setup twom players 1 anna:4 bruno:7\nnext\nnext\nnext\nnext\n")
	srv := newServer(t, Options{Session: s, Content: c, Output: recorder(func(models.Announcement) {})})
	g := srv.snapshot(false).Game
	if g == nil || !slices.Contains(g.Controls, "thirst bruno") || !slices.Contains(g.Controls, "next") {
		t.Errorf("controls at dusk: %+v", g)
	}
}

// In a browser, the buttons of This War of Mine's panel send their lines:
// "next" moves the Journal on, and the buttons follow the new step.
func TestBrowserOtherGameControls(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser test skipped in -short mode")
	}
	chrome := findChromium(t)
	c := testContent(t)
	s := newSession(t, c)
	submitScript(t, c, s, "setup twom players 2 anna:4:2:3 bruno:7:1:2\n")
	srv := newServer(t, Options{Session: s, Content: c})
	base := serve(t, srv)
	ctx := newBrowser(t, chrome, 1280, 800)
	var perr pageErrors
	perr.watch(ctx)
	next := `#game-controls button[data-line="next"]`
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS(next)), chromedp.Click(chromedp.CSS(next))); err != nil {
		t.Fatalf("open the dashboard and press next: %v", err)
	}
	waitJS(t, ctx, "the day's first action", `document.getElementById('game-state').textContent.includes('step day.action1')`)
	waitJS(t, ctx, "the lockpick button", `!!document.querySelector('#game-controls button[data-line="lockpick"]')`)
	if got := textOf(t, ctx, "#game-controls"); !strings.Contains(got, "lockpick") || !strings.Contains(got, "next") {
		t.Errorf("buttons %q at the day's first action", got)
	}
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('set-test').closest('.control-group').hidden &&
		document.getElementById('set-fight').closest('.control-group').hidden && !document.getElementById('command-form').hidden`)); err != nil || !hidden {
		t.Errorf("Fallout's test and fight controls show for This War of Mine, or the command line does not (%v, %v)", hidden, err)
	}
	if s.Game().Twom.Current().ID != "day.action1" {
		t.Errorf("the session is at %s", s.Game().Twom.Current().ID)
	}
	if errs := perr.get(); len(errs) > 0 {
		t.Errorf("page errors: %v", errs)
	}
}

// Fallout: Warfare's endturn button sends "endturn" without a reading: at
// day and in darkness the turn ends at once, with no d10 asked for; at dawn
// and dusk the camera's d10 is awaited, as the light's rules say (seed 002
// ch. 6 "Livello di Luce").
func TestWarfareEndTurnButton(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct {
		light string
		rolls bool
	}{{"day", false}, {"darkness", false}, {"dawn", true}, {"dusk", true}} {
		s := newSession(t, c)
		var said []string
		srv := newServer(t, Options{Session: s, Content: c, Output: recorder(func(a models.Announcement) { said = append(said, a.Text) })})
		h := srv.Handler()
		if w := do(t, h, "POST", "/api/command", `{"line": "setup warfare light `+tc.light+`"}`, nil); w.Code != http.StatusOK {
			t.Fatalf("setup: %d %s", w.Code, w.Body)
		}
		g := srv.snapshot(false).Game
		if g == nil || !slices.Contains(g.Controls, "endturn") {
			t.Fatalf("%s: no endturn button in %+v", tc.light, g)
		}
		if w := do(t, h, "POST", "/api/command", `{"line": "endturn"}`, nil); w.Code != http.StatusOK {
			t.Fatalf("%s: endturn: %d %s", tc.light, w.Code, w.Body)
		}
		waiting := s.Game().Pending != nil
		turn := s.Game().Warfare.Turn
		asked := slices.ContainsFunc(said, func(x string) bool { return strings.Contains(x, "Roll the d10") })
		if waiting != tc.rolls || asked != tc.rolls || (turn == 2) == tc.rolls {
			t.Errorf("%s: endturn waits for a d10 %v, asks for one %v, turn %d; want a roll %v (said %q)", tc.light, waiting, asked, turn, tc.rolls, said)
		}
	}
}

// Fallout: Warfare's smoke button is offered only while smoke clouds are on
// the table (seed 002 ch. 4 "Fumo": a d10 for each cloud on the table), and
// goes when the last one clears.
func TestWarfareSmokeButton(t *testing.T) {
	c := testContent(t)
	s := newSession(t, c)
	submitScript(t, c, s, "setup warfare a vault b raiders\n")
	srv := newServer(t, Options{Session: s, Content: c, Output: recorder(func(models.Announcement) {})})
	if g := srv.snapshot(false).Game; g == nil || slices.Contains(g.Controls, "smoke") {
		t.Fatalf("controls without smoke: %+v", g)
	}
	submitScript(t, c, s, "clouds 1\n")
	if g := srv.snapshot(false).Game; g == nil || !slices.Contains(g.Controls, "smoke") || !strings.Contains(g.State, "clouds on the table: 1") {
		t.Fatalf("controls with a cloud: %+v", g)
	}
	submitScript(t, c, s, "smoke 7\n")
	if g := srv.snapshot(false).Game; g == nil || slices.Contains(g.Controls, "smoke") {
		t.Errorf("controls once the cloud cleared: %+v", g)
	}
}
