// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure.c - bandwidth measurements on pinned workers (see measure.h).
 */
#include "measure.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/**
 * struct bw_job - one repetition handed to the workers.
 * @b:      the bench.
 * @k:      kernel per worker (NULL: worker idles).
 * @passes: kernel calls over the buffer.
 * @t0, @t1: per worker start and end, ns.
 */
struct bw_job {
	struct memcal_bench *b;
	const struct memcal_kernel **k;
	unsigned passes;
	uint64_t *t0, *t1;
};

/*
 * bw_worker - team function: run the worker's kernel @passes times over
 * its buffer and record when it started and finished.
 */
static void bw_worker(unsigned idx, void *arg)
{
	struct bw_job *j = arg;
	const struct memcal_kernel *k = j->k[idx];
	struct memcal_buffer *buf = &j->b->bufs[idx];
	size_t bytes = j->b->bytes;
	char *base = buf->base;
	uint64_t acc = 0;

	if (!k)
		return;
	j->t0[idx] = memcal_now_ns();
	for (unsigned p = 0; p < j->passes; p++) {
		if (k->op == MEMCAL_OP_COPY)
			acc += k->fn(base + bytes / 2, base, bytes / 2, 0);
		else
			acc += k->fn(base, base, bytes, 0x5a5a5a5a5a5a5a5aull + p);
	}
	j->t1[idx] = memcal_now_ns();
	if (acc == 0x12345)
		j->b->sink = acc;	/* keeps the reduction alive */
}

/* granule_floor - @x rounded down to a multiple of twice the granule. */
static size_t granule_floor(size_t x)
{
	return x / (2 * MEMCAL_KERNEL_GRANULE) * (2 * MEMCAL_KERNEL_GRANULE);
}

/*
 * cal_bench_init - pin one worker to each of @cpus and give each a
 * pre-faulted buffer of @bytes on its NUMA node.  Fails with a message
 * when the total does not fit in free memory or a CPU cannot be used.
 */
int cal_bench_init(struct memcal_bench *b, const struct memcal_topology *t,
		      const unsigned *cpus, unsigned n, size_t bytes,
		      char *err, size_t errlen)
{
	int rc;

	memset(b, 0, sizeof(*b));
	b->topo = t;
	b->bytes = granule_floor(bytes);
	if (n == 0 || b->bytes == 0) {
		snprintf(err, errlen, "buffer of %zu bytes is too small (at "
			 "least %d bytes)", bytes, 2 * MEMCAL_KERNEL_GRANULE);
		return MEMCAL_EINVAL;
	}
	rc = cal_buffer_check_total((uint64_t)b->bytes * n, err, errlen);
	if (rc)
		return rc;
	b->cpus = calloc(n, sizeof(*b->cpus));
	b->bufs = calloc(n, sizeof(*b->bufs));
	if (!b->cpus || !b->bufs) {
		cal_bench_fini(b);
		snprintf(err, errlen, "out of memory");
		return MEMCAL_ENOMEM;
	}
	memcpy(b->cpus, cpus, n * sizeof(*cpus));
	b->n = n;
	for (unsigned i = 0; i < n; i++) {
		rc = cal_buffer_alloc(&b->bufs[i], b->bytes,
					 memcal_platform_topology_cpu_node(t, cpus[i]),
					 err, errlen);
		if (rc) {
			cal_bench_fini(b);
			return rc;
		}
	}
	rc = cal_team_create(&b->team, t->hw, cpus, n);
	if (rc) {
		snprintf(err, errlen, "cannot start a thread pinned to each of "
			 "the %u CPUs: %s", n, strerror(-rc));
		cal_bench_fini(b);
		return MEMCAL_ERROR;
	}
	return MEMCAL_OK;
}

/* cal_bench_fini - stop the workers and release the buffers. */
void cal_bench_fini(struct memcal_bench *b)
{
	cal_team_destroy(b->team);
	if (b->bufs)
		for (unsigned i = 0; i < b->n; i++)
			cal_buffer_free(&b->bufs[i]);
	free(b->bufs);
	free(b->cpus);
	memset(b, 0, sizeof(*b));
}

/* pick_kernels - resolve the kernel of each taking-part worker. */
static int pick_kernels(struct memcal_bench *b, const struct memcal_bw_spec *s,
			const struct memcal_kernel **k, unsigned *last,
			struct memcal_bw_result *r, char *err, size_t errlen)
{
	unsigned used = 0;

	*last = 0;
	r->variant[0] = '\0';
	for (unsigned i = 0; i < b->n; i++) {
		bool on = s->use ? s->use[i] : i < s->n_use;
		enum memcal_op op = s->ops ? s->ops[i] : s->op;

		k[i] = NULL;
		if (!on)
			continue;
		k[i] = s->kernel ? s->kernel : cal_kernel_best(op);
		if (!k[i]) {
			snprintf(err, errlen, "no %s kernel on this CPU",
				 cal_op_name(op));
			return MEMCAL_EUNSUPPORTED;
		}
		if (!r->variant[0])
			snprintf(r->variant, sizeof(r->variant), "%s",
				 k[i]->variant);
		op = k[i]->op;
		r->bytes = cal_kernel_bytes(op, op == MEMCAL_OP_COPY
						   ? b->bytes / 2 : b->bytes);
		*last = i + 1;
		used++;
	}
	r->n_workers = used;
	if (!used) {
		snprintf(err, errlen, "no worker selected");
		return MEMCAL_EINVAL;
	}
	return 0;
}

