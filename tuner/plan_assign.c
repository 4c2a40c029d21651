// SPDX-License-Identifier: GPL-2.0-only
/*
 * plan_assign.c - place the workloads the mix leaves unpinned.  A
 * real-time workload needs a core of its own, and one core must stay free
 * of real-time work for the master; best-effort workloads go to the
 * non-real-time core with the fewest workloads, then the cheapest
 * measured overhead, then the lowest number.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"

/* add_name - append workload @name to CPU entry @p's list. */
static void add_name(struct tune_cpu *p, const char *name)
{
	size_t l = strlen(p->workloads);

	snprintf(p->workloads + l, sizeof(p->workloads) - l, "%s%s",
		 l ? "," : "", name);
}

/*
 * better_core - whether CPU @a is a better home than @b for a new
 * workload, given the number of workloads already on each.
 */
static bool better_core(const struct plan_input *in, const int *n_on, int a,
			int b)
{
	if (b < 0)
		return true;
	if (n_on[a] != n_on[b])
		return n_on[a] < n_on[b];
	if (in->overhead_ns[a] != in->overhead_ns[b])
		return in->overhead_ns[a] < in->overhead_ns[b];
	return a < b;
}

/**
 * tune_plan_assign() - choose a CPU for every workload and fill @out's CPU and
 * workload tables (roles, names).
 * @cpu_of: per workload of the mix, set to its CPU.
 *
 * Return: MEMCAL_OK, or MEMCAL_EINVAL with @err saying what does not fit.
 */
int tune_plan_assign(const struct plan_input *in, int *cpu_of,
		struct tune_config *out, char *err, size_t errlen)
{
	const struct mix *m = in->mix;
	int n_on[TUNE_MAX_CPUS] = { 0 }, n_rt = 0;
	bool rt_on[TUNE_MAX_CPUS] = { false };

	if (in->nr_cpus < 1 || in->nr_cpus > TUNE_MAX_CPUS) {
		snprintf(err, errlen, "the platform profile gives %d CPUs; "
			 "memtune handles 1..%d", in->nr_cpus, TUNE_MAX_CPUS);
		return MEMCAL_EINVAL;
	}
	for (int i = 0; i < m->n; i++)
		n_rt += m->wl[i].rt;
	if (n_rt > in->nr_cpus - 1) {
		snprintf(err, errlen, "%d real-time workloads need %d cores of "
			 "their own plus one for the master, but the board has "
			 "%d CPUs: make some workloads best-effort", n_rt, n_rt,
			 in->nr_cpus);
		return MEMCAL_EINVAL;
	}
	for (int i = 0; i < m->n; i++) {
		cpu_of[i] = m->wl[i].cpu;
		if (cpu_of[i] >= 0) {
			n_on[cpu_of[i]]++;
			rt_on[cpu_of[i]] |= m->wl[i].rt;
		}
	}
	/*
	 * Real-time first, each to a core with no work; then best-effort,
	 * each to a core without real-time work.
	 */
	for (int rt = 1; rt >= 0; rt--)
		for (int i = 0; i < m->n; i++) {
			int best = -1;

			if (cpu_of[i] >= 0 || (rt && !m->wl[i].rt))
				continue;
			for (int c = 0; c < in->nr_cpus; c++)
				if (!(rt ? n_on[c] : rt_on[c]) &&
				    better_core(in, n_on, c, best))
					best = c;
			if (best < 0 && rt)
				snprintf(err, errlen, "no free core left for "
					 "real-time workload '%s' (line %d): "
					 "every core already has work; unpin a "
					 "best-effort workload or free a core",
					 m->wl[i].name, m->wl[i].line);
			else if (best < 0)
				snprintf(err, errlen, "no core without "
					 "real-time work is left for "
					 "best-effort workload '%s'",
					 m->wl[i].name);
			if (best < 0)
				return MEMCAL_EINVAL;
			cpu_of[i] = best;
			n_on[best]++;
			rt_on[best] |= rt;
			tune_config_explain(out, "workload '%s' (%s) placed on "
				       "cpu %d: %s", m->wl[i].name,
				       rt ? "real-time" : "best-effort", best,
				       rt ? "a core with no other work" :
				       "the non-real-time core with the "
				       "fewest workloads");
		}
	out->n_cpus = in->nr_cpus;
	for (int c = 0; c < in->nr_cpus; c++) {
		struct tune_cpu *p = &out->cpus[c];

		memset(p, 0, sizeof(*p));
		p->cpu = c;
		snprintf(p->role, sizeof(p->role), "%s", rt_on[c] ? "rt" :
			 n_on[c] ? "be" : "idle");
		p->regulated = n_on[c] > 0;
	}
	out->n_wl = m->n;
	for (int i = 0; i < m->n; i++) {
		const struct mix_workload *w = &m->wl[i];
		struct tune_wl *t = &out->wl[i];
		char *argv = tune_mix_argv_json(w);

		memset(t, 0, sizeof(*t));
		snprintf(t->name, sizeof(t->name), "%s", w->name);
		t->cpu = cpu_of[i];
		t->rt = w->rt;
		t->deadline_us = w->deadline_ns / 1000;
		t->period_us = w->period_ns / 1000;
		snprintf(t->argv_json, sizeof(t->argv_json), "%s",
			 argv ? argv : "[]");
		free(argv);
		add_name(&out->cpus[cpu_of[i]], w->name);
	}
	return MEMCAL_OK;
}
