package vision_test

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"testing"

	"gocv.io/x/gocv"

	"tablecam/vision"
	"tablecam/vision/synth"
)

func TestZZDump(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	ix, _ := cardsTeachAll(t, 100, 2)
	bg := synth.Background(os.Getenv("ZZBG"))
	r, _ := vision.NewCardReader(vision.CardReaderOptions{Index: ix})
	for _, i := range []int{3, 4} {
		seed := cardsBenchNewSeed + int64(i)
		s := cardsBenchScene(seed, bg, seed*7%100, (seed*7+50)%100)
		m, truth, _ := synth.RenderCardScene(s)
		e, _ := synth.RenderCardSceneEmpty(s)
		r.SetBackground(e)
		out, _ := r.ReadCards(m)
		fmt.Printf("scene %d truth:\n", i)
		for _, c := range truth {
			fmt.Printf("  %+v\n", c)
		}
		for _, c := range out {
			fmt.Printf("  read %s %s box %v conf %.2f\n", c.ID, c.Method, c.Box, c.Confidence)
			gocv.Rectangle(&m, c.Box, color.RGBA{255, 0, 0, 0}, 2)
			gocv.PutText(&m, c.ID, c.Box.Min.Add(image.Pt(0, -4)), gocv.FontHersheyPlain, 1.5, color.RGBA{255, 0, 0, 0}, 2)
		}
		gocv.IMWrite(fmt.Sprintf("/tmp/zz_%s_%d.png", bg, i), m)
	}
}
