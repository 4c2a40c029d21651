// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * main.c - memreg-sim: replay a trace file through the regulator core and
 * print a per-period table and a summary, or --json.
 *
 * Exit codes: 0 ok, 1 failure (unreadable or bad trace, configuration the
 * regulator refuses), 2 usage.  Errors go to stderr (and, with --json,
 * also to stdout as {"error": "..."}).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "memreg_sim.h"
#include "sim_output.h"

#define EXIT_USAGE 2

/**
 * struct pair_opt - an R,W option: @given, and its value @v per class.
 */
struct pair_opt {
	int given;
	uint64_t v[2];
};

/**
 * struct cli_opts - command-line state
 * @cfg: simulation configuration being built
 * @json: print JSON
 * @summary_only: omit the per-period table
 * @fit: scale guarantees down instead of refusing a config over the ceiling
 * @period_ns: requested period (0: the trace tick)
 * @guar: --guaranteed: per class, guarantee for every core
 * @ceil: --ceiling: per class, per-core ceiling for every core
 * @plat: --platform-ceiling: per class, the platform ceiling
 * @cold: --cold-start: per class, the cold-start demand
 * @have_bpe: --bytes-per-event given
 * @have_quantum: --quantum given
 * @inactive: bitmask of --inactive CPUs
 */
struct cli_opts {
	struct memreg_sim_config cfg;
	int json;
	int summary_only;
	int fit;
	uint64_t period_ns;
	int have_bpe, have_quantum;
	struct pair_opt guar, ceil, plat, cold;
	uint64_t inactive;
};

/* Print the usage text to @f. */
static void usage(FILE *f)
{
	fputs("usage: memreg-sim [options] TRACE\n"
	      "Replay a per-core demand trace through the memreg regulator core.\n\n"
	      "  --period-us N | --period-ns N   regulation period (default: the trace tick)\n"
	      "  --guaranteed R,W                guaranteed budget per core, events/period\n"
	      "  --ceiling R,W                   per-core ceiling (default: platform ceiling)\n"
	      "  --platform-ceiling R,W          sustainable events/period of the platform\n"
	      "                                  (default: 4294967295)\n"
	      "  --fit                           scale guarantees down to fit the ceiling\n"
	      "  --master CPU                    master CPU (default 0)\n"
	      "  --inactive CPU                  do not regulate CPU (repeatable)\n"
	      "  --monitor                       monitor only (infinite budgets)\n"
	      "  --lms                           NLMS-adapted budgets\n"
	      "  --taps N  --mu X  --headroom X  NLMS taps (1..16), step (0<mu<=2), headroom\n"
	      "  --cold-start R,W                NLMS cold-start demand\n"
	      "  --reclaim  --quantum N          reclaim pool, events per take\n"
	      "                                  (default: 1/8 of the smallest read guarantee)\n"
	      "  --share[=MODE]                  sharing once all cores are throttled: grant\n"
	      "                                  (default), spare or proportional\n"
	      "  --slack N                       events a core overshoots at exhaustion\n"
	      "  --backlog                       carry unserved demand forward\n"
	      "  --bytes-per-event N             report bandwidth in bytes/s\n"
	      "  --summary                       summary only\n"
	      "  --json                          JSON on stdout\n"
	      "  --help  --version\n", f);
}

/* Parse an unsigned decimal that must be all of @s. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	unsigned long long x;

	if (!s || !*s || *s == '-' || *s == '+')
		return MEMCAL_ESYNTAX;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end)
		return MEMCAL_ESYNTAX;
	*v = x;
	return 0;
}

/* Parse "R,W" (or a single N for both) into @p, which is then given. */
static int parse_pair(const char *s, struct pair_opt *p)
{
	uint64_t *v = p->v;
	char buf[64], *comma;

	p->given = 1;
	if (strlen(s) >= sizeof(buf))
		return MEMCAL_ESYNTAX;
	strcpy(buf, s);
	comma = strchr(buf, ',');
	if (!comma) {
		if (parse_u64(buf, &v[0]))
			return MEMCAL_ESYNTAX;
		v[1] = v[0];
		return 0;
	}
	*comma = '\0';
	return parse_u64(buf, &v[0]) || parse_u64(comma + 1, &v[1]) ?
	       MEMCAL_ESYNTAX : 0;
}

