package dice

import (
	"math"
	"strings"
	"testing"
)

// A view is read as the taught face whose prototype (the mean of its
// pictures) is nearest; a view like no taught face is no face; two faces
// about as near make a reading unsure.
func TestTaughtReadsNearestPrototype(t *testing.T) {
	tt := NewTaught("coin")
	add := func(face string, value int, v ...float32) {
		t.Helper()
		if err := tt.Add(face, value, unit(v)); err != nil {
			t.Fatal(err)
		}
	}
	add("heads", 1, 1, 0.1, 0)
	add("heads", 1, 1, -0.1, 0)
	add("tails", 2, 0, 1, 0)
	if tt.Faces[0].Views != 2 || math.Abs(float64(tt.Faces[0].Proto[0])-1) > 1e-6 {
		t.Fatalf("heads prototype %v from %d views, want (1,0,0) from 2", tt.Faces[0].Proto, tt.Faces[0].Views)
	}
	r := tt.Read(unit([]float32{0.9, 0.2, 0}))
	if r.Face != "heads" || r.Value != 1 || r.Confidence < 0.99 {
		t.Errorf("a view near heads read %+v", r)
	}
	r = tt.Read(unit([]float32{0, 0.1, 1}))
	if r.Face != "" || r.Confidence != 0 {
		t.Errorf("a view like no taught face read %+v", r)
	}
	r = tt.Read(unit([]float32{1, 1, 0}))
	if r.Face == "" || r.Confidence > 0.6 {
		t.Errorf("a view halfway between heads and tails read %+v, want a low confidence", r)
	}
	if err := tt.Add("heads", 1, []float32{1, 0}); err == nil || !strings.Contains(err.Error(), "2 values") {
		t.Errorf("an embedding of another length: %v", err)
	}
	if r := NewTaught("none").Read(unit([]float32{1, 0, 0})); r.Face != "" {
		t.Errorf("an empty set read %+v", r)
	}
}
