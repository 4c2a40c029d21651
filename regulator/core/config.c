// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * config.c - configuration defaults, validation, the sum-of-guarantees
 * rule and (re)initialisation of a struct memreg.
 *
 * Nothing here runs on a timer path; it runs when the glue loads or
 * commits a configuration, with every timer and counter stopped.
 */
#include "memreg_internal.h"

/* Point *why at @msg if the caller asked for a message. */
static int memreg_fail(const char **why, const char *msg, int code)
{
	if (why)
		*why = msg;
	return code;
}

/* Success with an empty message. */
static int memreg_pass(const char **why)
{
	if (why)
		*why = "";
	return MEMREG_OK;
}

void memreg_cfg_defaults(struct memreg_cfg *cfg, memreg_u32 nr_cpus)
{
	memreg_u8 *p = (memreg_u8 *)cfg;
	memreg_u64 i;
	memreg_u32 cpu, cls;
	const memreg_u32 ceiling = 1000000;

	for (i = 0; i < sizeof(*cfg); i++)
		p[i] = 0;
	if (nr_cpus < 1)
		nr_cpus = 1;
	if (nr_cpus > MEMREG_MAX_CPUS)
		nr_cpus = MEMREG_MAX_CPUS;
	cfg->period_ns = 1000000;
	cfg->nr_cpus = nr_cpus;
	cfg->master_cpu = 0;
	cfg->flags = 0;
	cfg->reclaim_quantum = ceiling / 100;
	cfg->share_mode = MEMREG_SHARE_GRANT;
	cfg->lms.taps = 4;
	cfg->lms.mu = MEMREG_ONE / 2;
	cfg->lms.headroom = MEMREG_ONE / 10;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		cfg->platform_ceiling[cls] = ceiling;
		cfg->lms.cold_start[cls] = ceiling / nr_cpus;
		for (cpu = 0; cpu < nr_cpus; cpu++) {
			cfg->cpu[cpu].active = 1;
			cfg->cpu[cpu].guaranteed[cls] = ceiling / nr_cpus;
			cfg->cpu[cpu].ceiling[cls] = ceiling;
		}
	}
}

int memreg_validate_period(memreg_u64 period_ns, const char **why)
{
	if (period_ns < MEMREG_PERIOD_MIN_NS)
		return memreg_fail(why, "period below 10 us", MEMREG_EINVAL);
	if (period_ns > MEMREG_PERIOD_MAX_NS)
		return memreg_fail(why, "period above 1 s", MEMREG_EINVAL);
	return memreg_pass(why);
}

int memreg_validate_taps(memreg_u32 taps, const char **why)
{
	if (taps < MEMREG_MIN_TAPS || taps > MEMREG_MAX_TAPS)
		return memreg_fail(why, "LMS taps must be 1..16", MEMREG_EINVAL);
	return memreg_pass(why);
}

int memreg_validate_mu(memreg_u32 mu, const char **why)
{
	if (mu < 1 || mu > MEMREG_MU_MAX)
		return memreg_fail(why, "LMS step mu must be 1..131071 (Q16, 0 < mu < 2)",
				   MEMREG_EINVAL);
	return memreg_pass(why);
}

int memreg_validate_headroom(memreg_u32 headroom, const char **why)
{
	if (headroom > MEMREG_HEADROOM_MAX)
		return memreg_fail(why, "LMS headroom must be 0..262144 (Q16, <= 400 %)",
				   MEMREG_EINVAL);
	return memreg_pass(why);
}

int memreg_validate_flags(memreg_u32 flags, const char **why)
{
	if (flags & ~MEMREG_F_ALL)
		return memreg_fail(why, "unknown flag bits", MEMREG_EINVAL);
	return memreg_pass(why);
}

static const char *const memreg_share_names[MEMREG_SHARE_MAX + 1] = {
	[MEMREG_SHARE_GRANT] = "grant",
	[MEMREG_SHARE_SPARE] = "spare",
	[MEMREG_SHARE_PROPORTIONAL] = "proportional",
};

