// SPDX-License-Identifier: GPL-2.0-only
/*
 * tuned_config.c - the tuned configuration document (see
 * tuned_config.h): rendering it to JSON, reading it back with every field
 * checked, and the small helpers the planner uses to fill it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memreg.h"
#include "tuned_config.h"

/* budget_json - one class's limits as an object. */
static json_t *budget_json(const struct tune_budget *b)
{
	json_t *o = json_pack("{s:f,s:f,s:I,s:I}", "guaranteed_bps",
			      b->guaranteed_bps, "ceiling_bps", b->ceiling_bps,
			      "guaranteed_events",
			      (json_int_t)b->guaranteed_events,
			      "ceiling_events", (json_int_t)b->ceiling_events);

	/* a floor only where one was set: real-time cores */
	if (o && b->floor_events) {
		json_object_set_new(o, "floor_bps", json_real(b->floor_bps));
		json_object_set_new(o, "floor_events",
				    json_integer((json_int_t)b->floor_events));
	}
	return o;
}

/* counter_json - one class's counter event as an object. */
static json_t *counter_json(const struct tune_counter *k)
{
	return json_pack("{s:s,s:s,s:I,s:I,s:f,s:s}", "event", k->event,
			 "name", k->name, "perf_type", (json_int_t)k->perf_type,
			 "perf_config", (json_int_t)k->perf_config,
			 "bytes_per_event", k->bytes_per_event, "source",
			 k->validated ? "validated" : "assumed");
}

/* strings_json - @n sentences as an array. */
static json_t *strings_json(char (*s)[TUNE_NOTE_LEN], size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(s[i]));
	return a;
}

/* cpus_json - the per-CPU array. */
static json_t *cpus_json(const struct tune_config *c)
{
	json_t *a = json_array();

	for (int i = 0; a && i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];
		json_t *names = json_array();
		char buf[256], *save = NULL;

		snprintf(buf, sizeof(buf), "%s", p->workloads);
		for (char *t = strtok_r(buf, ",", &save); t;
		     t = strtok_r(NULL, ",", &save))
			json_array_append_new(names, json_string(t));
		json_t *o = json_pack(
			"{s:i,s:s,s:b,s:b,s:o,s:o,s:o}", "cpu", p->cpu,
			"role", p->role, "regulated", p->regulated, "master",
			p->cpu == c->master_cpu, "workloads", names, "read",
			budget_json(&p->b[TUNE_READ]), "write",
			budget_json(&p->b[TUNE_WRITE]));

		/* present only when set: documents without it read as false */
		if (o && p->rt_exempt)
			json_object_set_new(o, "rt_exempt", json_true());
		if (o && p->kind[0])
			json_object_set_new(o, "kind", json_string(p->kind));
		for (int k = 0; o && k < TUNE_NR_CLASSES; k++)
			if (p->event[k][0])
				json_object_set_new(json_object_get(o, k ? "write" :
								    "read"),
						    "event", json_string(p->event[k]));
		json_array_append_new(a, o);
	}
	return a;
}

/* workloads_json - the placed workloads. */
static json_t *workloads_json(const struct tune_config *c)
{
	json_t *a = json_array();

	for (int i = 0; a && i < c->n_wl; i++) {
		const struct tune_wl *w = &c->wl[i];
		json_t *argv = json_loads(w->argv_json, 0, NULL);

		json_array_append_new(a, json_pack(
			"{s:s,s:i,s:s,s:I,s:I,s:o}", "name", w->name, "cpu",
			w->cpu, "criticality", w->rt ? "rt" : "be",
			"deadline_us", (json_int_t)w->deadline_us, "period_us",
			(json_int_t)w->period_us, "argv",
			argv ? argv : json_array()));
	}
	return a;
}

/**
 * tune_config_to_json() - render @c as the versioned document.
 * Return: a new reference, or NULL when out of memory.
 */
