// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_kernels.c - every bandwidth kernel variant this CPU supports moves
 * exactly the bytes it claims, touches nothing outside them, and read
 * reductions equal a scalar sum; the mixed kernels read and write lines
 * in exactly their share.
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
		const struct memcal_kernel *k = cal_kernel_get(MEMCAL_OP_READ, isa);

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
		const struct memcal_kernel *k = cal_kernel_get(op, isa);

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
				     cal_op_name(op), bad);
			cr_expect(guards_intact(p, sizes[s]), "%s %s wrote outside",
				  k->variant, cal_op_name(op));
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
		const struct memcal_kernel *k = cal_kernel_get(MEMCAL_OP_COPY, isa);

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

/**
 * struct mix_count - what one mixed-kernel call did, judged from memory.
 * @read:    lines left as they were in @dst whose @src words were summed.
 * @written: lines of @dst holding the stored value in every word.
 * @other:   lines neither (a partial store: a bug).
 * @sum:     the sum of the @src words of the read lines.
 */
struct mix_count {
	size_t read, written, other;
	uint64_t sum;
};

/*
 * count_lines - classify every line of @dst after a mixed kernel stored
 * @v: a line with @v in every word was written; a line equal to @before
 * was left alone (read), its @src words added to @c->sum.
 */
static void count_lines(const uint64_t *dst, const uint64_t *before,
			const uint64_t *src, size_t bytes, uint64_t v,
			struct mix_count *c)
{
	const size_t words = MEMCAL_MIX_LINE / 8;

	memset(c, 0, sizeof(*c));
	for (size_t w = 0; w < bytes / 8; w += words) {
		size_t stored = 0;

		for (size_t i = 0; i < words; i++)
			stored += dst[w + i] == v;
		if (stored == words) {
			c->written++;
		} else if (!memcmp(dst + w, before + w, MEMCAL_MIX_LINE)) {
			c->read++;
			for (size_t i = 0; i < words; i++)
				c->sum += src[w + i];
		} else {
			c->other++;
		}
	}
}

/* check_mix - one mixed kernel, separate buffers and in place. */
static void check_mix(const struct memcal_kernel *k, size_t bytes)
{
	unsigned char *rs, *rd, *src = region(bytes, &rs), *dst = region(bytes, &rd);
	uint64_t *before = malloc(bytes), *orig = malloc(bytes);
	uint64_t v = 0x5a5a5a5a00000000ull + k->read_pct, got;
	size_t lines = bytes / MEMCAL_MIX_LINE;
	struct mix_count c;

	cr_assert(before && orig);
	fill_pattern((uint64_t *)src, bytes / 8);
	fill_pattern(before, bytes / 8);
	for (size_t i = 0; i < bytes / 8; i++)
		before[i] = ~before[i];		/* differs from src and from v */
	memcpy(dst, before, bytes);
	memcpy(orig, src, bytes);
	got = k->fn(dst, src, bytes, v);
	count_lines((uint64_t *)dst, before, (uint64_t *)src, bytes, v, &c);
	cr_expect_eq(c.other, 0, "%s mix %u%%: %zu lines half-written",
		     k->variant, k->read_pct, c.other);
	cr_expect_eq(c.read * 100, lines * k->read_pct,
		     "%s mix %u%% over %zu bytes: %zu of %zu lines read",
		     k->variant, k->read_pct, bytes, c.read, lines);
	cr_expect_eq(c.written * 100, lines * (100 - k->read_pct),
		     "%s mix %u%% over %zu bytes: %zu of %zu lines written",
		     k->variant, k->read_pct, bytes, c.written, lines);
	cr_expect_eq(got, c.sum, "%s mix %u%%: returned sum is not the sum of "
		     "the lines left unwritten", k->variant, k->read_pct);
	cr_expect_eq(memcmp(src, orig, bytes), 0, "%s mix %u%% wrote its source",
		     k->variant, k->read_pct);
	cr_expect(guards_intact(dst, bytes) && guards_intact(src, bytes));

	/* In place, as the load generators run it. */
	memcpy(src, orig, bytes);
	got = k->fn(src, src, bytes, v);
	count_lines((uint64_t *)src, orig, orig, bytes, v, &c);
	cr_expect_eq(c.read * 100, lines * k->read_pct, "%s mix %u%% in place",
		     k->variant, k->read_pct);
	cr_expect_eq(got, c.sum, "%s mix %u%% in place: sum", k->variant,
		     k->read_pct);
	free(before);
	free(orig);
	free(rs);
	free(rd);
}

Test(kernels, mixed_kernels_read_and_write_their_share_of_lines)
{
	int tested = 0;

	for (unsigned m = 0; m < MEMCAL_MIX_COUNT; m++) {
		cr_expect_eq(cal_mix_pct(m), 100 - 25 * m);
		for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
			const struct memcal_kernel *k =
				cal_mix_kernel_get(m, isa);

			if (!k)
				continue;
			tested++;
			cr_expect_eq(k->op, MEMCAL_OP_MIX);
			cr_expect_eq(k->read_pct, cal_mix_pct(m));
			for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
				check_mix(k, sizes[s]);
		}
	}
	cr_expect_geq(tested, MEMCAL_MIX_COUNT, "the C mixed kernels exist");
	cr_expect_null(cal_kernel_get(MEMCAL_OP_MIX, MEMCAL_ISA_C),
		       "a mixed kernel needs its share");
	cr_expect_not_null(cal_mix_kernel_best(2));
}

Test(kernels, bytes_moved_are_program_visible_bytes)
{
	cr_expect_eq(cal_kernel_bytes(MEMCAL_OP_READ, 4096), 4096);
	cr_expect_eq(cal_kernel_bytes(MEMCAL_OP_WRITE, 4096), 4096);
	cr_expect_eq(cal_kernel_bytes(MEMCAL_OP_NTWRITE, 4096), 4096);
	cr_expect_eq(cal_kernel_bytes(MEMCAL_OP_COPY, 4096), 8192);
	cr_expect_eq(cal_kernel_bytes(MEMCAL_OP_MIX, 4096), 4096);
}

Test(kernels, best_variant_is_supported_and_forcible)
{
	const struct memcal_kernel *k = cal_kernel_best(MEMCAL_OP_READ);

	cr_assert_not_null(k);
	cr_expect(cal_isa_supported(k->isa));
	setenv("MEMCAL_KERNEL_ISA", "c", 1);
	k = cal_kernel_best(MEMCAL_OP_READ);
	cr_expect_str_eq(k->variant, "c");
	unsetenv("MEMCAL_KERNEL_ISA");
#if defined(__x86_64__)
	cr_expect(cal_isa_supported(MEMCAL_ISA_SSE2));
	cr_expect_not_null(cal_kernel_best(MEMCAL_OP_NTWRITE));
#endif
}

Test(kernels, op_names_round_trip)
{
	for (int op = 0; op < MEMCAL_OP_COUNT; op++) {
		enum memcal_op back;

		cr_expect_eq(cal_op_parse(cal_op_name(op), &back), 0);
		cr_expect_eq(back, op);
	}
	cr_expect_neq(cal_op_parse("bogus", &(enum memcal_op){ 0 }), 0);
}
