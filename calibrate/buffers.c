// SPDX-License-Identifier: GPL-2.0-only
/*
 * buffers.c - NUMA-placed, huge-page-backed, pre-faulted buffers.
 */
#include "buffers.h"

#include <errno.h>
#include <numa.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * read_meminfo_kb - *@kb: the value of "@key:" in /proc/meminfo in kB.
 * Returns 0, MEMCAL_ECANTOPEN or MEMCAL_ENOTFOUND (no such line).
 */
static int read_meminfo_kb(const char *key, long long *kb)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	size_t klen = strlen(key);
	int rc = MEMCAL_ENOTFOUND;

	if (!f)
		return MEMCAL_ECANTOPEN;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			*kb = atoll(line + klen + 1);
			rc = *kb < 0 ? MEMCAL_ESYNTAX : 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/*
 * cal_mem_available - MemAvailable of /proc/meminfo in bytes.
 * Returns 0, or the status of why it cannot be read.
 */
int cal_mem_available(uint64_t *bytes)
{
	long long kb;
	int rc = read_meminfo_kb("MemAvailable", &kb);

	if (rc)
		return rc;
	*bytes = (uint64_t)kb * 1024;
	return 0;
}

/*
 * cal_buffer_check_total - refuse @total buffer bytes when they exceed
 * MEMCAL_BUF_MAX_SHARE of the memory available now.  Returns 0 or
 * MEMCAL_ENOMEM with a message saying how much is free.
 */
int cal_buffer_check_total(uint64_t total, char *err, size_t errlen)
{
	uint64_t avail;

	if (cal_mem_available(&avail))
		return 0;	/* cannot tell: let mmap decide */
	if ((double)total > MEMCAL_BUF_MAX_SHARE * (double)avail) {
		if (err && errlen)
			snprintf(err, errlen,
				 "buffers of %.1f MiB in all do not fit: only "
				 "%.1f MiB of memory is available (at most "
				 "%.0f%% of it is used); choose a smaller --size",
				 total / 1048576.0, avail / 1048576.0,
				 MEMCAL_BUF_MAX_SHARE * 100);
		return MEMCAL_ENOMEM;
	}
	return 0;
}

/*
 * cal_llc_sizing_bytes - the size of @llc that buffers are sized from: its
 * reported size, bounded by MEMCAL_LLC_MAX_PER_PU for each PU sharing it;
 * *@implausible (if given) tells whether the bound applied.  0 without an
 * LLC.
 */
uint64_t cal_llc_sizing_bytes(const struct memcal_cache *llc,
			      bool *implausible)
{
	uint64_t max, pus;

	if (implausible)
		*implausible = false;
	if (!llc)
		return 0;
	pus = llc->n_cpus ? llc->n_cpus : 1;
	max = MEMCAL_LLC_MAX_PER_PU * pus;
	if (llc->size <= max)
		return llc->size;
	if (implausible)
		*implausible = true;
	return max;
}

/*
 * cal_buffer_default_size - bytes per thread for @cpu: the LLC it sees
 * (cal_llc_sizing_bytes()) times the factor, never below
 * MEMCAL_BUF_MIN_BYTES.
 */
uint64_t cal_buffer_default_size(const struct memcal_topology *t,
				    unsigned cpu, bool quick)
{
	const struct memcal_cache *llc = memcal_platform_topology_llc(t, cpu);
	uint64_t f = quick ? MEMCAL_BUF_LLC_FACTOR_QUICK : MEMCAL_BUF_LLC_FACTOR;
	uint64_t sz = cal_llc_sizing_bytes(llc, NULL) * f;

	return sz < MEMCAL_BUF_MIN_BYTES ? MEMCAL_BUF_MIN_BYTES : sz;
}

/*
 * cal_buffer_size_for - the buffer per thread for a run on @cpus: @size
 * when given, else the largest default size among the CPUs (each sizes
 * against its own last-level cache).
 */
uint64_t cal_buffer_size_for(const struct memcal_topology *t,
			     const unsigned *cpus, unsigned n, uint64_t size,
			     bool quick)
{
	for (unsigned i = 0; !size && i < n; i++) {
		uint64_t d = cal_buffer_default_size(t, cpus[i], quick);

		if (d > size)
			size = d;
	}
	return size;
}

/* hugetlb_free_bytes - bytes of reserved huge pages free now. */
static uint64_t hugetlb_free_bytes(size_t *page)
{
	long long nfree, kb;

	if (read_meminfo_kb("HugePages_Free", &nfree) ||
	    read_meminfo_kb("Hugepagesize", &kb) || nfree <= 0 || kb <= 0)
		return 0;
	*page = (size_t)kb * 1024;
	return (uint64_t)nfree * (uint64_t)kb * 1024;
}

