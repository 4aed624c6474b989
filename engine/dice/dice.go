// Package dice holds the die arithmetic the smaller games share: reading a
// d10 (the face printed 0 reads 10) and exact probabilities as fractions,
// computed by counting the faces that satisfy a rule.
//
// A probability is a Ratio, so the odds the dashboard shows are exact and two
// computations of the same chance compare equal:
//
//	v, _ := dice.ReadD10(0)                                     // 10
//	p := dice.Count(dice.D10Values(), func(v int) bool { return v <= 3 })
//	p.String()                                                  // "3/10"
//	p.Float64()                                                 // 0.3
package dice

import (
	"fmt"
	"math/big"
)

// D10Sides is the number of faces of a ten-sided die.
const D10Sides = 10

// ReadD10 returns the value a d10 face reads as: 1–9 as printed, 0 and 10
// both read 10 (seed 002 ch. 1 "Riguardo ai Dadi": "lo 0 si legge come 10";
// seed 004 uses a black d10 with values 1–10).
func ReadD10(face int) (int, error) {
	switch {
	case face == 0:
		return 10, nil
	case face >= 1 && face <= 10:
		return face, nil
	}
	return 0, fmt.Errorf("d10: face %d is not 0–10", face)
}

// D10Values lists the ten values a d10 reads as, 1 to 10.
func D10Values() []int {
	v := make([]int, D10Sides)
	for i := range v {
		v[i] = i + 1
	}
	return v
}

// Ratio is an exact probability Num/Den in lowest terms with Den > 0. The
// zero value is not valid; build ratios with NewRatio or Count.
type Ratio struct {
	Num int64 `json:"num"`
	Den int64 `json:"den"`
}

// NewRatio returns num/den in lowest terms; den must be positive.
func NewRatio(num, den int64) (Ratio, error) {
	if den <= 0 {
		return Ratio{}, fmt.Errorf("ratio: denominator %d must be positive", den)
	}
	g := gcd(abs(num), den)
	if g == 0 {
		g = 1
	}
	return Ratio{Num: num / g, Den: den / g}, nil
}

// Float64 is the ratio as a float64.
func (r Ratio) Float64() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

// Rat is the ratio as a math/big rational, for exact arithmetic by callers.
func (r Ratio) Rat() *big.Rat {
	if r.Den == 0 {
		return new(big.Rat)
	}
	return big.NewRat(r.Num, r.Den)
}

// String prints "num/den".
func (r Ratio) String() string { return fmt.Sprintf("%d/%d", r.Num, r.Den) }

// Count is the chance that one value drawn uniformly from values satisfies
// ok: the number of values that do over the number of values. An empty list
// has chance 0/1.
func Count(values []int, ok func(v int) bool) Ratio {
	if len(values) == 0 {
		return Ratio{Num: 0, Den: 1}
	}
	n := int64(0)
	for _, v := range values {
		if ok(v) {
			n++
		}
	}
	r, _ := NewRatio(n, int64(len(values)))
	return r
}

// FromRat converts an exact big.Rat to a Ratio; it fails when a part does
// not fit in an int64.
func FromRat(x *big.Rat) (Ratio, error) {
	if !x.Num().IsInt64() || !x.Denom().IsInt64() {
		return Ratio{}, fmt.Errorf("ratio: %s does not fit in int64", x.RatString())
	}
	return NewRatio(x.Num().Int64(), x.Denom().Int64())
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
