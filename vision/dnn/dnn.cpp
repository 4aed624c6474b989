#include "dnn.h"

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

#include <cstring>
#include <exception>
#include <string>
#include <vector>

namespace {

struct Net {
    cv::dnn::Net net;
    std::vector<cv::String> names;
    std::vector<cv::Mat> outs;
};

void put(char* err, size_t errlen, const char* msg) {
    if (errlen == 0) return;
    std::strncpy(err, msg, errlen - 1);
    err[errlen - 1] = 0;
}

}  // namespace

// OpenCV reports a bad model or a bad input by throwing; an exception that
// crosses into Go aborts the process, so every entry point catches.

tc_net tc_net_read(const void* data, size_t len, const char** outs, int nout, char* err, size_t errlen) {
    Net* n = nullptr;
    try {
        n = new Net();
        n->net = cv::dnn::readNetFromONNX(static_cast<const char*>(data), len);
        if (n->net.empty()) {
            delete n;
            put(err, errlen, "the model holds no layers");
            return nullptr;
        }
        n->net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        n->net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        for (int i = 0; i < nout; i++) {
            if (n->net.getLayerId(outs[i]) < 0) {
                std::string msg = std::string("the model has no output \"") + outs[i] + "\"";
                delete n;
                put(err, errlen, msg.c_str());
                return nullptr;
            }
            n->names.push_back(outs[i]);
        }
        return n;
    } catch (const std::exception& e) {
        delete n;
        put(err, errlen, e.what());
    } catch (...) {
        delete n;
        put(err, errlen, "unknown error");
    }
    return nullptr;
}

void tc_net_close(tc_net net) { delete static_cast<Net*>(net); }

int tc_net_run(tc_net net, const float* in, const int* shape, int dims,
               size_t* out_sizes, int nout, char* err, size_t errlen) {
    Net* n = static_cast<Net*>(net);
    try {
        // The blob wraps the caller's memory; setInput copies it.
        cv::Mat blob(dims, shape, CV_32F, const_cast<float*>(in));
        n->net.setInput(blob);
        n->outs.clear();
        n->net.forward(n->outs, n->names);
        if (static_cast<int>(n->outs.size()) != nout) {
            put(err, errlen, "the model gave a different number of outputs");
            return -1;
        }
        for (int i = 0; i < nout; i++) {
            if (n->outs[i].type() != CV_32F || !n->outs[i].isContinuous()) {
                put(err, errlen, "an output is not a continuous float32 tensor");
                return -1;
            }
            out_sizes[i] = n->outs[i].total();
        }
        return 0;
    } catch (const std::exception& e) {
        put(err, errlen, e.what());
    } catch (...) {
        put(err, errlen, "unknown error");
    }
    return -1;
}

int tc_net_output(tc_net net, int i, float* dst, size_t count, int* shape) {
    Net* n = static_cast<Net*>(net);
    if (i < 0 || i >= static_cast<int>(n->outs.size())) return -1;
    const cv::Mat& m = n->outs[i];
    if (m.total() != count || m.dims > 8) return -1;
    std::memcpy(dst, m.ptr<float>(), count * sizeof(float));
    for (int d = 0; d < m.dims; d++) shape[d] = m.size[d];
    return m.dims;
}
