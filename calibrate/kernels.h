/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernels.h - the bandwidth kernels: streaming read, ordinary-store write,
 * non-temporal-store write and copy, in SIMD variants picked at run time
 * (AVX-512, AVX2, SSE2 on x86-64; NEON on arm64) and a portable C fallback.
 *
 * Contract of every kernel function:
 *   uint64_t fn(void *dst, const void *src, size_t bytes, uint64_t value)
 *   - @bytes is a multiple of MEMCAL_KERNEL_GRANULE and the buffers are
 *     MEMCAL_KERNEL_ALIGN aligned;
 *   - READ    sums the 64-bit words of @src modulo 2^64 and returns the
 *             sum (the reduction keeps the compiler from removing loads);
 *   - WRITE   stores @value into every 64-bit word of @dst, ordinary stores;
 *   - NTWRITE the same with non-temporal (streaming) stores, fenced;
 *   - COPY    copies @bytes from @src to @dst.
 *   - MIX     the mixed kernel of one read share: each granule is four
 *             MEMCAL_MIX_LINE-byte lines, and a fixed pattern per share
 *             (MEMCAL_MIX_MASK_<pct>) says which lines are read from @src
 *             (summed, the sum returned) and which get @value stored into
 *             every word of the same line of @dst (ordinary stores).
 *             @dst may equal @src (the load generators work in place).
 *   WRITE/NTWRITE/COPY return 0.  Nothing outside [0, bytes) is touched.
 *
 * Bytes a kernel "moves" (cal_kernel_bytes()) are program-visible bytes:
 * READ/WRITE/NTWRITE/MIX count @bytes, COPY counts 2 x @bytes (read +
 * write).
 * Ordinary stores cause about twice that DRAM traffic (read for ownership,
 * then write-back); that is not counted.
 */
#ifndef MEMCAL_KERNELS_H
#define MEMCAL_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every kernel processes whole granules of this many bytes. */
#define MEMCAL_KERNEL_GRANULE	256
/* ... starting at addresses aligned to this. */
#define MEMCAL_KERNEL_ALIGN	64

/* What a kernel does. */
enum memcal_op {
	MEMCAL_OP_READ = 0,
	MEMCAL_OP_WRITE,
	MEMCAL_OP_NTWRITE,
	MEMCAL_OP_COPY,
	MEMCAL_OP_MIX,		/* per read share: cal_mix_kernel_get() */
	MEMCAL_OP_COUNT,
};

/*
 * The read shares of the mixed kernel, in per cent, in the order of the
 * per-ISA mix tables: 100, 75, 50, 25, 0 (index i is 100 - 25 i).
 */
#define MEMCAL_MIX_COUNT	5
#define MEMCAL_MIX_LINE		64
#define MEMCAL_MIX_LINES	(MEMCAL_KERNEL_GRANULE / MEMCAL_MIX_LINE)
/* Which lines of a granule each share reads (bit i: line i), spread out. */
#define MEMCAL_MIX_MASK_100	0xfu
#define MEMCAL_MIX_MASK_75	0x7u
#define MEMCAL_MIX_MASK_50	0x5u
#define MEMCAL_MIX_MASK_25	0x1u
#define MEMCAL_MIX_MASK_0	0x0u

/* Instruction-set variants, best last. */
enum memcal_isa {
	MEMCAL_ISA_C = 0,
	MEMCAL_ISA_SSE2,
	MEMCAL_ISA_AVX2,
	MEMCAL_ISA_AVX512,
	MEMCAL_ISA_NEON,
	MEMCAL_ISA_COUNT,
};

typedef uint64_t (*memcal_kernel_fn)(void *dst, const void *src,
				     size_t bytes, uint64_t value);

/**
 * struct memcal_kernel - one kernel variant.
 * @op:      what it does.
 * @isa:     instruction set it needs.
 * @variant: name stored with results ("avx2", "c", ...).
 * @fn:      the function (contract above).
 * @read_pct: MEMCAL_OP_MIX: its read share in per cent (else 0).
 */
struct memcal_kernel {
	enum memcal_op op;
	enum memcal_isa isa;
	const char *variant;
	memcal_kernel_fn fn;
	unsigned read_pct;
};

const char *cal_op_name(enum memcal_op op);
int cal_op_parse(const char *name, enum memcal_op *op);
bool cal_isa_supported(enum memcal_isa isa);
const struct memcal_kernel *cal_kernel_get(enum memcal_op op,
					      enum memcal_isa isa);
const struct memcal_kernel *cal_kernel_best(enum memcal_op op);
uint64_t cal_kernel_bytes(enum memcal_op op, size_t bytes);
unsigned cal_mix_pct(unsigned idx);
const struct memcal_kernel *cal_mix_kernel_get(unsigned idx,
						  enum memcal_isa isa);
const struct memcal_kernel *cal_mix_kernel_best(unsigned idx);

/* Per-ISA tables, each indexed by enum memcal_op (NULL: not provided). */
extern const memcal_kernel_fn cal_kernels_c[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn cal_kernels_sse2[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn cal_kernels_avx2[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn cal_kernels_avx512[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn cal_kernels_neon[MEMCAL_OP_COUNT];

/* Per-ISA mixed kernels, each indexed by mix index (cal_mix_pct()). */
extern const memcal_kernel_fn cal_mix_c[MEMCAL_MIX_COUNT];
extern const memcal_kernel_fn cal_mix_sse2[MEMCAL_MIX_COUNT];
extern const memcal_kernel_fn cal_mix_avx2[MEMCAL_MIX_COUNT];
extern const memcal_kernel_fn cal_mix_avx512[MEMCAL_MIX_COUNT];
extern const memcal_kernel_fn cal_mix_neon[MEMCAL_MIX_COUNT];

/*
 * MEMCAL_MIX_TABLE - the five entry points of one ISA's mixed kernel
 * body @body(dst, src, bytes, mask, value), each with its share's line
 * pattern as a constant (so the body is specialised per share), and
 * their table @name.  @attr is the ISA's target attribute (or nothing).
 */
#define MEMCAL_MIX_ENTRY(body, attr, pct)				\
	attr static uint64_t body##_##pct(void *dst, const void *src,	\
					  size_t bytes, uint64_t value)	\
	{								\
		return body(dst, src, bytes, MEMCAL_MIX_MASK_##pct, value); \
	}
#define MEMCAL_MIX_TABLE(name, body, attr)				\
	MEMCAL_MIX_ENTRY(body, attr, 100)				\
	MEMCAL_MIX_ENTRY(body, attr, 75)				\
	MEMCAL_MIX_ENTRY(body, attr, 50)				\
	MEMCAL_MIX_ENTRY(body, attr, 25)				\
	MEMCAL_MIX_ENTRY(body, attr, 0)					\
	const memcal_kernel_fn name[MEMCAL_MIX_COUNT] = {		\
		body##_100, body##_75, body##_50, body##_25, body##_0,	\
	}

#endif /* MEMCAL_KERNELS_H */
