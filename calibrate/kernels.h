/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernels.h - the bandwidth kernels: streaming read, ordinary-store write,
 * non-temporal-store write and copy, in SIMD variants picked at run time
 * (AVX-512, AVX2, SSE2 on x86-64; NEON on arm64) and a portable C fallback.
 *
 * Contract of every kernel function:
 *   uint64_t fn(void *dst, const void *src, size_t bytes, uint64_t value)
 *   - @bytes is a multiple of MEMCAL_KERNEL_GRANULE and the buffers are
 *     MEMCAL_KERNEL_ALIGN aligned (memcal_kernel_check() says so);
 *   - READ    sums the 64-bit words of @src modulo 2^64 and returns the
 *             sum (the reduction keeps the compiler from removing loads);
 *   - WRITE   stores @value into every 64-bit word of @dst, ordinary stores;
 *   - NTWRITE the same with non-temporal (streaming) stores, fenced;
 *   - COPY    copies @bytes from @src to @dst.
 *   WRITE/NTWRITE/COPY return 0.  Nothing outside [0, bytes) is touched.
 *
 * Bytes a kernel "moves" (memcal_kernel_bytes()) are program-visible bytes:
 * READ/WRITE/NTWRITE count @bytes, COPY counts 2 x @bytes (read + write).
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
	MEMCAL_OP_COUNT,
};

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
 */
struct memcal_kernel {
	enum memcal_op op;
	enum memcal_isa isa;
	const char *variant;
	memcal_kernel_fn fn;
};

const char *memcal_op_name(enum memcal_op op);
int memcal_op_parse(const char *name, enum memcal_op *op);
const char *memcal_isa_name(enum memcal_isa isa);
bool memcal_isa_supported(enum memcal_isa isa);
const struct memcal_kernel *memcal_kernel_get(enum memcal_op op,
					      enum memcal_isa isa);
const struct memcal_kernel *memcal_kernel_best(enum memcal_op op);
uint64_t memcal_kernel_bytes(enum memcal_op op, size_t bytes);
bool memcal_kernel_check(const void *dst, const void *src, size_t bytes);

/* Per-ISA tables, each indexed by enum memcal_op (NULL: not provided). */
extern const memcal_kernel_fn memcal_kernels_c[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn memcal_kernels_sse2[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn memcal_kernels_avx2[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn memcal_kernels_avx512[MEMCAL_OP_COUNT];
extern const memcal_kernel_fn memcal_kernels_neon[MEMCAL_OP_COUNT];

#endif /* MEMCAL_KERNELS_H */
