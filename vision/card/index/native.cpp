// The index's native code (native.h): the taught-card dot product and the
// keypoint hash search. Neither calls OpenCV.

#include "native.h"

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

extern "C" {

// tc_dot_i8 is vectorised whatever the package's optimisation level: the
// taught-card comparison's inner loop (integer sums: the same in any order).
// With AVX2, pairs of products are summed by one multiply-add (vpmaddwd;
// GCC's own vectorisation multiplies to 16 bits and widens each product,
// two and a half times the instructions).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static int32_t tc_dot_i8_plain(const int8_t *a, const int8_t *b, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) {
        s += (int32_t)a[i] * (int32_t)b[i];
    }
    return s;
}

#if defined(__GNUC__) && !defined(__clang__) && defined(TC_X86)
__attribute__((target("avx2"))) static int32_t tc_dot_i8_avx2(const int8_t *a, const int8_t *b, int n) {
    __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
    int i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i)));
        __m256i b0 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(b + i)));
        __m256i a1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(a + i + 16)));
        __m256i b1 = _mm256_cvtepi8_epi16(_mm_loadu_si128((const __m128i *)(b + i + 16)));
        s0 = _mm256_add_epi32(s0, _mm256_madd_epi16(a0, b0));
        s1 = _mm256_add_epi32(s1, _mm256_madd_epi16(a1, b1));
    }
    __m256i v = _mm256_add_epi32(s0, s1);
    __m128i h = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    h = _mm_add_epi32(h, _mm_srli_si128(h, 8));
    h = _mm_add_epi32(h, _mm_srli_si128(h, 4));
    int32_t s = _mm_cvtsi128_si32(h);
    for (; i < n; i++) {
        s += (int32_t)a[i] * (int32_t)b[i];
    }
    return s;
}
#endif

int32_t tc_dot_i8(const int8_t *a, const int8_t *b, int n) {
#if defined(__GNUC__) && !defined(__clang__) && defined(TC_X86)
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2) {
        return tc_dot_i8_avx2(a, b, n);
    }
#endif
    return tc_dot_i8_plain(a, b, n);
}

}  // extern "C"

// tc_key_nearest: the candidates of all tables are gathered first, their
// descriptors fetched ahead (each a cache miss: the taught keypoints lie
// far apart) and their distances taken, then the nearest and the nearest
// of another card chosen in the candidates' order, as KeyHash.nearest
// does (integer arithmetic and one comparison of doubles: the same
// results). The body is a macro to be compiled twice: with the popcnt
// instruction and without.
#define TC_KEY_NEAREST_BODY                                                                                            \
    const int ahead = 8;                                                                                               \
    for (int j = 0; j < nq; j++) {                                                                                     \
        const uint64_t *d = q + 4 * (size_t)j;                                                                         \
        int nc = 0;                                                                                                    \
        for (int t = 0; t < tables; t++) {                                                                          \
            const uint8_t *tb = bits + (size_t)t * nbits;                                                              \
            uint32_t k = 0;                                                                                            \
            for (int b = 0; b < nbits; b++) {                                                                          \
                uint8_t p = tb[b];                                                                                     \
                k |= (uint32_t)((d[p >> 6] >> (p & 63)) & 1) << b;                                                     \
            }                                                                                                          \
            const int32_t *st = start + (size_t)t * (((size_t)1 << nbits) + 1);                                        \
            int32_t lo = st[k], hi = st[k + 1];                                                                        \
            if (hi - lo > crowded) {                                                                                   \
                continue;                                                                                              \
            }                                                                                                          \
            const int32_t *it = items + (size_t)t * n;                                                                 \
            for (int32_t i = lo; i < hi; i++) {                                                                        \
                cand[nc++] = it[i];                                                                                    \
            }                                                                                                          \
        }                                                                                                              \
        for (int c = 0; c < nc && c < ahead; c++) {                                                                    \
            __builtin_prefetch(desc + 4 * (size_t)cand[c]);                                                         \
        }                                                                                                              \
        for (int c = 0; c < nc; c++) {                                                                                 \
            if (c + ahead < nc) {                                                                                      \
                __builtin_prefetch(desc + 4 * (size_t)cand[c + ahead]);                                             \
            }                                                                                                          \
            const uint64_t *e = desc + 4 * (size_t)cand[c];                                                         \
            dist[c] = (uint16_t)(__builtin_popcountll(d[0] ^ e[0]) + __builtin_popcountll(d[1] ^ e[1]) +              \
                                 __builtin_popcountll(d[2] ^ e[2]) + __builtin_popcountll(d[3] ^ e[3]));               \
        }                                                                                                              \
        int best = max_dist + 1, second = 257;                                                                      \
        int32_t bi = -1;                                                                                               \
        for (int c = 0; c < nc; c++) {                                                                                 \
            int dd = dist[c];                                                                                          \
            int32_t i = cand[c];                                                                                       \
            if (dd >= second) {                                                                                        \
                continue;                                                                                              \
            }                                                                                                          \
            if (dd < best) {                                                                                           \
                if (bi < 0 || card[i] != card[bi]) {                                                             \
                    second = best;                                                                                     \
                }                                                                                                      \
                best = dd;                                                                                             \
                bi = i;                                                                                                \
            } else if (bi < 0 || card[i] != card[bi]) {                                                          \
                second = dd;                                                                                           \
            }                                                                                                          \
        }                                                                                                              \
        if (bi < 0 || (ratio < 1 && (double)best > ratio * (double)second)) {                                          \
            bi = -1;                                                                                                   \
        }                                                                                                              \
        out[j] = bi;                                                                                                   \
    }

static void key_nearest_plain(const uint64_t *desc, const int32_t *card, int32_t n, const uint8_t *bits, const int32_t *start,
                    const int32_t *items, int32_t tables, int32_t nbits, int32_t crowded, int32_t max_dist,
                    const uint64_t *q, int32_t nq, double ratio, int32_t *out, int32_t *cand, uint16_t *dist) {
    TC_KEY_NEAREST_BODY
}

#if defined(__GNUC__) && !defined(__clang__) && defined(TC_X86)
__attribute__((target("popcnt"))) static void key_nearest_hw(const uint64_t *desc, const int32_t *card, int32_t n, const uint8_t *bits, const int32_t *start,
                    const int32_t *items, int32_t tables, int32_t nbits, int32_t crowded, int32_t max_dist,
                    const uint64_t *q, int32_t nq, double ratio, int32_t *out, int32_t *cand, uint16_t *dist) {
    TC_KEY_NEAREST_BODY
}
#endif

void tc_key_nearest(const uint64_t *desc, const int32_t *card, int32_t n, const uint8_t *bits, const int32_t *start,
                    const int32_t *items, int32_t tables, int32_t nbits, int32_t crowded, int32_t max_dist,
                    const uint64_t *q, int32_t nq, double ratio, int32_t *out, int32_t *cand, uint16_t *dist) {
#if defined(__GNUC__) && !defined(__clang__) && defined(TC_X86)
    static const bool popcnt = __builtin_cpu_supports("popcnt");
    if (popcnt) {
        key_nearest_hw(desc, card, n, bits, start, items, tables, nbits, crowded, max_dist, q, nq, ratio, out, cand, dist);
        return;
    }
#endif
    key_nearest_plain(desc, card, n, bits, start, items, tables, nbits, crowded, max_dist, q, nq, ratio, out, cand, dist);
}
