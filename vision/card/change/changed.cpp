// The mask of what changed against the empty table in C (changed.h), the
// card reader's hottest loop: it does not call OpenCV.

#include "changed.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
// TC_X86 turns on the SSE and AVX paths (x86-64 only; other CPUs take the
// portable loops, which give the same results). CGO_CXXFLAGS=-DTC_PORTABLE
// builds the portable loops on x86-64 too, to test them:
//
//	CGO_CXXFLAGS=-DTC_PORTABLE go test ./vision/card/... -run 'Dot|KeyHashNearestAll|RefChanged'
#if defined(__x86_64__) && !defined(TC_PORTABLE)
#define TC_X86 1
#include <immintrin.h>
#endif
#include <new>
#include <vector>

// tc_ref_shadow_near is shadowNearRef (ref_test.go's
// reference): whether the 3×3 pixels around pixel (x, y) of cur
// (w×h BGR, ref the reference, off each channel's median difference) are
// the table in a soft shadow: each darker than ref's by more than near_dark
// over its three channels, their factors ((sum + 12) / (ref's sum + 12))
// less than near_range apart, and their means darkened by about one factor
// (shadowRef's test). The same integers and doubles as the reference.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3", "fp-contract=off")))
#endif
static bool tc_ref_shadow_near(const uint8_t *cur, const uint8_t *ref, const int *off, int32_t x, int32_t y,
                               int32_t w, int32_t h, double shadow_min, double shadow_spread, double near_range,
                               int32_t near_dark) {
    // The three tests in order of cost (all must pass: the same answer in
    // any order): each pixel darker (integers), the means' one factor
    // (three divisions), the pixels' factors near each other (nine).
    int32_t sc[3] = {0, 0, 0}, sr[3] = {0, 0, 0}, cnt = 0, css[9], rss[9];
    int32_t offs = off[0] + off[1] + off[2];
    for (int32_t yy = y - 1; yy <= y + 1; yy++) {
        if (yy < 0 || yy >= h) {
            continue;
        }
        for (int32_t xx = x - 1; xx <= x + 1; xx++) {
            if (xx < 0 || xx >= w) {
                continue;
            }
            const uint8_t *c = cur + 3 * (yy * w + xx), *r = ref + 3 * (yy * w + xx);
            int32_t cs = 0, rs = 0;
            for (int k = 0; k < 3; k++) {
                sc[k] += c[k];
                sr[k] += r[k];
                cs += c[k];
                rs += r[k];
            }
            cs -= offs;
            if (cs >= rs - near_dark) {
                return false;
            }
            css[cnt] = cs;
            rss[cnt] = rs;
            cnt++;
        }
    }
    double lo = 2.0, hi = 0.0;
    for (int k = 0; k < 3; k++) {
        double cv = (double)sc[k] / (double)cnt - (double)off[k], rv = (double)sr[k] / (double)cnt;
        if (cv >= rv - 4 || rv < 12) {
            return false;
        }
        double f = (cv + 4) / (rv + 4);
        lo = f < lo ? f : lo;
        hi = f > hi ? f : hi;
    }
    if (!(lo > shadow_min && hi - lo < shadow_spread)) {
        return false;
    }
    double flo = 0.0, fhi = 0.0;
    for (int32_t i = 0; i < cnt; i++) {
        double f = (double)(css[i] + 12) / (double)(rss[i] + 12);
        if (i == 0 || f < flo) {
            flo = f;
        }
        if (i == 0 || f > fhi) {
            fhi = f;
        }
    }
    return fhi - flo < near_range;
}

// tc_ref_quiet16 reports whether none of the 16 BGR pixels at c differs
// from r's by level or more in a channel, after off16 (each channel's
// median difference, repeated).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3", "fp-contract=off")))
#endif
static inline bool tc_ref_quiet16(const uint8_t *c, const uint8_t *r, const int16_t *off16, int level) {
    int16_t m = 0;
    for (int j = 0; j < 48; j++) {
        int16_t v = (int16_t)((int16_t)c[j] - (int16_t)r[j] - off16[j]);
        v = v < 0 ? (int16_t)-v : v;
        m = v > m ? v : m;
    }
    return m < level;
}

