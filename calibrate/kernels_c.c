// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels_c.c - portable C bandwidth kernels (the fallback variant).
 * There is no portable non-temporal store, so NTWRITE is not provided.
 * Loop-to-memset/memcpy conversion is disabled so the write kernel stays
 * an ordinary-store loop (a libc memset may use streaming stores).
 */
#include "kernels.h"

#define NO_LIBCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

/* c_read - sum every 64-bit word with four independent accumulators. */
static uint64_t c_read(void *dst, const void *src, size_t bytes,
		       uint64_t value)
{
	const uint64_t *p = src;
	size_t n = bytes / sizeof(uint64_t);
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;

	(void)dst;
	(void)value;
	for (size_t i = 0; i < n; i += 4) {
		a0 += p[i];
		a1 += p[i + 1];
		a2 += p[i + 2];
		a3 += p[i + 3];
	}
	return a0 + a1 + a2 + a3;
}

/* c_write - store @value into every word with ordinary stores. */
NO_LIBCALL
static uint64_t c_write(void *dst, const void *src, size_t bytes,
			uint64_t value)
{
	uint64_t *p = dst;
	size_t n = bytes / sizeof(uint64_t);

	(void)src;
	for (size_t i = 0; i < n; i++)
		p[i] = value;
	return 0;
}

/* c_copy - word-by-word copy with ordinary loads and stores. */
NO_LIBCALL
static uint64_t c_copy(void *dst, const void *src, size_t bytes,
		       uint64_t value)
{
	uint64_t *d = dst;
	const uint64_t *s = src;
	size_t n = bytes / sizeof(uint64_t);

	(void)value;
	for (size_t i = 0; i < n; i++)
		d[i] = s[i];
	return 0;
}

/*
 * c_mix - line by line, sum the lines @mask marks read and store @value
 * into the others (kernels.h, MIX).
 */
NO_LIBCALL
static inline uint64_t c_mix(void *dst, const void *src, size_t bytes,
			     unsigned mask, uint64_t value)
{
	const size_t words = MEMCAL_MIX_LINE / sizeof(uint64_t);
	uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;

	for (size_t g = 0; g < bytes; g += MEMCAL_KERNEL_GRANULE)
		for (unsigned l = 0; l < MEMCAL_MIX_LINES; l++) {
			size_t off = g + (size_t)l * MEMCAL_MIX_LINE;

			if (mask >> l & 1) {
				const uint64_t *p = (const uint64_t *)
					((const char *)src + off);

				for (size_t i = 0; i < words; i += 4) {
					a0 += p[i];
					a1 += p[i + 1];
					a2 += p[i + 2];
					a3 += p[i + 3];
				}
			} else {
				uint64_t *p = (uint64_t *)((char *)dst + off);

				for (size_t i = 0; i < words; i++)
					p[i] = value;
			}
		}
	return a0 + a1 + a2 + a3;
}

MEMCAL_MIX_TABLE(cal_mix_c, c_mix, NO_LIBCALL);

const memcal_kernel_fn cal_kernels_c[MEMCAL_OP_COUNT] = {
	[MEMCAL_OP_READ] = c_read,
	[MEMCAL_OP_WRITE] = c_write,
	[MEMCAL_OP_NTWRITE] = NULL,
	[MEMCAL_OP_COPY] = c_copy,
};
