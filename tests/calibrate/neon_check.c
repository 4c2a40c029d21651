// SPDX-License-Identifier: GPL-2.0-only
/*
 * neon_check.c - the arm64 (NEON and C) bandwidth kernels, cross-built
 * and run under qemu-aarch64-static (no Criterion for arm64 here): read
 * sums equal a scalar sum, writes fill exactly their region, copies copy,
 * and each mixed kernel reads and writes exactly its share of lines; the
 * random-line kernel (portable C, the one every ISA uses) reads, and
 * dirties exactly the lines it counts.  Exit status 0 when every kernel
 * passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "kernels.h"
#include "randline.h"

#define GUARD 256

/* check_one - run @k over @n bytes and compare with the scalar result. */
static int check_one(const struct memcal_kernel *k, size_t n)
{
	unsigned char *a = aligned_alloc(64, n + 2 * GUARD);
	unsigned char *b = aligned_alloc(64, n + 2 * GUARD);
	uint64_t *w, sum = 0, r;
	int fail = 0;

	if (!a || !b)
		return 1;
	memset(a, 0xa5, n + 2 * GUARD);
	memset(b, 0xa5, n + 2 * GUARD);
	w = (uint64_t *)(a + GUARD);
	for (size_t i = 0; i < n / 8; i++) {
		w[i] = i * 0x9e3779b97f4a7c15ull;
		sum += w[i];
	}
	r = k->fn(b + GUARD, a + GUARD, n, 77);
	if (k->op == MEMCAL_OP_READ && r != sum)
		fail = 1;
	if (k->op == MEMCAL_OP_WRITE || k->op == MEMCAL_OP_NTWRITE)
		for (size_t i = 0; i < n / 8; i++)
			if (((uint64_t *)(b + GUARD))[i] != 77)
				fail = 1;
	if (k->op == MEMCAL_OP_COPY && memcmp(a + GUARD, b + GUARD, n))
		fail = 1;
	for (int g = 0; g < GUARD; g++)
		if (b[g] != 0xa5 || b[GUARD + n + g] != 0xa5)
			fail = 1;
	if (fail)
		printf("FAIL %s %s over %zu bytes\n", k->variant,
		       cal_op_name(k->op), n);
	free(a);
	free(b);
	return fail;
}

/*
 * check_mix - run mixed kernel @k over @n bytes: every line is either
 * left alone (a read line, its words summed) or holds the stored value
 * in every word, and the read lines are exactly the kernel's share.
 */
static int check_mix(const struct memcal_kernel *k, size_t n)
{
	const size_t words = MEMCAL_MIX_LINE / 8, lines = n / MEMCAL_MIX_LINE;
	unsigned char *a = aligned_alloc(64, n + 2 * GUARD);
	unsigned char *b = aligned_alloc(64, n + 2 * GUARD);
	uint64_t *src, *dst, sum = 0, r, v = 0x77;
	size_t nread = 0, nwritten = 0, bad = 0;
	int fail = 0;

	if (!a || !b)
		return 1;
	memset(a, 0xa5, n + 2 * GUARD);
	memset(b, 0xa5, n + 2 * GUARD);
	src = (uint64_t *)(a + GUARD);
	dst = (uint64_t *)(b + GUARD);
	for (size_t i = 0; i < n / 8; i++) {
		src[i] = i * 0x9e3779b97f4a7c15ull + 1;
		dst[i] = ~src[i];
	}
	r = k->fn(dst, src, n, v);
	for (size_t w = 0; w < n / 8; w += words) {
		size_t stored = 0, kept = 0;
		uint64_t s = 0;

		for (size_t i = 0; i < words; i++) {
			stored += dst[w + i] == v;
			kept += dst[w + i] == ~src[w + i];
			s += src[w + i];
		}
		if (stored == words) {
			nwritten++;
		} else if (kept == words) {
			nread++;
			sum += s;
		} else {
			bad++;
		}
	}
	if (bad || nread * 100 != lines * k->read_pct ||
	    nwritten * 100 != lines * (100 - k->read_pct) || r != sum)
		fail = 1;
	for (int g = 0; g < GUARD; g++)
		if (b[g] != 0xa5 || b[GUARD + n + g] != 0xa5)
			fail = 1;
	if (fail)
		printf("FAIL %s mix %u%% over %zu bytes: %zu lines read, %zu "
		       "written, %zu neither, sum %s\n", k->variant,
		       k->read_pct, n, nread, nwritten, bad,
		       r == sum ? "right" : "wrong");
	free(a);
	free(b);
	return fail;
}


/*
 * check_randline - 10 ms of random-line reads, then writes, over 1 MiB:
 * each touches lines, and the writes increment exactly as many line-first
 * words as they count (nothing else of the buffer changes).
 */
static int check_randline(void)
{
	size_t bytes = 1u << 20;
	uint64_t *buf = aligned_alloc(64, bytes), n = 0, sum = 0;
	struct memcal_randline a = { .buf = buf, .lines = bytes / 64,
				     .line = 64, .streams = 16, .seed = 7 };
	int fail = 0;

	if (!buf)
		return 1;
	memset(buf, 0, bytes);
	cal_randline_run(&a, memcal_now_ns() + 10000000ull, &n);
	fail |= n == 0;
	a.write = true;
	cal_randline_run(&a, memcal_now_ns() + 10000000ull, &n);
	for (size_t w = 0; w < bytes / 8; w++) {
		fail |= w % 8 && buf[w];
		sum += buf[w];
	}
	fail |= n == 0 || sum != n;
	if (fail)
		printf("FAIL random-line: %llu accesses, %llu increments\n",
		       (unsigned long long)n, (unsigned long long)sum);
	free(buf);
	return fail;
}

/* main - every supported kernel at several sizes. */
int main(void)
{
	static const size_t sizes[] = { 256, 4096, 256 * 37, 1 << 20 };
	int fail = 0, tested = 0;

	for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++)
		for (int op = 0; op < MEMCAL_OP_COUNT; op++) {
			const struct memcal_kernel *k = cal_kernel_get(op, isa);

			if (!k)
				continue;
			tested++;
			for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
				fail += check_one(k, sizes[s]);
		}
	for (unsigned m = 0; m < MEMCAL_MIX_COUNT; m++)
		for (int isa = 0; isa < MEMCAL_ISA_COUNT; isa++) {
			const struct memcal_kernel *k = cal_mix_kernel_get(m, isa);

			if (!k)
				continue;
			tested++;
			for (size_t s = 0; s < sizeof(sizes) / sizeof(*sizes); s++)
				fail += check_mix(k, sizes[s]);
		}
	fail += check_randline();
	tested++;
	printf("%d kernels tested, %d failures; best read %s, ntwrite %s, "
	       "mix %s\n", tested, fail,
	       cal_kernel_best(MEMCAL_OP_READ)->variant,
	       cal_kernel_best(MEMCAL_OP_NTWRITE)->variant,
	       cal_mix_kernel_best(2)->variant);
	return fail || !tested;
}
