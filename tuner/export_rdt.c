// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_rdt.c - the equivalent of a tuned configuration on Intel RDT /
 * Arm MPAM memory-bandwidth allocation, as resctrl schemata and as a pqos
 * command line.  MBA limits each class of service's total traffic with a
 * percentage (rounded here up to the platform's bandwidth_gran, never
 * below min_bandwidth) or, with the mba_MBps mount option, in MiB/s.  It
 * has no periods, no guarantees, no read/write split and no adaptation:
 * each of those is a warning.  Real-time cores stay in the default group
 * (100 %); each best-effort core gets a group with its guaranteed read +
 * write bandwidth as the limit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "export.h"

/* read_int - first integer in file @dir/@name, or @dflt. */
static int read_int(const char *dir, const char *name, int dflt, bool *ok)
{
	char path[512];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	else
		*ok = true;
	fclose(f);
	return v;
}

/*
 * read_domains - MBA domain ids from the root group's schemata line
 * "MB:0=100;1=100"; false when there is none.
 */
static bool read_domains(const char *root, char *out, size_t len)
{
	char path[512], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/schemata", root);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *p = line, *save = NULL;
		size_t used = 0;

		while (*p == ' ')
			p++;
		if (strncmp(p, "MB:", 3))
			continue;
		for (char *t = strtok_r(p + 3, ";\n", &save); t;
		     t = strtok_r(NULL, ";\n", &save)) {
			int id;

			if (sscanf(t, " %d=", &id) == 1 && used < len)
				used += (size_t)snprintf(out + used, len - used,
							 "%s%d", used ? "," : "",
							 id);
		}
		found = used > 0;
	}
	fclose(f);
	return found;
}

/* mounted_mbps - whether resctrl is mounted with mba_MBps. */
static bool mounted_mbps(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[1024];
	bool yes = false;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "resctrl ", 8) && strstr(line, "mba_MBps"))
			yes = true;
	if (f)
		fclose(f);
	return yes;
}

/**
 * rdt_info_read() - MBA granularity, minimum and domains from
 * @o->resctrl_root (info/MB/bandwidth_gran, info/MB/min_bandwidth,
 * schemata); the documented defaults (10 %, 10 %, domain 0) otherwise,
 * with a warning.
 */
void rdt_info_read(const struct export_opts *o, struct rdt_info *ri,
		   struct export_warnings *w)
{
	const char *root = o->resctrl_root ? o->resctrl_root :
			   "/sys/fs/resctrl";
	char info[512];
	bool ok = false;

	snprintf(info, sizeof(info), "%s/info/MB", root);
	ri->gran = read_int(info, "bandwidth_gran", 10, &ok);
	ri->min = read_int(info, "min_bandwidth", 10, &ok);
	ri->found = ok;
	if (ri->gran < 1)
		ri->gran = 10;
	if (!read_domains(root, ri->domains, sizeof(ri->domains)))
		snprintf(ri->domains, sizeof(ri->domains), "0");
	ri->mbps = o->mba_mbps > 0 || (o->mba_mbps < 0 && mounted_mbps());
	if (!ok)
		export_warn(w, "no MBA information under %s: assumed a %d%% "
			    "granularity, %d%% minimum and one domain (0); "
			    "check info/MB on the target", root, ri->gran,
			    ri->min);
}

/**
 * rdt_value() - the MBA value for @bps: MiB/s rounded up, or the percent
 * of @ref_bps rounded up to the granularity, clamped to [min, 100].
 */
long rdt_value(const struct rdt_info *ri, double bps, double ref_bps)
{
	double pct;
	long v;

	if (ri->mbps)
		return (long)ceil(bps / 1048576.0);
	pct = ref_bps > 0 ? bps / ref_bps * 100.0 : 100.0;
	v = (long)ceil(pct / ri->gran - 1e-9) * ri->gran;
	if (v < ri->min)
		v = ri->min;
	return v > 100 ? 100 : v;
}

/* common_warnings - what no MBA setting can express. */
static void common_warnings(const struct tune_config *c,
			    struct export_warnings *w, const struct rdt_info *ri)
{
	export_warn(w, "MBA has no regulation period (%d us), no LMS "
		    "adaptation, no reclaim or spare sharing: the limits are "
		    "static", c->period_us);
	export_warn(w, "MBA limits read and write traffic together: each "
		    "limit is the core's guaranteed read + write bandwidth");
	export_warn(w, "MBA cannot guarantee bandwidth: real-time cores stay "
		    "unthrottled in the default group");
	if (!ri->mbps)
		export_warn(w, "percentages are of the sustainable bandwidth "
			    "(%.0f MB/s read); MBA's percent is a per-core "
			    "throttling delay, so the limit is approximate",
			    c->ceiling_bps[TUNE_READ] / 1e6);
}

