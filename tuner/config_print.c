// SPDX-License-Identifier: GPL-2.0-only
/*
 * config_print.c - a tuned configuration as text for a person: the
 * headline choices, the per-core budgets (with a real-time core's floor),
 * the kinds of CPU and their events, the reasons and the warnings.  'memtune plan' and 'memtune show' print
 * it the same way.
 */
#include <stdio.h>
#include <string.h>

#include "memreg.h"
#include "tuned_config.h"

/* mbps_pair - "guaranteed/ceiling" in MB/s. */
static void mbps_pair(char *buf, size_t len, const struct tune_budget *b)
{
	snprintf(buf, len, "%.1f/%.1f", b->guaranteed_bps / 1e6,
		 b->ceiling_bps / 1e6);
}

/* same_events - CPUs @a and @b have the same kind and count the same. */
static bool same_events(const struct tune_config *c, const struct tune_cpu *a,
			const struct tune_cpu *b)
{
	return !strcmp(a->kind, b->kind) &&
	       !strcmp(tune_cpu_event(c, a, TUNE_READ), tune_cpu_event(c, b, TUNE_READ)) &&
	       !strcmp(tune_cpu_event(c, a, TUNE_WRITE), tune_cpu_event(c, b, TUNE_WRITE));
}

/*
 * print_events - with kinds of CPU known, one line per run of CPUs of the
 * same kind and events: "cpus 0-3 (Cortex-A55): read 8:0x2a, write ...".
 */
static void print_events(FILE *f, const struct tune_config *c)
{
	bool any = false;

	for (int i = 0; i < c->n_cpus; i++)
		any |= c->cpus[i].kind[0] || c->cpus[i].event[0][0] ||
		       c->cpus[i].event[1][0];
	if (!any)
		return;
	fprintf(f, "  events per CPU:\n");
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];
		int j = i;
		char cpus[32];

		while (j + 1 < c->n_cpus && c->cpus[j + 1].cpu == c->cpus[j].cpu + 1 &&
		       same_events(c, p, &c->cpus[j + 1]))
			j++;
		if (j > i)
			snprintf(cpus, sizeof(cpus), "cpus %d-%d", p->cpu, c->cpus[j].cpu);
		else
			snprintf(cpus, sizeof(cpus), "cpu %d", p->cpu);
		fprintf(f, "    %s (%s): read %s, write %s\n", cpus,
			p->kind[0] ? p->kind : "kind unknown",
			tune_cpu_event(c, p, TUNE_READ), tune_cpu_event(c, p, TUNE_WRITE));
		i = j;
	}
}

/**
 * tune_config_print() - @c, stored as configuration @id, as text on @f.
 */
void tune_config_print(FILE *f, const struct tune_config *c, int64_t id)
{
	fprintf(f, "tuned configuration %lld for mix '%s' (platform %lld, "
		"calibration run %lld)\n", (long long)id, c->mix,
		(long long)c->platform_id, (long long)c->calibration_run_id);
	fprintf(f, "  period %d us, master cpu %d, LMS %s (%u taps, step %.2f, "
		"headroom %.0f%%), reclaim %s, share %s\n", c->period_us,
		c->master_cpu, c->lms ? "on" : "off", c->taps,
		c->mu_q16 / 65536.0, c->headroom_q16 * 100.0 / 65536.0,
		c->reclaim ? "on" : "off", c->share ?
		(c->share_mode == MEMREG_SHARE_SPARE ? "spare" :
		 c->share_mode == MEMREG_SHARE_PROPORTIONAL ? "proportional" :
		 "on") : "off");
	fprintf(f, "  %-4s %-5s %-24s %21s %21s\n", "cpu", "role", "workloads",
		"read MB/s g/ceil", "write MB/s g/ceil");
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];
		char r[32], w[32];

		mbps_pair(r, sizeof(r), &p->b[TUNE_READ]);
		mbps_pair(w, sizeof(w), &p->b[TUNE_WRITE]);
		fprintf(f, "  %-4d %-5s %-24s %21s %21s%s", p->cpu, p->role,
			p->workloads[0] ? p->workloads : "-",
			p->regulated ? r : "-", p->regulated ? w : "-",
			p->cpu == c->master_cpu ? "  (master)" : "");
		if (p->regulated && (p->b[TUNE_READ].floor_events ||
				     p->b[TUNE_WRITE].floor_events))
			fprintf(f, "  floor %.1f/%.1f",
				p->b[TUNE_READ].floor_bps / 1e6,
				p->b[TUNE_WRITE].floor_bps / 1e6);
		fputc('\n', f);
	}
	print_events(f, c);
	fprintf(f, "why:\n");
	for (size_t i = 0; i < c->n_explain; i++)
		fprintf(f, "  - %s\n", c->explain[i]);
	if (c->n_warn)
		fprintf(f, "warnings:\n");
	for (size_t i = 0; i < c->n_warn; i++)
		fprintf(f, "  - %s\n", c->warn[i]);
}
