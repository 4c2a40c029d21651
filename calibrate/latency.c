// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c - pointer chase and paced load generators (see latency.h).
 */
#include "latency.h"
#include "memcal_status.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* xorshift64 - small fast PRNG for the permutation (not for crypto). */
static uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/*
 * cal_chase_build - turn @buf into one random cycle through all its
 * @line-byte lines: the first word of each line points to the next line.
 * Returns 0, MEMCAL_EINVAL when @buf holds fewer than two lines (or more
 * than 2^32) or MEMCAL_ENOMEM.
 */
int cal_chase_build(void *buf, size_t bytes, unsigned line, uint64_t seed)
{
	size_t n = bytes / line;
	uint32_t *perm;
	char *base = buf;

	if (n < 2 || n > UINT32_MAX)
		return MEMCAL_EINVAL;
	perm = malloc(n * sizeof(*perm));
	if (!perm)
		return MEMCAL_ENOMEM;
	for (size_t i = 0; i < n; i++)
		perm[i] = (uint32_t)i;
	if (!seed)
		seed = 0x9e3779b97f4a7c15ull;
	/* Sattolo: a uniformly random single cycle. */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(xorshift64(&seed) % i);
		uint32_t tmp = perm[i];

		perm[i] = perm[j];
		perm[j] = tmp;
	}
	/* perm as a cycle: line i -> line perm[i]. */
	for (size_t i = 0; i < n; i++)
		*(void **)(base + (size_t)i * line) = base + (size_t)perm[i] * line;
	free(perm);
	return 0;
}

/*
 * cal_chase_run - follow the chain from @buf for at least @min_ns and
 * return ns per load: the median over chunks of MEMCAL_CHASE_CHUNK loads,
 * so that chunks during which the thread was preempted (a shared VM)
 * do not inflate the figure.  Stores the number of loads in @loads.
 */
double cal_chase_run(const void *buf, uint64_t min_ns, uint64_t *loads)
{
	void *const *p = (void *const *)buf;
	size_t cap = 16 + (size_t)(min_ns / 2000), n_chunks = 0;
	double *chunk = malloc(cap * sizeof(*chunk)), res;
	uint64_t t0 = memcal_now_ns(), prev = t0, t1, n = 0;

	do {
		for (unsigned i = 0; i < MEMCAL_CHASE_CHUNK; i += 8) {
			p = *p; p = *p; p = *p; p = *p;
			p = *p; p = *p; p = *p; p = *p;
		}
		n += MEMCAL_CHASE_CHUNK;
		t1 = memcal_now_ns();
		if (chunk && n_chunks < cap)
			chunk[n_chunks++] = (double)(t1 - prev) /
					    MEMCAL_CHASE_CHUNK;
		prev = t1;
	} while (t1 - t0 < min_ns);
	/* Make the final pointer observable so the chain is not removed. */
	__asm__ volatile("" : : "r"(p) : "memory");
	if (loads)
		*loads = n;
	res = chunk ? cal_median(chunk, (unsigned)n_chunks)
		    : (double)(t1 - t0) / (double)n;
	free(chunk);
	return res;
}

/**
 * struct lat_job - one repetition of one point.
 * @b:       bench.
 * @k:       generator kernel.
 * @pace:    offered load share (0: idle, 1: full speed).
 * @chase_ns: chase duration.
 * @n_load:  generators.
 * @stop:    set by the chaser when done.
 * @lat:     measured ns per load.
 * @gen_bytes, @gen_ns: per worker bytes moved and active window.
 */
struct lat_job {
	struct memcal_bench *b;
	const struct memcal_kernel *k;
	double pace;
	uint64_t chase_ns;
	unsigned n_load;
	atomic_int stop;
	double lat;
	uint64_t *gen_bytes, *gen_ns;
};

