// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * lms.c - normalised least-mean-squares demand predictor in fixed point.
 *
 * For one CPU and class, with taps N and horizon h (1 or 2):
 *
 *   x      = (d[t-h], ..., d[t-h-N+1])       the taps h periods before d[t]
 *   e      = d[t] - w.x                       a-priori error
 *   w     += mu * e * x / |x|^2               NLMS step
 *   pred   = w.(d[t], ..., d[t-N+1])          prediction of d[t+h]
 *
 * Numbers: weights Q24 signed, clamped to [-4, 4]; mu Q16; demands
 * saturated to E = 2^32 - 1.  NLMS is invariant to scaling x and d
 * together, so the step is computed on values shifted right by
 * s = max(0, fls(max) - 12), which makes every shifted tap and target
 * < 2^12 (relative precision 2^-12 for the step only; the prediction
 * uses the exact history).  Bounds of every intermediate (64-bit):
 *
 *   |w_i x'_i|              <= 2^26 * 2^12          = 2^38
 *   |w.x'|   (16 taps)      <= 2^42
 *   |e| (Q24)               <= 2^36 + 2^42          < 2^43
 *   |x'|^2   (16 taps)      <  16 * 2^24            = 2^28
 *   |mu * e|                <  2^17 * 2^43          = 2^60
 *   g = mu * e / |x'|^2,  |g * x'_i| <= |mu * e| * x'_i / |x'|^2 <= 2^60
 *                          (x'_i <= x'_i^2 <= |x'|^2 for x'_i >= 1)
 *   w step = (g * x'_i) >> 16 (mu's Q16), |step| <= 2^44, added in 64 bits
 *   and clamped before it is stored
 *   prediction: |w_i d_i| <= 2^26 * 2^32 = 2^58, 16 taps <= 2^62
 *
 * Signed division and shifts are done on magnitudes (the port gives only
 * unsigned division; right shifts of negative values are avoided).
 *
 * Steady state: when an update was a fixed point (every live history
 * entry and the demand equal, the weights unchanged), the same demand
 * again yields bit for bit the same weights, history and prediction, so
 * it is only scored (fast path: an idle CPU's zeros, a constant demand;
 * about a sixth of a full update).  Any other demand takes the full path.
 *
 * Called by the master CPU only (memreg_master_tick()), or by a test.
 */
#include "memreg_internal.h"

void memreg_lms_init(struct memreg_lms_state *s, memreg_u32 taps,
		     memreg_u32 horizon, memreg_u64 cold_start)
{
	memreg_u32 i, v = (memreg_u32)memreg_sat_events(cold_start);

	if (taps < MEMREG_MIN_TAPS)
		taps = MEMREG_MIN_TAPS;
	if (taps > MEMREG_MAX_TAPS)
		taps = MEMREG_MAX_TAPS;
	horizon = horizon >= 2 ? 2 : 1;
	s->taps = taps;
	s->horizon = horizon;
	for (i = 0; i < MEMREG_MAX_TAPS; i++)
		s->w[i] = i < taps ? (memreg_s32)(MEMREG_W_ONE / taps) : 0;
	for (i = 0; i < MEMREG_MAX_TAPS + 1; i++)
		s->hist[i] = v;
	s->pending[0] = s->pending[1] = v;
	s->abs_err_sum = 0;
	s->sq_err_sum = 0;
	s->updates = 0;
	s->last_pred = v;
	s->fixed_mu = 0;
}

/* Signed (a * b) >> 16 rounded toward zero, |a * b| < 2^63. */
static inline memreg_s64 memreg_mul_q16(memreg_s64 a, memreg_s64 b)
{
	memreg_s64 p = a * b;

	return p < 0 ? -(memreg_s64)((memreg_u64)-p >> MEMREG_Q_SHIFT) :
		       (memreg_s64)((memreg_u64)p >> MEMREG_Q_SHIFT);
}