/* be_value - the MBA value of best-effort CPU entry @p. */
static long be_value(const struct tune_config *c, const struct tune_cpu *p,
		     const struct rdt_info *ri)
{
	return rdt_value(ri, p->b[TUNE_READ].guaranteed_bps +
			 p->b[TUNE_WRITE].guaranteed_bps,
			 c->ceiling_bps[TUNE_READ]);
}

/* schemata_line - "MB:0=V;1=V" for all domains. */
static void schemata_line(const struct rdt_info *ri, long v, char *buf,
			  size_t len)
{
	char dom[64], *save = NULL;
	size_t used = (size_t)snprintf(buf, len, "MB:");

	snprintf(dom, sizeof(dom), "%s", ri->domains);
	for (char *t = strtok_r(dom, ",", &save); t && used < len;
	     t = strtok_r(NULL, ",", &save))
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%ld",
					 used > 3 ? ";" : "", t, v);
}

/**
 * export_resctrl() - a POSIX sh script that mounts resctrl if needed and
 * creates group memcal_cpuN (cpus_list N, schemata MB:...) for each
 * best-effort core.
 */
int export_resctrl(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w)
{
	struct rdt_info ri;
	int groups = 0;

	rdt_info_read(o, &ri, w);
	common_warnings(c, w, &ri);
	fprintf(out, "#!/bin/sh\n# resctrl schemata - written by memtune "
		"export from tuned configuration %lld (mix '%s')\n# MBA "
		"values in %s\n", o->config_id, c->mix,
		ri.mbps ? "MiB/s (mba_MBps)" : "percent");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	fprintf(out, "set -e\nR=\"${RESCTRL:-/sys/fs/resctrl}\"\n"
		"[ -e \"$R/schemata\" ] || mount -t resctrl resctrl%s \"$R\"\n",
		ri.mbps ? " -o mba_MBps" : "");
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];
		char line[256];

		if (!p->regulated || !strcmp(p->role, "rt"))
			continue;
		schemata_line(&ri, be_value(c, p, &ri), line, sizeof(line));
		fprintf(out, "# cpu %d (%s): %.1f MB/s read + %.1f MB/s write "
			"guaranteed\nmkdir -p \"$R/memcal_cpu%d\"\n"
			"echo %d > \"$R/memcal_cpu%d/cpus_list\"\n"
			"echo \"%s\" > \"$R/memcal_cpu%d/schemata\"\n", p->cpu,
			p->workloads, p->b[0].guaranteed_bps / 1e6,
			p->b[1].guaranteed_bps / 1e6, p->cpu, p->cpu, p->cpu,
			line, p->cpu);
		groups++;
	}
	if (!groups)
		fprintf(out, "# no best-effort core: nothing to limit\n");
	return 0;
}

/**
 * export_pqos() - one pqos command line: classes of service 1.. with the
 * best-effort limits (-e) and their cores (-a); the OS interface (-I) so
 * that it goes through resctrl.
 */
int export_pqos(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w)
{
	struct rdt_info ri;
	char e[1024] = "", a[1024] = "";
	size_t ue = 0, ua = 0;
	int cos = 0;

	rdt_info_read(o, &ri, w);
	common_warnings(c, w, &ri);
	if (ri.mbps)
		export_warn(w, "MiB/s limits need the MBA software controller: "
			    "mount resctrl with -o mba_MBps before running pqos");
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];

		if (!p->regulated || !strcmp(p->role, "rt"))
			continue;
		cos++;
		if (ue < sizeof(e))
			ue += (size_t)snprintf(e + ue, sizeof(e) - ue,
					       "%s%s:%d=%ld", ue ? ";" : "",
					       ri.mbps ? "mba_max" : "mba", cos,
					       be_value(c, p, &ri));
		if (ua < sizeof(a))
			ua += (size_t)snprintf(a + ua, sizeof(a) - ua,
					       "%score:%d=%d", ua ? ";" : "",
					       cos, p->cpu);
	}
	fprintf(out, "# pqos - written by memtune export from tuned "
		"configuration %lld (mix '%s')\n", o->config_id, c->mix);
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	if (!cos)
		fprintf(out, "# no best-effort core: nothing to limit\n");
	else
		fprintf(out, "pqos -I -e \"%s\" -a \"%s\"\n", e, a);
	return 0;
}
