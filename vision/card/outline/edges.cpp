// Canny edges and contour polygons of the outline finder in one call
// each (edges.h): gocv's Canny on a colour picture and its FindContours
// hand every channel and contour across cgo.
//
// Every entry point catches every exception (an OpenCV exception crossing
// into Go aborts the process); images are only borrowed for the duration
// of a call.

#include "edges.h"

#include <opencv2/imgproc.hpp>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <vector>

namespace {

void set_error(char **err, const char *msg) {
    if (err == NULL) {
        return;
    }
    size_t n = std::strlen(msg);
    char *p = static_cast<char *>(std::malloc(n + 1));
    if (p == NULL) {
        *err = NULL;
        return;
    }
    std::memcpy(p, msg, n + 1);
    *err = p;
}

// Translates the exception being handled into an error message.
void set_current_error(char **err) {
    try {
        throw;
    } catch (const cv::Exception &e) {
        set_error(err, e.what());
    } catch (const std::bad_alloc &) {
        set_error(err, "out of memory");
    } catch (const std::exception &e) {
        set_error(err, e.what());
    } catch (...) {
        set_error(err, "unknown C++ exception");
    }
}

}  // namespace

extern "C" {

void tc_free_error(char *err) { std::free(err); }

// select_gradient writes to gx1, gy1 (CV_16SC1) the x and y gradient of
// the channel of gx, gy (CV_16SC3) with the largest
// |dx| + |dy| at each pixel, the first of equal ones, as cv::Canny does
// with a multi-channel image. gx1 and gy1 may share gx's and gy's buffers
// (row r of the output never lies after row r of the input).
static void select_gradient(const cv::Mat &gx, const cv::Mat &gy, cv::Mat &gx1, cv::Mat &gy1) {
    CV_Assert(gx.channels() == 3 && gy.channels() == 3);
    for (int r = 0; r < gx.rows; r++) {
        const int16_t *ax = gx.ptr<int16_t>(r), *ay = gy.ptr<int16_t>(r);
        int16_t *ox = gx1.ptr<int16_t>(r), *oy = gy1.ptr<int16_t>(r);
        for (int j = 0; j < gx.cols; j++) {
            // Read the pixel's three channels before writing (in place).
            const int16_t x0 = ax[3 * j], x1 = ax[3 * j + 1], x2 = ax[3 * j + 2];
            const int16_t y0 = ay[3 * j], y1 = ay[3 * j + 1], y2 = ay[3 * j + 2];
            const int m0 = std::abs((int)x0) + std::abs((int)y0);
            const int m1 = std::abs((int)x1) + std::abs((int)y1);
            const int m2 = std::abs((int)x2) + std::abs((int)y2);
            const bool c1 = m1 > m0;
            const int m = c1 ? m1 : m0;
            const int16_t vx = c1 ? x1 : x0, vy = c1 ? y1 : y0;
            const bool c2 = m2 > m;
            ox[j] = c2 ? x2 : vx;
            oy[j] = c2 ? y2 : vy;
        }
    }
}

int tc_canny_busy(const uint8_t *src, int rows, int cols, int channels, size_t step, int16_t *dx, int16_t *dy,
                  size_t dstep, uint8_t *edges, size_t estep, double lo, double hi, double max_share, int busy_first,
                  int *busy, char **err) {
    try {
        *busy = 0;
        cv::Mat img(rows, cols, CV_8UC(channels), const_cast<uint8_t *>(src), step);
        cv::Mat gx(rows, cols, CV_16SC(channels), dx, dstep), gy(rows, cols, CV_16SC(channels), dy, dstep);
        cv::Mat e(rows, cols, CV_8UC1, edges, estep);
        // As cv::Canny(img, ...) computes them (canny.cpp: parallelCanny).
        cv::Sobel(img, gx, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
        cv::Sobel(img, gy, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
        if (channels == 3) {
            // cv::Canny keeps, per pixel, the gradient of the channel with
            // the largest |dx| + |dy| (the first of equal ones) and then
            // works on that alone; doing it here once lets both passes
            // take Canny's single-channel path, the same edges.
            cv::Mat gx1(rows, cols, CV_16SC1, dx, (size_t)cols * sizeof(int16_t));
            cv::Mat gy1(rows, cols, CV_16SC1, dy, (size_t)cols * sizeof(int16_t));
            select_gradient(gx, gy, gx1, gy1);
            gx = gx1;
            gy = gy1;
        }
        const double most = max_share * (double)rows * (double)cols;
        if (!busy_first) {
            cv::Canny(gx, gy, e, lo, hi, false);
            if ((double)cv::countNonZero(e) > most) {
                cv::Canny(gx, gy, e, 2 * lo, 2 * hi, false);
                *busy = 1;
            }
            return 0;
        }
        // The edges at the doubled thresholds are a subset of those at
        // lo, hi (the same maxima; fewer seeds and fewer pixels to follow
        // them through): when they alone are too many, so are the others,
        // and the pass at lo, hi is not needed. The same edges either way.
        cv::Canny(gx, gy, e, 2 * lo, 2 * hi, false);
        *busy = 1;
        if ((double)cv::countNonZero(e) > most) {
            return 0;
        }
        cv::Mat e1;
        cv::Canny(gx, gy, e1, lo, hi, false);
        if ((double)cv::countNonZero(e1) > most) {
            return 0;
        }
        e1.copyTo(e);
        *busy = 0;
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

int tc_edge_polys(const uint8_t *data, int rows, int cols, size_t step, double min_extent, double eps, int *xy,
                  int xy_cap, int *ns, int n_cap, int *n_polys, int *n_pts, char **err) {
    try {
        *n_polys = 0;
        *n_pts = 0;
        cv::Mat img(rows, cols, CV_8UC1, const_cast<uint8_t *>(data), step);
        std::vector<std::vector<cv::Point> > cs;
        cv::findContours(img, cs, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        std::vector<cv::Point> ap;
        int np = 0, npt = 0;
        for (size_t i = 0; i < cs.size(); i++) {
            if (cs[i].size() < 2) {
                continue;
            }
            cv::Rect r = cv::boundingRect(cs[i]);
            if (std::max(r.width, r.height) < min_extent) {
                continue;
            }
            cv::approxPolyDP(cs[i], ap, eps, true);
            if (np < n_cap) {
                ns[np] = (int)ap.size();
            }
            np++;
            for (size_t k = 0; k < ap.size(); k++, npt++) {
                if (2 * npt + 1 < xy_cap) {
                    xy[2 * npt] = ap[k].x;
                    xy[2 * npt + 1] = ap[k].y;
                }
            }
        }
        *n_polys = np;
        *n_pts = npt;
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

}  // extern "C"
