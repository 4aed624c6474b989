package card

import (
	"image"
	"reflect"
	"strconv"
	"testing"
)

// script is a scripted observation: from frame From to frame To
// (inclusive), the cards listed are in view.
type script struct {
	from, to int
	cards    []Reading
}

func at(id string, x, y int) Reading {
	return Reading{ID: id, Method: MethodLearned, Box: image.Rect(x-40, y-56, x+40, y+56), Confidence: 0.9}
}

// runCardScript feeds frames 0..last and returns the events as
// "frame:id#showing" strings.
func runCardScript(t *testing.T, tr *Tracker, last int, script []script) []string {
	t.Helper()
	var out []string
	for f := 0; f <= last; f++ {
		var cards []Reading
		for _, s := range script {
			if f >= s.from && f <= s.to {
				cards = append(cards, s.cards...)
			}
		}
		evs, err := tr.Observe(f, cards)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if e.Frame != f {
				t.Errorf("event of frame %d carries frame %d", f, e.Frame)
			}
			out = append(out, eventString(e))
		}
	}
	return out
}

func eventString(e Shown) string {
	return strconv.Itoa(e.Frame) + ":" + e.Card.ID + "#" + strconv.Itoa(e.Showing)
}

func TestCardTrackerScripts(t *testing.T) {
	cfg := TrackerConfig{StableFrames: 5, GoneFrames: 6, MaxGap: 2}
	a := at("activation-3", 400, 300)
	b := at("goal-2", 900, 300)
	moved := at("activation-3", 480, 300) // 80 px: more than 0.25 of 112
	nudged := at("activation-3", 410, 302)
	for _, tc := range []struct {
		name   string
		last   int
		script []script
		want   []string
	}{
		{"held steadily: once, on the 5th frame", 30, []script{{0, 30, []Reading{a}}}, []string{"4:activation-3#1"}},
		{"too short", 20, []script{{0, 3, []Reading{a}}}, nil},
		{"starts later", 20, []script{{7, 20, []Reading{a}}}, []string{"11:activation-3#1"}},
		{"gap within MaxGap keeps the run (gap frames do not count)", 20,
			[]script{{0, 2, []Reading{a}}, {5, 20, []Reading{a}}}, []string{"6:activation-3#1"}},
		{"gap longer than MaxGap restarts the run", 20,
			[]script{{0, 2, []Reading{a}}, {6, 20, []Reading{a}}}, []string{"10:activation-3#1"}},
		{"not again while in view, even with short gaps", 60,
			[]script{{0, 20, []Reading{a}}, {24, 40, []Reading{a}}, {43, 60, []Reading{a}}}, []string{"4:activation-3#1"}},
		{"again after leaving the view for GoneFrames", 40,
			[]script{{0, 10, []Reading{a}}, {17, 40, []Reading{a}}}, []string{"4:activation-3#1", "21:activation-3#2"}},
		{"not again after a gap shorter than GoneFrames", 40,
			[]script{{0, 10, []Reading{a}}, {16, 40, []Reading{a}}}, []string{"4:activation-3#1"}},
		{"moving restarts the steady run", 30,
			[]script{{0, 2, []Reading{a}}, {3, 30, []Reading{moved}}}, []string{"7:activation-3#1"}},
		{"nudges do not", 30,
			[]script{{0, 2, []Reading{a}}, {3, 30, []Reading{nudged}}}, []string{"4:activation-3#1"}},
		{"two cards, each once", 30,
			[]script{{0, 30, []Reading{a}}, {2, 30, []Reading{b}}}, []string{"4:activation-3#1", "6:goal-2#1"}},
		{"a one-frame misread is ignored", 30,
			[]script{{0, 2, []Reading{a}}, {3, 3, []Reading{at("activation-5", 400, 300)}}, {4, 30, []Reading{a}}},
			[]string{"5:activation-3#1"}},
		{"unknown cards are not reported", 30, []script{{0, 30, []Reading{at(Unknown, 400, 300)}}}, nil},
		{"same id in two places: two cards", 30,
			[]script{{0, 30, []Reading{a, at("activation-3", 1000, 500)}}}, []string{"4:activation-3#1", "4:activation-3#2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runCardScript(t, NewTracker(cfg), tc.last, tc.script)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("events %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCardTrackerDetails(t *testing.T) {
	tr := NewTracker(TrackerConfig{Unknown: true})
	c := tr.Config()
	if c.StableFrames != DefaultCardStableFrames || c.GoneFrames != DefaultCardGoneFrames || c.MaxGap != DefaultCardMaxGap {
		t.Errorf("defaults %+v", c)
	}
	u := at(Unknown, 300, 300)
	var got []Shown
	for f := 10; f < 30; f++ {
		r := u
		r.Confidence = float64(f%2) * 0.5
		evs, err := tr.Observe(f, []Reading{r})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, evs...)
	}
	if len(got) != 1 || got[0].Frame != 17 || got[0].FirstFrame != 10 || got[0].Card.ID != Unknown || got[0].Card.Confidence != 0.25 {
		t.Errorf("unknown with Unknown set: %+v", got)
	}
	if ids := tr.InView(); !reflect.DeepEqual(ids, []string{Unknown}) {
		t.Errorf("in view %v", ids)
	}
	// Frames must increase; skipped frames count as empty.
	if _, err := tr.Observe(29, nil); err == nil {
		t.Error("frame going back accepted")
	}
	if _, err := tr.Observe(29+DefaultCardGoneFrames, nil); err != nil {
		t.Fatal(err)
	}
	if ids := tr.InView(); len(ids) != 0 {
		t.Errorf("after a long pause in view %v", ids)
	}
	tr.Reset()
	if _, err := tr.Observe(0, nil); err != nil {
		t.Errorf("after Reset frames start over: %v", err)
	}
	// MaxGap is kept below GoneFrames.
	if c := NewTracker(TrackerConfig{GoneFrames: 3, MaxGap: 9}).Config(); c.MaxGap != 2 {
		t.Errorf("MaxGap %d with GoneFrames 3", c.MaxGap)
	}
}