/* generate - paced traffic until the chaser says stop. */
static void generate(struct lat_job *j, unsigned idx)
{
	struct memcal_buffer *buf = &j->b->bufs[idx];
	size_t bytes = j->b->bytes, chunk = MEMCAL_PACE_CHUNK, off = 0;
	uint64_t t0 = memcal_now_ns(), moved = 0, acc = 0;

	if (chunk > bytes)
		chunk = bytes;
	chunk -= chunk % MEMCAL_KERNEL_GRANULE;
	while (!atomic_load_explicit(&j->stop, memory_order_relaxed)) {
		uint64_t c0 = memcal_now_ns(), c1;

		if (j->pace <= 0) {
			memcal_spin_until_ns(c0 + 10000);
			continue;
		}
		if (off + chunk > bytes)
			off = 0;
		acc += j->k->fn((char *)buf->base + off, (char *)buf->base + off,
				chunk, acc);
		off += chunk;
		moved += chunk;
		c1 = memcal_now_ns();
		if (j->pace < 1)
			memcal_spin_until_ns(c0 + (uint64_t)((double)(c1 - c0) /
							     j->pace));
	}
	j->gen_bytes[idx] = moved;
	j->gen_ns[idx] = memcal_now_ns() - t0;
	if (acc == 0x12345)
		j->b->sink = acc;
}

/* lat_worker - team function: worker 0 chases, the others generate. */
static void lat_worker(unsigned idx, void *arg)
{
	struct lat_job *j = arg;

	if (idx == 0) {
		uint64_t loads;

		/* Short warm-up so the generators reach their pace. */
		cal_chase_run(j->b->bufs[0].base, j->chase_ns / 10, &loads);
		j->lat = cal_chase_run(j->b->bufs[0].base, j->chase_ns, &loads);
		atomic_store(&j->stop, 1);
	} else if (idx <= j->n_load) {
		generate(j, idx);
	}
}

/*
 * cal_latency_sweep - measure every pace of @s into @out[0..n_paces).
 * Worker 0's buffer must hold a chain from cal_chase_build() (build it
 * once; every sweep reuses it).  Returns 0 or a
 * MEMCAL_CAL_* code with @err set.
 */
int cal_latency_sweep(struct memcal_bench *b,
			 const struct memcal_lat_spec *s,
			 struct memcal_lat_point *out, char *err,
			 size_t errlen)
{
	unsigned reps = s->reps ? s->reps : 1;
	double *lat = calloc(reps, sizeof(*lat)), *bw = calloc(reps, sizeof(*bw));
	struct lat_job j;
	int rc = 0;

	memset(&j, 0, sizeof(j));
	j.gen_bytes = calloc(b->n, sizeof(*j.gen_bytes));
	j.gen_ns = calloc(b->n, sizeof(*j.gen_ns));
	if (!lat || !bw || !j.gen_bytes || !j.gen_ns) {
		snprintf(err, errlen, "out of memory");
		rc = MEMCAL_ENOMEM;
		goto out;
	}
	if (s->n_load + 1 > b->n) {
		snprintf(err, errlen, "%u load generators need %u workers",
			 s->n_load, s->n_load + 1);
		rc = MEMCAL_EINVAL;
		goto out;
	}
	j.k = s->kernel ? s->kernel : cal_kernel_best(s->traffic);
	if (!j.k) {
		snprintf(err, errlen, "no %s kernel", cal_op_name(s->traffic));
		rc = MEMCAL_EUNSUPPORTED;
		goto out;
	}
	j.b = b;
	j.chase_ns = s->chase_ns;
	j.n_load = s->n_load;
	for (unsigned p = 0; p < s->n_paces; p++) {
		j.pace = s->n_load ? s->paces[p] : 0;
		for (unsigned r = 0; r < reps; r++) {
			double sum = 0;

			atomic_store(&j.stop, 0);
			memset(j.gen_bytes, 0, b->n * sizeof(*j.gen_bytes));
			cal_team_run_subset(b->team, s->n_load + 1, lat_worker,
					       &j);
			for (unsigned i = 1; i <= s->n_load; i++)
				if (j.gen_ns[i])
					sum += (double)j.gen_bytes[i] * 1e9 /
					       (double)j.gen_ns[i];
			lat[r] = j.lat;
			bw[r] = sum;
		}
		out[p].pace = j.pace;
		cal_stats_compute(lat, reps, false, &out[p].lat);
		out[p].bw = cal_median(bw, reps);
	}
out:
	free(lat);
	free(bw);
	free(j.gen_bytes);
	free(j.gen_ns);
	return rc;
}
