package tracker

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tablecam/engine"
	"tablecam/models"
)

// historySession is a live session plus helpers for the history tests.
type historySession struct {
	t  *testing.T
	c  *models.Content
	st *Store
	s  *Session
}

func newHistorySession(t *testing.T) *historySession {
	t.Helper()
	c := testContent(t)
	st, s := newSession(t, c, "en")
	return &historySession{t: t, c: c, st: st, s: s}
}

// submit parses and submits one line.
func (h *historySession) submit(line string) ([]models.Announcement, error) {
	h.t.Helper()
	ev, ok, err := ParseLine(h.c, line)
	if err != nil || !ok {
		h.t.Fatalf("%q: parse: ok %v, %v", line, ok, err)
	}
	return h.s.Submit(context.Background(), ev)
}

func (h *historySession) must(lines ...string) []models.Announcement {
	h.t.Helper()
	var all []models.Announcement
	for _, l := range lines {
		as, err := h.submit(l)
		if err != nil {
			h.t.Fatalf("%q: %v", l, err)
		}
		all = append(all, as...)
	}
	return all
}

func (h *historySession) count() int {
	h.t.Helper()
	n, err := h.st.Count(context.Background(), h.s.ID())
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

func (h *historySession) survivor(id string) engine.SurvivorState {
	h.t.Helper()
	g := h.s.Game()
	i := g.State.Survivor(id)
	if i < 0 {
		h.t.Fatalf("no survivor %q", id)
	}
	return g.State.Survivors[i]
}

// checkReplay asserts that the live state equals a clean replay of the log
// and a reopened session.
func (h *historySession) checkReplay() {
	h.t.Helper()
	live := canonJSON(h.s.Game())
	if r := canonJSON(Replay(h.c, h.s.Events())); r != live {
		h.t.Fatalf("live state differs from a clean replay: %s", jsonDiff(live, r))
	}
	cat, _ := NewCatalog("en")
	again, err := OpenSession(context.Background(), h.st, h.c, cat, h.s.ID(), "")
	if err != nil {
		h.t.Fatal(err)
	}
	if r := canonJSON(again.Game()); r != live {
		h.t.Fatalf("live state differs from the reopened session: %s", jsonDiff(live, r))
	}
}

// rejects asserts that line is rejected, stores nothing and changes nothing.
func (h *historySession) rejects(line, wantErr string) {
	h.t.Helper()
	before, n := gameJSON(h.s.Game()), h.count()
	_, err := h.submit(line)
	if err == nil || !strings.Contains(err.Error(), wantErr) {
		h.t.Fatalf("%q: error %v, want one containing %q", line, err, wantErr)
	}
	if h.count() != n {
		h.t.Fatalf("%q was rejected but stored", line)
	}
	if gameJSON(h.s.Game()) != before {
		h.t.Fatalf("%q was rejected but changed the game", line)
	}
}

// mentions reports whether an undo/redo announcement's description and
// sentence name every word.
func mentions(a models.Announcement, words ...string) bool {
	what, _ := a.Data["what"].(string)
	for _, w := range words {
		if !slices.Contains(strings.Fields(what), w) || !strings.Contains(a.Text, w) {
			return false
		}
	}
	return true
}

func kinds(as []models.Announcement) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Kind
	}
	return out
}

func find(as []models.Announcement, kind string) (models.Announcement, bool) {
	for _, a := range as {
		if a.Kind == kind {
			return a, true
		}
	}
	return models.Announcement{}, false
}

const histSetup = "setup commonwealth loyal railroad survivors alice bob"

func TestUndoLastEvent(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup)
	before := gameJSON(h.s.Game())
	h.must("xp alice +3")
	if xp := h.survivor("alice").XP; xp != 3 {
		t.Fatalf("alice XP %d, want 3", xp)
	}
	as := h.must("undo")
	if h.count() != 3 {
		t.Fatalf("store holds %d events, want 3 (undo is an event)", h.count())
	}
	a, ok := find(as, KindUndo)
	if !ok || a.Data["type"] != EvAdjust || !mentions(a, "alice", "xp", "+3") {
		t.Fatalf("announcements %v, want %s of the adjust event", as, KindUndo)
	}
	if _, ok := find(as, KindRecomputed); !ok {
		t.Errorf("no %s announcement: %v", KindRecomputed, kinds(as))
	}
	if as[0].Seq != 3 {
		t.Errorf("undo announced with seq %d, want 3", as[0].Seq)
	}
	if got := gameJSON(h.s.Game()); got != before {
		t.Fatalf("after undo: %s", jsonDiff(got, before))
	}
	h.checkReplay()
}

