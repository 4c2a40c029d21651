// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels_x86.c - SSE2, AVX2 and AVX-512 bandwidth kernels for x86-64.
 * Each function is compiled for its instruction set with
 * __attribute__((target)); kernels.c calls one only after
 * __builtin_cpu_supports() said the CPU has it.  Every loop iteration
 * handles one MEMCAL_KERNEL_GRANULE (256 bytes) with aligned accesses.
 */
#include "kernels.h"

#if defined(__x86_64__)
#include <immintrin.h>

/* ---- SSE2 (16-byte vectors, 16 per granule) ---- */

/* sse2_read - four 64-bit-lane accumulators, summed at the end. */
__attribute__((target("sse2")))
static uint64_t sse2_read(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	const __m128i *p = src;
	__m128i a0 = _mm_setzero_si128(), a1 = a0, a2 = a0, a3 = a0;
	uint64_t l[2];

	(void)dst;
	(void)value;
	for (size_t i = 0; i < bytes / 16; i += 16) {
		for (size_t k = 0; k < 16; k += 4) {
			a0 = _mm_add_epi64(a0, _mm_load_si128(p + i + k));
			a1 = _mm_add_epi64(a1, _mm_load_si128(p + i + k + 1));
			a2 = _mm_add_epi64(a2, _mm_load_si128(p + i + k + 2));
			a3 = _mm_add_epi64(a3, _mm_load_si128(p + i + k + 3));
		}
	}
	a0 = _mm_add_epi64(_mm_add_epi64(a0, a1), _mm_add_epi64(a2, a3));
	_mm_storeu_si128((__m128i *)l, a0);
	return l[0] + l[1];
}