json_t *tune_config_to_json(const struct tune_config *c)
{
	json_t *ids = json_array(), *doc, *reasons = json_object();

	for (int i = 0; ids && i < c->n_profiles; i++)
		json_array_append_new(ids, json_integer(c->profile_ids[i]));
	for (int k = 0; reasons && k < TUNE_NR_REASONS; k++)
		if (c->reason[k][0])
			json_object_set_new(reasons, tune_reason_key(k),
					    json_string(c->reason[k]));
	doc = json_pack(
		"{s:s,s:i,s:s,s:s,s:s,"
		"s:{s:I,s:s,s:s,s:s,s:i},"
		"s:i,s:i,"
		"s:{s:b,s:b,s:b,s:s,s:b},"
		"s:{s:i,s:f,s:i,s:f,s:i},"
		"s:i,"
		"s:{s:o,s:o},"
		"s:{s:f,s:f,s:I,s:I},"
		"s:o,s:o,"
		"s:{s:I,s:I,s:I,s:s,s:o,s:s,s:f,s:f,s:s},"
		"s:o,s:o}",
		"format", TUNE_CONFIG_FORMAT, "version", TUNE_CONFIG_VERSION,
		"mix", c->mix, "created_at", c->created_at, "tool_version",
		c->tool_version,
		"platform", "id", (json_int_t)c->platform_id, "fingerprint",
		c->fingerprint, "arch", c->arch, "cpu_model", c->cpu_model,
		"nr_cpus", c->nr_cpus,
		"period_us", c->period_us, "master_cpu", c->master_cpu,
		"modes", "lms", c->lms, "reclaim", c->reclaim, "share",
		c->share, "share_mode", memreg_share_name(c->share_mode),
		"monitor", c->monitor,
		"lms", "taps", (int)c->taps, "mu", c->mu_q16 / 65536.0,
		"mu_q16", (int)c->mu_q16, "headroom_pct",
		c->headroom_q16 * 100.0 / 65536.0, "headroom_q16",
		(int)c->headroom_q16,
		"reclaim_quantum_events", (int)c->reclaim_quantum,
		"counters", "read", counter_json(&c->counter[TUNE_READ]),
		"write", counter_json(&c->counter[TUNE_WRITE]),
		"platform_ceiling", "read_bps", c->ceiling_bps[TUNE_READ],
		"write_bps", c->ceiling_bps[TUNE_WRITE], "read_events",
		(json_int_t)c->ceiling_events[TUNE_READ], "write_events",
		(json_int_t)c->ceiling_events[TUNE_WRITE],
		"cpus", cpus_json(c), "workloads", workloads_json(c),
		"provenance", "platform_id", (json_int_t)c->platform_id,
		"calibration_run_id", (json_int_t)c->calibration_run_id,
		"overhead_run_id", (json_int_t)c->overhead_run_id,
		"overhead_method", c->overhead_method, "profile_ids",
		ids ? ids : json_array(), "mix_file", c->mix_file,
		"percentile", c->percentile, "margin_pct", c->margin_pct,
		"trace_sources", c->trace_sources,
		"explain", strings_json((char (*)[TUNE_NOTE_LEN])c->explain,
					c->n_explain),
		"warnings", strings_json((char (*)[TUNE_NOTE_LEN])c->warn,
					 c->n_warn));
	/* the pool only when the planner set one: older documents stay */
	if (doc && c->pool_from[0])
		json_object_set_new(doc, "guaranteed_pool", json_pack(
			"{s:f,s:f,s:s}", "read_bps", c->pool_bps[TUNE_READ],
			"write_bps", c->pool_bps[TUNE_WRITE], "from",
			c->pool_from));
	/* the machine only when the plan probed one: older documents stay */
	if (doc && c->machine.present)
		json_object_set_new(json_object_get(doc, "provenance"),
				    "machine", tune_machine_to_json(&c->machine));
	if (doc && c->machine.bw_read_bps > 0)
		json_object_set_new(json_object_get(doc, "provenance"),
				    "bandwidth", tune_machine_bw_json(&c->machine));
	/* "reasons" only when the planner keyed one: older documents stay */
	if (doc && json_object_size(reasons))
		json_object_set(doc, "reasons", reasons);
	json_decref(reasons);
	return doc;
}

