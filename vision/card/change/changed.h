// C interface of changed.cpp: the mask of what changed against the empty
// table.
#ifndef TABLECAM_VISION_CARD_CHANGED_H
#define TABLECAM_VISION_CARD_CHANGED_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// tc_ref_changed is Ref.Changed in C: out[i] (w×h
// pixels) becomes 255 where the BGR pixel cur[i] differs from ref[i] by at
// least level in a channel, each channel's median difference taken out,
// and is no shadow (shadowRef, with shadow_min and shadow_spread) nor
// amid one (shadowNearRef, with near_range and near_dark too); 0
// elsewhere. Returns how many pixels are 255.
int32_t tc_ref_changed(const uint8_t *cur, const uint8_t *ref, uint8_t *out, int32_t w, int32_t h, int32_t level,
                       double shadow_min, double shadow_spread, double near_range, int32_t near_dark);

#ifdef __cplusplus
}
#endif

#endif