/* sse2_write - ordinary 16-byte stores of @value. */
__attribute__((target("sse2")))
static uint64_t sse2_write(void *dst, const void *src, size_t bytes,
			   uint64_t value)
{
	__m128i *p = dst, v = _mm_set1_epi64x((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 16; i += 16)
		for (size_t k = 0; k < 16; k++)
			_mm_store_si128(p + i + k, v);
	return 0;
}

/* sse2_ntwrite - non-temporal 16-byte stores, then a store fence. */
__attribute__((target("sse2")))
static uint64_t sse2_ntwrite(void *dst, const void *src, size_t bytes,
			     uint64_t value)
{
	__m128i *p = dst, v = _mm_set1_epi64x((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 16; i += 16)
		for (size_t k = 0; k < 16; k++)
			_mm_stream_si128(p + i + k, v);
	_mm_sfence();
	return 0;
}

/* sse2_copy - aligned 16-byte loads and ordinary stores. */
__attribute__((target("sse2")))
static uint64_t sse2_copy(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	__m128i *d = dst;
	const __m128i *s = src;

	(void)value;
	for (size_t i = 0; i < bytes / 16; i += 16)
		for (size_t k = 0; k < 16; k++)
			_mm_store_si128(d + i + k, _mm_load_si128(s + i + k));
	return 0;
}

/* ---- AVX2 (32-byte vectors, 8 per granule) ---- */

/* avx2_read - four accumulators of 4 lanes each. */
__attribute__((target("avx2")))
static uint64_t avx2_read(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	const __m256i *p = src;
	__m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
	uint64_t l[4];

	(void)dst;
	(void)value;
	for (size_t i = 0; i < bytes / 32; i += 8) {
		a0 = _mm256_add_epi64(a0, _mm256_load_si256(p + i));
		a1 = _mm256_add_epi64(a1, _mm256_load_si256(p + i + 1));
		a2 = _mm256_add_epi64(a2, _mm256_load_si256(p + i + 2));
		a3 = _mm256_add_epi64(a3, _mm256_load_si256(p + i + 3));
		a0 = _mm256_add_epi64(a0, _mm256_load_si256(p + i + 4));
		a1 = _mm256_add_epi64(a1, _mm256_load_si256(p + i + 5));
		a2 = _mm256_add_epi64(a2, _mm256_load_si256(p + i + 6));
		a3 = _mm256_add_epi64(a3, _mm256_load_si256(p + i + 7));
	}
	a0 = _mm256_add_epi64(_mm256_add_epi64(a0, a1),
			      _mm256_add_epi64(a2, a3));
	_mm256_storeu_si256((__m256i *)l, a0);
	return l[0] + l[1] + l[2] + l[3];
}

/* avx2_write - ordinary 32-byte stores of @value. */
__attribute__((target("avx2")))
static uint64_t avx2_write(void *dst, const void *src, size_t bytes,
			   uint64_t value)
{
	__m256i *p = dst, v = _mm256_set1_epi64x((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 32; i += 8)
		for (size_t k = 0; k < 8; k++)
			_mm256_store_si256(p + i + k, v);
	return 0;
}

/* avx2_ntwrite - non-temporal 32-byte stores, then a store fence. */
__attribute__((target("avx2")))
static uint64_t avx2_ntwrite(void *dst, const void *src, size_t bytes,
			     uint64_t value)
{
	__m256i *p = dst, v = _mm256_set1_epi64x((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 32; i += 8)
		for (size_t k = 0; k < 8; k++)
			_mm256_stream_si256(p + i + k, v);
	_mm_sfence();
	return 0;
}

/* avx2_copy - aligned 32-byte loads and ordinary stores. */
__attribute__((target("avx2")))
static uint64_t avx2_copy(void *dst, const void *src, size_t bytes,
			  uint64_t value)
{
	__m256i *d = dst;
	const __m256i *s = src;

	(void)value;
	for (size_t i = 0; i < bytes / 32; i += 8)
		for (size_t k = 0; k < 8; k++)
			_mm256_store_si256(d + i + k,
					   _mm256_load_si256(s + i + k));
	return 0;
}

/* ---- AVX-512 (64-byte vectors, 4 per granule) ---- */

/* avx512_read - four accumulators of 8 lanes each. */
__attribute__((target("avx512f")))
static uint64_t avx512_read(void *dst, const void *src, size_t bytes,
			    uint64_t value)
{
	const __m512i *p = src;
	__m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
	uint64_t l[8], sum = 0;

	(void)dst;
	(void)value;
	for (size_t i = 0; i < bytes / 64; i += 4) {
		a0 = _mm512_add_epi64(a0, _mm512_load_si512(p + i));
		a1 = _mm512_add_epi64(a1, _mm512_load_si512(p + i + 1));
		a2 = _mm512_add_epi64(a2, _mm512_load_si512(p + i + 2));
		a3 = _mm512_add_epi64(a3, _mm512_load_si512(p + i + 3));
	}
	a0 = _mm512_add_epi64(_mm512_add_epi64(a0, a1),
			      _mm512_add_epi64(a2, a3));
	/*
	 * Not _mm512_reduce_add_epi64(): GCC's header adds the last lanes as
	 * signed long long, undefined on overflow (UBSan); the sum wraps.
	 */
	_mm512_storeu_si512(l, a0);
	for (unsigned int k = 0; k < 8; k++)
		sum += l[k];
	return sum;
}

/* avx512_write - ordinary 64-byte stores of @value. */
__attribute__((target("avx512f")))
static uint64_t avx512_write(void *dst, const void *src, size_t bytes,
			     uint64_t value)
{
	__m512i *p = dst, v = _mm512_set1_epi64((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 64; i += 4)
		for (size_t k = 0; k < 4; k++)
			_mm512_store_si512(p + i + k, v);
	return 0;
}

/* avx512_ntwrite - non-temporal 64-byte stores, then a store fence. */
__attribute__((target("avx512f")))
static uint64_t avx512_ntwrite(void *dst, const void *src, size_t bytes,
			       uint64_t value)
{
	__m512i *p = dst, v = _mm512_set1_epi64((long long)value);

	(void)src;
	for (size_t i = 0; i < bytes / 64; i += 4)
		for (size_t k = 0; k < 4; k++)
			_mm512_stream_si512(p + i + k, v);
	_mm_sfence();
	return 0;
}

/* avx512_copy - aligned 64-byte loads and ordinary stores. */
__attribute__((target("avx512f")))
static uint64_t avx512_copy(void *dst, const void *src, size_t bytes,
			    uint64_t value)
{
	__m512i *d = dst;
	const __m512i *s = src;

	(void)value;
	for (size_t i = 0; i < bytes / 64; i += 4)
		for (size_t k = 0; k < 4; k++)
			_mm512_store_si512(d + i + k,
					   _mm512_load_si512(s + i + k));
	return 0;
}

/* ---- mixed kernels: one body per ISA, one 64-byte line at a time ---- */

/* sse2_mix - four 16-byte loads or stores per line (kernels.h, MIX). */
__attribute__((target("sse2")))
static inline uint64_t sse2_mix(void *dst, const void *src, size_t bytes,
				unsigned mask, uint64_t value)
{
	__m128i a0 = _mm_setzero_si128(), a1 = a0;
	__m128i v = _mm_set1_epi64x((long long)value);
	uint64_t l[2];

	for (size_t g = 0; g < bytes; g += MEMCAL_KERNEL_GRANULE)
		for (unsigned ln = 0; ln < MEMCAL_MIX_LINES; ln++) {
			size_t off = g + (size_t)ln * MEMCAL_MIX_LINE;

			if (mask >> ln & 1) {
				const __m128i *p = (const __m128i *)
					((const char *)src + off);

				a0 = _mm_add_epi64(a0, _mm_load_si128(p));
				a1 = _mm_add_epi64(a1, _mm_load_si128(p + 1));
				a0 = _mm_add_epi64(a0, _mm_load_si128(p + 2));
				a1 = _mm_add_epi64(a1, _mm_load_si128(p + 3));
			} else {
				__m128i *p = (__m128i *)((char *)dst + off);

				_mm_store_si128(p, v);
				_mm_store_si128(p + 1, v);
				_mm_store_si128(p + 2, v);
				_mm_store_si128(p + 3, v);
			}
		}
	_mm_storeu_si128((__m128i *)l, _mm_add_epi64(a0, a1));
	return l[0] + l[1];
}

/* avx2_mix - two 32-byte loads or stores per line (kernels.h, MIX). */
__attribute__((target("avx2")))
static inline uint64_t avx2_mix(void *dst, const void *src, size_t bytes,
				unsigned mask, uint64_t value)
{
	__m256i a0 = _mm256_setzero_si256(), a1 = a0;
	__m256i v = _mm256_set1_epi64x((long long)value);
	uint64_t l[4];

	for (size_t g = 0; g < bytes; g += MEMCAL_KERNEL_GRANULE)
		for (unsigned ln = 0; ln < MEMCAL_MIX_LINES; ln++) {
			size_t off = g + (size_t)ln * MEMCAL_MIX_LINE;

			if (mask >> ln & 1) {
				const __m256i *p = (const __m256i *)
					((const char *)src + off);

				a0 = _mm256_add_epi64(a0, _mm256_load_si256(p));
				a1 = _mm256_add_epi64(a1,
						      _mm256_load_si256(p + 1));
			} else {
				__m256i *p = (__m256i *)((char *)dst + off);

				_mm256_store_si256(p, v);
				_mm256_store_si256(p + 1, v);
			}
		}
	_mm256_storeu_si256((__m256i *)l, _mm256_add_epi64(a0, a1));
	return l[0] + l[1] + l[2] + l[3];
}

/* avx512_mix - one 64-byte load or store per line (kernels.h, MIX). */
__attribute__((target("avx512f")))
static inline uint64_t avx512_mix(void *dst, const void *src, size_t bytes,
				  unsigned mask, uint64_t value)
{
	__m512i a0 = _mm512_setzero_si512();
	__m512i v = _mm512_set1_epi64((long long)value);
	uint64_t l[8], sum = 0;

	for (size_t g = 0; g < bytes; g += MEMCAL_KERNEL_GRANULE)
		for (unsigned ln = 0; ln < MEMCAL_MIX_LINES; ln++) {
			size_t off = g + (size_t)ln * MEMCAL_MIX_LINE;

			if (mask >> ln & 1)
				a0 = _mm512_add_epi64(a0, _mm512_load_si512(
					(const char *)src + off));
			else
				_mm512_store_si512((char *)dst + off, v);
		}
	/* Lane by lane, wrapping: see avx512_read. */
	_mm512_storeu_si512(l, a0);
	for (unsigned int k = 0; k < 8; k++)
		sum += l[k];
	return sum;
}

MEMCAL_MIX_TABLE(cal_mix_sse2, sse2_mix, __attribute__((target("sse2"))));
MEMCAL_MIX_TABLE(cal_mix_avx2, avx2_mix, __attribute__((target("avx2"))));
MEMCAL_MIX_TABLE(cal_mix_avx512, avx512_mix,
		 __attribute__((target("avx512f"))));

const memcal_kernel_fn cal_kernels_sse2[MEMCAL_OP_COUNT] = {
	sse2_read, sse2_write, sse2_ntwrite, sse2_copy,
};
const memcal_kernel_fn cal_kernels_avx2[MEMCAL_OP_COUNT] = {
	avx2_read, avx2_write, avx2_ntwrite, avx2_copy,
};
const memcal_kernel_fn cal_kernels_avx512[MEMCAL_OP_COUNT] = {
	avx512_read, avx512_write, avx512_ntwrite, avx512_copy,
};
#else
const memcal_kernel_fn cal_kernels_sse2[MEMCAL_OP_COUNT];
const memcal_kernel_fn cal_kernels_avx2[MEMCAL_OP_COUNT];
const memcal_kernel_fn cal_kernels_avx512[MEMCAL_OP_COUNT];
const memcal_kernel_fn cal_mix_sse2[MEMCAL_MIX_COUNT];
const memcal_kernel_fn cal_mix_avx2[MEMCAL_MIX_COUNT];
const memcal_kernel_fn cal_mix_avx512[MEMCAL_MIX_COUNT];
#endif