// tc_ref_changed is Ref.Changed's loops in C: cur and
// ref are w×h BGR pixels; out[i] becomes 255 where a channel of cur differs
// from ref's by at least level after taking out that channel's median
// difference, but for a shadow (shadowRef, or one around the pixel:
// shadowNearRef; the same doubles, the same operations in the same
// order), 0 elsewhere. Returns how many are 255.
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3", "fp-contract=off")))
#endif
int32_t tc_ref_changed(const uint8_t *cur, const uint8_t *ref, uint8_t *out, int32_t w, int32_t h, int32_t level,
                       double shadow_min, double shadow_spread, double near_range, int32_t near_dark) {
    int32_t n = w * h;
    int32_t hist[3][511];
    memset(hist, 0, sizeof(hist));
    for (int32_t i = 0; i < n; i++) {
        const uint8_t *c = cur + 3 * i, *r = ref + 3 * i;
        hist[0][(int)c[0] - (int)r[0] + 255]++;
        hist[1][(int)c[1] - (int)r[1] + 255]++;
        hist[2][(int)c[2] - (int)r[2] + 255]++;
    }
    int off[3] = {0, 0, 0};
    for (int k = 0; k < 3; k++) {
        int32_t sum = 0;
        for (int v = 0; v < 511; v++) {
            sum += hist[k][v];
            if (sum > n / 2) {
                off[k] = v - 255;
                break;
            }
        }
    }
    // off repeated over 16 pixels: a run of 16 pixels none of whose
    // channels differs by level is table (most of a frame), passed over in
    // one vectorised test.
    int16_t off16[48];
    for (int j = 0; j < 48; j++) {
        off16[j] = (int16_t)off[j % 3];
    }
    const int32_t offs = off[0] + off[1] + off[2];
    int32_t changed = 0;
    for (int32_t y = 0; y < h; y++) {
        for (int32_t x = 0; x < w; x++) {
            const int32_t i = y * w + x;
            const uint8_t *c = cur + 3 * i, *r = ref + 3 * i;
            if (x % 16 == 0 && x + 16 <= w && tc_ref_quiet16(c, r, off16, level)) {
                memset(out + i, 0, 16);
                x += 15;
                continue;
            }
            int d = 0;
            for (int k = 0; k < 3; k++) {
                int v = (int)c[k] - (int)r[k] - off[k];
                if (v < 0) {
                    v = -v;
                }
                if (v > d) {
                    d = v;
                }
            }
            out[i] = 0;
            if (d < level) {
                continue;
            }
            // Most changed pixels are no shadow by the first test of each
            // kind, in integers: a channel not darker than the
            // reference's (the pixel's own test below), and the pixel
            // itself not darker over its three channels (one of
            // tc_ref_shadow_near's tests, all of which must pass). With
            // near_dark below 15 the second implies the first.
            if (c[0] - off[0] >= r[0] - 4 || c[1] - off[1] >= r[1] - 4 || c[2] - off[2] >= r[2] - 4 || r[0] < 12 ||
                r[1] < 12 || r[2] < 12) {
                if ((int32_t)c[0] + c[1] + c[2] - offs >= (int32_t)r[0] + r[1] + r[2] - near_dark) {
                    out[i] = 255;
                    changed++;
                    continue;
                }
            }
            // shadowRef.
            double lo = 2.0, hi = 0.0;
            bool shadow = true;
            for (int k = 0; k < 3; k++) {
                double cv = (double)((int)c[k] - off[k]), rv = (double)r[k];
                if (cv >= rv - 4 || rv < 12) {
                    shadow = false;
                    break;
                }
                double f = (cv + 4) / (rv + 4);
                lo = f < lo ? f : lo;
                hi = f > hi ? f : hi;
            }
            if (shadow && lo > shadow_min && hi - lo < shadow_spread) {
                continue;
            }
            if (tc_ref_shadow_near(cur, ref, off, x, y, w, h, shadow_min, shadow_spread, near_range, near_dark)) {
                continue;
            }
            out[i] = 255;
            changed++;
        }
    }
    return changed;
}