func TestUndoTwice(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup)
	before := gameJSON(h.s.Game())
	h.must("xp alice +3", "caps bob +2")
	as := h.must("undo")
	if a, _ := find(as, KindUndo); a.Data["type"] != EvAdjust || !mentions(a, "bob", "caps", "+2") {
		t.Fatalf("first undo: %v, want it to take back the caps", as)
	}
	if s := h.survivor("bob"); s.Caps != 0 || h.survivor("alice").XP != 3 {
		t.Fatalf("after one undo: bob caps %d alice XP %d, want 0 and 3", s.Caps, h.survivor("alice").XP)
	}
	as = h.must("undo")
	if a, _ := find(as, KindUndo); !mentions(a, "alice", "xp", "+3") {
		t.Fatalf("second undo: %v, want it to take back the XP", as)
	}
	if got := gameJSON(h.s.Game()); got != before {
		t.Fatalf("after two undos: %s", jsonDiff(got, before))
	}
	if h.count() != 5 {
		t.Fatalf("store holds %d events, want 5", h.count())
	}
	h.checkReplay()
}

func TestRedo(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "xp alice +3", "caps bob +2")
	after := gameJSON(h.s.Game())
	h.must("undo", "undo")
	as := h.must("redo")
	if a, ok := find(as, KindRedo); !ok || !mentions(a, "alice", "xp", "+3") {
		t.Fatalf("first redo: %v, want the XP restored first", as)
	}
	if h.survivor("alice").XP != 3 || h.survivor("bob").Caps != 0 {
		t.Fatal("after one redo: want alice XP 3, bob caps 0")
	}
	as = h.must("redo")
	if a, ok := find(as, KindRedo); !ok || !mentions(a, "bob", "caps", "+2") {
		t.Fatalf("second redo: %v", as)
	}
	if got := gameJSON(h.s.Game()); got != after {
		t.Fatalf("after redo: %s", jsonDiff(got, after))
	}
	if h.count() != 7 {
		t.Fatalf("store holds %d events, want 7", h.count())
	}
	// Nothing left to redo.
	n := h.count()
	as = h.must("redo")
	if !slices.Equal(kinds(as), []string{KindNothingRedo}) || h.count() != n {
		t.Fatalf("third redo: %v, %d events stored (want %s and nothing stored)", kinds(as), h.count()-n, KindNothingRedo)
	}
	h.checkReplay()
}

func TestNewEventAfterUndoClearsRedo(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "xp alice +3", "undo", "caps bob +1")
	state, n := gameJSON(h.s.Game()), h.count()
	as := h.must("redo")
	if !slices.Equal(kinds(as), []string{KindNothingRedo}) {
		t.Fatalf("redo after a new event: %v, want only %s", kinds(as), KindNothingRedo)
	}
	if h.count() != n || gameJSON(h.s.Game()) != state {
		t.Fatal("a redo with nothing to redo stored an event or changed the game")
	}
	if h.survivor("alice").XP != 0 || h.survivor("bob").Caps != 1 {
		t.Fatal("want alice XP 0 (undone, not redoable) and bob caps 1")
	}
	// The new event itself is undoable, and redoable again.
	h.must("undo")
	if h.survivor("bob").Caps != 0 {
		t.Fatal("undo after the new event: want bob caps 0")
	}
	h.must("redo")
	if h.survivor("bob").Caps != 1 || h.survivor("alice").XP != 0 {
		t.Fatal("redo: want bob caps 1 and alice XP still 0")
	}
	h.checkReplay()
}