/* Parse a non-negative decimal fraction into Q16. */
static int parse_q16(const char *s, uint32_t *q)
{
	char *end;
	double x;

	if (!s || !*s)
		return MEMCAL_ESYNTAX;
	errno = 0;
	x = strtod(s, &end);
	if (errno || *end)
		return MEMCAL_ESYNTAX;
	if (!(x >= 0) || x > 65535)
		return MEMCAL_EINVAL;
	*q = (uint32_t)(x * MEMREG_ONE + 0.5);
	return 0;
}

enum {
	OPT_PERIOD_US = 256, OPT_PERIOD_NS, OPT_GUAR, OPT_CEIL, OPT_PLAT,
	OPT_FIT, OPT_MASTER, OPT_INACTIVE, OPT_MONITOR, OPT_LMS, OPT_TAPS,
	OPT_MU, OPT_HEADROOM, OPT_COLD, OPT_RECLAIM, OPT_QUANTUM, OPT_SHARE,
	OPT_SLACK, OPT_BACKLOG, OPT_BPE, OPT_SUMMARY, OPT_JSON, OPT_HELP,
	OPT_VERSION,
};

static const struct option long_opts[] = {
	{ "period-us", required_argument, NULL, OPT_PERIOD_US },
	{ "period-ns", required_argument, NULL, OPT_PERIOD_NS },
	{ "guaranteed", required_argument, NULL, OPT_GUAR },
	{ "ceiling", required_argument, NULL, OPT_CEIL },
	{ "platform-ceiling", required_argument, NULL, OPT_PLAT },
	{ "fit", no_argument, NULL, OPT_FIT },
	{ "master", required_argument, NULL, OPT_MASTER },
	{ "inactive", required_argument, NULL, OPT_INACTIVE },
	{ "monitor", no_argument, NULL, OPT_MONITOR },
	{ "lms", no_argument, NULL, OPT_LMS },
	{ "taps", required_argument, NULL, OPT_TAPS },
	{ "mu", required_argument, NULL, OPT_MU },
	{ "headroom", required_argument, NULL, OPT_HEADROOM },
	{ "cold-start", required_argument, NULL, OPT_COLD },
	{ "reclaim", no_argument, NULL, OPT_RECLAIM },
	{ "quantum", required_argument, NULL, OPT_QUANTUM },
	{ "share", optional_argument, NULL, OPT_SHARE },
	{ "slack", required_argument, NULL, OPT_SLACK },
	{ "backlog", no_argument, NULL, OPT_BACKLOG },
	{ "bytes-per-event", required_argument, NULL, OPT_BPE },
	{ "summary", no_argument, NULL, OPT_SUMMARY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* Apply one option; returns 0, or MEMCAL_EINVAL/MEMCAL_ESYNTAX for a bad value. */
static int apply_opt(struct cli_opts *o, int opt, const char *arg)
{
	struct memreg_cfg *r = &o->cfg.reg;
	uint64_t v;

	switch (opt) {
	case OPT_PERIOD_US:
		if (parse_u64(arg, &v) || v > MEMREG_PERIOD_MAX_NS / 1000)
			return MEMCAL_EINVAL;
		o->period_ns = v * 1000;
		return 0;
	case OPT_PERIOD_NS:
		return parse_u64(arg, &o->period_ns);
	case OPT_GUAR:
		return parse_pair(arg, &o->guar);
	case OPT_CEIL:
		return parse_pair(arg, &o->ceil);
	case OPT_PLAT:
		return parse_pair(arg, &o->plat);
	case OPT_COLD:
		return parse_pair(arg, &o->cold);
	case OPT_FIT:
		o->fit = 1;
		return 0;
	case OPT_MASTER:
		if (parse_u64(arg, &v) || v >= MEMREG_MAX_CPUS)
			return MEMCAL_EINVAL;
		r->master_cpu = (uint32_t)v;
		return 0;
	case OPT_INACTIVE:
		if (parse_u64(arg, &v) || v >= MEMREG_MAX_CPUS)
			return MEMCAL_EINVAL;
		o->inactive |= (uint64_t)1 << v;
		return 0;
	case OPT_MONITOR: r->flags |= MEMREG_F_MONITOR; return 0;
	case OPT_LMS: r->flags |= MEMREG_F_LMS; return 0;
	case OPT_RECLAIM: r->flags |= MEMREG_F_RECLAIM; return 0;
	case OPT_SHARE: {
		memreg_u32 on = 1, mode = MEMREG_SHARE_GRANT;

		if (arg && memreg_share_parse(arg, &on, &mode))
			return MEMCAL_EINVAL;
		r->flags = on ? r->flags | MEMREG_F_SHARE : r->flags & ~MEMREG_F_SHARE;
		r->share_mode = mode;
		return 0;
	}
	case OPT_BACKLOG: o->cfg.carry_backlog = 1; return 0;
	case OPT_SUMMARY: o->summary_only = 1; return 0;
	case OPT_JSON: o->json = 1; return 0;
	case OPT_TAPS:
		if (parse_u64(arg, &v) || v > 0xffffffffu)
			return MEMCAL_EINVAL;
		r->lms.taps = (uint32_t)v;
		return 0;
	case OPT_MU:
		return parse_q16(arg, &r->lms.mu);
	case OPT_HEADROOM:
		return parse_q16(arg, &r->lms.headroom);
	case OPT_QUANTUM:
		if (parse_u64(arg, &v) || v > 0xffffffffu)
			return MEMCAL_EINVAL;
		r->reclaim_quantum = (uint32_t)v;
		o->have_quantum = 1;
		return 0;
	case OPT_SLACK:
		return parse_u64(arg, &o->cfg.slack_events);
	case OPT_BPE:
		if (parse_u64(arg, &v) || !v || v > 0xffffffffu)
			return MEMCAL_EINVAL;
		o->have_bpe = 1;
		o->cfg.bytes_per_event = (uint32_t)v;
		return 0;
	}
	return MEMCAL_EINVAL;
}

/* Complete the regulator configuration from the options and the trace. */
static void build_cfg(struct cli_opts *o, const struct memreg_sim_trace_buf *tb)
{
	struct memreg_cfg *r = &o->cfg.reg;
	uint32_t n = tb->trace.nr_cores, cpu, c;

	r->nr_cpus = n;
	r->period_ns = o->period_ns ? o->period_ns : tb->trace.tick_ns;
	if (!o->have_bpe)
		o->cfg.bytes_per_event = tb->bytes_per_event;
	for (c = 0; c < MEMREG_NR_CLASSES; c++) {
		uint64_t plat = o->plat.given ? o->plat.v[c] : MEMREG_EVENTS_MAX;

		r->platform_ceiling[c] = plat;
		if (o->cold.given)
			r->lms.cold_start[c] = o->cold.v[c];
		for (cpu = 0; cpu < n; cpu++) {
			struct memreg_cpu_cfg *cc = &r->cpu[cpu];

			cc->active = !((o->inactive >> cpu) & 1);
			cc->guaranteed[c] = o->guar.given ? o->guar.v[c] : plat / n;
			cc->ceiling[c] = o->ceil.given ? o->ceil.v[c] : plat;
			if (!o->cold.given)
				r->lms.cold_start[c] = cc->guaranteed[c];
		}
	}
	if (o->fit)
		memreg_cfg_fit_guaranteed(r);
	if (!o->have_quantum) {	/* an eighth of the smallest read guarantee */
		uint64_t q = MEMREG_EVENTS_MAX;

		for (cpu = 0; cpu < n; cpu++)
			if (r->cpu[cpu].guaranteed[MEMREG_READ] < q)
				q = r->cpu[cpu].guaranteed[MEMREG_READ];
		r->reclaim_quantum = (uint32_t)(q / 8 ? q / 8 : 1);
	}
}

/* Report an error on stderr (and as JSON on stdout); returns @code. */
static int fail(const struct cli_opts *o, int code, const char *msg)
{
	fprintf(stderr, "memreg-sim: %s\n", msg);
	if (o->json)
		sim_print_json_error(stdout, msg);
	return code;
}

int main(int argc, char **argv)
{
	struct cli_opts o;
	struct memreg_sim_trace_buf tb;
	struct memreg_sim_result *res;
	char err[512], reason[256];
	const char *why = "";
	FILE *f;
	size_t rows;
	int opt, ret;

	memset(&o, 0, sizeof(o));
	memreg_cfg_defaults(&o.cfg.reg, 1);
	o.cfg.reg.flags = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", long_opts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			usage(stdout);
			return 0;
		}
		if (opt == OPT_VERSION) {
			printf("memreg-sim %s\n", MEMCAL_VERSION);
			return 0;
		}
		if (opt == '?' || opt == ':') {
			snprintf(err, sizeof(err), "unknown option or missing value: %s",
				 argv[optind - 1]);
			fail(&o, EXIT_USAGE, err);
			usage(stderr);
			return EXIT_USAGE;
		}
		if (apply_opt(&o, opt, optarg)) {
			snprintf(err, sizeof(err), "bad value for --%s: '%s'",
				 long_opts[opt - OPT_PERIOD_US].name, optarg ? optarg : "");
			return fail(&o, EXIT_USAGE, err);
		}
	}
	if (optind != argc - 1) {
		fail(&o, EXIT_USAGE, "expected exactly one TRACE file");
		usage(stderr);
		return EXIT_USAGE;
	}
	f = fopen(argv[optind], "r");
	if (!f) {
		snprintf(err, sizeof(err), "%s: %s", argv[optind], strerror(errno));
		return fail(&o, 1, err);
	}
	ret = memreg_sim_trace_parse(f, argv[optind], &tb, err, sizeof(err));
	fclose(f);
	if (ret)
		return fail(&o, 1, err);
	build_cfg(&o, &tb);
	ret = memreg_cfg_validate(&o.cfg.reg, &why);
	if (ret) {
		snprintf(err, sizeof(err), "configuration refused: %s", why);
		memreg_sim_trace_free(&tb);
		return fail(&o, 1, err);
	}
	rows = memreg_sim_nr_periods(&tb.trace, o.cfg.reg.period_ns, 0) *
	       tb.trace.nr_cores;
	res = calloc(1, sizeof(*res));
	if (res && rows && !o.summary_only) {
		res->periods = calloc(rows, sizeof(*res->periods));
		res->periods_cap = res->periods ? rows : 0;
	}
	if (!res || (rows && !o.summary_only && !res->periods)) {
		memreg_sim_trace_free(&tb);
		return fail(&o, 1, "out of memory");
	}
	ret = memreg_sim_run(&o.cfg, &tb.trace, res, reason, sizeof(reason));
	if (ret) {
		snprintf(err, sizeof(err), "simulation failed: %s", reason);
		ret = fail(&o, 1, err);
	} else if (o.json) {
		ret = sim_print_json(stdout, &o.cfg, res) ? 1 : 0;
	} else {
		sim_print_table(stdout, &o.cfg, res);
		ret = 0;
	}
	free(res->periods);
	free(res);
	memreg_sim_trace_free(&tb);
	return ret;
}
