package dashboard

import (
	"fmt"
	"math"
)

// Pure-Go χ² tail probabilities through the regularized incomplete gamma
// function (series for x < a+1, Lentz's continued fraction otherwise; see
// Numerical Recipes §6.2). Accurate to about 1e-14 relative for the
// arguments a dice fairness test produces.

const (
	gammaEps     = 1e-15
	gammaMaxIter = 10000
	gammaTiny    = 1e-300
)

// gammaQ is the regularized upper incomplete gamma function
// Q(a, x) = Γ(a, x) / Γ(a) for a > 0 and x ≥ 0.
func gammaQ(a, x float64) (float64, error) {
	switch {
	case math.IsNaN(a) || math.IsNaN(x):
		return math.NaN(), fmt.Errorf("gamma Q: NaN argument (a=%v, x=%v)", a, x)
	case a <= 0:
		return math.NaN(), fmt.Errorf("gamma Q: a must be positive, got %v", a)
	case x < 0:
		return math.NaN(), fmt.Errorf("gamma Q: x must not be negative, got %v", x)
	case x == 0:
		return 1, nil
	case math.IsInf(x, 1):
		return 0, nil
	}
	if x < a+1 {
		p, err := gammaPSeries(a, x)
		if err != nil {
			return math.NaN(), err
		}
		return 1 - p, nil
	}
	return gammaQFraction(a, x)
}

// gammaPSeries is P(a, x) by its power series (converges fast for x < a+1).
func gammaPSeries(a, x float64) (float64, error) {
	lg, _ := math.Lgamma(a)
	ap, sum := a, 1/a
	del := sum
	for range gammaMaxIter {
		ap++
		del *= x / ap
		sum += del
		if math.Abs(del) < math.Abs(sum)*gammaEps {
			return sum * math.Exp(-x+a*math.Log(x)-lg), nil
		}
	}
	return math.NaN(), fmt.Errorf("gamma P series: no convergence for a=%v, x=%v", a, x)
}

// gammaQFraction is Q(a, x) by its continued fraction (modified Lentz),
// which converges fast for x ≥ a+1.
func gammaQFraction(a, x float64) (float64, error) {
	lg, _ := math.Lgamma(a)
	b := x + 1 - a
	c := 1 / gammaTiny
	d := 1 / b
	h := d
	for i := 1; i <= gammaMaxIter; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < gammaTiny {
			d = gammaTiny
		}
		c = b + an/c
		if math.Abs(c) < gammaTiny {
			c = gammaTiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < gammaEps {
			return math.Exp(-x+a*math.Log(x)-lg) * h, nil
		}
	}
	return math.NaN(), fmt.Errorf("gamma Q fraction: no convergence for a=%v, x=%v", a, x)
}

// chiSquareSF is the survival function of the χ² distribution with df
// degrees of freedom: the probability that a χ² variable is at least
// stat, i.e. the p-value of a goodness-of-fit statistic.
func chiSquareSF(stat float64, df int) (float64, error) {
	if df < 1 {
		return math.NaN(), fmt.Errorf("chi-square: need at least 1 degree of freedom, got %d", df)
	}
	if stat < 0 {
		return math.NaN(), fmt.Errorf("chi-square: statistic must not be negative, got %v", stat)
	}
	q, err := gammaQ(float64(df)/2, stat/2)
	if err != nil {
		return math.NaN(), fmt.Errorf("chi-square p-value: %w", err)
	}
	return q, nil
}

// chiSquareUniform is Pearson's goodness-of-fit test of counts against the
// uniform distribution over len(counts) categories: the statistic, its
// degrees of freedom and the p-value. It needs two categories and at least
// one observation.
func chiSquareUniform(counts []int) (stat float64, df int, p float64, err error) {
	k := len(counts)
	if k < 2 {
		return 0, 0, math.NaN(), fmt.Errorf("chi-square: need at least 2 categories, got %d", k)
	}
	n := 0
	for _, c := range counts {
		if c < 0 {
			return 0, 0, math.NaN(), fmt.Errorf("chi-square: negative count %d", c)
		}
		n += c
	}
	if n == 0 {
		return 0, 0, math.NaN(), fmt.Errorf("chi-square: no observations")
	}
	exp := float64(n) / float64(k)
	for _, c := range counts {
		d := float64(c) - exp
		stat += d * d / exp
	}
	df = k - 1
	p, err = chiSquareSF(stat, df)
	return stat, df, p, err
}
