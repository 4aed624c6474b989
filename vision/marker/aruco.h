// C interface of tablecam's own ArUco binding (aruco.cpp), used by aruco.go.
//
// Every function catches all C++ exceptions: an error comes back as a
// malloc'd message in *err that the caller releases with tc_aruco_free_error.
// Images are passed as raw 8-bit pixel buffers (1, 3 or 4 channels) with an
// explicit row step; the C++ side wraps them in a cv::Mat header without
// copying and never keeps a reference after the call returns.
#ifndef TABLECAM_VISION_ARUCO_H
#define TABLECAM_VISION_ARUCO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct TcArucoDetector TcArucoDetector;

// tc_aruco_dict_info reports the number of ids and the bits per side of the
// predefined dictionary dict (a cv::aruco::PREDEFINED_DICTIONARY_NAME).
// Returns 0, or -1 with *err set.
int tc_aruco_dict_info(int dict, int *n_ids, int *bits, char **err);

// tc_aruco_detector_new creates a detector; scale is in (0, 1], refine != 0
// refines corners with cornerSubPix on the full-resolution grey image,
// min_side (px, full resolution) drops smaller markers. Returns NULL with
// *err set on failure. Free with tc_aruco_detector_free.
TcArucoDetector *tc_aruco_detector_new(int dict, double scale, int refine, double min_side, char **err);

void tc_aruco_detector_free(TcArucoDetector *d);

// tc_aruco_detect finds markers in the rows x cols image at data (cv type
// CV_8UC1, CV_8UC3 (BGR) or CV_8UC4 (BGRA); step bytes per row). It keeps
// the results in the detector and copies the first min(n, cap) of them to
// ids[i] and corners[8*i .. 8*i+7] (x0 y0 x1 y1 x2 y2 x3 y3). Returns n, the
// number of markers found, or -1 with *err set. When n > cap, fetch all of
// them with tc_aruco_results.
int tc_aruco_detect(TcArucoDetector *d, const uint8_t *data, int rows, int cols, int type, size_t step,
                    int *ids, float *corners, int cap, char **err);

// tc_aruco_results copies the first min(n, cap) results of the last
// tc_aruco_detect; returns n.
int tc_aruco_results(TcArucoDetector *d, int *ids, float *corners, int cap);

// tc_aruco_draw draws marker id of dict, side px wide, at (x, y) into the
// CV_8UC1 image at data (rows x cols, step bytes per row). The caller
// provides the quiet zone. Returns 0, or -1 with *err set.
int tc_aruco_draw(int dict, int id, int side, uint8_t *data, int rows, int cols, size_t step, int x, int y,
                  char **err);

// TcDarkPoly is a polygon of tc_dark_polys, in pixels of its binary image.
// kind 0: a contour's four-cornered approximation; kind 1: a finer
// approximation (5 to 8 corners) of the same contour as the kind-0 entry
// before it; kind 2: a contour's approximation of 5 to 8 corners.
typedef struct {
    int kind;
    int n;
    int x[8];
    int y[8];
} TcDarkPoly;

// tc_dark_polys finds the contours of the 255 regions in the CV_8UC1 binary
// image at data (rows x cols, step bytes per row; only read) and, for each
// one of at least 4 points whose bounding box's perimeter is at least
// min_perim and at most 1.5·max_perim and whose own perimeter is in
// [min_perim, max_perim], approximates it (Douglas–Peucker, epsilon
// max(1, 0.04·perimeter)): four corners make a kind-0 entry; with cut != 0,
// that entry is followed by a kind-1 one when the finer approximation
// (epsilon max(1, 0.015·perimeter)) has 5 to 8 corners, and 5 to 8 corners
// make a kind-2 entry. With want_blobs != 0, the bounding box (x, y, w, h)
// of every contour of at least 4 points with w and h in [blob_min,
// blob_max] and max(w, h) ≤ 1.8·min(w, h) goes to blobs. The first
// poly_cap polygons and blob_cap boxes are written; *n_polys and *n_blobs
// get the totals. Returns 0, or -1 with *err set.
int tc_dark_polys(const uint8_t *data, int rows, int cols, size_t step, double min_perim, double max_perim,
                  int want_blobs, double blob_min, double blob_max, int cut, TcDarkPoly *polys, int poly_cap,
                  int *n_polys, int *blobs, int blob_cap, int *n_blobs, char **err);

// tc_dark_polys_vec is tc_dark_polys with the contours of
// cv::findContours (tests: the reference tc_dark_polys is checked against).
int tc_dark_polys_vec(const uint8_t *data, int rows, int cols, size_t step, double min_perim, double max_perim,
                      int want_blobs, double blob_min, double blob_max, int cut, TcDarkPoly *polys, int poly_cap,
                      int *n_polys, int *blobs, int blob_cap, int *n_blobs, char **err);

void tc_aruco_free_error(char *err);

// tc_aruco_live_objects counts the binding's own live heap objects
// (detectors and unreleased error messages), for leak tests.
long tc_aruco_live_objects(void);

// tc_aruco_malloc_in_use returns the bytes the C heap (all malloc arenas,
// OpenCV's allocations included) has handed out and not yet freed, or -1
// where the C library cannot tell (glibc before 2.33). For leak tests.
long long tc_aruco_malloc_in_use(void);

#ifdef __cplusplus
}
#endif

#endif
