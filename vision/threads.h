// C interface of threads.cpp: OpenCV's thread count.
#ifndef TABLECAM_VISION_THREADS_H
#define TABLECAM_VISION_THREADS_H

#ifdef __cplusplus
extern "C" {
#endif

// tc_set_threads sets the threads of OpenCV's parallel loops (cv::setNumThreads;
// process-wide); tc_threads returns them (cv::getNumThreads).
void tc_set_threads(int n);
int tc_threads(void);

#ifdef __cplusplus
}
#endif

#endif
