package dice

import "testing"

// The Go split of the real photos is the one train/data.py trains with:
// these rows are data.py's answers.
func TestSplitMatchesTraining(t *testing.T) {
	for _, c := range []struct{ source, rig, split string }{
		{"00000", "cup", "train"},
		{"00150", "cup", "val"},
		{"00151", "cup", "train"},
		{"0u9xMiHr1Nvqlv9Wblme", "table", "train"},
		{"zs7d5LnyF4SNgmFZ18ir", "table", "val"},
		{"PXL_20240219_191021760", "tray", "train"},
		{"IMG_0654_jpeg", "phone", "val"},
	} {
		rig := RigOf("rune55", c.source)
		if rig != c.rig || SplitOf(rig, c.source) != c.split {
			t.Errorf("%s: %s/%s, want %s/%s", c.source, rig, SplitOf(rig, c.source), c.rig, c.split)
		}
	}
	if RigOf("matteo", "matteo") != "webcam" || SplitOf("webcam", "matteo") != "val" {
		t.Error("the webcam rig is not held out")
	}
}