func TestNothingToUndoOrRedo(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			c := testContent(t)
			st, s := newSession(t, c, lang)
			ctx := context.Background()
			for _, tc := range []struct {
				ev   Event
				kind string
			}{{Event{Type: EvUndo}, KindNothingUndo}, {Event{Type: EvRedo}, KindNothingRedo}} {
				as, err := s.Submit(ctx, tc.ev)
				if err != nil {
					t.Fatalf("%s on an empty session: %v", tc.ev.Type, err)
				}
				if len(as) != 1 || as[0].Kind != tc.kind || as[0].Seq != 0 || as[0].Text == "" {
					t.Fatalf("%s on an empty session: %+v, want one %s with seq 0", tc.ev.Type, as, tc.kind)
				}
				if n, _ := st.Count(ctx, s.ID()); n != 0 {
					t.Fatalf("%s with nothing to do stored %d events", tc.ev.Type, n)
				}
			}
			// After undoing everything there is nothing more to undo.
			if _, err := s.Submit(ctx, Event{Type: EvSetup, Setup: &engine.Setup{Scenario: "commonwealth", Loyal: "railroad",
				Survivors: []models.Survivor{{ID: "alice"}}}}); err != nil {
				t.Fatal(err)
			}
			if as, err := s.Submit(ctx, Event{Type: EvUndo}); err != nil || as[0].Kind != KindUndo {
				t.Fatalf("undo of the setup: %v %v", as, err)
			}
			if s.Game().Started {
				t.Fatal("the setup was undone but the game is still started")
			}
			as, err := s.Submit(ctx, Event{Type: EvUndo})
			if err != nil || len(as) != 1 || as[0].Kind != KindNothingUndo {
				t.Fatalf("undo with everything undone: %v %v", as, err)
			}
			if n, _ := st.Count(ctx, s.ID()); n != 2 {
				t.Fatalf("store holds %d events, want 2", n)
			}
		})
	}
}

// A fight roll corrected from a miss to a kill: the kill, its XP and caps
// and the replacement token are recomputed; the later events stay applied.
func TestCorrectionTurnsFightIntoKill(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-1 with alice", // 2: e1, level 1, vulnerable head+legs, caps
		"fight alice e1",                // 3
		"roll torso arms",               // 4: no vulnerable region: survives
		"xp bob +2",                     // 5
		"goal",                          // 6
		"round",                         // 7
	)
	g := h.s.Game()
	if a := h.survivor("alice"); a.XP != 0 || len(g.State.Enemies) != 1 || g.State.Enemies[0].ID != "e1" {
		t.Fatalf("before the correction: alice XP %d, enemies %+v", a.XP, g.State.Enemies)
	}
	n := h.count()
	as := h.must("correct 4 head torso")
	if h.count() != n+1 {
		t.Fatalf("the correction stored %d events, want 1", h.count()-n)
	}
	if as[0].Kind != KindCorrect || as[0].Seq != int64(n+1) {
		t.Fatalf("first announcement %+v, want %s with seq %d", as[0], KindCorrect, n+1)
	}
	for _, k := range []string{engine.KindFightKilled, engine.KindFightReplace, KindRecomputed} {
		if _, ok := find(as, k); !ok {
			t.Errorf("correction announcements %v lack %s", kinds(as), k)
		}
	}
	g = h.s.Game()
	alice, bob := h.survivor("alice"), h.survivor("bob")
	// The head shows 1 hit: level 1 deals 1 damage; the kill gives XP 1 and
	// (caps ability) 1 cap.
	if alice.XP != 1 || alice.Caps != 1 || alice.HP() != alice.MaxHP-1 {
		t.Errorf("alice XP %d caps %d HP %d/%d, want 1, 1, %d", alice.XP, alice.Caps, alice.HP(), alice.MaxHP, alice.MaxHP-1)
	}
	if len(g.State.Enemies) != 1 || g.State.Enemies[0].ID != "e1.2" || g.State.Enemies[0].Active {
		t.Errorf("enemies %+v, want only the facedown replacement e1.2", g.State.Enemies)
	}
	if bob.XP != 2 || g.State.Goals != 1 || g.State.Round != 2 {
		t.Errorf("later events: bob XP %d goals %d round %d, want 2, 1, 2", bob.XP, g.State.Goals, g.State.Round)
	}
	// The roll trail shows the corrected reading under the original seq.
	if r := g.Rolls[len(g.Rolls)-1]; r.Seq != 4 || !slices.Equal(r.Faces, []string{"head", "torso"}) {
		t.Errorf("roll record %+v, want seq 4 with the corrected faces", r)
	}
	h.checkReplay()
}

