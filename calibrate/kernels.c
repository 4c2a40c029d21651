// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels.c - run-time choice among the bandwidth kernel variants.
 *
 * cal_kernel_best() picks the widest variant the CPU supports; the
 * environment variable MEMCAL_KERNEL_ISA ("c", "sse2", "avx2", "avx512",
 * "neon") forces a variant when it is supported (benchmarks, tests).
 */
#include "kernels.h"
#include "memcal_status.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[MEMCAL_OP_COUNT] = {
	"read", "write", "ntwrite", "copy", "mix",
};

static const char *const isa_names[MEMCAL_ISA_COUNT] = {
	"c", "sse2", "avx2", "avx512", "neon",
};

/* cal_op_name - stored name of @op ("read", "ntwrite", ...). */
const char *cal_op_name(enum memcal_op op)
{
	return (unsigned)op < MEMCAL_OP_COUNT ? op_names[op] : "?";
}

/* cal_op_parse - inverse of cal_op_name(); 0 or MEMCAL_ENOTFOUND. */
int cal_op_parse(const char *name, enum memcal_op *op)
{
	for (unsigned i = 0; i < MEMCAL_OP_COUNT; i++)
		if (strcmp(name, op_names[i]) == 0) {
			*op = (enum memcal_op)i;
			return 0;
		}
	return MEMCAL_ENOTFOUND;
}

/* cal_isa_supported - whether this CPU (and OS) can run @isa code. */
bool cal_isa_supported(enum memcal_isa isa)
{
	switch (isa) {
	case MEMCAL_ISA_C:
		return true;
#if defined(__x86_64__)
	case MEMCAL_ISA_SSE2:
		return __builtin_cpu_supports("sse2");
	case MEMCAL_ISA_AVX2:
		return __builtin_cpu_supports("avx2");
	case MEMCAL_ISA_AVX512:
		return __builtin_cpu_supports("avx512f");
#endif
#if defined(__aarch64__)
	case MEMCAL_ISA_NEON:
		return true;	/* mandatory in AArch64 */
#endif
	default:
		return false;
	}
}

/* isa_table - the function table of @isa. */
static const memcal_kernel_fn *isa_table(enum memcal_isa isa)
{
	switch (isa) {
	case MEMCAL_ISA_C:	return cal_kernels_c;
	case MEMCAL_ISA_SSE2:	return cal_kernels_sse2;
	case MEMCAL_ISA_AVX2:	return cal_kernels_avx2;
	case MEMCAL_ISA_AVX512:	return cal_kernels_avx512;
	case MEMCAL_ISA_NEON:	return cal_kernels_neon;
	default:		return NULL;
	}
}

/* mix_table - the mixed kernels of @isa. */
static const memcal_kernel_fn *mix_table(enum memcal_isa isa)
{
	switch (isa) {
	case MEMCAL_ISA_C:	return cal_mix_c;
	case MEMCAL_ISA_SSE2:	return cal_mix_sse2;
	case MEMCAL_ISA_AVX2:	return cal_mix_avx2;
	case MEMCAL_ISA_AVX512:	return cal_mix_avx512;
	case MEMCAL_ISA_NEON:	return cal_mix_neon;
	default:		return NULL;
	}
}

static struct memcal_kernel kernel_slots[MEMCAL_OP_COUNT][MEMCAL_ISA_COUNT];
static struct memcal_kernel mix_slots[MEMCAL_MIX_COUNT][MEMCAL_ISA_COUNT];
static pthread_once_t slots_once = PTHREAD_ONCE_INIT;

/*
 * fill_slots - describe every kernel the CPU can run, once per process
 * (so that threads may look kernels up concurrently).
 */
