// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_plan_events.c - per-CPU events from a recorded big.LITTLE board to
 * memreg's parameters: the RK3588 fixture's discovery (Cortex-A55 on
 * cpus 0-3, Cortex-A76 on 4-7, each kind its own PMU) becomes cpu_kind
 * rows, memtune's inputs load them, the planner gives every CPU its
 * kind's events, and the configuration carries them to the module
 * parameters and back; a board of one kind keeps the run's event.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "fixture_inputs.h"
#include "plan.h"
#include "replay.h"

#define BOARDS MEMCAL_SOURCE_DIR "/tests/fixtures/boards/"
#define TICKS 2000	/* 200 ms at 100 us */

static uint64_t rd[2][TICKS], wr[2][TICKS];

/* kinds_of - the board's kinds as `memcal run` stores them, into @k. */
static size_t kinds_of(const char *board, struct memcal_cpu_kind *k)
{
	struct memcal_replay r;
	char err[1024] = "";
	size_t n;

	cr_assert_eq(cal_replay_load(board, &r, err, sizeof(err)), 0, "%s", err);
	n = r.types.n;

	for (size_t i = 0; i < n; i++)
		cal_cpu_type_kind(&r.types, i, &k[i]);
	cal_replay_free(&r);
	return n;
}

/* store_kind - fixture_store_fn: CPU kind @i of @rows. */
static void store_kind(memcal_db *db, int64_t run_id, const void *rows,
		       size_t i)
{
	const struct memcal_cpu_kind *k = rows;

	cr_assert_eq(memcal_db_cpu_kind_store(db, run_id, &k[i]), 0, "%s",
		     memcal_db_errmsg(db));
}

/* load_kinds - store @n kinds for the fixture database's run, load inputs. */
static void load_kinds(const struct memcal_cpu_kind *k, size_t n,
		       struct tune_inputs *ti)
{
	int64_t run_id = fixture_inputs(ti, store_kind, k, n);

	cr_assert_eq(ti->in.calibration_run_id, run_id);
}

/* plan8 - plan a reader on cpu 1 and one on cpu 6 of an 8-CPU board. */
static void plan8(const struct plan_input *kinds, struct tune_config *c,
		  struct mix *m)
{
	static struct plan_input in;
	char err[512] = "";

	memset(&in, 0, sizeof(in));
	memset(m, 0, sizeof(*m));
	memcpy(in.kinds, kinds->kinds, sizeof(in.kinds));
	in.n_kinds = kinds->n_kinds;
	in.mix = m;
	in.nr_cpus = 8;
	in.sustain_bps[0] = 10e9;
	in.sustain_bps[1] = 5e9;
	in.guaranteed_bps[0] = 2e9;	/* a fifth: every access a row miss */
	in.guaranteed_bps[1] = 1e9;
	for (int cpu = 0; cpu < 8; cpu++)
		in.overhead_ns[cpu] = 2000;
	snprintf(in.overhead_method, sizeof(in.overhead_method), "memreg");
	for (int k = 0; k < 2; k++) {
		snprintf(in.counter[k].event, sizeof(in.counter[k].event),
			 "raw:0x%x", 0x17 + k);
		in.counter[k].bytes_per_event = 64;
		in.counter[k].validated = true;
	}
	snprintf(m->name, sizeof(m->name), "pcpu");
	m->runs = 3;
	m->percentile = 99;
	m->margin_pct = 20;
	for (int i = 0; i < 2; i++) {
		struct mix_workload *w = &m->wl[m->n++];
		struct plan_profile *p = &in.prof[i];

		snprintf(w->name, sizeof(w->name), "reader%d", i);
		w->cpu = i ? 6 : 1;
		w->read_bps = w->write_bps = -1;
		for (int t = 0; t < TICKS; t++) {
			rd[i][t] = 100000;
			wr[i][t] = 25000;
		}
		snprintf(p->source, sizeof(p->source), "pmu");
		p->tick_us = 100;
		p->len = TICKS;
		p->read = rd[i];
		p->write = wr[i];
	}
	cr_assert_eq(tune_plan_run(&in, c, err, sizeof(err)), 0, "%s", err);
}