func TestCorrectionOfTestRoll(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "test alice 1", "roll torso arms", "xp alice +1") // 3: 0 hits, failed
	as := h.must("correct 3 head arms")
	a, ok := find(as, engine.KindTestResult)
	if !ok || a.Data["passed"] != true || a.Data["hits"] != 1 {
		t.Fatalf("correction announcements %+v, want a passed %s", as, engine.KindTestResult)
	}
	if h.survivor("alice").XP != 1 {
		t.Fatal("the later XP adjustment was lost")
	}
	h.checkReplay()
}

func TestCorrectionErrors(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"xp alice +1",                 // 2
		"test alice 1 rerolls 1",      // 3
		"roll torso arms",             // 4
		"reroll 2:head",               // 5: one die rerolled
		"roll d6 3 4",                 // 6: no context, a numeric roll
		"enemy add raider-1 with bob", // 7
		"roll head",                   // 8
		"undo",                        // 9: undoes 8
	)
	h.rejects("correct 1 head", "not a roll")
	h.rejects("correct 2 head", "not a roll")
	h.rejects("correct 99 head", "no roll 99 in force")
	h.rejects("correct 9 head", "no roll 9 in force")   // the undo itself
	h.rejects("correct 8 head", "no roll 8 in force")   // undone
	h.rejects("correct 4 elbow", `has no face "elbow"`) // not a face
	h.rejects("correct 5 head legs", "give 1 faces")    // a reroll keeps its dice count
	h.rejects("correct 6 head", `has no face "head"`)   // the d6 roll takes d6 faces
	h.rejects("correct 4 head assist elbow", `has no face "elbow"`)
	// Valid ones are accepted.
	h.must("correct 6 6 6", "correct 5 legs")
	h.checkReplay()
}

// A correction that makes a later event invalid does not fail: the event is
// reported as skipped, and undoing the correction restores the original.
func TestCorrectionSkipsInvalidatedEventAndUndoRestores(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-1 with alice",    // 2: e1
		"fight alice e1",                   // 3
		"roll head legs",                   // 4: killed, replacement e1.2
		"enemy place e1.2 with bob active", // 5: only valid after the kill
		"xp bob +1",                        // 6
	)
	original := gameJSON(h.s.Game())
	if a := h.survivor("alice"); a.XP != 1 {
		t.Fatalf("alice XP %d after the kill, want 1", a.XP)
	}
	n := h.count()
	as, err := h.submit("correct 4 torso arms") // no kill: e1.2 never exists
	if err != nil {
		t.Fatalf("a correction that invalidates a later event failed: %v", err)
	}
	if h.count() != n+1 {
		t.Fatal("the correction was not stored")
	}
	sk, ok := find(as, KindSkipped)
	if !ok || sk.Data["seq"] != int64(5) || !strings.Contains(sk.Text, "Event 5 no longer applies") {
		t.Fatalf("announcements %+v, want %s for event 5", as, KindSkipped)
	}
	g := h.s.Game()
	if a := h.survivor("alice"); a.XP != 0 || len(g.State.Enemies) != 1 || g.State.Enemies[0].ID != "e1" {
		t.Fatalf("after the correction: alice XP %d, enemies %+v; want 0 and e1 only", a.XP, g.State.Enemies)
	}
	if h.survivor("bob").XP != 1 {
		t.Fatal("the valid later event was lost")
	}
	h.checkReplay()

	// Undo of the correction: the original reading and its consequences.
	as = h.must("undo")
	if a, _ := find(as, KindUndo); a.Data["type"] != EvCorrect {
		t.Fatalf("undo announced %+v, want the correction undone", as)
	}
	if got := gameJSON(h.s.Game()); got != original {
		t.Fatalf("after undoing the correction: %s", jsonDiff(got, original))
	}
	h.checkReplay()
	// Redo re-applies it.
	h.must("redo")
	if h.survivor("alice").XP != 0 {
		t.Fatal("redo of the correction: want alice XP 0")
	}
	h.checkReplay()
}