/* copy_str - copy JSON string @v into @dst (empty when not a string). */
static void copy_str(char *dst, size_t len, json_t *v)
{
	snprintf(dst, len, "%s", json_is_string(v) ? json_string_value(v) : "");
}

/* read_budget - one class's limits; 0 or MEMCAL_ESYNTAX if malformed. */
static int read_budget(json_t *o, struct tune_budget *b)
{
	json_int_t g = -1, ce = -1, fe = 0;

	b->floor_bps = 0;
	if (json_unpack(o, "{s:F,s:F,s:I,s:I,s?F,s?I}", "guaranteed_bps",
			&b->guaranteed_bps, "ceiling_bps", &b->ceiling_bps,
			"guaranteed_events", &g, "ceiling_events", &ce,
			"floor_bps", &b->floor_bps, "floor_events", &fe) ||
	    g < 0 || ce < 0 || fe < 0)
		return MEMCAL_ESYNTAX;
	b->guaranteed_events = (uint64_t)g;
	b->ceiling_events = (uint64_t)ce;
	b->floor_events = (uint64_t)fe;
	return 0;
}

/* read_counter - one class's counter; 0 or MEMCAL_ESYNTAX if malformed. */
static int read_counter(json_t *o, struct tune_counter *k)
{
	json_int_t type = 0, conf = 0;
	const char *ev = NULL, *name = NULL, *src = NULL;

	if (json_unpack(o, "{s:s,s:s,s:I,s:I,s:F,s:s}", "event", &ev, "name",
			&name, "perf_type", &type, "perf_config", &conf,
			"bytes_per_event", &k->bytes_per_event, "source", &src))
		return MEMCAL_ESYNTAX;
	snprintf(k->event, sizeof(k->event), "%s", ev);
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->perf_type = (uint32_t)type;
	k->perf_config = (uint64_t)conf;
	k->validated = !strcmp(src, "validated");
	return k->bytes_per_event > 0 ? 0 : MEMCAL_ESYNTAX;
}

/* read_cpu - one CPU's entry into @row; 0 or MEMCAL_ESYNTAX if malformed. */
static int read_cpu(json_t *o, void *row)
{
	struct tune_cpu *p = row;
	json_t *names = json_object_get(o, "workloads"), *n;
	int reg = 0;
	size_t k;

	if (json_unpack(o, "{s:i,s:b}", "cpu", &p->cpu, "regulated",
			&reg) ||
	    read_budget(json_object_get(o, "read"), &p->b[TUNE_READ]) ||
	    read_budget(json_object_get(o, "write"), &p->b[TUNE_WRITE]))
		return MEMCAL_ESYNTAX;
	p->regulated = reg;
	p->rt_exempt = json_is_true(json_object_get(o, "rt_exempt"));
	copy_str(p->kind, sizeof(p->kind), json_object_get(o, "kind"));
	for (int cls = 0; cls < TUNE_NR_CLASSES; cls++) {
		json_t *ev = json_object_get(json_object_get(o, cls ?
					     "write" : "read"), "event");

		if (ev && (!json_is_string(ev) ||
			   strlen(json_string_value(ev)) >= sizeof(p->event[0])))
			return MEMCAL_ESYNTAX;
		copy_str(p->event[cls], sizeof(p->event[cls]), ev);
	}
	copy_str(p->role, sizeof(p->role), json_object_get(o, "role"));
	p->workloads[0] = '\0';
	json_array_foreach(names, k, n) {
		size_t l = strlen(p->workloads);

		snprintf(p->workloads + l, sizeof(p->workloads) - l,
			 "%s%s", l ? "," : "",
			 json_string_value(n) ? json_string_value(n) : "");
	}
	return 0;
}