Test(tune_plan_events, rk3588_gives_each_kind_its_own_events)
{
	static struct tune_inputs ti;
	static struct tune_config c, back;
	struct memcal_cpu_kind k[8];
	char params[8192], err[512];
	struct mix m;
	json_t *doc;
	size_t n = kinds_of(BOARDS "rk3588", k);

	cr_assert_eq(n, 2);
	cr_expect_str_eq(k[0].cpus, "0-3");
	cr_expect_str_eq(k[0].label, "Cortex-A55");
	cr_expect_str_eq(k[0].event[0], "armv8_cortex_a55:0x2a",
			 "A55 reads: L3D_CACHE_REFILL on its PMU, by name");
	cr_expect_str_eq(k[0].event[1], "armv8_cortex_a55:0x18");
	cr_expect_str_eq(k[1].cpus, "4-7");
	cr_expect_str_eq(k[1].event[0], "armv8_cortex_a76:0x2a", "A76 reads: its own PMU");
	load_kinds(k, n, &ti);
	cr_assert_eq(ti.in.n_kinds, 2, "the kinds come back from the database");
	cr_expect_str_eq(ti.in.kinds[1].event[1], "armv8_cortex_a76:0x18");
	plan8(&ti.in, &c, &m);
	for (int cpu = 0; cpu < 8; cpu++) {
		const struct tune_cpu *p = tune_config_cpu_const(&c, cpu);

		cr_assert(p);
		cr_expect_str_eq(p->kind, cpu < 4 ? "Cortex-A55" : "Cortex-A76");
		cr_expect_str_eq(p->event[0], cpu < 4 ? "armv8_cortex_a55:0x2a" :
				 "armv8_cortex_a76:0x2a", "cpu %d", cpu);
		cr_expect_str_eq(p->event[1], cpu < 4 ? "armv8_cortex_a55:0x18" :
				 "armv8_cortex_a76:0x18", "cpu %d", cpu);
	}
	cr_expect_str_neq(tune_config_cpu_const(&c, 1)->event[0],
			  tune_config_cpu_const(&c, 6)->event[0],
			  "the two regulated CPUs count different events");
	cr_assert_eq(tune_export_module_params(&c, params, sizeof(params)), 0);
	cr_expect(strstr(params, " read_event_cpus=0-3:armv8_cortex_a55:0x2a,"
			 "4-7:armv8_cortex_a76:0x2a write_event_cpus="
			 "0-3:armv8_cortex_a55:0x18,4-7:armv8_cortex_a76:0x18"),
		  "%s", params);
	cr_expect_eq(tune_config_numeric_events(&c, err, sizeof(err)), 0, "%s", err);
	doc = tune_config_to_json(&c);
	cr_assert(doc);
	cr_assert_eq(tune_config_from_json(doc, &back, err, sizeof(err)), 0, "%s", err);
	json_decref(doc);
	cr_expect_str_eq(tune_config_cpu_const(&back, 5)->event[0],
			 "armv8_cortex_a76:0x2a");
	cr_expect_str_eq(tune_config_cpu_const(&back, 2)->kind, "Cortex-A55");
	tune_inputs_free(&ti);
}

Test(tune_plan_events, one_kind_keeps_the_runs_event)
{
	static struct tune_inputs ti;
	static struct tune_config c;
	struct memcal_cpu_kind k[8];
	char params[8192];
	struct mix m;
	size_t n = kinds_of(BOARDS "rpi4", k);

	cr_assert_eq(n, 1);
	cr_expect_str_eq(k[0].event[0], "raw:0x52", "one PMU: a raw event (A72 L2D_CACHE_REFILL_LD)");
	load_kinds(k, n, &ti);
	plan8(&ti.in, &c, &m);
	cr_expect_str_eq(tune_config_cpu_const(&c, 1)->kind, k[0].label);
	cr_expect_str_empty(tune_config_cpu_const(&c, 1)->event[0],
			    "the validated run event stays every CPU's");
	cr_assert_eq(tune_export_module_params(&c, params, sizeof(params)), 0);
	cr_expect_null(strstr(params, "_event_cpus="), "%s", params);
	tune_inputs_free(&ti);
}

/*
 * An Intel hybrid part (the adl fixture): P-cores and E-cores count the
 * same architectural event on their own PMUs (cpu_core, type 4; cpu_atom,
 * type 8), named; the table documents no write event, so that class keeps the
 * run's event, with the reason stored.
 */
Test(tune_plan_events, hybrid_x86_kinds_name_their_pmu)
{
	static struct tune_inputs ti;
	static struct tune_config c;
	struct memcal_cpu_kind k[8];
	char params[8192];
	struct mix m;
	size_t n = kinds_of(BOARDS "adl", k);

	cr_assert_eq(n, 2);
	cr_expect_str_eq(k[0].cpus, "0-15");
	cr_expect_str_eq(k[0].event[0], "cpu_core:0x412e");
	cr_expect_str_eq(k[1].cpus, "16-23");
	cr_expect_str_eq(k[1].event[0], "cpu_atom:0x412e", "E-cores: cpu_atom");
	cr_expect_str_empty(k[1].event[1]);
	cr_expect(strstr(k[1].why[1], "no write event"), "%s", k[1].why[1]);
	load_kinds(k, n, &ti);
	plan8(&ti.in, &c, &m);
	cr_expect_str_eq(tune_config_cpu_const(&c, 6)->event[0], "cpu_core:0x412e",
			 "cpus 0-7 of the 8 planned are P-cores");
	cr_expect_str_empty(tune_config_cpu_const(&c, 6)->event[1]);
	cr_assert_eq(tune_export_module_params(&c, params, sizeof(params)), 0);
	cr_expect(strstr(params, " read_event_cpus=0-7:cpu_core:0x412e"), "%s", params);
	cr_expect_null(strstr(params, "write_event_cpus"), "%s", params);
	tune_inputs_free(&ti);
}

