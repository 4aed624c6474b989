package dashboard

import (
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
