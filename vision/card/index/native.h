// C interface of the index's native code (native.cpp).
//
// Images are passed as raw 8-bit pixel buffers and only read during the
// call.
#ifndef TABLECAM_VISION_CARD_INDEX_NATIVE_H
#define TABLECAM_VISION_CARD_INDEX_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// tc_dot_i8 returns the sum of a[i]·b[i] over n int8 pairs (|sum| below
// 2^31: n below 2^17).
int32_t tc_dot_i8(const int8_t *a, const int8_t *b, int n);

// tc_key_nearest is KeyHash.nearest (frame_keys.go) for the nq
// descriptors q (4 words each): out[j] is the index of the nearest taught
// keypoint of q[j] among its buckets' (crowded buckets left out), or -1
// when there is none within max_dist or (ratio below 1) it is not within
// ratio of the nearest of another card. The hash: desc holds n descriptors
// of 4 words, card[i] the card of desc[i]; table t hashes the descriptor
// bits bits[t·nbits …], its bucket b holding items[t·n + start[t·(2^nbits+1)
// + b] …] up to the next bucket's start. cand is scratch room for
// tables·crowded indexes, dist for as many distances.
void tc_key_nearest(const uint64_t *desc, const int32_t *card, int32_t n, const uint8_t *bits, const int32_t *start,
                    const int32_t *items, int32_t tables, int32_t nbits, int32_t crowded, int32_t max_dist,
                    const uint64_t *q, int32_t nq, double ratio, int32_t *out, int32_t *cand, uint16_t *dist);

#ifdef __cplusplus
}
#endif

#endif