// The latest of two corrections of the same roll wins; undoing it brings
// back the first correction.
func TestTwoCorrectionsOfOneRoll(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "enemy add raider-1 with alice", "fight alice e1", "roll torso arms") // 4
	h.must("correct 4 head head")                                                           // kill: XP 1
	h.must("correct 4 arms arms")                                                           // no kill
	if h.survivor("alice").XP != 0 {
		t.Fatal("the second correction should win: want alice XP 0")
	}
	h.must("undo")
	if h.survivor("alice").XP != 1 {
		t.Fatal("undoing the second correction should restore the first: want alice XP 1")
	}
	h.checkReplay()
}

// ---------------------------------------------------------------------------
// Message catalogs.

// catalogKinds lists every outcome kind of engine/outcome.go and the tracker
// kinds of game.go.
var catalogKinds = []string{
	engine.KindSetup, engine.KindTestResult, engine.KindTestPending, engine.KindRollFaces,
	engine.KindFightEnemy, engine.KindFightSurvivor, engine.KindFightKilled, engine.KindFightSurvived,
	engine.KindFightRetreat, engine.KindFightDiscarded, engine.KindFightReplace,
	engine.KindAssistHurt, engine.KindAssistXP,
	engine.KindDamage, engine.KindRads, engine.KindHeal, engine.KindXP, engine.KindCaps,
	engine.KindMutation, engine.KindKilled, engine.KindRespawn, engine.KindOut,
	engine.KindActivationCard, engine.KindActivateType, engine.KindEnemyAttack, engine.KindEnemyMoveTo,
	engine.KindEnemyAggressive, engine.KindAttackDropped,
	engine.KindEnemyMove, engine.KindEnemyIdle, engine.KindEnemyFlip, engine.KindLoyalIcon,
	engine.KindOpposingIcon, engine.KindActivationRow,
	engine.KindDeckReshuffled, engine.KindDeckEmpty, engine.KindDeckRedrawn,
	engine.KindPower, engine.KindPowerRetreat, engine.KindLoyalPlus,
	engine.KindGoal, engine.KindGoalsReached, engine.KindGoalSurplus,
	engine.KindGameLost, engine.KindGameWon, engine.KindRound, engine.KindFirstPlayer, engine.KindCamps,
	engine.KindEnemyAdded, engine.KindEnemyRemoved, engine.KindEnemyCount, engine.KindEnemyPlaced,
	engine.KindPowerSet, engine.KindGoalsSet,

	KindFightPending, KindFightPrompt, KindContextTest, KindContextFight, KindContextClear,
	KindUndo, KindRedo, KindNothingUndo, KindNothingRedo, KindCorrect, KindNoted, KindSkipped,
	KindRecomputed, KindRestedUsed, KindUncertain,
}

func catalogsByLang(t *testing.T) map[string]*Catalog {
	t.Helper()
	out := map[string]*Catalog{}
	for _, lang := range Languages() {
		cat, err := NewCatalog(lang)
		if err != nil {
			t.Fatal(err)
		}
		out[lang] = cat
	}
	return out
}

func TestCatalogsHaveTheSameKinds(t *testing.T) {
	cats := catalogsByLang(t)
	en, de := cats["en"], cats["de"]
	if en == nil || de == nil {
		t.Fatalf("languages %v, want en and de", Languages())
	}
	for _, k := range en.Kinds() {
		if !de.Has(k) {
			t.Errorf("kind %q has an English sentence but no German one", k)
		}
	}
	for _, k := range de.Kinds() {
		if !en.Has(k) {
			t.Errorf("kind %q has a German sentence but no English one", k)
		}
	}
	if !slices.Equal(en.Kinds(), de.Kinds()) {
		t.Errorf("kinds differ:\nen %v\nde %v", en.Kinds(), de.Kinds())
	}
}

func TestCatalogsCoverEveryOutcomeKind(t *testing.T) {
	if len(catalogKinds) != len(uniq(catalogKinds)) {
		t.Fatal("catalogKinds lists a kind twice (two constants with one value?)")
	}
	for lang, cat := range catalogsByLang(t) {
		for _, k := range catalogKinds {
			if !cat.Has(k) {
				t.Errorf("catalog %s has no sentence for %q", lang, k)
			}
		}
	}
}