/* read_workload - one placed workload into @row; 0 or MEMCAL_ESYNTAX. */
static int read_workload(json_t *o, void *row)
{
	struct tune_wl *w = row;
	json_int_t d = 0, p = 0;
	const char *crit = "be";
	char *argv;

	if (json_unpack(o, "{s:i,s:s,s:I,s:I}", "cpu", &w->cpu,
			"criticality", &crit, "deadline_us", &d,
			"period_us", &p))
		return MEMCAL_ESYNTAX;
	copy_str(w->name, sizeof(w->name), json_object_get(o, "name"));
	w->rt = !strcmp(crit, "rt");
	w->deadline_us = (uint64_t)d;
	w->period_us = (uint64_t)p;
	argv = json_dumps(json_object_get(o, "argv"), JSON_COMPACT);
	snprintf(w->argv_json, sizeof(w->argv_json), "%s",
		 argv ? argv : "[]");
	free(argv);
	return 0;
}

/*
 * read_array - each element of the array @a, at most @max, by @one into
 * the rows of @size bytes at @rows, and their count into *@n; 0 or
 * MEMCAL_ESYNTAX if malformed.
 */
static int read_array(json_t *a, size_t max, int (*one)(json_t *, void *),
		      void *rows, size_t size, int *n)
{
	size_t i;
	json_t *o;

	if (!json_is_array(a) || json_array_size(a) > max)
		return MEMCAL_ESYNTAX;
	json_array_foreach(a, i, o)
		if (one(o, (char *)rows + i * size))
			return MEMCAL_ESYNTAX;
	*n = (int)json_array_size(a);
	return 0;
}

/* read_notes - an array of sentences into @dst. */
static size_t read_notes(json_t *a, char (*dst)[TUNE_NOTE_LEN])
{
	size_t i, n = 0;
	json_t *s;

	json_array_foreach(a, i, s)
		if (n < TUNE_MAX_NOTES)
			copy_str(dst[n++], TUNE_NOTE_LEN, s);
	return n;
}

/*
 * The configuration's strings read as they are (empty when absent): @key
 * of the document's object @in, or of the document itself when NULL.
 */
#define TEXT(in, key, m)						\
	{ in, key, offsetof(struct tune_config, m),			\
	  sizeof(((struct tune_config *)0)->m) }
static const struct {
	const char *in, *key;
	size_t off, size;
} texts[] = {
	TEXT(NULL, "mix", mix),
	TEXT(NULL, "created_at", created_at),
	TEXT(NULL, "tool_version", tool_version),
	TEXT("platform", "fingerprint", fingerprint),
	TEXT("platform", "arch", arch),
	TEXT("platform", "cpu_model", cpu_model),
	TEXT("provenance", "overhead_method", overhead_method),
	TEXT("provenance", "mix_file", mix_file),
	TEXT("provenance", "trace_sources", trace_sources),
};
#undef TEXT

/**
 * tune_config_from_json() - read a document back into @c, checking its format,
 * version and every field apply and the exporters need.
 * Return: 0, or a MEMCAL_E* code with a sentence in @err.
 */
