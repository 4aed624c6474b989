#ifndef TABLECAM_DNN_H
#define TABLECAM_DNN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void* tc_net;

// tc_net_read reads an ONNX model from memory and selects the outputs
// named in outs (nout names). On failure it returns NULL and writes the
// reason into err (at most errlen bytes).
tc_net tc_net_read(const void* data, size_t len, const char** outs, int nout, char* err, size_t errlen);

void tc_net_close(tc_net net);

// tc_net_run feeds one NCHW float32 input and runs the model. out_sizes
// receives each output's element count; the outputs stay inside the net
// until the next run and are read with tc_net_output. It returns 0, or -1
// with OpenCV's message in err.
int tc_net_run(tc_net net, const float* in, const int* shape, int dims,
               size_t* out_sizes, int nout, char* err, size_t errlen);

// tc_net_output copies output i of the last run into dst (n elements) and
// its shape into shape (at most 8 dimensions); it returns the number of
// dimensions, or -1.
int tc_net_output(tc_net net, int i, float* dst, size_t n, int* shape);

#ifdef __cplusplus
}
#endif

#endif
