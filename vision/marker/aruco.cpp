// tablecam's own binding of OpenCV 4.6's aruco module (gocv's contrib
// package does not build against Debian's OpenCV). See aruco.h.
//
// Rules kept here: every entry point catches every exception (an OpenCV
// exception crossing into Go aborts the process); input images are only
// borrowed for the duration of a call; all per-frame buffers live in the
// detector and are reused, so a detection allocates nothing that outlives it.

#include "aruco.h"

#include <opencv2/aruco.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/imgproc/imgproc_c.h>

#include <algorithm>
#include <climits>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <new>
#include <vector>

namespace {

std::atomic<long> live_objects(0);

const int kPredefinedDicts = 21;  // DICT_4X4_50 .. DICT_APRILTAG_36h11

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
    live_objects++;
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

bool valid_dict(int dict) { return dict >= 0 && dict < kPredefinedDicts; }

int channels_of(int type) {
    switch (type) {
        case CV_8UC1:
            return 1;
        case CV_8UC3:
            return 3;
        case CV_8UC4:
            return 4;
    }
    return 0;
}

}  // namespace

struct TcArucoDetector {
    cv::Ptr<cv::aruco::Dictionary> dict;
    cv::Ptr<cv::aruco::DetectorParameters> params;
    int modules;  // marker side in modules, black border included
    double scale;
    bool refine;
    double min_side;
    double default_min_perimeter_rate;

    // Reused per-frame buffers.
    cv::Mat gray;
    cv::Mat small;
    std::vector<std::vector<cv::Point2f> > corners;
    std::vector<int> ids;
    std::vector<cv::Point2f> quad;
    std::vector<int> out_ids;
    std::vector<float> out_corners;

    TcArucoDetector() { live_objects++; }
    ~TcArucoDetector() { live_objects--; }
};

namespace {

double side_of(const float *c) {
    double side = 0;
    for (int k = 0; k < 4; k++) {
        double dx = c[2 * ((k + 1) % 4)] - c[2 * k], dy = c[2 * ((k + 1) % 4) + 1] - c[2 * k + 1];
        side += std::sqrt(dx * dx + dy * dy) / 4;
    }
    return side;
}

// remove_duplicates keeps the largest of the markers with the same id whose
// centres are within half a side: with the small minMarkerDistanceRate a
// marker can come out twice, e.g. as its outer square and, when blurred, as
// the inner edge of its black border.
void remove_duplicates(TcArucoDetector *d) {
    size_t n = d->out_ids.size();
    if (n < 2) {
        return;
    }
    std::vector<bool> drop(n, false);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            if (drop[i] || drop[j] || d->out_ids[i] != d->out_ids[j]) {
                continue;
            }
            const float *a = &d->out_corners[8 * i], *b = &d->out_corners[8 * j];
            double ax = (a[0] + a[2] + a[4] + a[6]) / 4, ay = (a[1] + a[3] + a[5] + a[7]) / 4;
            double bx = (b[0] + b[2] + b[4] + b[6]) / 4, by = (b[1] + b[3] + b[5] + b[7]) / 4;
            double sa = side_of(a), sb = side_of(b);
            if (std::hypot(ax - bx, ay - by) < 0.5 * std::max(sa, sb)) {
                drop[sa >= sb ? j : i] = true;
            }
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (drop[i]) {
            continue;
        }
        d->out_ids[k] = d->out_ids[i];
        std::copy(d->out_corners.begin() + 8 * i, d->out_corners.begin() + 8 * i + 8, d->out_corners.begin() + 8 * k);
        k++;
    }
    d->out_ids.resize(k);
    d->out_corners.resize(8 * k);
}

}  // namespace