int tune_config_from_json(json_t *doc, struct tune_config *c, char *err,
		     size_t errlen)
{
	json_t *plat, *modes, *lms, *ctr, *ceil, *prov, *ids, *v;
	json_int_t pid = 0, ce_r = 0, ce_w = 0, cal = 0, ovh = 0;
	int version = 0, taps = 0, mu = 0, head = 0, quantum = 0;
	int b_lms = 0, b_rec = 0, b_share = 0, b_mon = 0;
	const char *format = "";
	size_t i;

	memset(c, 0, sizeof(*c));
	if (json_unpack(doc, "{s:s,s:i}", "format", &format, "version",
			&version) || strcmp(format, TUNE_CONFIG_FORMAT)) {
		snprintf(err, errlen, "not a memcal tuned configuration "
			 "(\"format\" must be \"%s\")", TUNE_CONFIG_FORMAT);
		return MEMCAL_ESYNTAX;
	}
	if (version != TUNE_CONFIG_VERSION) {
		snprintf(err, errlen, "tuned configuration version %d is not "
			 "supported by this memtune (it reads version %d)",
			 version, TUNE_CONFIG_VERSION);
		/* a document, not the hardware: EUNSUPPORTED would exit 77 */
		return version > TUNE_CONFIG_VERSION ? MEMCAL_ENEWER :
		       MEMCAL_ESYNTAX;
	}
	plat = json_object_get(doc, "platform");
	modes = json_object_get(doc, "modes");
	lms = json_object_get(doc, "lms");
	ctr = json_object_get(doc, "counters");
	ceil = json_object_get(doc, "platform_ceiling");
	prov = json_object_get(doc, "provenance");
	if (json_unpack(doc, "{s:i,s:i,s:i}", "period_us", &c->period_us,
			"master_cpu", &c->master_cpu, "reclaim_quantum_events",
			&quantum) ||
	    json_unpack(plat, "{s:I,s:i}", "id", &pid, "nr_cpus", &c->nr_cpus) ||
	    json_unpack(modes, "{s:b,s:b,s:b,s:b}", "lms", &b_lms, "reclaim",
			&b_rec, "share", &b_share, "monitor", &b_mon) ||
	    json_unpack(lms, "{s:i,s:i,s:i}", "taps", &taps, "mu_q16", &mu,
			"headroom_q16", &head) ||
	    read_counter(json_object_get(ctr, "read"),
			 &c->counter[TUNE_READ]) ||
	    read_counter(json_object_get(ctr, "write"),
			 &c->counter[TUNE_WRITE]) ||
	    json_unpack(ceil, "{s:F,s:F,s:I,s:I}", "read_bps",
			&c->ceiling_bps[0], "write_bps", &c->ceiling_bps[1],
			"read_events", &ce_r, "write_events", &ce_w) ||
	    read_array(json_object_get(doc, "cpus"), TUNE_MAX_CPUS, read_cpu,
		       c->cpus, sizeof(c->cpus[0]), &c->n_cpus) ||
	    read_array(json_object_get(doc, "workloads"), TUNE_MAX_WL,
		       read_workload, c->wl, sizeof(c->wl[0]), &c->n_wl) ||
	    json_unpack(prov, "{s:I,s:I,s:F,s:F}", "calibration_run_id", &cal,
			"overhead_run_id", &ovh, "percentile", &c->percentile,
			"margin_pct", &c->margin_pct) ||
	    c->period_us <= 0 || c->master_cpu < 0 || taps < 1 || mu < 1 ||
	    head < 0 || quantum < 0 || ce_r < 0 || ce_w < 0) {
		snprintf(err, errlen, "the tuned configuration is malformed: "
			 "a required field is missing or out of range");
		return MEMCAL_ESYNTAX;
	}
	for (int n = 0; n < c->n_cpus; n++)
		for (int k = 0; k < TUNE_NR_CLASSES; k++) {
			const char *ev = c->cpus[n].event[k], *why = "";
			struct memreg_event parsed;

			if (ev[0] && memreg_event_parse(ev, (memreg_u32)strlen(ev),
							&parsed, &why)) {
				snprintf(err, errlen, "the tuned configuration's "
					 "cpu %d %s.event '%s' is not a memreg "
					 "event spec: %s", c->cpus[n].cpu,
					 k ? "write" : "read", ev, why);
				return MEMCAL_ESYNTAX;
			}
		}
	c->platform_id = pid;
	c->lms = b_lms;
	c->reclaim = b_rec;
	c->share = b_share;
	c->share_mode = MEMREG_SHARE_GRANT;
	v = json_object_get(modes, "share_mode");
	if (v) {
		memreg_u32 on = 0, mode = MEMREG_SHARE_GRANT;

		if (!json_is_string(v) ||
		    memreg_share_parse(json_string_value(v), &on, &mode) || !on) {
			snprintf(err, errlen, "the tuned configuration's "
				 "modes.share_mode is not grant, spare or "
				 "proportional");
			return MEMCAL_ESYNTAX;
		}
		c->share_mode = mode;
	}
	c->monitor = b_mon;
	c->taps = (uint32_t)taps;
	c->mu_q16 = (uint32_t)mu;
	c->headroom_q16 = (uint32_t)head;
	c->reclaim_quantum = (uint32_t)quantum;
	c->ceiling_events[0] = (uint64_t)ce_r;
	c->ceiling_events[1] = (uint64_t)ce_w;
	c->calibration_run_id = cal;
	c->overhead_run_id = ovh;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		copy_str((char *)c + texts[i].off, texts[i].size,
			 json_object_get(texts[i].in ? json_object_get(doc,
				texts[i].in) : doc, texts[i].key));
	if (tune_machine_from_json(json_object_get(prov, "machine"),
				   json_object_get(prov, "bandwidth"),
				   &c->machine, err, errlen))
		return MEMCAL_ESYNTAX;
	ids = json_object_get(prov, "profile_ids");
	json_array_foreach(ids, i, v)
		if (c->n_profiles < TUNE_MAX_WL)
			c->profile_ids[c->n_profiles++] = json_integer_value(v);
	if (json_unpack(json_object_get(doc, "guaranteed_pool"), "{s:F,s:F}",
			"read_bps", &c->pool_bps[0], "write_bps",
			&c->pool_bps[1]) == 0)
		copy_str(c->pool_from, sizeof(c->pool_from), json_object_get(
			 json_object_get(doc, "guaranteed_pool"), "from"));
	c->n_explain = read_notes(json_object_get(doc, "explain"), c->explain);
	c->n_warn = read_notes(json_object_get(doc, "warnings"), c->warn);
	for (int k = 0; k < TUNE_NR_REASONS; k++)
		copy_str(c->reason[k], TUNE_NOTE_LEN, json_object_get(
			 json_object_get(doc, "reasons"), tune_reason_key(k)));
	return 0;
}

