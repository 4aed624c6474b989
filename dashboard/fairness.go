package dashboard

import (
	"sort"

	"tablecam/models"
	"tablecam/tracker"
)

// Fairness thresholds.
const (
	// minExpected is the expected count per face from which the χ² test is
	// run (the usual rule of thumb for Pearson's test).
	minExpected = 5.0
	// suspiciousP is the p-value under which a face set is flagged.
	suspiciousP = 0.01
)

// Fairness verdicts.
const (
	VerdictTooFew     = "too-few"    // not enough rolls for the χ² test yet
	VerdictFair       = "fair"       // consistent with a fair die
	VerdictSuspicious = "suspicious" // p < 0.01: the faces are unlikely under a fair die
)

// FaceCount is how often one face was observed.
type FaceCount struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Count int    `json:"count"`
}

// Fairness is the per-face statistics of one dice set, from every die that
// was freshly rolled (rerolls count only the rerolled dice), and Pearson's
// χ² test against the uniform distribution over the set's faces.
type Fairness struct {
	Set   string      `json:"set"`
	Name  string      `json:"name"`
	Faces []FaceCount `json:"faces"`
	// N is the number of dice observed.
	N int `json:"n"`
	// Expected is the count per face a fair die gives on average (N / faces).
	Expected float64 `json:"expected"`
	// NeedN is the number of dice from which the test runs.
	NeedN int `json:"need_n"`
	// Chi2, DF and P are the test's statistic, degrees of freedom and
	// p-value; set only when Verdict is not "too-few".
	Chi2    *float64 `json:"chi2,omitempty"`
	DF      int      `json:"df,omitempty"`
	P       *float64 `json:"p,omitempty"`
	Verdict string   `json:"verdict"`
}

// fairness computes the statistics for every set seen in rolls, using the
// logged events to tell fresh dice from kept ones.
func fairness(c *models.Content, rolls []tracker.RollRecord, events map[int64]tracker.Event) []Fairness {
	counts := map[string]map[string]int{}
	add := func(set, face string) {
		if counts[set] == nil {
			counts[set] = map[string]int{}
		}
		counts[set][face]++
	}
	for _, r := range rolls {
		ev, ok := events[r.Seq]
		if ok && ev.Type == tracker.EvReroll {
			for _, d := range ev.Dice {
				switch {
				case d == 0 && r.Assist != "":
					add("assist", r.Assist)
				case d >= 1 && d <= len(r.Faces):
					add(r.Set, r.Faces[d-1])
				}
			}
			continue
		}
		for _, f := range r.Faces {
			add(r.Set, f)
		}
		if r.Assist != "" {
			add("assist", r.Assist)
		}
	}
	sets := make([]string, 0, len(counts))
	for s := range counts {
		sets = append(sets, s)
	}
	// Content order first (vats before assist), then unknown sets by id.
	order := map[string]int{}
	for i, fs := range c.FaceSets {
		order[fs.ID] = i + 1
	}
	sort.Slice(sets, func(i, j int) bool {
		oi, oj := order[sets[i]], order[sets[j]]
		if oi != oj {
			if oi == 0 || oj == 0 {
				return oi != 0
			}
			return oi < oj
		}
		return sets[i] < sets[j]
	})
	out := make([]Fairness, 0, len(sets))
	for _, set := range sets {
		fs, ok := c.FaceSet(set)
		if !ok || len(fs.Faces) < 2 {
			continue
		}
		f := Fairness{Set: set, Name: fs.Name, Verdict: VerdictTooFew}
		cs := make([]int, len(fs.Faces))
		for i, face := range fs.Faces {
			cs[i] = counts[set][face.ID]
			f.N += cs[i]
			f.Faces = append(f.Faces, FaceCount{ID: face.ID, Label: faceLabel(face), Count: cs[i]})
		}
		k := len(fs.Faces)
		f.Expected = float64(f.N) / float64(k)
		f.NeedN = int(minExpected) * k
		if f.Expected >= minExpected {
			stat, df, p, err := chiSquareUniform(cs)
			if err == nil {
				f.Chi2, f.DF, f.P = &stat, df, &p
				f.Verdict = VerdictFair
				if p < suspiciousP {
					f.Verdict = VerdictSuspicious
				}
			}
		}
		out = append(out, f)
	}
	return out
}

func faceLabel(f models.Face) string {
	if f.Label != "" {
		return f.Label
	}
	return f.ID
}