/* run_rep - one repetition; its aggregate bytes/s, or 0 when untimed. */
static double run_rep(struct memcal_bench *b, struct bw_job *job,
		      unsigned last, uint64_t bytes_all, uint64_t *ns)
{
	uint64_t first = UINT64_MAX, end = 0;

	cal_team_run_subset(b->team, last, bw_worker, job);
	for (unsigned i = 0; i < b->n; i++) {
		if (!job->k[i])
			continue;
		if (job->t0[i] < first)
			first = job->t0[i];
		if (job->t1[i] > end)
			end = job->t1[i];
	}
	*ns = end > first ? end - first : 0;
	return *ns ? (double)bytes_all * job->passes * 1e9 / (double)*ns : 0;
}

/*
 * passes_for - kernel calls per repetition so that one lasts at least
 * @min_ns, given that @passes calls took @ns; never fewer than @passes.
 */
static unsigned passes_for(unsigned passes, uint64_t ns, uint64_t min_ns)
{
	uint64_t want;

	if (!min_ns || !ns || ns >= min_ns)
		return passes;
	want = (min_ns * passes + ns - 1) / ns;
	return want > 1u << 20 ? 1u << 20 : (unsigned)want;
}

/*
 * cal_measure_bw - run @s on the bench and fill @r.  Returns 0 or a
 * MEMCAL_CAL_* code with @err set.
 */
int cal_measure_bw(struct memcal_bench *b, const struct memcal_bw_spec *s,
		      struct memcal_bw_result *r, char *err, size_t errlen)
{
	const struct memcal_kernel **k = calloc(b->n, sizeof(*k));
	uint64_t *t0 = calloc(b->n, sizeof(*t0)), *t1 = calloc(b->n, sizeof(*t1));
	unsigned reps = s->reps ? s->reps : 1, last, kept = 0, cap;
	double *samples;
	struct bw_job job;
	struct memcal_procstat ps0, ps1;
	bool have_ps = false;
	uint64_t bytes_all, ns, start;
	int rc;

	cap = s->max_reps > reps ? s->max_reps : reps;
	samples = calloc(cap, sizeof(*samples));
	memset(r, 0, sizeof(*r));
	if (!k || !t0 || !t1 || !samples) {
		snprintf(err, errlen, "out of memory");
		rc = MEMCAL_ENOMEM;
		goto out;
	}
	rc = pick_kernels(b, s, k, &last, r, err, errlen);
	if (rc)
		goto out;
	bytes_all = 0;
	for (unsigned i = 0; i < b->n; i++)
		if (k[i])
			bytes_all += cal_kernel_bytes(k[i]->op,
				k[i]->op == MEMCAL_OP_COPY ? b->bytes / 2 : b->bytes);
	job = (struct bw_job){ b, k, s->passes ? s->passes : 1, t0, t1 };
	for (unsigned w = 0; w < s->warmup; w++)
		run_rep(b, &job, last, bytes_all, &ns);
	/* The warm-ups set the repetition length: the last one is timed, and
	 * a repetition still shorter than wanted is scaled and run again. */
	for (unsigned tries = 0; s->warmup && tries < 4; tries++) {
		unsigned p = passes_for(job.passes, ns, s->min_rep_ns);

		if (p == job.passes)
			break;
		job.passes = p;
		run_rep(b, &job, last, bytes_all, &ns);
	}
	r->passes = job.passes;
	/* Foreign load is judged over all kept repetitions together:
	 * /proc/stat ticks are too coarse for one repetition. */
	have_ps = cal_procstat_read(&ps0) == 0;
	start = memcal_now_ns();
	while (kept < cap) {
		double bps = run_rep(b, &job, last, bytes_all, &ns);

		if (bps > 0)
			samples[kept++] = bps;
		else if (memcal_now_ns() - start > s->budget_ns)
			break;	/* the clock does not move: give up */
		if (kept < reps)
			continue;
		if (cal_spread(samples, kept) <= MEMCAL_SPREAD_TARGET)
			break;
		if (s->budget_ns && memcal_now_ns() - start >= s->budget_ns)
			break;
	}
	if (have_ps && cal_procstat_read(&ps1) == 0) {
		unsigned *used = calloc(b->n, sizeof(*used)), nu = 0;

		for (unsigned i = 0; used && i < b->n; i++)
			if (k[i])
				used[nu++] = b->cpus[i];
		if (used)
			r->foreign = cal_procstat_foreign(&ps0, &ps1, used,
							     nu);
		free(used);
		cal_procstat_free(&ps1);
	}
	if (have_ps)
		cal_procstat_free(&ps0);
	if (cal_stats_compute(samples, kept, true, &r->agg)) {
		snprintf(err, errlen, "no repetition could be timed");
		rc = MEMCAL_ERROR;
	}
out:
	free(k);
	free(t0);
	free(t1);
	free(samples);
	return rc;
}