/*
 * A database from before memcal stored PMU names: its kinds give type
 * numbers.  The planner exports the kind's stored PMU name instead; a
 * number with no name stays, and every export that carries memreg's
 * events warns (stderr and --json's warnings take tune_export_render()'s).
 */
Test(tune_plan_events, numeric_types_become_names_or_warn)
{
	static struct tune_inputs ti;
	static struct tune_config c;
	static const char *const formats[] = {
		"json", "modprobe", "modules-load", "systemd",
	};
	struct memcal_cpu_kind k[8];
	struct export_opts o = { .config_id = 1 };
	struct export_warnings w;
	char err[512], params[8192], *text;
	size_t n = kinds_of(BOARDS "rk3588", k), len;
	struct mix m;
	FILE *f;

	cr_assert_eq(n, 2);
	for (size_t i = 0; i < n; i++)
		for (int cls = 0; cls < 2; cls++)
			snprintf(k[i].event[cls], sizeof(k[i].event[cls]), "%d:0x%s",
				 k[i].perf_type, cls ? "18" : "2a");
	snprintf(k[1].perf_pmu, sizeof(k[1].perf_pmu), "%s", "");
	load_kinds(k, n, &ti);
	plan8(&ti.in, &c, &m);
	cr_expect_str_eq(tune_config_cpu_const(&c, 1)->event[0], "armv8_cortex_a55:0x2a",
			 "the stored name replaces the kind's own type");
	cr_expect_str_eq(tune_config_cpu_const(&c, 5)->event[0], "9:0x2a",
			 "no name stored: the number stays");
	cr_assert_eq(tune_export_module_params(&c, params, sizeof(params)), 0);
	cr_expect(strstr(params, " read_event_cpus=0-3:armv8_cortex_a55:0x2a,4-7:9:0x2a "),
		  "%s", params);
	cr_assert_gt(tune_config_numeric_events(&c, err, sizeof(err)), 0);
	cr_expect(strstr(err, "event '9:0x2a' (and others) gives PMU type 9") &&
		  strstr(err, "re-run 'memcal run'"), "%s", err);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		bool warned = false;

		text = NULL;
		f = open_memstream(&text, &len);
		cr_assert(f);
		cr_assert_eq(tune_export_render(&c, formats[i], &o, f, &w), 0,
			     "%s: %s", formats[i], w.error);
		fclose(f);
		for (int j = 0; j < w.n; j++)
			warned |= strstr(w.text[j], "gives PMU type 9") != NULL;
		cr_expect(warned, "%s export does not warn of the type number",
			  formats[i]);
		free(text);
	}
	f = open_memstream(&text, &len);
	cr_assert(f);
	cr_assert_eq(tune_export_render(&c, "resctrl", &o, f, &w), 0);
	fclose(f);
	for (int j = 0; j < w.n; j++)
		cr_expect_null(strstr(w.text[j], "PMU type"), "resctrl carries no "
			       "memreg event: %s", w.text[j]);
	free(text);
	tune_inputs_free(&ti);
}

/*
 * The run's validated events: one of a dynamic PMU with its sysfs name
 * stored comes back as NAME:CONFIG, one from before names were stored
 * (perf_pmu '') as TYPE:CONFIG, which exports warn of; RAW stays raw.
 */
/* store_event - fixture_store_fn: PMU event @i of @rows. */
static void store_event(memcal_db *db, int64_t run_id, const void *rows,
			size_t i)
{
	const struct memcal_pmu_event *e = rows;

	cr_assert_eq(memcal_db_pmu_event_store(db, run_id, &e[i]), 0, "%s",
		     memcal_db_errmsg(db));
}

Test(tune_plan_events, run_events_of_dynamic_pmus_come_back_named)
{
	static const struct {
		uint32_t type;
		const char *pmu, *want;
	} cases[] = {
		{ 10, "arm_cmn_0", "arm_cmn_0:0x5" },
		{ 10, "", "10:5" },
		{ 4, "cpu", "raw:0x5" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		static struct tune_inputs ti;
		struct memcal_pmu_event e = {
			.name = "EV", .pmu = "pfm", .traffic = "read",
			.perf_type = cases[i].type, .perf_config = 5,
			.opened = true, .bytes_per_event = 64, .chosen = true,
		};

		snprintf(e.perf_pmu, sizeof(e.perf_pmu), "%s", cases[i].pmu);
		fixture_inputs(&ti, store_event, &e, 1);
		cr_expect_str_eq(ti.in.counter[TUNE_READ].event, cases[i].want);
		tune_inputs_free(&ti);
	}
}
