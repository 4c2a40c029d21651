// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - discovery against a recorded board (see replay.h).
 *
 * File map:
 *   the event a kind would use     cal_cpu_type_pick(), cal_cpu_type_kind()
 *   loading a recorded board       check_file(), set_root(), cal_replay_load()
 *   text                           cal_cpu_types_print(), cal_replay_print()
 *   JSON                           pick_json(), cal_replay_to_json()
 */
#include "replay.h"
#include "memreg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * cal_cpu_type_pick - the event kind @k would count @traffic ("read"
 * or "write") with: its table's documented candidate, provided a core PMU
 * serves the kind.  NULL with @why saying exactly what is missing.
 */
const struct memcal_pmu_candidate *
cal_cpu_type_pick(const struct memcal_cpu_type *k, const char *traffic,
		     char *why, size_t len)
{
	const struct memcal_pmu_candidate *c;

	why[0] = '\0';
	if (!k->family) {
		snprintf(why, len, "%s", k->why);
		return NULL;
	}
	c = cal_pmu_documented(k->family, traffic);
	if (!c) {
		snprintf(why, len, "memcal's table %s documents no %s event "
			 "for this core", k->family->name, traffic);
		return NULL;
	}
	if (!k->perf_pmu[0] || k->perf_type < 0) {
		snprintf(why, len, "no core PMU serves CPUs %s: none of "
			 "bus/event_source/devices covers them (a virtual "
			 "machine without a PMU, or a kernel without the "
			 "PMU driver)", k->cpus);
		return NULL;
	}
	return c;
}

/*
 * cal_cpu_type_kind - kind @i of @t as the database stores it: its
 * CPUs and the memreg event spec of its read and write event, or "" with
 * the reason.  With one kind, "raw:0xNN" (the one core PMU).  With
 * several, "PMU_NAME:0xNN" with the kind's own PMU: the same code on an
 * A55 and an A76 are events of two PMUs, and on a hybrid x86 part a raw
 * event opens on the P-cores' PMU only.  The name, not the calibrating
 * kernel's type number (given in registration order, so another kernel
 * or driver load order gives it to another PMU), is what memreg resolves
 * on the target; "TYPE:0xNN" only when the name is no memreg spec.  An event
 * that memcal's table names only through libpfm4 has no code here: the
 * kind keeps the run's event.
 */
void cal_cpu_type_kind(const struct memcal_cpu_types *t, size_t i,
			  struct memcal_cpu_kind *row)
{
	static const char *const traffic[] = { "read", "write" };
	const struct memcal_cpu_type *k = &t->types[i];

	memset(row, 0, sizeof(*row));
	snprintf(row->cpus, sizeof(row->cpus), "%s", k->cpus);
	snprintf(row->label, sizeof(row->label), "%s", k->label);
	snprintf(row->perf_pmu, sizeof(row->perf_pmu), "%s", k->perf_pmu);
	row->perf_type = k->perf_type;
	for (int c = 0; c < 2; c++) {
		const struct memcal_pmu_candidate *e;
		struct memreg_event ev;

		e = cal_cpu_type_pick(k, traffic[c], row->why[c],
					 sizeof(row->why[c]));
		if (!e)
			continue;
		snprintf(row->event_name[c], sizeof(row->event_name[c]), "%s",
			 e->event ? e->event : e->what);
		if (!e->has_raw)
			snprintf(row->why[c], sizeof(row->why[c]), "memcal's "
				 "table names %s through libpfm4 only: these "
				 "CPUs count the run's validated %s event",
				 e->event, traffic[c]);
		else if (t->n < 2 || k->perf_type < 0)
			snprintf(row->event[c], sizeof(row->event[c]),
				 "raw:0x%llx", (unsigned long long)e->raw);
		else if (snprintf(row->event[c], sizeof(row->event[c]),
				  "%s:0x%llx", k->perf_pmu,
				  (unsigned long long)e->raw) >= MEMREG_EVENT_LEN ||
			 memreg_event_parse(row->event[c],
					    (memreg_u32)strlen(row->event[c]),
					    &ev, NULL) || !ev.pmu)
			snprintf(row->event[c], sizeof(row->event[c]),
				 "%d:0x%llx", k->perf_type,
				 (unsigned long long)e->raw);
	}
}

/* event_text - "raw 0x17, L2 data refills" or "EVENT:UMASK, what". */
static void event_text(const struct memcal_pmu_candidate *c, char *buf,
		       size_t len)
{
	if (c->has_raw)
		snprintf(buf, len, "raw 0x%llx, %s",
			 (unsigned long long)c->raw, c->what);
	else
		snprintf(buf, len, "%s, %s", c->event, c->what);
}