/* Whether NUL-terminated @a and @b are equal (no libc in the core). */
static int memreg_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

int memreg_share_parse(const char *s, memreg_u32 *on, memreg_u32 *mode)
{
	memreg_u32 m;

	if (!s)
		return MEMREG_EINVAL;
	if (memreg_streq(s, "0") || memreg_streq(s, "off")) {
		*on = 0;
		return MEMREG_OK;
	}
	if (memreg_streq(s, "1")) {
		*on = 1;
		*mode = MEMREG_SHARE_GRANT;
		return MEMREG_OK;
	}
	for (m = 0; m <= MEMREG_SHARE_MAX; m++)
		if (memreg_streq(s, memreg_share_names[m])) {
			*on = 1;
			*mode = m;
			return MEMREG_OK;
		}
	return MEMREG_EINVAL;
}

const char *memreg_share_name(memreg_u32 mode)
{
	return mode <= MEMREG_SHARE_MAX ? memreg_share_names[mode] : "?";
}

/* Validate one active CPU's limits. */
static int memreg_validate_cpu(const struct memreg_cpu_cfg *cc,
			       const char **why)
{
	memreg_u32 cls;

	if (cc->exempt > 1)
		return memreg_fail(why, "exempt must be 0 or 1", MEMREG_EINVAL);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (cc->guaranteed[cls] < 1)
			return memreg_fail(why, "guaranteed budget must be >= 1 event",
					   MEMREG_EINVAL);
		if (cc->ceiling[cls] > MEMREG_EVENTS_MAX)
			return memreg_fail(why, "per-CPU ceiling above 4294967295 events",
					   MEMREG_EINVAL);
		if (cc->guaranteed[cls] > cc->ceiling[cls])
			return memreg_fail(why, "guaranteed budget above the CPU ceiling",
					   MEMREG_ERANGE);
	}
	return MEMREG_OK;
}

int memreg_cfg_validate(const struct memreg_cfg *cfg, const char **why)
{
	memreg_u64 sum[MEMREG_NR_CLASSES] = { 0, 0 };
	memreg_u32 cpu, cls, active = 0;
	int ret;

	if (!cfg)
		return memreg_fail(why, "no configuration", MEMREG_EINVAL);
	ret = memreg_validate_period(cfg->period_ns, why);
	if (ret)
		return ret;
	ret = memreg_validate_flags(cfg->flags, why);
	if (ret)
		return ret;
	if (cfg->nr_cpus < 1 || cfg->nr_cpus > MEMREG_MAX_CPUS)
		return memreg_fail(why, "nr_cpus must be 1..64", MEMREG_EINVAL);
	if (cfg->master_cpu >= cfg->nr_cpus)
		return memreg_fail(why, "master CPU out of range", MEMREG_ENODEV);
	ret = memreg_validate_taps(cfg->lms.taps, why);
	if (ret)
		return ret;
	ret = memreg_validate_mu(cfg->lms.mu, why);
	if (ret)
		return ret;
	ret = memreg_validate_headroom(cfg->lms.headroom, why);
	if (ret)
		return ret;
	if (cfg->share_mode > MEMREG_SHARE_MAX)
		return memreg_fail(why, "share mode must be grant, spare or proportional",
				   MEMREG_EINVAL);
	if ((cfg->flags & MEMREG_F_RECLAIM) && cfg->reclaim_quantum < 1)
		return memreg_fail(why, "reclaim quantum must be >= 1 event",
				   MEMREG_EINVAL);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (cfg->platform_ceiling[cls] < 1 ||
		    cfg->platform_ceiling[cls] > MEMREG_EVENTS_MAX)
			return memreg_fail(why, "platform ceiling must be 1..4294967295 events",
					   MEMREG_EINVAL);
	}
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		const struct memreg_cpu_cfg *cc = &cfg->cpu[cpu];

		if (!cc->active)
			continue;
		active++;
		ret = memreg_validate_cpu(cc, why);
		if (ret)
			return ret;
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++)
			sum[cls] += cc->guaranteed[cls];	/* < 2^38 */
	}
	if (!active)
		return memreg_fail(why, "no active CPU", MEMREG_ENODEV);
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		if (sum[cls] > cfg->platform_ceiling[cls])
			return memreg_fail(why,
					   "sum of guaranteed budgets exceeds the platform ceiling",
					   MEMREG_ERANGE);
	}
	return memreg_pass(why);
}