/* Score the prediction that was made for @d. */
static inline void memreg_lms_score(struct memreg_lms_state *s, memreg_u32 d)
{
	memreg_u32 p = s->pending[s->horizon - 1];
	memreg_u64 err = d > p ? d - p : p - d;

	s->abs_err_sum = memreg_sat_add(s->abs_err_sum, err);
	s->sq_err_sum = memreg_sat_add(s->sq_err_sum, err * err);
	s->updates++;
}

memreg_u32 memreg_lms_update(struct memreg_lms_state *s, memreg_u32 mu,
			     memreg_u64 demand)
{
	const memreg_u32 n = s->taps, h = s->horizon;
	const memreg_u32 d = (memreg_u32)memreg_sat_events(demand);
	const memreg_u32 *x = &s->hist[h - 1];
	memreg_u32 i, m = d, xs[MEMREG_MAX_TAPS];
	memreg_u64 norm = 0;
	memreg_s64 yhat = 0, e, pred = 0;
	int sh, same;

	if (mu < 1)
		mu = 1;
	if (mu > MEMREG_MU_MAX)
		mu = MEMREG_MU_MAX;
	memreg_lms_score(s, d);
	/* same: every live history entry (taps and target alike) equals d */
	same = 0;
	if (d == s->hist[0]) {
		if (s->fixed_mu == mu) {
			s->pending[1] = s->pending[0];
			s->pending[0] = s->last_pred;
			return s->last_pred;
		}
		for (same = 1, i = 1; same && i < n + h - 1; i++)
			same = s->hist[i] == d;
	}

	/* OR has the same most significant bit as the maximum. */
	for (i = 0; i < n; i++)
		m |= x[i];
	sh = memreg_fls64(m) - 12;
	if (sh < 0)
		sh = 0;
	for (i = 0; i < n; i++) {
		xs[i] = x[i] >> sh;
		norm += (memreg_u64)xs[i] * xs[i];
		yhat += (memreg_s64)s->w[i] * xs[i];
	}
	e = ((memreg_s64)(d >> sh) << MEMREG_W_SHIFT) - yhat;
	if (norm && e) {
		memreg_u64 mag = (memreg_u64)(e < 0 ? -e : e) * mu;
		memreg_s64 g = (memreg_s64)memreg_div64_u64(mag, norm);

		if (e < 0)
			g = -g;
		/*
		 * With equal taps every weight takes the same step: a non-zero
		 * one counts as a change (conservatively, also where the clamp
		 * holds a weight), so this update is no fixed point.
		 */
		if (same && memreg_mul_q16(g, xs[0]))
			same = 0;
		for (i = 0; i < n; i++) {
			memreg_s64 w = s->w[i] + memreg_mul_q16(g, xs[i]);

			if (w > MEMREG_WEIGHT_MAX)
				w = MEMREG_WEIGHT_MAX;
			if (w < -MEMREG_WEIGHT_MAX)
				w = -MEMREG_WEIGHT_MAX;
			s->w[i] = (memreg_s32)w;
		}
	}

	/* Shift d in; hist has n + h - 1 live entries. */
	for (i = n + h - 2; i > 0; i--)
		s->hist[i] = s->hist[i - 1];
	s->hist[0] = d;
	for (i = 0; i < n; i++)
		pred += (memreg_s64)s->w[i] * s->hist[i];
	if (pred < 0)
		pred = 0;
	pred = (memreg_s64)((memreg_u64)pred >> MEMREG_W_SHIFT);
	if ((memreg_u64)pred > MEMREG_EVENTS_MAX)
		pred = (memreg_s64)MEMREG_EVENTS_MAX;
	s->pending[1] = s->pending[0];
	s->pending[0] = (memreg_u32)pred;
	s->last_pred = (memreg_u32)pred;
	s->fixed_mu = same ? mu : 0;
	return (memreg_u32)pred;
}