// TestCatalogsCoverDeclaredKinds finds the Kind* constants in the source, so
// a kind added later without a sentence (or to catalogKinds) is caught.
func TestCatalogsCoverDeclaredKinds(t *testing.T) {
	declared := map[string]string{} // value -> constant
	for _, file := range []string{filepath.Join("..", "engine", "outcome.go"), "game.go"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if !strings.HasPrefix(name.Name, "Kind") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					declared[v] = file + ": " + name.Name
				}
			}
		}
	}
	if len(declared) < 60 {
		t.Fatalf("found only %d Kind constants; did the source layout change?", len(declared))
	}
	cats := catalogsByLang(t)
	for v, name := range declared {
		if !slices.Contains(catalogKinds, v) {
			t.Errorf("%s = %q is not in catalogKinds", name, v)
		}
		for lang, cat := range cats {
			if !cat.Has(v) {
				t.Errorf("catalog %s has no sentence for %s = %q", lang, name, v)
			}
		}
	}
}

func uniq(xs []string) []string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return slices.Compact(s)
}

// Every template renders without panicking, with no Vars at all as well as
// an empty map; the result is a non-empty line.
func TestCatalogRendersZeroVars(t *testing.T) {
	for lang, cat := range catalogsByLang(t) {
		for _, k := range cat.Kinds() {
			for _, o := range []engine.Outcome{{Kind: k}, {Kind: k, Vars: engine.Vars{}}} {
				var text string
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s %s: rendering panicked: %v", lang, k, r)
						}
					}()
					text = cat.Text(o)
					as := cat.Announce(0, []engine.Outcome{o})
					if len(as) != 1 || as[0].Text != text || as[0].Kind != k || as[0].Lang != lang {
						t.Errorf("%s %s: Announce gave %+v", lang, k, as)
					}
				}()
				if strings.TrimSpace(text) == "" {
					t.Errorf("%s %s: empty sentence", lang, k)
				}
			}
		}
	}
}

// TestRegression_CatalogZeroVarsRendersNoValue: the templates are parsed with
// missingkey=zero, but for a map[string]any a missing key still prints
// "<no value>" (the zero value of an interface is nil); and a template that
// compares a missing value (gt .left 0) fails and Text falls back to the
// debug form "kind map[]".
func TestRegression_CatalogZeroVarsRendersNoValue(t *testing.T) {
	var bad []string
	for _, lang := range Languages() {
		cat, _ := NewCatalog(lang)
		for _, k := range cat.Kinds() {
			text := cat.Text(engine.Outcome{Kind: k})
			if strings.Contains(text, "<no value>") || strings.Contains(text, "<nil>") || strings.HasPrefix(text, k+" map[") {
				bad = append(bad, lang+" "+k+": "+strconv.Quote(text))
			}
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d sentences rendered with zero Vars leak placeholders, e.g.:\n  %s", len(bad), strings.Join(bad[:min(6, len(bad))], "\n  "))
	}
}

// The sentences of real outcomes never leak a placeholder: a long generated
// game is announced in every language.
func TestAnnouncementsHaveNoMissingValues(t *testing.T) {
	c := testContent(t)
	g := generateStream(c, 11, 500, crashMix, false)
	for _, lang := range Languages() {
		t.Run(lang, func(t *testing.T) {
			_, s := newSession(t, c, lang)
			seen := map[string]bool{}
			for i, ev := range g.evs {
				as, err := s.Submit(context.Background(), ev)
				if err != nil {
					t.Fatalf("event %d %q: %v", i+1, g.lines[i], err)
				}
				for _, a := range as {
					seen[a.Kind] = true
					if strings.Contains(a.Text, "<no value>") || strings.Contains(a.Text, "<nil>") || strings.HasPrefix(a.Text, a.Kind+" ") || a.Text == "" {
						t.Errorf("event %d %q: %s sentence %q", i+1, g.lines[i], a.Kind, a.Text)
					}
				}
			}
			t.Logf("%d kinds announced", len(seen))
		})
	}
}

// TestRegression_CorrectionAnnouncesOnlyTheTargetRoll: laterOutcomes promises
// "the recomputed outcomes of the corrected roll and of the event that
// resolved it (a reroll or done)", but returns only the target's. A
// corrected roll that was resolved by a later done announces the pending
// reading, not the kill it now leads to (the state does change).
func TestRegression_CorrectionAnnouncesOnlyTheTargetRoll(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup, "enemy add raider-1 with alice", "fight alice e1 rerolls 1",
		"roll torso arms", // 4: pending, one reroll left
		"done")            // 5: resolved: survives
	as := h.must("correct 4 head legs")
	if h.survivor("alice").XP != 1 {
		t.Fatalf("alice XP %d, want 1: the corrected roll kills", h.survivor("alice").XP)
	}
	if _, ok := find(as, engine.KindFightKilled); !ok {
		t.Errorf("the correction changed the fight into a kill (XP recomputed) but announced only %v", kinds(as))
	}
}

