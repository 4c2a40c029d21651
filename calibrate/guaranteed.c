// SPDX-License-Identifier: GPL-2.0-only
/*
 * guaranteed.c - measuring, skipping and declaring the guaranteed
 * bandwidth (guaranteed.h).
 */
#include "guaranteed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "randline.h"

/* Stream counts the sweep tries, all cores at once. */
static const unsigned sweep_streams[] = { 4, 8, 16, 32, 64 };

/**
 * struct guar_job - one repetition handed to the workers.
 * @b:       the bench.
 * @a:       per worker: what to touch (buffer, chains, write or not).
 * @ns:      how long each worker runs.
 * @t0, @t1: per worker start and end, ns.
 * @n:       per worker lines touched.
 */
struct guar_job {
	struct memcal_bench *b;
	struct memcal_randline *a;
	uint64_t ns;
	uint64_t *t0, *t1, *n;
};

/* guar_worker - team function: random lines until the worker's time is up. */
static void guar_worker(unsigned idx, void *arg)
{
	struct guar_job *j = arg;

	j->t0[idx] = memcal_now_ns();
	if (cal_randline_run(&j->a[idx], j->t0[idx] + j->ns, &j->n[idx]) ==
	    0x12345)
		j->b->sink = 1;	/* keeps the loads alive */
	j->t1[idx] = memcal_now_ns();
}

/**
 * cal_guaranteed_rep() - one repetition: every worker of @b touches random
 * lines of its own buffer for @ns with @streams chains.
 * @b:       the bench (all its workers take part).
 * @line:    cache-line size, bytes.
 * @streams: independent chains per worker.
 * @write:   dirty the lines (write-back figure) instead of reading them.
 * @ns:      length of the repetition.
 * @offs, @n_offs: single bank: the bank's line offsets in each
 *           MEMCAL_DRAM_PLAN_PAGE page (see dram_banks.h); or NULL.
 *
 * Return: bytes per second over all workers (@line bytes per line touched,
 * from the first worker's start to the last one's end); 0 if untimed.
 */
double cal_guaranteed_rep(struct memcal_bench *b, unsigned line,
			  unsigned streams, bool write, uint64_t ns,
			  const uint32_t *offs, size_t n_offs)
{
	unsigned n = b->n;
	struct memcal_randline a[n];
	uint64_t t0[n], t1[n], cnt[n], first = UINT64_MAX, end = 0, lines = 0;
	struct guar_job j = { b, a, ns, t0, t1, cnt };

	for (unsigned i = 0; i < n; i++) {
		a[i] = (struct memcal_randline){
			.buf = b->bufs[i].base, .lines = b->bytes / line,
			.line = line, .streams = streams, .write = write,
			.seed = memcal_now_ns() * (i + 1), .offs = offs,
			.n_offs = n_offs, .page = 2u << 20,
		};
	}
	cal_team_run(b->team, guar_worker, &j);
	for (unsigned i = 0; i < n; i++) {
		first = t0[i] < first ? t0[i] : first;
		end = t1[i] > end ? t1[i] : end;
		lines += cnt[i];
	}
	return end > first ? (double)lines * line * 1e9 / (double)(end - first)
			   : 0;
}

/*
 * pick_streams - the stream count: one repetition per count of
 * sweep_streams[], all cores at once, reads; the count with the highest
 * figure.  Chains beyond what a core keeps in flight only queue, so a
 * noisy sweep that errs high costs nothing, while one that errs low would
 * understate the figure.
 */
static unsigned pick_streams(struct memcal_bench *b,
			     const struct memcal_guar_spec *s)
{
	const size_t n = sizeof(sweep_streams) / sizeof(*sweep_streams);
	double best = 0;
	unsigned pick = sweep_streams[n - 1];

	for (size_t i = 0; i < n; i++) {
		double bw = cal_guaranteed_rep(b, s->line, sweep_streams[i],
					       false, s->rep_ns, s->offs,
					       s->n_offs);

		if (bw > best) {
			best = bw;
			pick = sweep_streams[i];
		}
	}
	return pick;
}

/*
 * measure_class - warm-up, then @s->reps repetitions of reads or writes
 * at @streams chains, into @g; MEMCAL_ERROR when no repetition could be
 * timed.
 */
static int measure_class(struct memcal_bench *b,
			 const struct memcal_guar_spec *s, unsigned streams,
			 bool write, const char *method,
			 struct memcal_guaranteed *g)
{
	double samples[s->reps ? s->reps : 1];
	struct memcal_stats st;
	unsigned kept = 0, warm = write ? MEMCAL_GUAR_WRITE_WARMUP : 1;

