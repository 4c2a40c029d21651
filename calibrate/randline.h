/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * randline.h - the random-line kernels behind the guaranteed bandwidth:
 * every access goes to a cache line drawn at random from a buffer far
 * larger than the last-level cache, so (nearly) every access misses the
 * caches and its DRAM row.
 *
 * A worker keeps @streams independent chains in flight: each chain's next
 * line comes from a PRNG step that depends on the word the chain just
 * loaded (through a mask that is zero at run time but unknown to the
 * compiler and the CPU), so exactly @streams misses per core can be
 * outstanding, no more.  That makes the memory-level parallelism a chosen,
 * stored parameter instead of whatever the out-of-order window happens to
 * find.
 *
 * The kernels are portable C and serve every ISA: the loop is bound by
 * DRAM latency and the number of misses in flight, which SIMD cannot
 * change (one word per line is touched).
 *
 * Bytes counted: READ counts one whole line (@line bytes) per access, the
 * line DRAM delivers.  WRITE loads one word of the line and stores it back
 * incremented, dirtying the line; it counts @line bytes per access for the
 * write-back of that dirtied line and does NOT count the read for
 * ownership that fetched it (DRAM traffic is about twice the figure).
 */
#ifndef MEMCAL_RANDLINE_H
#define MEMCAL_RANDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most independent chains one worker runs. */
#define MEMCAL_RANDLINE_MAX_STREAMS	64
/* Accesses of every chain between two looks at the clock. */
#define MEMCAL_RANDLINE_BATCH		256

/**
 * struct memcal_randline - one worker's random-line traffic.
 * @buf:      the buffer.
 * @lines:    lines in @buf (>= 1).
 * @line:     cache-line size, bytes.
 * @streams:  independent chains (1..MEMCAL_RANDLINE_MAX_STREAMS; clamped).
 * @write:    dirty every line touched (load, store incremented) instead
 *            of only reading it.
 * @seed:     where the chains start (differs per worker).
 * @offs:     NULL, or the only line offsets to use inside each @page
 *            bytes of @buf (single bank), @n_offs of them.
 * @page:     with @offs: the page size they repeat with (divides the
 *            buffer's bytes).
 */
struct memcal_randline {
	void *buf;
	size_t lines;
	unsigned line;
	unsigned streams;
	bool write;
	uint64_t seed;
	const uint32_t *offs;
	size_t n_offs;
	size_t page;
};

uint64_t cal_randline_run(const struct memcal_randline *a,
			  uint64_t deadline_ns, uint64_t *accesses);

#endif /* MEMCAL_RANDLINE_H */