// TestRegression_GameCopyChangesJSON: engine.State.Clone makes the enemy list
// with make(), so a nil list (no enemy ever added) becomes an empty one:
// Session.Game (a copy) marshals "enemies":[] where the same state from
// Replay marshals "enemies":null, and the gameJSON comparison of the live
// and replayed states fails right after a setup or an undo back to it.
func TestRegression_GameCopyChangesJSON(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup)
	if live, replay := gameJSON(h.s.Game()), gameJSON(Replay(h.c, h.s.Events())); live != replay {
		t.Errorf("same state, different JSON (Session.Game vs Replay): %s", jsonDiff(live, replay))
	}
}

// submitRecover submits line and returns the panic value, if any.
func (h *historySession) submitRecover(line string) (as []models.Announcement, err error, panicked any) {
	h.t.Helper()
	defer func() { panicked = recover() }()
	as, err = h.submit(line)
	return
}

// An enemy removed while the enemy turn waits for another enemy's fight
// does not act when its turn comes (a regression test: this once panicked,
// found by FuzzSubmit).
func TestAttackOnRemovedEnemyIsDropped(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-1 with alice", // e1
		"enemy add robot-1 with bob",    // e2
		"card activation-5",             // raiders, robots: e1 attacks alice (prompted); e2 acts after that fight
		"enemy remove e2",               // accepted
	)
	n := h.count()
	_, err, p := h.submitRecover("roll head head head") // resolves e1's fight; e2 is gone
	switch {
	case p != nil:
		t.Errorf("Submit panicked: %v", p)
	case err == nil && h.count() != n+1:
		t.Errorf("accepted but stored %d events", h.count()-n)
	case err != nil && h.count() != n:
		t.Errorf("rejected (%v) but stored", err)
	}
}

// A correction that turns an earlier kill into a miss changes which enemies
// exist later: events that no longer apply are skipped, nothing panics, and
// the stored log can always be reopened (a regression test: enemy ids once
// shifted after such a correction and the replay panicked).
func TestCorrectionOfKillKeepsLogReplayable(t *testing.T) {
	h := newHistorySession(t)
	h.must(histSetup,
		"enemy add raider-1 with alice", // 2: e1
		"fight alice e1",                // 3
		"roll head head",                // 4: killed; replacement e1.2 (facedown)
		"enemy add robot-1 with bob",    // 5: e2
		"enemy add robot-1 with bob",    // 6: e3
		"card activation-5",             // 7: e2 and e3 attack bob
		"enemy remove e1.2",             // 8: the raider replacement
		"roll torso torso",              // 9: bob vs e2; prompts e3
	)
	n := h.count()
	// Without the kill: e1 stays and attacks alice at the activation too;
	// event 8 no longer applies (no e1.2); event 9 resolves e1's fight.
	_, err, p := h.submitRecover("correct 4 torso torso")
	if p != nil {
		t.Errorf("Submit panicked: %v (stored events: %d, before: %d)", p, h.count(), n)
	} else if err != nil && h.count() != n {
		t.Errorf("correction rejected (%v) but stored", err)
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("OpenSession panics on the stored log (%d events): %v", h.count(), r)
			}
		}()
		cat, _ := NewCatalog("en")
		if _, err := OpenSession(context.Background(), h.st, h.c, cat, h.s.ID(), ""); err != nil {
			t.Errorf("reopen: %v", err)
		}
	}()
}