	for (unsigned w = 0; w < s->warmup; w++)
		cal_guaranteed_rep(b, s->line, streams, write,
				   s->rep_ns * warm, s->offs, s->n_offs);
	for (unsigned r = 0; r < s->reps; r++) {
		double v = cal_guaranteed_rep(b, s->line, streams, write,
					      s->rep_ns, s->offs, s->n_offs);

		if (v > 0)
			samples[kept++] = v;
	}
	if (cal_stats_compute(samples, kept, true, &st))
		return MEMCAL_ERROR;
	memset(g, 0, sizeof(*g));
	snprintf(g->traffic, sizeof(g->traffic), "%s", write ? "write" : "read");
	snprintf(g->method, sizeof(g->method), "%s", method);
	snprintf(g->status, sizeof(g->status), "measured");
	g->bandwidth_bps = st.median;
	g->min_bps = st.min;
	g->max_bps = st.max;
	memcal_platform_cpulist_format(b->cpus, b->n, g->cpus, sizeof(g->cpus));
	g->n_cpus = (int)b->n;
	g->buffer_bytes = (int64_t)b->bytes;
	g->streams = (int)streams;
	g->repetitions = (int)st.kept;
	snprintf(g->criterion, sizeof(g->criterion), "median of %u reps (%u "
		 "collapsed dropped), %u core(s) at once, %u chains each, "
		 "random %u-B lines%s; %s", st.kept, st.dropped, b->n,
		 streams, s->line, s->offs ? " of one DRAM bank" : "",
		 write ? "counts the write-back of each dirtied line, not its "
		 "read for ownership" : "counts each line read");
	return MEMCAL_OK;
}

/**
 * cal_guaranteed_measure() - the read and write figures of one method.
 * @b:       the bench: every worker takes part, each on its own buffer.
 * @s:       how (a zero @s->streams: picked by the sweep).
 * @method:  "random-line" or "single-bank" (@s->offs set).
 * @out:     the read ([0]) and write ([1]) figures.
 * @foreign: the share of the measured CPUs others used meanwhile.
 * @err:     message on failure, @errlen bytes.
 *
 * Return: MEMCAL_OK, or MEMCAL_ERROR when no repetition could be timed.
 */
int cal_guaranteed_measure(struct memcal_bench *b,
			   const struct memcal_guar_spec *s, const char *method,
			   struct memcal_guaranteed out[2], double *foreign,
			   char *err, size_t errlen)
{
	struct memcal_procstat ps0, ps1;
	bool have_ps = cal_procstat_read(&ps0) == 0;
	unsigned streams = s->streams ? s->streams : pick_streams(b, s);
	int rc = MEMCAL_OK;

	*foreign = 0;
	if (measure_class(b, s, streams, false, method, &out[0]) ||
	    measure_class(b, s, streams, true, method, &out[1])) {
		snprintf(err, errlen, "no %s repetition could be timed", method);
		rc = MEMCAL_ERROR;
	}
	if (have_ps && cal_procstat_read(&ps1) == 0) {
		*foreign = cal_procstat_foreign(&ps0, &ps1, b->cpus, b->n);
		cal_procstat_free(&ps1);
	}
	if (have_ps)
		cal_procstat_free(&ps0);
	return rc;
}

/**
 * cal_guaranteed_skipped() - @g is a figure of @traffic and @method that
 * could not be measured, for @reason.
 */
void cal_guaranteed_skipped(struct memcal_guaranteed *g, const char *traffic,
			    const char *method, const char *reason)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->traffic, sizeof(g->traffic), "%s", traffic);
	snprintf(g->method, sizeof(g->method), "%s", method);
	snprintf(g->status, sizeof(g->status), "skipped");
	snprintf(g->criterion, sizeof(g->criterion), "not measured");
	snprintf(g->source, sizeof(g->source), "%s", reason);
}

/**
 * cal_guaranteed_declared() - @g is the user's figure of @traffic.
 * @g:       filled on success.
 * @traffic: "read" or "write".
 * @mbps:    the figure, MB/s (10^6 bytes/s), within
 *           MEMCAL_GUAR_DECLARED_MIN_MBPS..MEMCAL_GUAR_DECLARED_MAX_MBPS.
 * @source:  where it comes from (required, not empty).
 * @err:     why not, @errlen bytes.
 *
 * Return: MEMCAL_OK, or MEMCAL_EINVAL with @err set.
 */
int cal_guaranteed_declared(struct memcal_guaranteed *g, const char *traffic,
			    double mbps, const char *source, char *err,
			    size_t errlen)
{
	if (!(mbps >= MEMCAL_GUAR_DECLARED_MIN_MBPS &&
	      mbps <= MEMCAL_GUAR_DECLARED_MAX_MBPS)) {
		snprintf(err, errlen, "the declared guaranteed %s bandwidth "
			 "%g MB/s is out of range (%g..%g MB/s)", traffic, mbps,
			 MEMCAL_GUAR_DECLARED_MIN_MBPS,
			 MEMCAL_GUAR_DECLARED_MAX_MBPS);
		return MEMCAL_EINVAL;
	}
	if (!source || !*source) {
		snprintf(err, errlen, "a declared guaranteed bandwidth needs "
			 "its source (--source TEXT, e.g. \"DDR4-2400 tRC "
			 "45.75 ns, 1 channel\")");
		return MEMCAL_EINVAL;
	}
	memset(g, 0, sizeof(*g));
	snprintf(g->traffic, sizeof(g->traffic), "%s", traffic);
	snprintf(g->method, sizeof(g->method), "declared");
	snprintf(g->status, sizeof(g->status), "declared");
	g->bandwidth_bps = g->min_bps = g->max_bps = mbps * 1e6;
	snprintf(g->criterion, sizeof(g->criterion), "declared by the user: "
		 "%g MB/s", mbps);
	snprintf(g->source, sizeof(g->source), "%s", source);
	return MEMCAL_OK;
}
