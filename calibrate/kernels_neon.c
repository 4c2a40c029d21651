// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels_neon.c - NEON bandwidth kernels for arm64.  Non-temporal writes
 * use STNP (store pair, non-temporal hint) of two Q registers.
 */
#include "kernels.h"

#if defined(__aarch64__)
#include <arm_neon.h>

/* neon_read - four 2-lane accumulators over 16-byte loads. */
static uint64_t neon_read(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	const uint64_t *p = src;
	uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, a2 = a0, a3 = a0;

	(void)dst;
	(void)value;
	for (size_t i = 0; i < bytes / 8; i += 8) {
		a0 = vaddq_u64(a0, vld1q_u64(p + i));
		a1 = vaddq_u64(a1, vld1q_u64(p + i + 2));
		a2 = vaddq_u64(a2, vld1q_u64(p + i + 4));
		a3 = vaddq_u64(a3, vld1q_u64(p + i + 6));
	}
	a0 = vaddq_u64(vaddq_u64(a0, a1), vaddq_u64(a2, a3));
	return vgetq_lane_u64(a0, 0) + vgetq_lane_u64(a0, 1);
}

/* neon_write - ordinary 16-byte stores of @value. */
static uint64_t neon_write(void *dst, const void *src, size_t bytes,
			   uint64_t value)
{
	uint64_t *p = dst;
	uint64x2_t v = vdupq_n_u64(value);

	(void)src;
	for (size_t i = 0; i < bytes / 8; i += 8) {
		vst1q_u64(p + i, v);
		vst1q_u64(p + i + 2, v);
		vst1q_u64(p + i + 4, v);
		vst1q_u64(p + i + 6, v);
	}
	return 0;
}

/* neon_ntwrite - STNP pairs of Q registers (32 bytes each). */
static uint64_t neon_ntwrite(void *dst, const void *src, size_t bytes,
			     uint64_t value)
{
	char *p = dst;
	uint64x2_t v = vdupq_n_u64(value);

	(void)src;
	for (size_t off = 0; off < bytes; off += 64) {
		__asm__ volatile("stnp %q0, %q0, [%1]\n\t"
				 "stnp %q0, %q0, [%1, #32]"
				 : : "w"(v), "r"(p + off) : "memory");
	}
	__asm__ volatile("dmb ish" : : : "memory");
	return 0;
}

/* neon_copy - 16-byte loads and ordinary stores. */
static uint64_t neon_copy(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	uint64_t *d = dst;
	const uint64_t *s = src;

	(void)value;
	for (size_t i = 0; i < bytes / 8; i += 4) {
		vst1q_u64(d + i, vld1q_u64(s + i));
		vst1q_u64(d + i + 2, vld1q_u64(s + i + 2));
	}
	return 0;
}

/* neon_mix - four 16-byte loads or stores per line (kernels.h, MIX). */
static inline uint64_t neon_mix(void *dst, const void *src, size_t bytes,
				unsigned mask, uint64_t value)
{
	uint64x2_t a0 = vdupq_n_u64(0), a1 = a0, v = vdupq_n_u64(value);

	for (size_t g = 0; g < bytes; g += MEMCAL_KERNEL_GRANULE)
		for (unsigned ln = 0; ln < MEMCAL_MIX_LINES; ln++) {
			size_t off = g + (size_t)ln * MEMCAL_MIX_LINE;

			if (mask >> ln & 1) {
				const uint64_t *p = (const uint64_t *)
					((const char *)src + off);

				a0 = vaddq_u64(a0, vld1q_u64(p));
				a1 = vaddq_u64(a1, vld1q_u64(p + 2));
				a0 = vaddq_u64(a0, vld1q_u64(p + 4));
				a1 = vaddq_u64(a1, vld1q_u64(p + 6));
			} else {
				uint64_t *p = (uint64_t *)((char *)dst + off);

				vst1q_u64(p, v);
				vst1q_u64(p + 2, v);
				vst1q_u64(p + 4, v);
				vst1q_u64(p + 6, v);
			}
		}
	a0 = vaddq_u64(a0, a1);
	return vgetq_lane_u64(a0, 0) + vgetq_lane_u64(a0, 1);
}

MEMCAL_MIX_TABLE(cal_mix_neon, neon_mix, );

const memcal_kernel_fn cal_kernels_neon[MEMCAL_OP_COUNT] = {
	neon_read, neon_write, neon_ntwrite, neon_copy,
};
#else
const memcal_kernel_fn cal_kernels_neon[MEMCAL_OP_COUNT];
const memcal_kernel_fn cal_mix_neon[MEMCAL_MIX_COUNT];
#endif
