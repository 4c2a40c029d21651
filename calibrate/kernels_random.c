// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernels_random.c - the random-line kernels (randline.h), portable C.
 */
#include "randline.h"

#include "clock.h"

/* Zero at run time; volatile so the compiler cannot fold the chain's
 * dependence on the loaded word away. */
static volatile uint64_t randline_zero;

/* rl_step - one LCG step (Knuth's MMIX constants). */
static inline uint64_t rl_step(uint64_t x)
{
	return x * 6364136223846793005ull + 1442695040888963407ull;
}

/* rl_index - an index in [0, @n) from the high bits of @x. */
static inline size_t rl_index(uint64_t x, size_t n)
{
	return (size_t)(((unsigned __int128)x * n) >> 64);
}

/*
 * rl_loop - the chains until @deadline_ns; @offs non-NULL: only those
 * offsets inside each page (inlined twice, so the common case has no
 * division).
 */
static inline __attribute__((always_inline)) uint64_t
rl_loop(const struct memcal_randline *a, const uint32_t *offs,
	uint64_t *x, unsigned streams, uint64_t deadline_ns, uint64_t *n)
{
	const uint64_t mask = randline_zero;
	size_t slots = offs ? a->lines * a->line / a->page * a->n_offs
			    : a->lines;
	char *base = a->buf;
	uint64_t acc = 0;

	do {
		for (unsigned r = 0; r < MEMCAL_RANDLINE_BATCH; r++)
			for (unsigned s = 0; s < streams; s++) {
				size_t i = rl_index(x[s], slots);
				uint64_t *p = offs ?
					(uint64_t *)(base + i / a->n_offs *
						     a->page +
						     offs[i % a->n_offs]) :
					(uint64_t *)(base + i * a->line);
				uint64_t v = *p;

				if (a->write)
					*p = v + 1;
				acc += v;
				x[s] = rl_step(x[s] ^ (v & mask));
			}
		*n += (uint64_t)MEMCAL_RANDLINE_BATCH * streams;
	} while (memcal_now_ns() < deadline_ns);
	return acc;
}

/**
 * cal_randline_run() - random-line traffic of @a until @deadline_ns
 * (checked every MEMCAL_RANDLINE_BATCH accesses of every chain).
 * @a:           what to touch (randline.h).
 * @deadline_ns: memcal_now_ns() at which to stop.
 * @accesses:    set to the number of lines touched.
 *
 * Return: the sum of the words loaded (keeps the loads alive).
 */
uint64_t cal_randline_run(const struct memcal_randline *a,
			  uint64_t deadline_ns, uint64_t *accesses)
{
	uint64_t x[MEMCAL_RANDLINE_MAX_STREAMS];
	unsigned streams = a->streams;

	if (streams < 1)
		streams = 1;
	if (streams > MEMCAL_RANDLINE_MAX_STREAMS)
		streams = MEMCAL_RANDLINE_MAX_STREAMS;
	for (unsigned s = 0; s < streams; s++)
		x[s] = rl_step(a->seed + 0x9e3779b97f4a7c15ull * (s + 1));
	*accesses = 0;
	if (a->offs && a->n_offs && a->page)
		return rl_loop(a, a->offs, x, streams, deadline_ns, accesses);
	return rl_loop(a, NULL, x, streams, deadline_ns, accesses);
}
