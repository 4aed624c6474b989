// OpenCV's thread count, for threads.go (threads.h).

#include "threads.h"

#include <opencv2/core.hpp>

extern "C" {

void tc_set_threads(int n) {
    try {
        cv::setNumThreads(n);
    } catch (...) {
    }
}

int tc_threads(void) {
    try {
        return cv::getNumThreads();
    } catch (...) {
        return 0;
    }
}

}  // extern "C"
