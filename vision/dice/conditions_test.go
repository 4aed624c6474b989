package dice

import (
	"image"
	"image/color"
	"slices"
	"testing"

	"gocv.io/x/gocv"
)

func TestTouching(t *testing.T) {
	a := LabelledDie{CX: 0.5, CY: 0.5, W: 0.1, H: 0.1}
	for _, c := range []struct {
		name string
		b    LabelledDie
		want bool
	}{
		{"side by side", LabelledDie{CX: 0.6, CY: 0.5, W: 0.1, H: 0.1}, true},
		{"a hair apart", LabelledDie{CX: 0.605, CY: 0.5, W: 0.1, H: 0.1}, true},
		{"a die's width apart", LabelledDie{CX: 0.7, CY: 0.5, W: 0.1, H: 0.1}, false},
		{"beside but far below", LabelledDie{CX: 0.6, CY: 0.8, W: 0.1, H: 0.1}, false},
	} {
		if got := touching(a, c.b); got != c.want {
			t.Errorf("%s: touching = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestConditionsOf(t *testing.T) {
	// A grey picture with one large bright sharp die and two small dim
	// dice side by side, and the same picture tinted.
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(40, 40, 40, 0), 400, 400, gocv.MatTypeCV8UC3)
	defer img.Close()
	gocv.Rectangle(&img, image.Rect(40, 40, 120, 120), color.RGBA{R: 230, G: 230, B: 230, A: 255}, -1)
	for y := 50; y < 110; y += 12 {
		gocv.Line(&img, image.Pt(45, y), image.Pt(115, y), color.RGBA{A: 255}, 2)
	}
	dice := []LabelledDie{
		{Value: 1, CX: 0.2, CY: 0.2, W: 0.2, H: 0.2},
		{Value: 2, CX: 0.7, CY: 0.7, W: 0.02, H: 0.02},
		{Value: 3, CX: 0.72, CY: 0.7, W: 0.02, H: 0.02},
	}
	conds, err := conditionsOf(img, dice)
	if err != nil {
		t.Fatal(err)
	}
	for j, want := range [][]string{
		{"size: large (over 10%)", "alone", "light: bright (die over 190 of 255)", "sharp", "picture: grey"},
		{"size: small (under 3% of the picture's width)", "touching another die", "light: dim (die under 70 of 255)", "soft (the die at 48 px: Laplacian variance under 1500)", "picture: grey"},
	} {
		if !slices.Equal(conds[j], want) {
			t.Errorf("die %d: conditions %q, want %q", j, conds[j], want)
		}
	}
	tinted := gocv.NewMat()
	defer tinted.Close()
	tint := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 30, 60, 0), 400, 400, gocv.MatTypeCV8UC3)
	defer tint.Close()
	gocv.Add(img, tint, &tinted)
	conds, err = conditionsOf(tinted, dice)
	if err != nil {
		t.Fatal(err)
	}
	if got := conds[0][4]; got != "picture: colour" {
		t.Errorf("tinted picture: %q, want colour", got)
	}
}