extern "C" {

int tc_aruco_dict_info(int dict, int *n_ids, int *bits, char **err) {
    try {
        if (!valid_dict(dict)) {
            set_error(err, "unknown ArUco dictionary");
            return -1;
        }
        cv::Ptr<cv::aruco::Dictionary> d = cv::aruco::getPredefinedDictionary(dict);
        *n_ids = d->bytesList.rows;
        *bits = d->markerSize;
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

TcArucoDetector *tc_aruco_detector_new(int dict, double scale, int refine, double min_side, char **err) {
    TcArucoDetector *d = NULL;
    try {
        if (!valid_dict(dict)) {
            set_error(err, "unknown ArUco dictionary");
            return NULL;
        }
        if (!(scale > 0 && scale <= 1)) {
            set_error(err, "scale must be in (0, 1]");
            return NULL;
        }
        d = new TcArucoDetector();
        d->dict = cv::aruco::getPredefinedDictionary(dict);
        d->params = cv::aruco::DetectorParameters::create();
        // Corners are refined here, on the full-resolution image, not by
        // detectMarkers on the (possibly downscaled) detection image.
        d->params->cornerRefinementMethod = cv::aruco::CORNER_REFINE_NONE;
        d->modules = d->dict->markerSize + 2 * d->params->markerBorderBits;
        d->scale = scale;
        d->refine = refine != 0;
        d->min_side = min_side > 0 ? min_side : 0;
        d->default_min_perimeter_rate = d->params->minMarkerPerimeterRate;
        // Candidates closer than minMarkerDistanceRate x perimeter are merged
        // and only one of them is decoded. A marker and the edge of its
        // one-module quiet zone are sqrt(2) modules apart, which the default
        // rate (0.05, i.e. 0.2 sides) merges for 6x6 and 7x7 markers (and
        // nearly for 5x5): on a dark surround the quiet-zone square wins and
        // the marker is never read. Keep the rate well under that distance.
        d->params->minMarkerDistanceRate = std::min(d->params->minMarkerDistanceRate, 0.25 / d->modules);
        return d;
    } catch (...) {
        delete d;
        set_current_error(err);
        return NULL;
    }
}

void tc_aruco_detector_free(TcArucoDetector *d) { delete d; }

int tc_aruco_results(TcArucoDetector *d, int *ids, float *corners, int cap) {
    if (d == NULL) {
        return 0;
    }
    int n = static_cast<int>(d->out_ids.size());
    int m = std::min(n, std::max(cap, 0));
    if (m > 0) {
        std::memcpy(ids, d->out_ids.data(), sizeof(int) * m);
        std::memcpy(corners, d->out_corners.data(), sizeof(float) * 8 * m);
    }
    return n;
}

int tc_aruco_detect(TcArucoDetector *d, const uint8_t *data, int rows, int cols, int type, size_t step,
                    int *ids, float *corners, int cap, char **err) {
    try {
        if (d == NULL) {
            set_error(err, "detector is closed");
            return -1;
        }
        d->out_ids.clear();
        d->out_corners.clear();
        int ch = channels_of(type);
        if (ch == 0) {
            set_error(err, "image must be 8-bit grey, BGR or BGRA");
            return -1;
        }
        if (data == NULL || rows <= 0 || cols <= 0 || step < static_cast<size_t>(cols) * ch) {
            set_error(err, "invalid image buffer");
            return -1;
        }
        // Borrowed: src and, for grey input, *gray point at the caller's
        // pixels only until this call returns.
        const cv::Mat src(rows, cols, type, const_cast<uint8_t *>(data), step);
        const cv::Mat *gray = &src;
        if (ch == 3) {
            cv::cvtColor(src, d->gray, cv::COLOR_BGR2GRAY);
            gray = &d->gray;
        } else if (ch == 4) {
            cv::cvtColor(src, d->gray, cv::COLOR_BGRA2GRAY);
            gray = &d->gray;
        }

        const cv::Mat *det = gray;
        double sx = 1, sy = 1;  // full-resolution pixels per detection pixel
        if (d->scale < 1) {
            int w = std::max(1, static_cast<int>(std::lround(cols * d->scale)));
            int h = std::max(1, static_cast<int>(std::lround(rows * d->scale)));
            if (w < cols || h < rows) {
                cv::resize(*gray, d->small, cv::Size(w, h), 0, 0, cv::INTER_AREA);
                det = &d->small;
                sx = static_cast<double>(cols) / w;
                sy = static_cast<double>(rows) / h;
            }
        }
        // Skip contours that cannot become a marker of min_side px.
        double rate = d->default_min_perimeter_rate;
        if (d->min_side > 0) {
            double maxdim = std::max(det->cols, det->rows);
            double perimeter = 0.8 * 4 * d->min_side / std::max(sx, sy);
            rate = std::max(rate, perimeter / maxdim);
        }
        d->params->minMarkerPerimeterRate = rate;

        d->corners.clear();
        d->ids.clear();
        cv::aruco::detectMarkers(*det, d->dict, d->corners, d->ids, d->params);

        for (size_t i = 0; i < d->ids.size(); i++) {
            const std::vector<cv::Point2f> &c = d->corners[i];
            if (c.size() != 4) {
                continue;
            }
            d->quad.resize(4);
            double side = 0;
            for (int k = 0; k < 4; k++) {
                // Pixel centres sit at integer coordinates in both images.
                d->quad[k].x = static_cast<float>((c[k].x + 0.5) * sx - 0.5);
                d->quad[k].y = static_cast<float>((c[k].y + 0.5) * sy - 0.5);
            }
            for (int k = 0; k < 4; k++) {
                cv::Point2f e = d->quad[(k + 1) % 4] - d->quad[k];
                side += std::sqrt(e.x * e.x + e.y * e.y) / 4;
            }
            if (side < d->min_side) {
                continue;
            }
            if (d->refine) {
                // The search window stays inside one module so that the
                // marker's inner edges do not pull the corner inwards.
                int hw = static_cast<int>(0.75 * side / d->modules);
                hw = std::min(12, std::max(2, hw));
                if (gray->cols >= 2 * hw + 5 && gray->rows >= 2 * hw + 5) {
                    cv::cornerSubPix(*gray, d->quad, cv::Size(hw, hw), cv::Size(-1, -1),
                                     cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 30, 0.01));
                }
            }
            d->out_ids.push_back(d->ids[i]);
            for (int k = 0; k < 4; k++) {
                d->out_corners.push_back(d->quad[k].x);
                d->out_corners.push_back(d->quad[k].y);
            }
        }
        remove_duplicates(d);
        return tc_aruco_results(d, ids, corners, cap);
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

int tc_aruco_draw(int dict, int id, int side, uint8_t *data, int rows, int cols, size_t step, int x, int y,
                  char **err) {
    try {
        if (!valid_dict(dict)) {
            set_error(err, "unknown ArUco dictionary");
            return -1;
        }
        if (data == NULL || rows <= 0 || cols <= 0 || step < static_cast<size_t>(cols)) {
            set_error(err, "invalid image buffer");
            return -1;
        }
        if (side <= 0 || x < 0 || y < 0 || x > cols - side || y > rows - side) {
            set_error(err, "marker does not fit the image");
            return -1;
        }
        cv::Ptr<cv::aruco::Dictionary> d = cv::aruco::getPredefinedDictionary(dict);
        if (id < 0 || id >= d->bytesList.rows) {
            set_error(err, "marker id out of range");
            return -1;
        }
        if (side < d->markerSize + 2) {
            set_error(err, "marker side is smaller than one pixel per module");
            return -1;
        }
        cv::Mat img(rows, cols, CV_8UC1, data, step);
        cv::Mat marker;
        cv::aruco::drawMarker(d, id, side, marker, 1);
        marker.copyTo(img(cv::Rect(x, y, side, side)));
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

void tc_aruco_free_error(char *err) {
    if (err != NULL) {
        live_objects--;
        std::free(err);
    }
}

long tc_aruco_live_objects(void) { return live_objects.load(); }

long long tc_aruco_malloc_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 mi = mallinfo2();
    return static_cast<long long>(mi.uordblks + mi.hblkhd);
#else
    return -1;
#endif
}

}  // extern "C"

namespace {

// put_poly writes the corners of ap as entry i of polys when it fits.
void put_poly(TcDarkPoly *polys, int cap, int i, int kind, const std::vector<cv::Point> &ap) {
    if (i >= cap) {
        return;
    }
    TcDarkPoly &p = polys[i];
    p.kind = kind;
    p.n = static_cast<int>(ap.size());
    for (size_t k = 0; k < ap.size() && k < 8; k++) {
        p.x[k] = ap[k].x;
        p.y[k] = ap[k].y;
    }
}

}  // namespace

extern "C" {

}  // extern "C"

namespace {

// TcDarkOut gathers tc_dark_polys' results.
struct TcDarkOut {
    double min_perim, max_perim, blob_min, blob_max;
    int want_blobs, cut;
    TcDarkPoly *polys;
    int poly_cap, np;
    int *blobs;
    int blob_cap, nb;
    std::vector<cv::Point> ap, fine;
};

// dark_contour takes one contour c of tc_dark_polys into o.
void dark_contour(const std::vector<cv::Point> &c, TcDarkOut &o) {
    if (c.size() < 4) {
        return;
    }
    cv::Rect r = cv::boundingRect(c);
    if (o.want_blobs) {
        double w = r.width, h = r.height;
        if (w >= o.blob_min && h >= o.blob_min && w <= o.blob_max && h <= o.blob_max &&
            std::max(w, h) <= 1.8 * std::min(w, h)) {
            if (o.nb < o.blob_cap) {
                o.blobs[4 * o.nb] = r.x;
                o.blobs[4 * o.nb + 1] = r.y;
                o.blobs[4 * o.nb + 2] = r.width;
                o.blobs[4 * o.nb + 3] = r.height;
            }
            o.nb++;
        }
    }
    double box = 2.0 * (r.width + r.height);
    if (box < o.min_perim || box > 1.5 * o.max_perim) {
        return;
    }
    double perim = cv::arcLength(c, true);
    if (perim < o.min_perim || perim > o.max_perim) {
        return;
    }
    cv::approxPolyDP(c, o.ap, std::max(1.0, 0.04 * perim), true);
    if (o.ap.size() == 4) {
        put_poly(o.polys, o.poly_cap, o.np++, 0, o.ap);
        if (o.cut) {
            cv::approxPolyDP(c, o.fine, std::max(1.0, 0.015 * perim), true);
            if (o.fine.size() >= 5 && o.fine.size() <= 8) {
                put_poly(o.polys, o.poly_cap, o.np++, 1, o.fine);
            }
        }
    } else if (o.cut && o.ap.size() >= 5 && o.ap.size() <= 8) {
        put_poly(o.polys, o.poly_cap, o.np++, 2, o.ap);
    }
}

}  // namespace

extern "C" {

// tc_dark_polys takes the contours as cv::findContours finds them (the
// image padded by a pixel of zeros, RETR_LIST, CHAIN_APPROX_SIMPLE) and in
// its order (the last found first), without making a vector of each: on
// a textured table most are specks of a few pixels, skipped before their
// points are copied.
int tc_dark_polys(const uint8_t *data, int rows, int cols, size_t step, double min_perim, double max_perim,
                  int want_blobs, double blob_min, double blob_max, int cut, TcDarkPoly *polys, int poly_cap,
                  int *n_polys, int *blobs, int blob_cap, int *n_blobs, char **err) {
    // The scanner and its storage are released however the search ends.
    struct Search {
        CvMemStorage *storage = 0;
        CvContourScanner scanner = 0;
        ~Search() {
            if (scanner) {
                cvEndFindContours(&scanner);
            }
            if (storage) {
                cvReleaseMemStorage(&storage);
            }
        }
    } search;
    try {
        *n_polys = 0;
        *n_blobs = 0;
        cv::Mat bin(rows, cols, CV_8UC1, const_cast<uint8_t *>(data), step), padded;
        cv::copyMakeBorder(bin, padded, 1, 1, 1, 1, cv::BORDER_CONSTANT | cv::BORDER_ISOLATED, cv::Scalar(0));
        search.storage = cvCreateMemStorage(0);
        CvMat cim = cvMat(padded);
        search.scanner = cvStartFindContours(&cim, search.storage, sizeof(CvContour), CV_RETR_LIST, CV_CHAIN_APPROX_SIMPLE,
                                             cvPoint(-1, -1));
        std::vector<CvSeq *> found;
        for (CvSeq *c = cvFindNextContour(search.scanner); c != 0; c = cvFindNextContour(search.scanner)) {
            found.push_back(c);
        }
        TcDarkOut o{min_perim, max_perim, blob_min, blob_max, want_blobs, cut, polys, poly_cap, 0, blobs, blob_cap, 0,
                    {}, {}};
        std::vector<cv::Point> pts;
        for (size_t i = found.size(); i-- > 0;) {
            CvSeq *c = found[i];
            if (c->total < 4) {
                continue;
            }
            pts.resize(c->total);
            cvCvtSeqToArray(c, pts.data());
            dark_contour(pts, o);
        }
        *n_polys = o.np;
        *n_blobs = o.nb;
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

// tc_dark_polys_vec is tc_dark_polys with the contours of cv::findContours
// (the reference tc_dark_polys is tested against).
int tc_dark_polys_vec(const uint8_t *data, int rows, int cols, size_t step, double min_perim, double max_perim,
                      int want_blobs, double blob_min, double blob_max, int cut, TcDarkPoly *polys, int poly_cap,
                      int *n_polys, int *blobs, int blob_cap, int *n_blobs, char **err) {
    try {
        *n_polys = 0;
        *n_blobs = 0;
        cv::Mat bin(rows, cols, CV_8UC1, const_cast<uint8_t *>(data), step);
        std::vector<std::vector<cv::Point> > cs;
        cv::findContours(bin, cs, cv::RETR_LIST, cv::CHAIN_APPROX_SIMPLE);
        TcDarkOut o{min_perim, max_perim, blob_min, blob_max, want_blobs, cut, polys, poly_cap, 0, blobs, blob_cap, 0,
                    {}, {}};
        for (size_t i = 0; i < cs.size(); i++) {
            dark_contour(cs[i], o);
        }
        *n_polys = o.np;
        *n_blobs = o.nb;
        return 0;
    } catch (...) {
        set_current_error(err);
        return -1;
    }
}

}  // extern "C"
