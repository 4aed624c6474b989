package tracker

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The timeline keeps the game of fold(Effective(log)) event by event: after
// every event of long random histories (the scripted games, repeated, with
// undo, redo and corrections of random rolls mixed in, and changes planned
// then dropped as when storing fails), its game, its skipped events and the
// outcomes of the events it refolded equal those of a fold of the whole log
// from the start. A small keep interval makes refolds start at kept games.
func TestTimelineEqualsFoldOfWholeLog(t *testing.T) {
	c := testContent(t)
	var script []Event
	for _, name := range []string{"won", "lost"} {
		f, err := os.Open(filepath.Join("..", "testdata", "games", name+".events"))
		if err != nil {
			t.Fatal(err)
		}
		evs, err := ParseFile(c, name, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.Type != EvCorrect && ev.Type != EvUndo && ev.Type != EvRedo {
				script = append(script, ev)
			}
		}
	}
	for _, seed := range []int64{1, 2, 3, 4} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewSource(seed))
			tl := newTimeline(c, 3)
			var log []entry
			var rolls []int64
			seq := int64(0)
			for step := 0; step < 400; step++ {
				var ev Event
				switch r := rng.Intn(10); {
				case r < 2:
					ev = Event{Type: EvUndo}
				case r < 3:
					ev = Event{Type: EvRedo}
				case r < 4 && len(rolls) > 0:
					ev = Event{Type: EvCorrect, Target: rolls[rng.Intn(len(rolls))], Faces: []string{"head", "2h", "arms"}}
				default:
					ev = script[step%len(script)]
				}
				seq++
				e := entry{Seq: seq, Ev: ev}
				var ch *change
				switch ev.Type {
				case EvUndo:
					ch, _ = tl.planUndo()
				case EvRedo:
					ch, _ = tl.planRedo()
				default:
					if ev.Type == EvRoll || ev.Type == EvReroll {
						rolls = append(rolls, seq)
					}
					ch = tl.planAdd(e)
				}
				committed := false
				if ch != nil && rng.Intn(8) == 0 {
					// Storing failed: the change is dropped, the event is not logged.
					tl.abort(ch)
					seq--
					if n := len(rolls); n > 0 && rolls[n-1] == e.Seq {
						rolls = rolls[:n-1]
					}
				} else {
					log = append(log, e)
					if ch != nil {
						tl.commit(ch)
						committed = true
					}
				}
				want := fold(c, Effective(log))
				if got, w := canonJSON(tl.game), canonJSON(want.Game); got != w {
					t.Fatalf("step %d (%s): game differs from the fold of the whole log: %s", step, ev.Type, jsonDiff(got, w))
				}
				if got, w := skippedText(tl.skipped), skippedText(want.Skipped); got != w {
					t.Fatalf("step %d (%s): skipped %s, fold skipped %s", step, ev.Type, got, w)
				}
				if committed {
					for q, o := range ch.out {
						if got, w := fmt.Sprint(o), fmt.Sprint(want.Out[q]); got != w {
							t.Fatalf("step %d (%s): outcomes of %d: %s, fold: %s", step, ev.Type, q, got, w)
						}
					}
				}
			}
		})
	}
}

func skippedText(m map[int64]error) string {
	var lines []string
	for q, err := range m {
		lines = append(lines, fmt.Sprintf("%d: %v", q, err))
	}
	sort.Strings(lines)
	return strings.Join(lines, "; ")
}

// A change that is dropped (storing its event failed) leaves the game as it
// was, though the games it computed appended roll records to arrays the
// kept games share: a correction of each roll of a game, planned and
// dropped, changes nothing.
func TestTimelineAbortLeavesGame(t *testing.T) {
	c := testContent(t)
	evs, err := ParseFile(c, "script", strings.NewReader(`setup commonwealth loyal railroad survivors alice bob
test alice 1 S
roll head arms 1h
done
test bob 1 S
roll torso arms 1h
done
test alice 1 S
roll legs arms 1h
done
test bob 1 S
roll head head head
done
`))
	if err != nil {
		t.Fatal(err)
	}
	tl := newTimeline(c, 2)
	var log []entry
	for i, ev := range evs {
		e := entry{Seq: int64(i + 1), Ev: ev}
		log = append(log, e)
		tl.load(e)
	}
	want := canonJSON(fold(c, Effective(log)).Game)
	for _, e := range log {
		if e.Ev.Type != EvRoll {
			continue
		}
		tl.abort(tl.planAdd(entry{Seq: 100, Ev: Event{Type: EvCorrect, Target: e.Seq, Faces: []string{"2h", "2h", "2h"}}}))
		if got := canonJSON(tl.game); got != want {
			t.Fatalf("after a dropped correction of %d: %s", e.Seq, jsonDiff(got, want))
		}
		if ch, ok := tl.planUndo(); ok {
			tl.abort(ch)
		}
		if got := canonJSON(tl.game); got != want {
			t.Fatalf("after a dropped undo: %s", jsonDiff(got, want))
		}
	}
}
