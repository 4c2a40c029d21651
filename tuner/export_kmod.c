// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_kmod.c - the exports that deploy memreg itself: the JSON
 * document, the modprobe.d options, the modules-load.d entry, and the
 * systemd unit that applies the configuration at boot.
 */
#include <string.h>

#include "cli.h"
#include "export.h"
#include "memreg.h"

/** tune_export_json() - the document, indented, keys in document order. */
int tune_export_json(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w)
{
	json_t *doc = tune_config_to_json(c);
	bool ok;

	(void)o;
	(void)w;
	if (!doc)
		return MEMCAL_ENOMEM;
	ok = cli_json_dumpf(doc, out);
	json_decref(doc);
	return ok ? MEMCAL_OK : MEMCAL_EIO;
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
		const struct tune_cpu *p = tune_config_cpu_const(c, cpu);
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
 * tune_export_module_params() - memreg's module parameters for @c, as one
 * line ("period_us=... master_cpu=... cpus=... read_budget=...", and
 * "rt_exempt=CPULIST" when real-time cores are exempt,
 * "read_event_cpus=CPUS:SPEC,..." when CPUs count their own events), the
 * string both the modprobe export and 'memtune apply' (finit_module) use.
 * Return: 0, MEMCAL_ERANGE if @len was too small, or MEMCAL_ESYNTAX when
 * a CPU's own event is not a memreg event spec.
 */
const char *tune_export_share(const struct tune_config *c)
{
	if (!c->share)
		return "0";
	if (c->share_mode == MEMREG_SHARE_GRANT)
		return "1";
	return memreg_share_name(c->share_mode);
}

int tune_export_module_params(const struct tune_config *c, char *buf, size_t len)
{
	char cpus[256];
	size_t used;

	tune_config_cpulist(c, cpus, sizeof(cpus));
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
		" reclaim=%d share=%s lms_taps=%u lms_mu=%u lms_headroom=%u"
		" reclaim_quantum=%u",
		(unsigned long long)c->ceiling_events[0],
		(unsigned long long)c->ceiling_events[1], c->monitor, c->lms,
		c->reclaim, tune_export_share(c), c->taps, c->mu_q16, c->headroom_q16,
		c->reclaim_quantum);
	tune_config_exempt_cpulist(c, cpus, sizeof(cpus));
	if (cpus[0])	/* only when asked: older memreg lacks the parameter */
		used += (size_t)snprintf(buf + used, used < len ? len - used :
					 0, " rt_exempt=%s", cpus);
	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		char list[2048];
		int rc = tune_config_event_cpus(c, k, list, sizeof(list));

		if (rc)
			return rc;
		if (list[0])	/* only when asked, as rt_exempt */
			used += (size_t)snprintf(buf + used, used < len ? len - used :
						 0, " %s_event_cpus=%s",
						 k ? "write" : "read", list);
	}
	return used < len ? 0 : MEMCAL_ERANGE;
}

/* header - the comment lines every text export starts with. */
static void header(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, const char *what)
{
	char mix[256], at[96], arch[64], model[256], fp[160];

	fprintf(out, "# %s - written by memtune export from tuned configuration "
		"%lld (mix '%s', created %s)\n# board: %s, %s, fingerprint %s\n",
		what, o->config_id,
		tune_export_printable(c->mix, false, mix, sizeof(mix)),
		tune_export_printable(c->created_at, false, at, sizeof(at)),
		tune_export_printable(c->arch, false, arch, sizeof(arch)),
		tune_export_printable(c->cpu_model, false, model, sizeof(model)),
		tune_export_printable(c->fingerprint, false, fp, sizeof(fp)));
}

/*
 * events_refused - refuse counter events that an options line cannot
 * carry: kmod splits the line on blanks and memreg's event parameters
 * have no quoting, so an event is a plain word ("raw:0x17", "4:23").
 * The other parameters are numbers and CPU lists memtune formats itself.
 * Returns 0 or MEMCAL_EREFUSED.
 */
static int events_refused(const struct tune_config *c,
			  struct export_warnings *w)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				 "_:,.+-";

	for (int k = 0; k < TUNE_NR_CLASSES; k++) {
		const char *e = c->counter[k].event;
		size_t bad = strspn(e, ok);
		char shown[256], ch[2] = { e[bad], '\0' }, chs[8];

		if (e[0] && !e[bad])
			continue;
		return tune_export_refuse(w, "%s event '%s' holds '%s', which a "
				     "modprobe.d options line cannot carry: "
				     "fix the configuration's counter events",
				     k ? "write" : "read",
				     tune_export_printable(e, false, shown,
						      sizeof(shown)),
				     e[0] ? tune_export_printable(ch, false, chs,
							     sizeof(chs)) :
				     "nothing");
	}
	return 0;
}