/** tune_config_from_text() - parse @text and read it with tune_config_from_json(). */
int tune_config_from_text(const char *text, struct tune_config *c, char *err,
		     size_t errlen)
{
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	int rc;

	if (!doc) {
		snprintf(err, errlen, "the tuned configuration is not JSON "
			 "(line %d: %s)", je.line, je.text);
		return MEMCAL_ESYNTAX;
	}
	rc = tune_config_from_json(doc, c, err, errlen);
	json_decref(doc);
	return rc;
}

/* tune_reason_key() - the "reasons" key of @kind ("period", "master", "mix"). */
const char *tune_reason_key(enum tune_reason kind)
{
	static const char *const keys[TUNE_NR_REASONS] = {
		[TUNE_REASON_PERIOD] = "period",
		[TUNE_REASON_MASTER] = "master",
		[TUNE_REASON_MIX] = "mix",
	};

	return (unsigned)kind < TUNE_NR_REASONS ? keys[kind] : NULL;
}

/**
 * tune_config_reason() - record why the choice @kind was made: an explain
 * sentence that readers also find under "reasons" by its key.
 */
void tune_config_reason(struct tune_config *c, enum tune_reason kind,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	CLI_NOTE_VADD(c->explain, &c->n_explain, fmt, ap);
	va_end(ap);
	va_start(ap, fmt);
	if ((unsigned)kind < TUNE_NR_REASONS)
		vsnprintf(c->reason[kind], TUNE_NOTE_LEN, fmt, ap);
	va_end(ap);
}

/** tune_config_cpu() - the entry for OS CPU @cpu, or NULL. */
struct tune_cpu *tune_config_cpu(struct tune_config *c, int cpu)
{
	return (struct tune_cpu *)tune_config_cpu_const(c, cpu);
}

/** tune_config_cpu_const() - tune_config_cpu() for a read-only configuration. */
const struct tune_cpu *tune_config_cpu_const(const struct tune_config *c, int cpu)
{
	for (int i = 0; i < c->n_cpus; i++)
		if (c->cpus[i].cpu == cpu)
			return &c->cpus[i];
	return NULL;
}