/*
 * cal_cpu_types_print - one block per kind: its CPUs, PMU, event table
 * and the read and write event it would use, or why none.
 */
void cal_cpu_types_print(const struct memcal_cpu_types *t, FILE *out)
{
	static const char *const traffic[] = { "read", "write" };

	for (size_t i = 0; i < t->n; i++) {
		const struct memcal_cpu_type *k = &t->types[i];

		fprintf(out, "cpus %s (%u): %s\n", k->cpus, k->n_cpus,
			k->label);
		fprintf(out, "  pmu: %s (perf type %d)%s%s\n",
			k->perf_pmu[0] ? k->perf_pmu : "none", k->perf_type,
			k->pfm_pmu[0] ? ", libpfm4 " : "", k->pfm_pmu);
		if (k->family)
			fprintf(out, "  table: %s\n", k->family->name);
		for (size_t j = 0; j < 2; j++) {
			const struct memcal_pmu_candidate *c;
			char text[320];

			c = cal_cpu_type_pick(k, traffic[j], text,
						 sizeof(text));
			if (c)
				event_text(c, text, sizeof(text));
			fprintf(out, "  %s: %s%s\n", traffic[j],
				c ? "" : "none: ", text);
		}
	}
}

/*
 * check_file - @dir/@rel exists and is a folder (@want_dir) or a
 * readable file; else an error naming it and what a recording holds.
 */
static int check_file(const char *dir, const char *rel, bool want_dir,
		      char *err, size_t errlen)
{
	char path[4200];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	if (stat(path, &st)) {
		snprintf(err, errlen, "--replay %s: %s: %s (a recorded board "
			 "is a folder with proc/cpuinfo, sys/ and topology.xml;"
			 " see tests/fixtures/boards/)", dir, path,
			 strerror(errno));
		return MEMCAL_ENOTFOUND;
	}
	if (want_dir != !!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "--replay %s: %s is %s (a recorded board "
			 "is a folder with proc/cpuinfo, sys/ and topology.xml;"
			 " see tests/fixtures/boards/)", dir, path,
			 want_dir ? "not a folder" : "a folder");
		return MEMCAL_EINVAL;
	}
	return 0;
}

/*
 * set_root - point environment variable @name at @dir/@rel, keeping its
 * old value in @old (malloc'd, NULL when unset) for restore_root().
 * Returns 0 or MEMCAL_ENOMEM.
 */
static int set_root(const char *name, const char *dir, const char *rel,
		    char **old)
{
	const char *v = getenv(name);
	char path[4200];

	*old = v ? strdup(v) : NULL;
	if (v && !*old)
		return MEMCAL_ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return setenv(name, path, 1) ? MEMCAL_ENOMEM : 0;
}

/* restore_root - put @name back as set_root() found it; frees @old. */
static void restore_root(const char *name, char *old)
{
	if (old)
		setenv(name, old, 1);
	else
		unsetenv(name);
	free(old);
}

/*
 * cal_replay_load - load the board recorded in @dir into @r: its
 * topology and its kinds of CPU, read through the recorded files only.
 * The environment is as before on return.  Return: 0, or a MEMCAL_E*
 * code with @err naming what is missing or unreadable.
 */
int cal_replay_load(const char *dir, struct memcal_replay *r, char *err,
		       size_t errlen)
{
	static const char *const vars[] = {
		"MEMCAL_SYSFS_ROOT", "MEMCAL_PROCFS_ROOT", "HWLOC_XMLFILE",
	};
	static const char *const rels[] = { "sys", "proc", "topology.xml" };
	char *old[3] = { NULL, NULL, NULL };
	size_t set = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	r->dir = dir;
	rc = check_file(dir, ".", true, err, errlen);
	if (!rc)
		rc = check_file(dir, "proc/cpuinfo", false, err, errlen);
	if (!rc)
		rc = check_file(dir, "sys", true, err, errlen);
	if (!rc)
		rc = check_file(dir, "topology.xml", false, err, errlen);
	if (rc)
		return rc;
	rc = MEMCAL_ENOMEM;
	for (; set < 3; set++)
		if (set_root(vars[set], dir, rels[set], &old[set])) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	rc = memcal_platform_topology_load(&r->topo, NULL, err, errlen);
	if (rc)
		goto out;
	rc = MEMCAL_ERROR;
	if (cal_cpu_types_discover(&r->types)) {
		snprintf(err, errlen, "--replay %s: %s", dir, r->types.error);
		memcal_platform_topology_free(&r->topo);
		memset(&r->topo, 0, sizeof(r->topo));
		goto out;
	}
	rc = 0;
out:
	while (set--)
		restore_root(vars[set], old[set]);
	return rc;
}

