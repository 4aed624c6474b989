package dnn

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readF32(t *testing.T, name string) []float32 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

type probeShapes struct {
	Input, Heat, Emb []int
}

func loadProbe(t *testing.T) (*Net, Tensor, probeShapes) {
	t.Helper()
	var sh probeShapes
	b, err := os.ReadFile(filepath.Join("testdata", "probe.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sh); err != nil {
		t.Fatal(err)
	}
	net, err := Load(filepath.Join("testdata", "probe.onnx"), "heat", "emb")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { net.Close() })
	return net, Tensor{Shape: sh.Input, Data: readF32(t, "probe_in.f32")}, sh
}

func maxDiff(a, b []float32) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(float64(a[i]-b[i])))
	}
	return d
}

// OpenCV's dnn module gives PyTorch's outputs within 1e-4 for a model with
// every kind of layer the readers use (train/probe.py writes the model,
// its input and PyTorch's outputs).
func TestProbeMatchesPyTorch(t *testing.T) {
	net, in, sh := loadProbe(t)

	outs, err := net.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []struct {
		name  string
		shape []int
	}{{"probe_heat.f32", sh.Heat}, {"probe_emb.f32", sh.Emb}} {
		got := outs[i]
		if len(got.Shape) != len(want.shape) {
			t.Fatalf("output %d has shape %v, want %v", i, got.Shape, want.shape)
		}
		for d := range got.Shape {
			if got.Shape[d] != want.shape[d] {
				t.Fatalf("output %d has shape %v, want %v", i, got.Shape, want.shape)
			}
		}
		ref := readF32(t, want.name)
		if len(ref) != len(got.Data) {
			t.Fatalf("output %d: %d values, PyTorch gave %d", i, len(got.Data), len(ref))
		}
		if d := maxDiff(got.Data, ref); d > 1e-4 {
			t.Errorf("output %d differs from PyTorch's by %g", i, d)
		}
	}
}

// The same input gives the same bits every time.
func TestRunIsDeterministic(t *testing.T) {
	net, in, _ := loadProbe(t)
	first, err := net.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		again, err := net.Run(in)
		if err != nil {
			t.Fatal(err)
		}
		for i := range first {
			for j := range first[i].Data {
				if math.Float32bits(first[i].Data[j]) != math.Float32bits(again[i].Data[j]) {
					t.Fatalf("output %d value %d: %g then %g", i, j, first[i].Data[j], again[i].Data[j])
				}
			}
		}
	}
}

// A missing, empty, cut or garbled model file, and an input of the wrong
// shape, are errors that name the file; none of them ends the process.
func TestBadModelsAndInputsAreErrors(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join("testdata", "probe.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	garbled := append([]byte(nil), good...)
	for i := 200; i < len(garbled); i += 7 {
		garbled[i] ^= 0x5a
	}
	for name, data := range map[string][]byte{
		"empty.onnx":   {},
		"cut.onnx":     good[:len(good)/2],
		"garbled.onnx": garbled,
		"text.onnx":    []byte("this is not a model\n"),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		net, err := Load(p, "heat", "emb")
		if err == nil {
			// A garbled file may still parse; then running it must not crash.
			_, rerr := net.Run(Tensor{Shape: []int{1, 3, 32, 48}, Data: make([]float32, 3*32*48)})
			net.Close()
			t.Logf("%s loaded; run: %v", name, rerr)
			continue
		}
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: the error does not name the file: %v", name, err)
		}
	}
	if _, err := Load(filepath.Join("testdata", "probe.onnx"), "heat", "boxes"); err == nil || !strings.Contains(err.Error(), `no output "boxes"`) {
		t.Errorf("an output the model lacks: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.onnx"), "heat"); err == nil || !strings.Contains(err.Error(), "missing.onnx") {
		t.Errorf("missing file: %v", err)
	}

	net, in, _ := loadProbe(t)
	wrong := Tensor{Shape: []int{1, 2, 32, 48}, Data: make([]float32, 2*32*48)}
	if _, err := net.Run(wrong); err == nil {
		t.Error("a 2-channel input to a 3-channel model ran")
	}
	if _, err := net.Run(Tensor{Shape: []int{1, 3, 32, 48}, Data: in.Data[:10]}); err == nil {
		t.Error("an input shorter than its shape ran")
	}
	// The model still runs after refusing inputs.
	if _, err := net.Run(in); err != nil {
		t.Error(err)
	}
	net.Close()
	if _, err := net.Run(in); err == nil {
		t.Error("Run after Close")
	}
}
