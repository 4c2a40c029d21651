/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * buffers.h - measurement buffers: placed on a NUMA node (libnuma), backed
 * by huge pages where the kernel offers them, pre-faulted so no page fault
 * lands inside a timed region, and released cleanly.
 *
 * Sizing: a bandwidth buffer must be several times the last-level cache
 * the measuring core sees, or the figure is a cache bandwidth.  The factor
 * and the floor are the two parameters below; `--size` overrides both.
 */
#ifndef MEMCAL_BUFFERS_H
#define MEMCAL_BUFFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_platform.h"

/* Buffer bytes per thread = factor x LLC the core sees (full run). */
#define MEMCAL_BUF_LLC_FACTOR		8
/* The same for --quick: coarser, but still far beyond the LLC. */
#define MEMCAL_BUF_LLC_FACTOR_QUICK	4
/* Floor when the topology shows no (or a tiny) cache: 64 MiB. */
#define MEMCAL_BUF_MIN_BYTES		(64ull << 20)
/* Share of MemAvailable that buffers may take altogether. */
#define MEMCAL_BUF_MAX_SHARE		0.8
/*
 * The most last-level cache a real chip has for each PU sharing it, with
 * room to spare: one core alone can fill a whole LLC instance (96 MiB on
 * stacked-cache CCDs), and the largest shared ones (hundreds of MiB) are
 * shared by dozens of cores.  A hypervisor may pass a socket-wide figure
 * through CPUID as each vCPU's own (508 MiB per vCPU on one cloud VM),
 * which would size buffers of gigabytes and make each run minutes long;
 * sizing then uses this bound.  128 MiB, not less: on that VM one core
 * read 64-128 MiB buffers up to 1.4x faster than 512 MiB-2 GiB ones,
 * which agreed within 10 % (a cache served the small ones).
 */
#define MEMCAL_LLC_MAX_PER_PU		(128ull << 20)

/**
 * struct memcal_buffer - one placed, pre-faulted buffer.
 * @base:    start, aligned to @page (at least 64 bytes).
 * @bytes:   usable bytes as requested (rounded up to @page).
 * @mapped:  bytes actually mapped (munmap length).
 * @node:    NUMA node it was bound to, or -1 (no binding possible).
 * @page:    page granularity used (huge page size or base page size).
 * @hugetlb: backed by MAP_HUGETLB pages (reserved huge pages).
 * @thp:     transparent huge pages were requested with madvise.
 */
struct memcal_buffer {
	void *base;
	size_t bytes;
	size_t mapped;
	int node;
	size_t page;
	bool hugetlb;
	bool thp;
};

int cal_buffer_alloc(struct memcal_buffer *b, size_t bytes, int node,
			char *err, size_t errlen);
void cal_buffer_free(struct memcal_buffer *b);
uint64_t cal_llc_sizing_bytes(const struct memcal_cache *llc,
				bool *implausible);
uint64_t cal_buffer_default_size(const struct memcal_topology *t,
				    unsigned cpu, bool quick);
uint64_t cal_buffer_size_for(const struct memcal_topology *t,
			     const unsigned *cpus, unsigned n, uint64_t size,
			     bool quick);
int cal_mem_available(uint64_t *bytes);
int cal_buffer_check_total(uint64_t total, char *err, size_t errlen);

#endif /* MEMCAL_BUFFERS_H */
