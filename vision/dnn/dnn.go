// Package dnn runs the small learned models of tablecam's readers: ONNX
// files read by OpenCV's dnn module and run on the CPU, with plain float32
// tensors in and out, so that callers hold no OpenCV objects but the Net.
//
// A model that OpenCV cannot read, or an input it refuses, is an error,
// never a crash:
//
//	net, err := dnn.Load("finder.onnx", "heat", "size")
//	if err != nil {
//		return err // names the file and OpenCV's reason
//	}
//	defer net.Close()
//	outs, err := net.Run(dnn.Tensor{Shape: []int{1, 3, 256, 256}, Data: pixels})
//
// The number of threads OpenCV uses is set process-wide (see
// vision.SetOpenCVThreads); tablecam runs models on one.
package dnn

/*
#cgo pkg-config: opencv4
#cgo CXXFLAGS: -std=c++11
#include <stdlib.h>
#include "dnn.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"unsafe"
)

// MaxModelBytes bounds the size of a model file read into memory.
const MaxModelBytes = 64 << 20

// Tensor is a dense float32 array in row-major order (NCHW for images).
type Tensor struct {
	// Name is the model's name for an output; inputs need none.
	Name  string
	Shape []int
	Data  []float32
}

// Len is the number of elements the shape holds.
func (t Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Net is a loaded model. It is not safe for concurrent use.
type Net struct {
	p    C.tc_net
	name string
	outs []string
}

// Load reads the ONNX model at path. outputs names the model's outputs
// that Run returns, in that order (the names given at export).
func Load(path string, outputs ...string) (*Net, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	if fi.Size() > MaxModelBytes {
		return nil, fmt.Errorf("model %s: %d bytes, more than the %d a model may have", path, fi.Size(), MaxModelBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	return LoadBytes(path, data, outputs...)
}

// LoadBytes reads an ONNX model from memory; name is used in errors.
func LoadBytes(name string, data []byte, outputs ...string) (*Net, error) {
	if len(outputs) == 0 {
		return nil, fmt.Errorf("model %s: no outputs named", name)
	}
	if len(data) == 0 {
		return nil, fmt.Errorf("model %s: the file is empty", name)
	}
	if len(data) > MaxModelBytes {
		return nil, fmt.Errorf("model %s: %d bytes, more than the %d a model may have", name, len(data), MaxModelBytes)
	}
	cnames := make([]*C.char, len(outputs))
	for i, o := range outputs {
		cnames[i] = C.CString(o)
	}
	defer func() {
		for _, c := range cnames {
			C.free(unsafe.Pointer(c))
		}
	}()
	// The data and the names are copied into C memory for the call: cgo
	// does not let C keep Go pointers to Go pointers.
	cdata := C.CBytes(data)
	defer C.free(cdata)
	carr := (**C.char)(C.malloc(C.size_t(len(cnames)) * C.size_t(unsafe.Sizeof(cnames[0]))))
	defer C.free(unsafe.Pointer(carr))
	copy(unsafe.Slice(carr, len(cnames)), cnames)
	var msg [1024]C.char
	p := C.tc_net_read(cdata, C.size_t(len(data)), carr, C.int(len(cnames)), &msg[0], C.size_t(len(msg)))
	if p == nil {
		return nil, fmt.Errorf("model %s: OpenCV cannot read it: %s", name, C.GoString(&msg[0]))
	}
	return &Net{p: p, name: name, outs: append([]string(nil), outputs...)}, nil
}

// Name is the file the model was read from.
func (n *Net) Name() string { return n.name }

// Outputs names the tensors Run returns, in order.
func (n *Net) Outputs() []string { return append([]string(nil), n.outs...) }

// Close frees the model. Closing twice is harmless.
func (n *Net) Close() error {
	if n.p != nil {
		C.tc_net_close(n.p)
		n.p = nil
	}
	return nil
}

// maxDims is the most dimensions a tensor passed to or from OpenCV has.
const maxDims = 8

// Run feeds one input tensor and returns the outputs named at Load, in
// that order.
func (n *Net) Run(in Tensor) ([]Tensor, error) {
	if n.p == nil {
		return nil, errors.New("dnn: Run on a closed model")
	}
	if len(in.Shape) == 0 || len(in.Shape) > maxDims || in.Len() != len(in.Data) || len(in.Data) == 0 {
		return nil, fmt.Errorf("model %s: input of shape %v with %d values", n.name, in.Shape, len(in.Data))
	}
	shape := make([]C.int, len(in.Shape))
	for i, d := range in.Shape {
		if d <= 0 {
			return nil, fmt.Errorf("model %s: input shape %v", n.name, in.Shape)
		}
		shape[i] = C.int(d)
	}
	sizes := make([]C.size_t, len(n.outs))
	var msg [1024]C.char
	rc := C.tc_net_run(n.p, (*C.float)(unsafe.Pointer(&in.Data[0])), &shape[0], C.int(len(shape)),
		&sizes[0], C.int(len(n.outs)), &msg[0], C.size_t(len(msg)))
	if rc != 0 {
		return nil, fmt.Errorf("model %s: run: %s", n.name, C.GoString(&msg[0]))
	}
	out := make([]Tensor, len(n.outs))
	for i := range out {
		data := make([]float32, int(sizes[i]))
		var dims [maxDims]C.int
		var dst *C.float
		if len(data) > 0 {
			dst = (*C.float)(unsafe.Pointer(&data[0]))
		}
		nd := int(C.tc_net_output(n.p, C.int(i), dst, sizes[i], &dims[0]))
		if nd < 0 {
			return nil, fmt.Errorf("model %s: output %d cannot be read", n.name, i)
		}
		t := Tensor{Name: n.outs[i], Shape: make([]int, nd), Data: data}
		for d := range nd {
			t.Shape[d] = int(dims[d])
		}
		out[i] = t
	}
	return out, nil
}