/* thp_offered - transparent huge pages are "always" or "madvise". */
static bool thp_offered(size_t *page)
{
	char path[512], buf[128];
	FILE *f;
	bool ok = false;

	snprintf(path, sizeof(path), "%s/kernel/mm/transparent_hugepage/enabled",
		 memcal_platform_sysfs_root());
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		ok = strstr(buf, "[always]") || strstr(buf, "[madvise]");
	fclose(f);
	snprintf(path, sizeof(path),
		 "%s/kernel/mm/transparent_hugepage/hpage_pmd_size",
		 memcal_platform_sysfs_root());
	f = fopen(path, "r");
	*page = 2u << 20;
	if (f) {
		unsigned long long v;

		if (fscanf(f, "%llu", &v) == 1 && v)
			*page = (size_t)v;
		fclose(f);
	}
	return ok;
}

/* round_up - @x rounded up to a multiple of @a (a power of two). */
static size_t round_up(size_t x, size_t a)
{
	return (x + a - 1) & ~(a - 1);
}

/* bind_to_node - mbind [@p, @p+@len) to @node; false when impossible. */
static bool bind_to_node(void *p, size_t len, int node)
{
	struct bitmask *bm;
	int rc;

	if (node < 0 || numa_available() < 0 || node > numa_max_node())
		return false;
	bm = numa_allocate_nodemask();
	if (!bm)
		return false;
	numa_bitmask_setbit(bm, (unsigned)node);
	rc = mbind(p, len, MPOL_BIND, bm->maskp, bm->size + 1, 0);
	numa_free_nodemask(bm);
	return rc == 0;
}

/*
 * cal_buffer_alloc - map @bytes on NUMA node @node (-1: anywhere) and
 * touch every page.  Tries reserved huge pages first, then an anonymous
 * mapping aligned to the THP size with MADV_HUGEPAGE, then plain pages.
 * Returns 0, MEMCAL_EINVAL or MEMCAL_ENOMEM with @err set.
 */
int cal_buffer_alloc(struct memcal_buffer *b, size_t bytes, int node,
			char *err, size_t errlen)
{
	size_t base_page = (size_t)sysconf(_SC_PAGESIZE), hpage = 0;
	uint64_t hfree;
	void *p = MAP_FAILED;

	memset(b, 0, sizeof(*b));
	b->node = -1;
	if (bytes == 0) {
		if (err && errlen)
			snprintf(err, errlen, "buffer size must be positive");
		return MEMCAL_EINVAL;
	}
	hfree = hugetlb_free_bytes(&hpage);
	if (hpage && hfree >= round_up(bytes, hpage)) {
		size_t len = round_up(bytes, hpage);

		p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p != MAP_FAILED) {
			b->hugetlb = true;
			b->page = hpage;
			b->bytes = len;
			b->mapped = len;
		}
	}
	if (p == MAP_FAILED) {
		size_t tpage = 0;
		bool thp = thp_offered(&tpage);
		size_t align = thp ? tpage : base_page;
		size_t len = round_up(bytes, align);
		size_t map_len = len + align;
		char *raw = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);
		char *start;

		if (raw == MAP_FAILED) {
			if (err && errlen)
				snprintf(err, errlen,
					 "cannot map %.1f MiB: %s",
					 bytes / 1048576.0, strerror(errno));
			return MEMCAL_ENOMEM;
		}
		/* Trim to an aligned window so huge pages can back it. */
		start = (char *)round_up((size_t)raw, align);
		if (start > raw)
			munmap(raw, (size_t)(start - raw));
		if ((size_t)(raw + map_len - (start + len)) > 0)
			munmap(start + len, (size_t)(raw + map_len - (start + len)));
		p = start;
		b->mapped = len;
		b->bytes = len;
		b->page = align;
		if (thp && madvise(p, len, MADV_HUGEPAGE) == 0)
			b->thp = true;
	}
	b->base = p;
	if (bind_to_node(p, b->mapped, node))
		b->node = node;
	/* Pre-fault: one write per base page (huge pages fill at once). */
	for (size_t off = 0; off < b->mapped; off += base_page)
		((volatile char *)p)[off] = 1;
	return MEMCAL_OK;
}

/* cal_buffer_free - unmap the buffer; safe on a zeroed struct. */
void cal_buffer_free(struct memcal_buffer *b)
{
	if (b->base && b->mapped)
		munmap(b->base, b->mapped);
	memset(b, 0, sizeof(*b));
	b->node = -1;
}
