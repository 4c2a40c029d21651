// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_kmod.c - the exports that deploy memreg itself: the JSON
 * document, the modprobe options with their modules-load.d entry, and the
 * systemd unit that applies the configuration at boot.
 */
#include <string.h>

#include "export.h"

/** export_json() - the document, indented, keys in document order. */
int export_json(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w)
{
	json_t *doc = config_to_json(c);
	int rc;

	(void)o;
	(void)w;
	if (!doc)
		return -2;
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(12));
	json_decref(doc);
	fputc('\n', out);
	return rc ? -2 : 0;
}

/* max_cpu - highest CPU number in @c. */
static int max_cpu(const struct tune_config *c)
{
	int m = -1;

	for (int i = 0; i < c->n_cpus; i++)
		if (c->cpus[i].cpu > m)
			m = c->cpus[i].cpu;
	return m;
}

/*
 * put_array - append " name=v0,v1,..." for one per-CPU field: CPU i's
 * value at position i, 1 for a CPU memreg does not regulate (its minimum).
 */
static size_t put_array(const struct tune_config *c, char *buf, size_t len,
			size_t used, const char *name, int cls, bool ceiling)
{
	used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
				 " %s=", name);
	for (int cpu = 0; cpu <= max_cpu(c); cpu++) {
		const struct tune_cpu *p = config_cpu_const(c, cpu);
		unsigned long long v = 1;

		if (p && p->regulated)
			v = ceiling ? p->b[cls].ceiling_events :
				      p->b[cls].guaranteed_events;
		used += (size_t)snprintf(buf + used, used < len ? len - used :
					 0, "%s%llu", cpu ? "," : "", v);
	}
	return used;
}

/**
 * export_module_params() - memreg's module parameters for @c, as one
 * line ("period_us=... master_cpu=... cpus=... read_budget=..."), the
 * string both the modprobe export and 'memtune apply' (finit_module) use.
 * Return: 0, or -1 if @len was too small.
 */
int export_module_params(const struct tune_config *c, char *buf, size_t len)
{
	char cpus[256];
	size_t used;

	config_cpulist(c, cpus, sizeof(cpus));
	used = (size_t)snprintf(buf, len, "period_us=%d master_cpu=%d cpus=%s "
				"read_event=%s write_event=%s", c->period_us,
				c->master_cpu, cpus, c->counter[0].event,
				c->counter[1].event);
	used = put_array(c, buf, len, used, "read_budget", TUNE_READ, false);
	used = put_array(c, buf, len, used, "write_budget", TUNE_WRITE, false);
	used = put_array(c, buf, len, used, "read_max", TUNE_READ, true);
	used = put_array(c, buf, len, used, "write_max", TUNE_WRITE, true);
	used += (size_t)snprintf(buf + used, used < len ? len - used : 0,
		" platform_read=%llu platform_write=%llu monitor=%d lms=%d"
		" reclaim=%d share=%d lms_taps=%u lms_mu=%u lms_headroom=%u"
		" reclaim_quantum=%u",
		(unsigned long long)c->ceiling_events[0],
		(unsigned long long)c->ceiling_events[1], c->monitor, c->lms,
		c->reclaim, c->share, c->taps, c->mu_q16, c->headroom_q16,
		c->reclaim_quantum);
	return used < len ? 0 : -1;
}

/* header - the comment lines every text export starts with. */
static void header(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, const char *what)
{
	fprintf(out, "# %s - written by memtune export from tuned configuration "
		"%lld (mix '%s', created %s)\n# board: %s, %s, fingerprint %s\n",
		what, o->config_id, c->mix, c->created_at, c->arch,
		c->cpu_model, c->fingerprint);
}

/**
 * export_modprobe() - /etc/modprobe.d/memreg.conf (boot defaults as
 * module parameters) followed by the /etc/modules-load.d/memreg.conf
 * entry; each file starts at a "# ---- file: PATH" line.
 */
int export_modprobe(const struct tune_config *c, const struct export_opts *o,
		    FILE *out, struct export_warnings *w)
{
	char params[8192];

	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		if (!c->counter[k].validated)
			export_warn(w, "%s event '%s' was not validated on this "
				    "board: its budgets assume %.0f bytes per "
				    "event", k ? "write" : "read",
				    c->counter[k].event,
				    c->counter[k].bytes_per_event);
	export_warn(w, "LMS cold-start demand is left to memreg's default "
		    "(each CPU's guarantee)");
	fprintf(out, "# ---- file: /etc/modprobe.d/memreg.conf ----\n");
	header(c, o, out, "/etc/modprobe.d/memreg.conf");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	if (export_module_params(c, params, sizeof(params)))
		return -2;
	fprintf(out, "options memreg %s\n", params);
	fprintf(out, "# ---- file: /etc/modules-load.d/memreg.conf ----\n");
	header(c, o, out, "/etc/modules-load.d/memreg.conf");
	fprintf(out, "memreg\n");
	return 0;
}

/**
 * export_systemd() - memreg-tune.service: a oneshot unit that runs
 * 'memtune apply --file' on the JSON export at boot and unloads memreg
 * when stopped.
 */
int export_systemd(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w)
{
	const char *bin = o->memtune_path ? o->memtune_path :
			  "/usr/local/bin/memtune";
	const char *file = o->config_path ? o->config_path :
			   "/etc/memcal/tuned-config.json";

	export_warn(w, "the unit applies %s: install it with 'memtune export "
		    "--format json --config %lld --out %s'", file,
		    o->config_id, file);
	header(c, o, out, "memreg-tune.service");
	fprintf(out, "# install: cp memreg-tune.service /etc/systemd/system/ && "
		"systemctl enable memreg-tune.service\n");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	fprintf(out, "[Unit]\n"
		"Description=memcal: regulate memory bandwidth for mix '%s' "
		"(memreg, period %d us, master cpu %d)\n"
		"Documentation=man:memtune(1)\n"
		"After=local-fs.target systemd-modules-load.service\n"
		"ConditionPathExists=%s\n\n"
		"[Service]\n"
		"Type=oneshot\n"
		"RemainAfterExit=yes\n"
		"ExecStart=%s apply --file %s\n"
		"ExecStop=/sbin/rmmod memreg\n\n"
		"[Install]\n"
		"WantedBy=multi-user.target\n", c->mix, c->period_us,
		c->master_cpu, file, bin, file);
	return 0;
}