static void fill_slots(void)
{
	for (unsigned isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
		const memcal_kernel_fn *tab = isa_table((enum memcal_isa)isa);
		bool ok = cal_isa_supported((enum memcal_isa)isa);

		for (unsigned op = 0; op < MEMCAL_OP_COUNT; op++) {
			struct memcal_kernel *k = &kernel_slots[op][isa];

			k->op = (enum memcal_op)op;
			k->isa = (enum memcal_isa)isa;
			k->variant = isa_names[isa];
			k->fn = (tab && ok && op != MEMCAL_OP_MIX) ? tab[op]
								   : NULL;
		}
		tab = mix_table((enum memcal_isa)isa);
		for (unsigned m = 0; m < MEMCAL_MIX_COUNT; m++) {
			struct memcal_kernel *k = &mix_slots[m][isa];

			k->op = MEMCAL_OP_MIX;
			k->isa = (enum memcal_isa)isa;
			k->variant = isa_names[isa];
			k->fn = (tab && ok) ? tab[m] : NULL;
			k->read_pct = cal_mix_pct(m);
		}
	}
}

/*
 * cal_kernel_get - the @op kernel of variant @isa, or NULL when the
 * variant does not exist for @op or the CPU cannot run it.
 */
const struct memcal_kernel *cal_kernel_get(enum memcal_op op,
					      enum memcal_isa isa)
{
	if ((unsigned)op >= MEMCAL_OP_COUNT || (unsigned)isa >= MEMCAL_ISA_COUNT)
		return NULL;
	pthread_once(&slots_once, fill_slots);
	return kernel_slots[op][isa].fn ? &kernel_slots[op][isa] : NULL;
}

/*
 * cal_mix_kernel_get - the mixed kernel of mix index @idx (read share
 * cal_mix_pct(@idx)) in variant @isa, or NULL as cal_kernel_get().
 */
const struct memcal_kernel *cal_mix_kernel_get(unsigned idx,
						  enum memcal_isa isa)
{
	if (idx >= MEMCAL_MIX_COUNT || (unsigned)isa >= MEMCAL_ISA_COUNT)
		return NULL;
	pthread_once(&slots_once, fill_slots);
	return mix_slots[idx][isa].fn ? &mix_slots[idx][isa] : NULL;
}

/*
 * pick_best - the widest supported variant @get gives for @key (or the
 * one $MEMCAL_KERNEL_ISA names, when supported); NULL when none exists.
 */
static const struct memcal_kernel *
pick_best(const struct memcal_kernel *(*get)(unsigned, enum memcal_isa),
	  unsigned key)
{
	static const enum memcal_isa order[] = {
		MEMCAL_ISA_AVX512, MEMCAL_ISA_AVX2, MEMCAL_ISA_NEON,
		MEMCAL_ISA_SSE2, MEMCAL_ISA_C,
	};
	const char *force = getenv("MEMCAL_KERNEL_ISA");

	if (force && *force)
		for (unsigned i = 0; i < MEMCAL_ISA_COUNT; i++)
			if (strcmp(force, isa_names[i]) == 0) {
				const struct memcal_kernel *k =
					get(key, (enum memcal_isa)i);
				if (k)
					return k;
			}
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const struct memcal_kernel *k = get(key, order[i]);

		if (k)
			return k;
	}
	return NULL;
}

/* op_get - cal_kernel_get() keyed by an unsigned op, for pick_best(). */
static const struct memcal_kernel *op_get(unsigned op, enum memcal_isa isa)
{
	return cal_kernel_get((enum memcal_op)op, isa);
}

/*
 * cal_kernel_best - the widest supported variant of @op (or the one
 * $MEMCAL_KERNEL_ISA names, when supported); NULL when none exists.
 */
const struct memcal_kernel *cal_kernel_best(enum memcal_op op)
{
	return pick_best(op_get, (unsigned)op);
}

/* cal_mix_kernel_best - cal_kernel_best() for mix index @idx. */
const struct memcal_kernel *cal_mix_kernel_best(unsigned idx)
{
	return pick_best(cal_mix_kernel_get, idx);
}

/* cal_mix_pct - read share in per cent of mix index @idx (100 - 25 @idx). */
unsigned cal_mix_pct(unsigned idx)
{
	return idx < MEMCAL_MIX_COUNT ? 100 - 25 * idx : 0;
}

/*
 * cal_kernel_bytes - program-visible bytes one call over @bytes moves:
 * @bytes, or twice that for COPY (each byte is read and written).
 */
uint64_t cal_kernel_bytes(enum memcal_op op, size_t bytes)
{
	return op == MEMCAL_OP_COPY ? 2 * (uint64_t)bytes : (uint64_t)bytes;
}
