package dashboard

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tablecam/models"
)

// A session of another game shows that game's state table in the
// snapshot, and the page has the panel that shows it.
func TestOtherGameSnapshot(t *testing.T) {
	c := testContent(t)
	s := newSession(t, c)
	srv := newServer(t, Options{Session: s, Content: c, Output: recorder(func(models.Announcement) {})})
	h := srv.Handler()
	if srv.snapshot(false).Game != nil {
		t.Fatal("a fresh session shows another game")
	}
	for _, line := range []string{"setup warfare a vault b raiders", "initiative 7 4"} {
		if w := do(t, h, "POST", "/api/command", `{"line": "`+line+`"}`, nil); w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", line, w.Code, w.Body)
		}
	}
	var snap Snapshot
	if err := json.Unmarshal(do(t, h, "GET", "/api/state", "", nil).Body.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	if g := snap.Game; g == nil || g.ID != "warfare" || !strings.Contains(g.State, "vault against raiders") || !strings.Contains(g.State, "Attacker   vault") {
		t.Errorf("game view %+v", snap.Game)
	}
	page := do(t, h, "GET", "/", "", nil).Body.String()
	if !strings.Contains(page, `id="game-state"`) {
		t.Error("the page has no panel for another game's state")
	}
}

// In a browser, a game of This War of Mine shows its state table in place
// of the Fallout panels, without page errors.
func TestBrowserOtherGame(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("browser test skipped in -short mode")
	}
	chrome := findChromium(t)
	c := testContent(t)
	s := newSession(t, c)
	submitScript(t, c, s, "setup twom players 2 anna:4:2:3 bruno:7:1:2\nnext\nnext\nnext\nnext\nthirst bruno 3\n")
	srv := newServer(t, Options{Session: s, Content: c})
	base := serve(t, srv)
	ctx := newBrowser(t, chrome, 1280, 800)
	var perr pageErrors
	perr.watch(ctx)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.ID("game-state"))); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}
	if got := textOf(t, ctx, "#game-state"); !strings.Contains(got, "Day        1, step dusk.thirst") || !strings.Contains(got, "bruno") {
		t.Errorf("game panel shows %q", got)
	}
	if hidden, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.getElementById('board').hidden && document.getElementById('party').hidden`)); err != nil || !hidden {
		t.Errorf("the Fallout panels show for This War of Mine (hidden %v, %v)", hidden, err)
	}
	if path := os.Getenv(envScreenshot); path != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(path, ".png")+"-twom.png", png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if errs := perr.get(); len(errs) > 0 {
		t.Errorf("page errors: %v", errs)
	}
}