/*
 * The proportional scale-down: g_i' = max(1, g_i * C / S) with S the sum
 * of the guarantees and C the ceiling.  Each g_i <= E, C <= E, so the
 * product is < 2^64.  Rounding down gives sum(g_i * C / S) <= C; raising
 * a zero to 1 can add at most one per CPU, which is why we then take the
 * difference back from the largest guarantees, one event at a time.
 */
int memreg_cfg_fit_guaranteed(struct memreg_cfg *cfg)
{
	memreg_u32 cpu, cls, n, active = 0;
	int scaled = 0;

	n = cfg->nr_cpus > MEMREG_MAX_CPUS ? MEMREG_MAX_CPUS : cfg->nr_cpus;
	for (cpu = 0; cpu < n; cpu++)
		active += cfg->cpu[cpu].active ? 1 : 0;
	for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
		memreg_u64 c = memreg_sat_events(cfg->platform_ceiling[cls]);
		memreg_u64 sum = 0;

		if (c < active)
			return MEMREG_ERANGE;
		for (cpu = 0; cpu < n; cpu++)
			if (cfg->cpu[cpu].active)
				sum += memreg_sat_events(cfg->cpu[cpu].guaranteed[cls]);
		if (sum <= c)
			continue;
		scaled++;
		for (cpu = 0; cpu < n; cpu++) {
			memreg_u64 *g = &cfg->cpu[cpu].guaranteed[cls];

			if (!cfg->cpu[cpu].active)
				continue;
			*g = memreg_div64_u64(memreg_sat_events(*g) * c, sum);
			if (*g < 1)
				*g = 1;
		}
		for (;;) {
			memreg_u64 total = 0, best = 0;
			memreg_u32 arg = 0;

			for (cpu = 0; cpu < n; cpu++) {
				memreg_u64 g = cfg->cpu[cpu].guaranteed[cls];

				if (!cfg->cpu[cpu].active)
					continue;
				total += g;
				if (g > best) {
					best = g;
					arg = cpu;
				}
			}
			if (total <= c)
				break;
			cfg->cpu[arg].guaranteed[cls]--;	/* best > 1 here */
		}
	}
	return scaled;
}

int memreg_init(struct memreg *r, const struct memreg_cfg *cfg,
		const char **why)
{
	memreg_u8 *p = (memreg_u8 *)r;
	memreg_u64 i;
	memreg_u32 cpu, cls;
	int ret = memreg_cfg_validate(cfg, why);

	if (ret)
		return ret;
	for (i = 0; i < sizeof(*r); i++)
		p[i] = 0;
	r->cfg = *cfg;
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		if (!cfg->cpu[cpu].active)
			continue;
		r->active_mask |= (memreg_u64)1 << cpu;
		r->nr_active++;
		for (cls = 0; cls < MEMREG_NR_CLASSES; cls++) {
			r->cpu[cpu].guaranteed[cls] = cfg->cpu[cpu].guaranteed[cls];
			r->cpu[cpu].ceiling[cls] = cfg->cpu[cpu].ceiling[cls];
			/* value 0 marks "nothing published" (budgets are >= 1) */
			memreg_atomic64_set(&r->cpu[cpu].next_budget[0][cls], 0);
			memreg_atomic64_set(&r->cpu[cpu].next_budget[1][cls], 0);
			memreg_atomic64_set(&r->cpu[cpu].demand[cls], 0);
			memreg_lms_init(&r->cpu[cpu].lms[cls], cfg->lms.taps, 2,
					cfg->lms.cold_start[cls]);
		}
	}
	memreg_atomic64_set(&r->online_mask, (memreg_s64)r->active_mask);
	return MEMREG_OK;
}
