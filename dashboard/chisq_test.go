package dashboard

import (
	"math"
	"testing"
)

func near(got, want float64) bool {
	if want == 0 {
		return math.Abs(got) < 1e-300
	}
	return math.Abs(got-want) <= 1e-12*math.Abs(want)+1e-15
}

// Reference values from mpmath (30 digits):
// mpmath.gammainc(a, x, mpmath.inf, regularized=True).
func TestGammaQKnownValues(t *testing.T) {
	for _, tc := range []struct{ a, x, want float64 }{
		{0.5, 0.5, 0.31731050786291410283},
		{1, 1, 0.3678794411714423216},
		{2.5, 3.0, 0.30621891841327840088},
		{2.5, 10, 0.0012497305630313754119},
		{5, 0.1, 0.99999992332198313811},
		{10, 2, 0.99995350192498273619},
		{10, 30, 7.1217508628155770916e-6},
		{50, 40, 0.92966493334060504556},
		{0.5, 20, 2.5396285894708649707e-10},
		{100, 120, 0.027863739890520661484},
		{3, 0, 1},
		{2.5, 1e-8, 1},
	} {
		got, err := gammaQ(tc.a, tc.x)
		if err != nil {
			t.Fatalf("Q(%v, %v): %v", tc.a, tc.x, err)
		}
		if !near(got, tc.want) {
			t.Errorf("Q(%v, %v) = %.17g, want %.17g", tc.a, tc.x, got, tc.want)
		}
	}
}

// Closed forms: Q(1, x) = exp(-x), Q(1/2, x) = erfc(sqrt(x)).
func TestGammaQClosedForms(t *testing.T) {
	for _, x := range []float64{0.01, 0.3, 1, 1.7, 4, 9.5, 30} {
		if got, _ := gammaQ(1, x); !near(got, math.Exp(-x)) {
			t.Errorf("Q(1, %v) = %v, want %v", x, got, math.Exp(-x))
		}
		if got, _ := gammaQ(0.5, x); math.Abs(got-math.Erfc(math.Sqrt(x))) > 1e-13*math.Erfc(math.Sqrt(x)) {
			t.Errorf("Q(0.5, %v) = %v, want %v", x, got, math.Erfc(math.Sqrt(x)))
		}
	}
}

// Textbook critical values: the 5% and 1% points of the χ² table.
func TestChiSquareSFCriticalValues(t *testing.T) {
	for _, tc := range []struct {
		stat float64
		df   int
		want float64
	}{
		{3.841458820694124, 1, 0.05},
		{11.070497693516351, 5, 0.05},
		{15.08627246938899, 5, 0.01},
		{0, 5, 1},
		{1.5, 5, 0.91306981454439546067},
		{25, 5, 0.00013933379118562617389},
		{100, 5, 5.2851483609432400564e-20},
		{7, 3, 0.071897772496465127458},
	} {
		got, err := chiSquareSF(tc.stat, tc.df)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > 1e-12*tc.want+1e-15 {
			t.Errorf("chi2 SF(%v, df %d) = %.17g, want %.17g", tc.stat, tc.df, got, tc.want)
		}
	}
	// df = 2 has the closed form exp(-x/2).
	for _, x := range []float64{0.5, 2, 13.8} {
		if got, _ := chiSquareSF(x, 2); !near(got, math.Exp(-x/2)) {
			t.Errorf("chi2 SF(%v, 2) = %v, want %v", x, got, math.Exp(-x/2))
		}
	}
}

func TestChiSquareUniform(t *testing.T) {
	// 60 rolls of a six-sided die: 5+8+9+8+10+20 (a classic textbook loaded die).
	stat, df, p, err := chiSquareUniform([]int{5, 8, 9, 8, 10, 20})
	if err != nil {
		t.Fatal(err)
	}
	if df != 5 || !near(stat, 13.4) {
		t.Errorf("stat %v df %d, want 13.4 and 5", stat, df)
	}
	if want, _ := chiSquareSF(13.4, 5); !near(p, want) || p > 0.02 || p < 0.019 {
		t.Errorf("p = %v, want ≈ 0.0199", p)
	}
	// Perfectly even counts: statistic 0, p-value 1.
	if stat, _, p, _ := chiSquareUniform([]int{7, 7, 7}); stat != 0 || p != 1 {
		t.Errorf("even counts: stat %v p %v", stat, p)
	}
}

func TestChiSquareErrors(t *testing.T) {
	if _, err := gammaQ(0, 1); err == nil {
		t.Error("Q(0, x) should fail")
	}
	if _, err := gammaQ(1, -1); err == nil {
		t.Error("Q(a, -1) should fail")
	}
	if _, err := gammaQ(math.NaN(), 1); err == nil {
		t.Error("Q(NaN, x) should fail")
	}
	if _, err := chiSquareSF(1, 0); err == nil {
		t.Error("df 0 should fail")
	}
	if _, _, _, err := chiSquareUniform([]int{3}); err == nil {
		t.Error("one category should fail")
	}
	if _, _, _, err := chiSquareUniform([]int{0, 0}); err == nil {
		t.Error("no observations should fail")
	}
	if q, err := gammaQ(2, math.Inf(1)); err != nil || q != 0 {
		t.Errorf("Q(2, +Inf) = %v, %v", q, err)
	}
}