/* cal_replay_free - release what cal_replay_load() loaded. */
void cal_replay_free(struct memcal_replay *r)
{
	if (r->topo.hw)
		memcal_platform_topology_free(&r->topo);
	memset(r, 0, sizeof(*r));
}

/* replay_cpus - CPUs the kinds cover together. */
static unsigned replay_cpus(const struct memcal_replay *r)
{
	unsigned n = 0;

	for (size_t i = 0; i < r->types.n; i++)
		n += r->types.types[i].n_cpus;
	return n;
}

/*
 * cal_replay_print - the replay as text: the board, one block per kind
 * (cal_cpu_types_print()), and that nothing was measured or stored.
 */
void cal_replay_print(const struct memcal_replay *r, FILE *out)
{
	const struct memcal_topology *t = &r->topo;
	unsigned n = replay_cpus(r);

	fprintf(out, "replay of the board recorded in %s\n", r->dir);
	fprintf(out, "topology: %u package%s, %u core%s, %u CPU%s "
		"(topology.xml)\n", t->n_packages, t->n_packages == 1 ? "" :
		"s", t->n_cores, t->n_cores == 1 ? "" : "s", t->n_pus,
		t->n_pus == 1 ? "" : "s");
	if (n != t->n_pus)
		fprintf(out, "note: topology.xml has %u CPUs, the recorded "
			"/proc and /sys files %u\n", t->n_pus, n);
	fprintf(out, "%zu kind%s of CPU:\n", r->types.n,
		r->types.n == 1 ? "" : "s");
	cal_cpu_types_print(&r->types, out);
	fprintf(out, "measured nothing, stored nothing: a replay only shows "
		"the events discovery picks\n");
}

/* pick_json - {"event", "perf_type", "config", "what"} or {"why"}. */
static json_t *pick_json(const struct memcal_cpu_type *k, const char *traffic)
{
	char why[320], cfg[24];
	const struct memcal_pmu_candidate *c =
		cal_cpu_type_pick(k, traffic, why, sizeof(why));

	if (!c)
		return json_pack("{s:b, s:s}", "picked", 0, "why", why);
	if (!c->has_raw)
		return json_pack("{s:b, s:s, s:s, s:s}", "picked", 1,
				 "event", c->event, "pmu", k->perf_pmu,
				 "what", c->what);
	snprintf(cfg, sizeof(cfg), "0x%llx", (unsigned long long)c->raw);
	return json_pack("{s:b, s:o?, s:s, s:i, s:s, s:s}", "picked", 1,
			 "event", c->event ? json_string(c->event) : NULL, "pmu",
			 k->perf_pmu, "perf_type", k->perf_type, "config",
			 cfg, "what", c->what);
}

/* type_json - one kind of CPU. */
static json_t *type_json(const struct memcal_cpu_type *k)
{
	json_t *o = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s, s:s}",
			      "cpus", k->cpus, "n_cpus", (int)k->n_cpus,
			      "label", k->label, "pmu", k->perf_pmu,
			      "perf_type", k->perf_type, "pfm_pmu",
			      k->pfm_pmu, "table",
			      k->family ? k->family->name : "");

	if (!o)
		return NULL;
	if (k->arm_part) {
		json_object_set_new(o, "arm_implementer",
				    json_integer(k->arm_implementer));
		json_object_set_new(o, "arm_part", json_integer(k->arm_part));
	} else {
		json_object_set_new(o, "x86_vendor",
				    json_string(k->x86_vendor));
		json_object_set_new(o, "x86_family",
				    json_integer(k->x86_family));
		json_object_set_new(o, "x86_model", json_integer(k->x86_model));
		json_object_set_new(o, "hybrid_kind",
				    json_string(k->hybrid_kind));
	}
	json_object_set_new(o, "read", pick_json(k, "read"));
	json_object_set_new(o, "write", pick_json(k, "write"));
	return o;
}

/*
 * cal_replay_to_json - the replay as the result of the JSON envelope:
 * measured and stored are false by construction.
 */
json_t *cal_replay_to_json(const struct memcal_replay *r)
{
	json_t *types = json_array();

	for (size_t i = 0; types && i < r->types.n; i++)
		json_array_append_new(types, type_json(&r->types.types[i]));
	return json_pack("{s:s, s:b, s:b, s:{s:i, s:i, s:i, s:i}, s:o}",
			 "replay", r->dir, "measured", 0, "stored", 0,
			 "topology", "packages", (int)r->topo.n_packages,
			 "cores", (int)r->topo.n_cores, "cpus",
			 (int)r->topo.n_pus, "cpus_recorded",
			 (int)replay_cpus(r), "cpu_types", types);
}