/**
 * tune_export_modprobe() - /etc/modprobe.d/memreg.conf: memreg's boot
 * defaults as one "options memreg ..." line, nothing else (loading the
 * module at boot is the modules-load format's file).
 */
int tune_export_modprobe(const struct tune_config *c, const struct export_opts *o,
		    FILE *out, struct export_warnings *w)
{
	char params[8192];
	int rc;

	if (tune_export_module_params(c, params, sizeof(params)))
		return tune_export_refuse(w, "memreg's parameters do not fit in "
				     "%zu bytes, or a CPU's own event is not a "
				     "memreg event spec", sizeof(params));
	rc = events_refused(c, w);
	if (rc)
		return rc;
	for (int k = 0; k < TUNE_NR_CLASSES; k++)
		if (!c->counter[k].validated)
			tune_export_warn(w, "%s event '%s' was not validated on this "
				    "board: its budgets assume %.0f bytes per "
				    "event", k ? "write" : "read",
				    c->counter[k].event,
				    c->counter[k].bytes_per_event);
	tune_export_warn(w, "LMS cold-start demand is left to memreg's default "
		    "(each CPU's guarantee)");
	header(c, o, out, "/etc/modprobe.d/memreg.conf");
	fprintf(out, "# load memreg at boot with the modules-load format "
		"(/etc/modules-load.d/memreg.conf)\n");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	fprintf(out, "options memreg %s\n", params);
	return 0;
}

/**
 * tune_export_modules_load() - /etc/modules-load.d/memreg.conf: the one line
 * that makes systemd-modules-load load memreg at boot, with the
 * parameters of the modprobe format's file.
 */
int tune_export_modules_load(const struct tune_config *c,
			const struct export_opts *o, FILE *out,
			struct export_warnings *w)
{
	header(c, o, out, "/etc/modules-load.d/memreg.conf");
	fprintf(out, "# memreg's parameters come from /etc/modprobe.d/"
		"memreg.conf (the modprobe format)\n");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	fprintf(out, "memreg\n");
	return 0;
}

/**
 * tune_export_systemd() - memreg-tune.service: a oneshot unit that runs
 * 'memtune apply --file' on the JSON export at boot and unloads memreg
 * when stopped.  apply checks the unit first ('memtune check') and
 * refuses on a failed item, so a unit that does not fit stays
 * unregulated and the journal names the item; the unit says so.  The memtune binary and the JSON path are quoted for
 * systemd (spaces, '%', '$', quotes); a path a unit cannot carry refuses
 * the export.
 */
int tune_export_systemd(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w)
{
	const char *bin = o->memtune_path ? o->memtune_path :
			  "/usr/local/bin/memtune";
	const char *file = o->config_path ? o->config_path :
			   "/etc/memcal/tuned-config.json";
	char qbin[8192], qfile[8192], cond[8192] = "", mix[512],
	     shown[4096];
	const char *why;

	if (tune_export_unit_arg(bin, true, qbin, sizeof(qbin), &why))
		return tune_export_refuse(w, "--memtune '%s' %s", tune_export_printable(
				     bin, false, shown, sizeof(shown)), why);
	if (tune_export_unit_arg(file, false, qfile, sizeof(qfile), &why))
		return tune_export_refuse(w, "--config-path '%s' %s",
				     tune_export_printable(file, false, shown,
						      sizeof(shown)), why);
	if (strchr(" \t\\", file[strlen(file) - 1]))
		return tune_export_refuse(w, "--config-path '%s' ends with a blank "
				     "or a backslash, which a unit's "
				     "ConditionPathExists= line would lose",
				     file);
	/* a condition path is taken as written, but for its specifiers */
	for (size_t i = 0, n = 0; file[i] && n + 3 < sizeof(cond); i++) {
		if (file[i] == '%')
			cond[n++] = '%';
		cond[n++] = file[i];
		cond[n] = '\0';
	}
	tune_export_sh_quote(file, shown, sizeof(shown));
	tune_export_warn(w, "the unit applies %s; install it with: memtune export "
		    "--format json --config %lld --out %s", file,
		    o->config_id, shown);
	header(c, o, out, "memreg-tune.service");
	fprintf(out, "# install: cp memreg-tune.service /etc/systemd/system/ && "
		"systemctl enable memreg-tune.service\n");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", tune_export_printable(w->text[i],
			false, shown, sizeof(shown)));
	fprintf(out, "# apply runs 'memtune check' first: when an item fails "
		"(another board, an\n# event that does not open, slower "
		"memory), memreg stays unloaded, the unit\n# fails and the "
		"journal says which item and why (journalctl -u "
		"memreg-tune);\n# install this unit instead of the "
		"modules-load file, which loads memreg\n# unchecked\n");
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
		"WantedBy=multi-user.target\n",
		tune_export_printable(c->mix, true, mix, sizeof(mix)), c->period_us,
		c->master_cpu, cond, qbin, qfile);
	return 0;
}