/*
 * cpulist_of - the regulated CPUs (only the real-time-exempt ones when
 * @exempt) as a cpulist ("1-3,5").
 */
static void cpulist_of(const struct tune_config *c, bool exempt, char *buf,
		       size_t len)
{
	bool on[TUNE_MAX_CPUS] = { false };
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->n_cpus; i++)
		if (c->cpus[i].regulated && c->cpus[i].cpu >= 0 &&
		    c->cpus[i].cpu < TUNE_MAX_CPUS &&
		    (!exempt || c->cpus[i].rt_exempt))
			on[c->cpus[i].cpu] = true;
	for (int i = 0; i < TUNE_MAX_CPUS; i++) {
		int j = i;

		if (!on[i])
			continue;
		while (j + 1 < TUNE_MAX_CPUS && on[j + 1])
			j++;
		if (j > i)
			used += (size_t)snprintf(buf + used, used < len ?
						 len - used : 0, "%s%d-%d",
						 used ? "," : "", i, j);
		else
			used += (size_t)snprintf(buf + used, used < len ?
						 len - used : 0, "%s%d",
						 used ? "," : "", i);
		i = j;
	}
}

/**
 * tune_config_cpulist() - the regulated CPUs as a cpulist ("1-3,5"), the
 * format memreg's cpus= parameter takes.
 */
void tune_config_cpulist(const struct tune_config *c, char *buf, size_t len)
{
	cpulist_of(c, false, buf, len);
}

/**
 * tune_config_exempt_cpulist() - the real-time-exempt CPUs (monitored, never
 * throttled) as a cpulist, the format of memreg's rt_exempt= parameter;
 * "" when there are none.
 */
void tune_config_exempt_cpulist(const struct tune_config *c, char *buf, size_t len)
{
	cpulist_of(c, true, buf, len);
}

/**
 * tune_cpu_event() - the event spec CPU @p of @c counts class @cls with:
 * its own, else the class's counter event.
 */
const char *tune_cpu_event(const struct tune_config *c,
			   const struct tune_cpu *p, int cls)
{
	return p->event[cls][0] ? p->event[cls] : c->counter[cls].event;
}

/**
 * tune_config_event_cpus() - memreg's read_event_cpus= (@cls 0) or
 * write_event_cpus= (1) value: "CPUS:SPEC,..." for the CPUs whose event
 * is not the class's counter event, consecutive CPUs with the same spec
 * as one range ("" when every CPU counts the class's event).  The text is
 * checked with the module's own parser.
 *
 * Return: 0, MEMCAL_ERANGE when it does not fit @len, or MEMCAL_ESYNTAX
 * when it does not parse.
 */
int tune_config_event_cpus(const struct tune_config *c, int cls, char *buf,
		      size_t len)
{
	const char *spec[TUNE_MAX_CPUS] = { NULL };
	struct memreg_event_iter it;
	struct memreg_event_entry e;
	size_t used = 0;
	int rc;

	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];

		if (p->cpu >= 0 && p->cpu < TUNE_MAX_CPUS &&
		    strcmp(tune_cpu_event(c, p, cls), c->counter[cls].event))
			spec[p->cpu] = p->event[cls];
	}
	buf[0] = '\0';
	for (int i = 0; i < TUNE_MAX_CPUS; i++) {
		int j = i;

		if (!spec[i])
			continue;
		while (j + 1 < TUNE_MAX_CPUS && spec[j + 1] &&
		       !strcmp(spec[j + 1], spec[i]))
			j++;
		if (j > i)
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
						 "%s%d-%d:%s", used ? "," : "", i, j, spec[i]);
		else
			used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
						 "%s%d:%s", used ? "," : "", i, spec[i]);
		i = j;
	}
	if (used >= len)
		return MEMCAL_ERANGE;
	memreg_event_list_begin(&it, buf, TUNE_MAX_CPUS);
	while ((rc = memreg_event_list_next(&it, &e, NULL)) == 1)
		;
	return rc ? MEMCAL_ESYNTAX : 0;
}
