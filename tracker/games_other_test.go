package tracker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tablecam/engine"
	"tablecam/engine/twom"
	"tablecam/engine/warfare"
)

// The scripted sessions of the other games in testdata/games are replayed
// through a real session in English and German; the announcements must
// match the reviewed .expected files, and the final state is checked.
func TestScriptedOtherGames(t *testing.T) {
	c := testContent(t)
	for _, tc := range []struct {
		name  string
		check func(t *testing.T, g Game)
	}{
		{"twom", func(t *testing.T, g Game) {
			tg := g.Twom
			if g.Kind != GameTwom || tg == nil {
				t.Fatalf("kind %q, twom %v", g.Kind, tg)
			}
			// Day 2 starts after saving; player 2 leads after the marks.
			if tg.Day != 2 || tg.Current().ID != "morning.event" {
				t.Errorf("day %d step %s, want day 2 morning", tg.Day, tg.Current().ID)
			}
			byName := map[string]twom.Character{}
			for _, ch := range tg.Characters {
				byName[ch.Name] = ch
			}
			// Bruno: thirst 7 → misery 1; no food → hunger 3; guard → fatigue 1;
			// spirits → fatigue 3, misery 0; death walks (2 ≤ 7) → misery 2;
			// the night raid's 2 wounds less his 1 symbol (seed 004 "Wachen
			// und Waffen"): wounds 1.
			b := byName["bruno"]
			if b.Level(twom.Misery) != 2 || b.Level(twom.Hunger) != 3 || b.Level(twom.Fatigue) != 3 || b.Level(twom.Wounds) != 1 {
				t.Errorf("bruno %v", b.Levels)
			}
			// Cveta: the undone illness is gone; the kill (6 ≤ 9) and death
			// walks give misery 3; the looter's knife wounds 2.
			if cv := byName["cveta"]; cv.Level(twom.Illness) != 0 || cv.Level(twom.Misery) != 3 || cv.Level(twom.Wounds) != 2 {
				t.Errorf("cveta %v", cv.Levels)
			}
			if tg.Raid != nil {
				t.Errorf("the night raid outlives the night: %+v", tg.Raid)
			}
			if !byName["anna"].Gone {
				t.Error("anna is still in the group")
			}
		}},
		{"warfare", func(t *testing.T, g Game) {
			w := g.Warfare
			if g.Kind != GameWarfare || w == nil {
				t.Fatalf("kind %q, warfare %v", g.Kind, w)
			}
			// seed 002 ch. 4 "Fumo": of two clouds a 5 clears one, a 4 leaves
			// the other.
			if w.Clouds != 1 {
				t.Errorf("%d smoke clouds, want 1", w.Clouds)
			}
			// seed 002 ch. 6: a 10 at dusk brings darkness; the turn counts on.
			if w.Turn != 3 || w.Light != warfare.Darkness {
				t.Errorf("turn %d light %q, want 3 and darkness", w.Turn, w.Light)
			}
			// 120 + 15 + 60 = 195 against 100 + 40 = 140: more than 10 apart.
			if r := w.Result; r == nil || r.ScoreA != 195 || r.ScoreB != 140 || r.Winner != warfare.SideA {
				t.Errorf("result %+v", r)
			}
		}},
		{"wasteland", func(t *testing.T, g Game) {
			w := g.Wasteland
			if g.Kind != GameWasteland || w == nil || len(w.Units) != 3 {
				t.Fatalf("kind %q, wasteland %+v", g.Kind, w)
			}
			// Nora threw both tokens and gained them back up to her LUC of 2;
			// the raider threw its one.
			if w.Units[0].Tokens != 2 || w.Units[1].Tokens != 0 {
				t.Errorf("tokens nora %d raider %d, want 2 and 0", w.Units[0].Tokens, w.Units[1].Tokens)
			}
			if r := w.Roll; r == nil || r.Tester.Name != "dogmeat" || !r.Success() {
				t.Errorf("open roll %+v, want the dog's passed test", r)
			}
		}},
	} {
		for _, lang := range []string{"en", "de"} {
			t.Run(tc.name+"/"+lang, func(t *testing.T) {
				script := readFile(t, filepath.Join("..", "testdata", "games", tc.name+".events"))
				_, s := newSession(t, c, lang)
				got := strings.Join(runScript(t, s, c, script), "\n") + "\n"
				suffix := ".expected"
				if lang != "en" {
					suffix = "." + lang + ".expected"
				}
				golden := filepath.Join("..", "testdata", "games", tc.name+suffix)
				if *update {
					if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if want := readFile(t, golden); got != want {
					gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
					for i := range max(len(gl), len(wl)) {
						var g, w string
						if i < len(gl) {
							g = gl[i]
						}
						if i < len(wl) {
							w = wl[i]
						}
						if g != w {
							t.Fatalf("announcement %d:\n got  %q\n want %q", i+1, g, w)
						}
					}
				}
				g := s.Game()
				tc.check(t, g)
				if r := Replay(c, s.Events()); !sameGame(r, g) {
					t.Error("clean replay differs from the live session")
				}
			})
		}
	}
}

// Every outcome kind of the other games has a sentence in every language.
func TestOtherGameKindsHaveSentences(t *testing.T) {
	kinds := []string{twom.KindStep, twom.KindJournal, twom.KindStatus, twom.KindStatusMax, twom.KindNoise,
		twom.KindNoiseTest, twom.KindEncounter, twom.KindScript, twom.KindLockpick, twom.KindEmpathyTest, twom.KindGone,
		KindTwomSetup, KindTwomJoined, KindTwomStrike, KindTwomUnchanged,
		KindWarfareSetup, KindWarfareTest, KindWarfareAttack, KindWarfarePoison, KindWarfareUnconscious,
		KindWarfareRadiation, KindWarfareSmoke, KindWarfareClouds, KindWarfareMineDamage, KindWarfareHarm, KindWarfareLight,
		KindWarfareTurn, KindWarfareInitiative, KindWarfareVictory,
		KindWastelandSetup, KindWastelandSkill, KindWastelandLuck, KindWastelandDamage, KindWastelandFinal,
		KindWastelandOptions, KindWastelandTokens, KindMoveWaiting, KindMoveUncertain}
	for _, lang := range Languages() {
		cat, err := NewCatalog(lang)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range kinds {
			if !cat.Has(k) {
				t.Errorf("%s: no sentence for %s", lang, k)
			}
		}
	}
	// Each Journal step has its own sentence, not the empty rest of the chain.
	en, _ := NewCatalog("en")
	for _, s := range twom.Journal() {
		text := en.Text(engine.Outcome{Kind: twom.KindStep, Vars: engine.Vars{"step": s.ID, "day": 1, "script": 10}})
		if text == "Day 1." {
			t.Errorf("step %s has no sentence", s.ID)
		}
	}
}
