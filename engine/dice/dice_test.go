package dice

import (
	"math/big"
	"testing"
)

// seed 002 ch. 1 "Riguardo ai Dadi" (../shared/seeds/002_f5c6adf2203d09de.txt
// line 128): the face 0 reads 10; seed 004 "Schloss knacken": the black die
// reads 1–10.
func TestReadD10(t *testing.T) {
	for face, want := range map[int]int{0: 10, 1: 1, 9: 9, 10: 10} {
		if got, err := ReadD10(face); err != nil || got != want {
			t.Errorf("ReadD10(%d) = %d, %v; want %d", face, got, err, want)
		}
	}
	for _, bad := range []int{-1, 11} {
		if _, err := ReadD10(bad); err == nil {
			t.Errorf("ReadD10(%d) accepted a face a d10 does not have", bad)
		}
	}
}

func TestCountAndRatio(t *testing.T) {
	p := Count(D10Values(), func(v int) bool { return v%2 == 0 })
	if p != (Ratio{Num: 1, Den: 2}) || p.String() != "1/2" || p.Float64() != 0.5 {
		t.Errorf("Count(even d10) = %v (%v), want 1/2", p, p.Float64())
	}
	if p.Rat().Cmp(big.NewRat(5, 10)) != 0 {
		t.Errorf("Rat() = %s, want 1/2", p.Rat().RatString())
	}
	if z := Count(nil, func(int) bool { return true }); z.Num != 0 || z.Den != 1 {
		t.Errorf("Count(nil) = %v, want 0/1", z)
	}
	if _, err := NewRatio(1, 0); err == nil {
		t.Error("NewRatio accepted a zero denominator")
	}
	r, err := FromRat(big.NewRat(6, 8))
	if err != nil || r != (Ratio{Num: 3, Den: 4}) {
		t.Errorf("FromRat(6/8) = %v, %v; want 3/4", r, err)
	}
}
