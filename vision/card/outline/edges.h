// C interface of edges.cpp, the outline finder's Canny edges and contour
// polygons.
//
// A function that fails returns -1 with a malloc'd message in *err that the
// caller releases with tc_free_error. Images are passed as raw 8-bit pixel
// buffers with an explicit row step and only read during the call.
#ifndef TABLECAM_VISION_CARD_OUTLINE_EDGES_H
#define TABLECAM_VISION_CARD_OUTLINE_EDGES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// tc_canny_busy writes to edges (CV_8UC1, rows x cols, estep bytes per row)
// the Canny edges (3x3 Sobel, L1 gradient) of the 8-bit image at src
// (channels 1 or 3, step bytes per row; only read) with thresholds lo and
// hi; when more than max_share of its pixels are edges, the edges at 2·lo
// and 2·hi instead, from the same gradients (*busy = 1, else 0). dx and dy
// (CV_16S with the image's channels, dstep bytes per row) are scratch for
// the gradients. The edges are those of cv::Canny on the image. busy_first
// (the last image was busy) computes the edges at 2·lo and 2·hi first,
// which spares the pass at lo and hi when those alone are too many; the
// result is the same. Returns 0, or -1 with *err set.
int tc_canny_busy(const uint8_t *src, int rows, int cols, int channels, size_t step, int16_t *dx, int16_t *dy,
                  size_t dstep, uint8_t *edges, size_t estep, double lo, double hi, double max_share, int busy_first,
                  int *busy, char **err);

// tc_edge_polys finds the contours of the nonzero pixels of the CV_8UC1
// image at data (rows x cols, step bytes per row; only read; RETR_LIST,
// CHAIN_APPROX_SIMPLE) and, for each one of at least 2 points whose bounding
// box's longer side is at least min_extent, its closed Douglas–Peucker
// approximation with epsilon eps: the vertices go to xy as x, y pairs and
// each polygon's vertex count to ns. The first xy_cap/2 vertices and n_cap
// counts are written; *n_polys and *n_pts get the totals. Returns 0, or -1
// with *err set.
int tc_edge_polys(const uint8_t *data, int rows, int cols, size_t step, double min_extent, double eps, int *xy,
                  int xy_cap, int *ns, int n_cap, int *n_polys, int *n_pts, char **err);

void tc_free_error(char *err);

#ifdef __cplusplus
}
#endif

#endif
