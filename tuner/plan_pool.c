// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_pool.c - the guaranteed pool: what every guarantee is reserved
 * from.
 *
 * Two figures bound the memory (MemGuard, Yun et al.): the guaranteed
 * bandwidth, what the DRAM still delivers when every access misses its
 * row (the calibration's random-line, single-bank or declared figure),
 * and the streaming sustainable bandwidth (plan_mix.c).  Guarantees, the
 * real-time cores' needs and a small stated guarantee per best-effort
 * core, must fit in the first, so that they hold whatever the others do;
 * the second is the platform ceiling, and the headroom between the sum
 * of the guarantees and it is what LMS distributes and sharing grants.
 *
 * Reads and writes at the mix.  The calibration gives one guaranteed
 * figure per class, G_read and G_write, each the rate of a memory busy
 * with that class alone.  Traffic with read share s keeps the memory busy
 * s/G_read + (1-s)/G_write seconds per byte, so the guaranteed figure at
 * the mix is the time-weighted harmonic interpolation
 *
 *     1/G = s/G_read + (1-s)/G_write.
 *
 * The pool is split as the platform ceiling is: each class first gets its
 * reserve (the real-time needs, PLAN_MIN_EVENTS per best-effort core), which
 * takes reserve_read/G_read + reserve_write/G_write of every second; the
 * rest of the second goes to traffic at the mix, (1 - that) * G bytes,
 * split s : 1-s.  So pool_read/G_read + pool_write/G_write = 1: the two
 * pools together are exactly what the memory guarantees.  Without a mix
 * (traces with no traffic) the classes stand alone, each its own figure.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"

/*
 * refuse - the message of real-time needs past the guaranteed figure,
 * with the numbers and what to change.
 */
static int refuse(const struct plan_input *in, const struct plan_pool *p,
		  double used, double sec, char *err, size_t errlen)
{
	char at[96] = "";

	if (!isnan(p->share))
		snprintf(at, sizeof(at), "; %.1f MB/s at the mix's %.0f %% read",
			 p->mix_bps / 1e6, p->share * 100);
	snprintf(err, errlen, "real-time guarantees do not fit the guaranteed "
		 "bandwidth: at a %.0f us period the real-time cores need "
		 "%.1f MB/s read + %.1f MB/s write (with %d events per "
		 "best-effort core), %.0f %% of what the memory guarantees when "
		 "every access misses its row (%s: %.1f MB/s read, %.1f MB/s "
		 "write%s); mark them rt_exempt, run fewer real-time cores, use "
		 "longer periods (--periods), or plan with "
		 "--guarantees-from-streaming", sec * 1e6,
		 p->reserve_bps[TUNE_READ] / 1e6,
		 p->reserve_bps[TUNE_WRITE] / 1e6, PLAN_MIN_EVENTS, used * 100,
		 in->guaranteed_method[TUNE_READ],
		 in->guaranteed_bps[TUNE_READ] / 1e6,
		 in->guaranteed_bps[TUNE_WRITE] / 1e6, at);
	return MEMCAL_ENOFIT;
}

/**
 * tune_plan_pool() - the guaranteed pool of each class into @p.
 * @mix:     the platform ceilings at the traces' mix (plan_mix.c).
 * @reserve: per class, bytes/s the pool must hold before it is split:
 *           the real-time needs the regulator holds the others to (an
 *           rt_exempt core is never throttled, so its need is no
 *           reservation and is left out) and PLAN_MIN_EVENTS per
 *           best-effort core.
 * @sec:     the period, for the message.
 *
 * With --guarantees-from-streaming the pool is the platform ceiling;
 * otherwise both guaranteed figures are positive (tune_plan_run() refuses
 * a plan without them).  A pool is never above the class's platform
 * ceiling (a declared figure past the streaming one is capped).
 *
 * Return: MEMCAL_OK, or MEMCAL_ENOFIT with @err (numbers and remedies)
 * when the reserves take more than the memory guarantees.
 */
int tune_plan_pool(const struct plan_input *in, const struct plan_mix *mix,
		   const double *reserve, double sec, struct plan_pool *p,
		   char *err, size_t errlen)
{
	const double *g = in->guaranteed_bps;
	double s, used;

	memset(p, 0, sizeof(*p));
	p->share = mix->share;
	p->mix_bps = NAN;
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		p->reserve_bps[k] = reserve[k];
	if (in->guarantees_from_streaming) {
		p->streaming = true;
		for (int k = 0; k < TUNE_NR_CLASSES; k++)
			p->pool_bps[k] = mix->ceiling_bps[k];
		return MEMCAL_OK;
	}
	if (isnan(p->share)) {
		for (int k = 0; k < TUNE_NR_CLASSES; k++)
			if (reserve[k] > g[k])
				return refuse(in, p, reserve[k] / g[k], sec, err,
					      errlen);
		for (int k = 0; k < TUNE_NR_CLASSES; k++)
			p->pool_bps[k] = fmin(g[k], mix->ceiling_bps[k]);
		return MEMCAL_OK;
	}
	s = p->share;
	p->mix_bps = 1.0 / (s / g[TUNE_READ] + (1 - s) / g[TUNE_WRITE]);
	used = reserve[TUNE_READ] / g[TUNE_READ] +
	       reserve[TUNE_WRITE] / g[TUNE_WRITE];
	if (used > 1)
		return refuse(in, p, used, sec, err, errlen);
	p->pool_bps[TUNE_READ] = reserve[TUNE_READ] + (1 - used) * p->mix_bps * s;
	p->pool_bps[TUNE_WRITE] = reserve[TUNE_WRITE] +
				  (1 - used) * p->mix_bps * (1 - s);
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		p->pool_bps[k] = fmin(p->pool_bps[k], mix->ceiling_bps[k]);
	return MEMCAL_OK;
}

/**
 * tune_plan_pool_explain() - where the guaranteed pool @p comes from, as
 * one reason per class; with --guarantees-from-streaming also a warning
 * (every export and report carries the configuration's warnings).
 */
void tune_plan_pool_explain(const struct plan_input *in,
			    const struct plan_pool *p, struct tune_config *out)
{
	static const char *const cls[] = { "read", "write" };

	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		out->pool_bps[k] = p->pool_bps[k];
	snprintf(out->pool_from, sizeof(out->pool_from), "%s",
		 p->streaming ? "streaming" : in->guaranteed_method[TUNE_READ]);
	if (p->streaming) {
		for (int k = 0; k < TUNE_NR_CLASSES; k++)
			tune_config_explain(out, "%s guaranteed pool %.1f MB/s: "
				       "the streaming sustainable figure "
				       "(--guarantees-from-streaming), not "
				       "the all-miss guaranteed bandwidth",
				       cls[k], p->pool_bps[k] / 1e6);
		tune_config_warn(out, "%s", TUNE_STREAMING_WARNING);
		return;
	}
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		char at[160] = "";

		if (!isnan(p->share))
			snprintf(at, sizeof(at), ", at the mix's %.1f %% read "
				 "%.1f MB/s (1/G = s/G_read + (1-s)/G_write), "
				 "split after the reserves", p->share * 100,
				 p->mix_bps / 1e6);
		tune_config_explain(out, "%s guaranteed pool %.1f MB/s: from the "
			       "%s guaranteed bandwidth %.1f MB/s (%s)%s",
			       cls[k], p->pool_bps[k] / 1e6,
			       in->guaranteed_method[k],
			       in->guaranteed_bps[k] / 1e6,
			       in->guaranteed_source[k][0] ?
			       in->guaranteed_source[k] : "no criterion stored",
			       at);
	}
}
