// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernels.c - every bandwidth kernel variant this CPU supports moves
 * exactly the bytes it claims, touches nothing outside them, and read
 * reductions equal a scalar sum.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"

/* Bytes of guard on each side of the region a kernel works on. */
#define GUARD 256
#define GUARD_BYTE 0xa5

static const size_t sizes[] = { 256, 512, 4096, 256 * 37, 1 << 20 };

/* region - aligned buffer with guards; returns the start of the region. */
static unsigned char *region(size_t bytes, unsigned char **raw)
{
	*raw = aligned_alloc(MEMCAL_KERNEL_ALIGN, bytes + 2 * GUARD);
	cr_assert_not_null(*raw);
	memset(*raw, GUARD_BYTE, bytes + 2 * GUARD);
	return *raw + GUARD;
}

/* guards_intact - the guard bytes around [p, p+bytes) are untouched. */
static bool guards_intact(const unsigned char *p, size_t bytes)
{
	for (size_t i = 1; i <= GUARD; i++)
		if (p[-(ptrdiff_t)i] != GUARD_BYTE || p[bytes + i - 1] != GUARD_BYTE)
			return false;
	return true;
}

/* fill_pattern - deterministic, non-trivial 64-bit words. */
static void fill_pattern(uint64_t *w, size_t n)
{
	uint64_t x = 0x0123456789abcdefull;

	for (size_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		w[i] = x;
	}
}

Test(kernels, read_reduction_equals_scalar_sum)
{
	for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
		const struct memcal_kernel *k = memcal_kernel_get(MEMCAL_OP_READ, isa);

		if (!k)
			continue;
		for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			unsigned char *raw, *p = region(sizes[s], &raw);
			uint64_t *w = (uint64_t *)p, want = 0;

			fill_pattern(w, sizes[s] / 8);
			for (size_t i = 0; i < sizes[s] / 8; i++)
				want += w[i];
			cr_expect_eq(k->fn(NULL, p, sizes[s], 0), want,
				     "%s read of %zu bytes", k->variant, sizes[s]);
			free(raw);
		}
	}
}

/* check_store - WRITE or NTWRITE fills exactly the region with @value. */
static void check_store(enum memcal_op op)
{
	int tested = 0;

	for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
		const struct memcal_kernel *k = memcal_kernel_get(op, isa);

		if (!k)
			continue;
		tested++;
		for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			unsigned char *raw, *p = region(sizes[s], &raw);
			uint64_t v = 0xfeedface00000000ull + s;
			const uint64_t *w = (const uint64_t *)p;
			size_t bad = 0;

			cr_expect_eq(k->fn(p, NULL, sizes[s], v), 0);
			for (size_t i = 0; i < sizes[s] / 8; i++)
				bad += w[i] != v;
			cr_expect_eq(bad, 0, "%s %s: %zu words wrong", k->variant,
				     memcal_op_name(op), bad);
			cr_expect(guards_intact(p, sizes[s]), "%s %s wrote outside",
				  k->variant, memcal_op_name(op));
			free(raw);
		}
	}
	if (op == MEMCAL_OP_WRITE)
		cr_expect_geq(tested, 1, "the C write kernel always exists");
}

Test(kernels, write_fills_exactly_the_region)
{
	check_store(MEMCAL_OP_WRITE);
}

Test(kernels, ntwrite_fills_exactly_the_region)
{
	check_store(MEMCAL_OP_NTWRITE);
}

Test(kernels, copy_copies_exactly)
{
	for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
		const struct memcal_kernel *k = memcal_kernel_get(MEMCAL_OP_COPY, isa);

		if (!k)
			continue;
		for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++) {
			unsigned char *rs, *rd, *src = region(sizes[s], &rs),
					      *dst = region(sizes[s], &rd);

			fill_pattern((uint64_t *)src, sizes[s] / 8);
			k->fn(dst, src, sizes[s], 0);
			cr_expect_eq(memcmp(dst, src, sizes[s]), 0, "%s copy",
				     k->variant);
			cr_expect(guards_intact(dst, sizes[s]));
			free(rs);
			free(rd);
		}
	}
}

Test(kernels, bytes_moved_are_program_visible_bytes)
{
	cr_expect_eq(memcal_kernel_bytes(MEMCAL_OP_READ, 4096), 4096);
	cr_expect_eq(memcal_kernel_bytes(MEMCAL_OP_WRITE, 4096), 4096);
	cr_expect_eq(memcal_kernel_bytes(MEMCAL_OP_NTWRITE, 4096), 4096);
	cr_expect_eq(memcal_kernel_bytes(MEMCAL_OP_COPY, 4096), 8192);
}

Test(kernels, best_variant_is_supported_and_forcible)
{
	const struct memcal_kernel *k = memcal_kernel_best(MEMCAL_OP_READ);

	cr_assert_not_null(k);
	cr_expect(memcal_isa_supported(k->isa));
	setenv("MEMCAL_KERNEL_ISA", "c", 1);
	k = memcal_kernel_best(MEMCAL_OP_READ);
	cr_expect_str_eq(k->variant, "c");
	unsetenv("MEMCAL_KERNEL_ISA");
#if defined(__x86_64__)
	cr_expect(memcal_isa_supported(MEMCAL_ISA_SSE2));
	cr_expect_not_null(memcal_kernel_best(MEMCAL_OP_NTWRITE));
#endif
}

Test(kernels, check_rejects_partial_granules_and_misalignment)
{
	static _Alignas(64) unsigned char buf[1024];

	cr_expect(memcal_kernel_check(buf, buf, 512));
	cr_expect_not(memcal_kernel_check(buf, buf, 0));
	cr_expect_not(memcal_kernel_check(buf, buf, 300));
	cr_expect_not(memcal_kernel_check(buf + 8, buf, 512));
}

Test(kernels, op_names_round_trip)
{
	for (int op = 0; op < MEMCAL_OP_COUNT; op++) {
		enum memcal_op back;

		cr_expect_eq(memcal_op_parse(memcal_op_name(op), &back), 0);
		cr_expect_eq(back, op);
	}
	cr_expect_neq(memcal_op_parse("bogus", &(enum memcal_op){ 0 }), 0);
}
