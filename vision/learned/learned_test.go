package learned_test

import (
	"path/filepath"
	"slices"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision/dice"
	"tablecam/vision/learned"
)

// Without taught sets the learned reader names d6 pips: on the committed
// webcam photo of three dice showing 4 (vision/dice's regression subset),
// the dice read surely are those three, as d6 with their value.
func TestDiceReadsD6Pips(t *testing.T) {
	img := gocv.IMRead(filepath.Join("..", "dice", "testdata", "real", "webcam-four_30.jpg"), gocv.IMReadColor)
	if img.Empty() {
		t.Fatal("the regression photo webcam-four_30.jpg is missing")
	}
	defer img.Close()
	r, err := dice.NewReader()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ds, err := learned.Dice(r, nil, nil)(img)
	if err != nil {
		t.Fatal(err)
	}
	var sure []string
	for _, d := range ds {
		if d.Set != "d6" || d.Value < 1 || d.Value > 6 || d.Face == "" || d.Box.Empty() || !d.Center.In(d.Box) {
			t.Errorf("die %+v: want a d6 with a value, a face and a box around its centre", d)
		}
		if !d.Uncertain {
			sure = append(sure, d.Face)
		}
	}
	if !slices.Equal(sure, []string{"4", "4", "4"}) {
		t.Errorf("sure faces %v, want the three 4s", sure)
	}
}
