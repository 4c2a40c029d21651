// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_rdt.c - the equivalent of a tuned configuration on Intel RDT /
 * Arm MPAM memory-bandwidth allocation, as resctrl schemata and as a pqos
 * command line.  MBA limits each class of service's total traffic with a
 * percentage (rounded here up to the next step min_bandwidth + N x
 * bandwidth_gran) or, with the mba_MBps mount option, in MiB/s.  It
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

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path))
		return dflt;	/* a longer root names no file we could open */
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
 * "MB:0=100;1=100", and the largest value on it in *@max_val; false when
 * there is none.
 */
static bool read_domains(const char *root, char *out, size_t len,
			 long long *max_val)
{
	char path[512], line[512];
	bool found = false;
	FILE *f;

	*max_val = -1;
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
			long long v;
			int id;

			if (sscanf(t, " %d=%lld", &id, &v) != 2 || used >= len)
				continue;
			used += (size_t)snprintf(out + used, len - used, "%s%d",
						 used ? "," : "", id);
			if (v > *max_val)
				*max_val = v;
		}
		found = used > 0;
	}
	fclose(f);
	return found;
}

/*
 * mount_mode - how resctrl is mounted at @root according to the mount
 * table: RDT_MODE_MBPS with mba_MBps, RDT_MODE_PERCENT without, else
 * RDT_MODE_UNKNOWN (not a mount point, as for a copied tree).
 */
static enum rdt_mode mount_mode(const char *root)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	enum rdt_mode m = RDT_MODE_UNKNOWN;
	char line[1024];

	while (f && fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], type[64], opts[512];

		if (sscanf(line, "%255s %511s %63s %511s", dev, dir, type,
			   opts) == 4 && !strcmp(type, "resctrl") &&
		    !strcmp(dir, root))
			m = strstr(opts, "mba_MBps") ? RDT_MODE_MBPS :
						       RDT_MODE_PERCENT;
	}
	if (f)
		fclose(f);
	return m;
}

/**
 * tune_rdt_info_read() - MBA granularity, minimum, domains and mode from
 * @o->resctrl_root (info/MB/bandwidth_gran, info/MB/min_bandwidth,
 * schemata, the mount table); the documented defaults (10 %, 10 %,
 * domain 0) otherwise, with a warning.  The mode is the mount's:
 * mba_MBps in its options, or, for a tree that is not a mount point, a
 * root schemata value above 100 (percent mode shows at most 100).
 *
 * Return: 0, or MEMCAL_EREFUSED when @o->mba_mbps asks for the units the
 * resctrl found does not use (@w->error says what to do).
 */
int tune_rdt_info_read(const struct export_opts *o, struct rdt_info *ri,
		  struct export_warnings *w)
{
	const char *root = o->resctrl_root ? o->resctrl_root :
			   "/sys/fs/resctrl";
	char info[512];
	long long max_val;
	bool ok = false;

	snprintf(info, sizeof(info), "%s/info/MB", root);
	ri->gran = read_int(info, "bandwidth_gran", 10, &ok);
	ri->min = read_int(info, "min_bandwidth", 10, &ok);
	ri->found = ok;
	if (ri->gran < 1 || ri->gran > 100)
		ri->gran = 10;
	if (ri->min < 0 || ri->min > 100)
		ri->min = 10;
	ri->mode = mount_mode(root);
	if (!read_domains(root, ri->domains, sizeof(ri->domains), &max_val))
		snprintf(ri->domains, sizeof(ri->domains), "0");
	else if (ri->mode == RDT_MODE_UNKNOWN)
		ri->mode = max_val > 100 ? RDT_MODE_MBPS : RDT_MODE_PERCENT;
	if (o->mba_mbps > 0 && ri->mode == RDT_MODE_PERCENT)
		return tune_export_refuse(w, "--mba-mbps: resctrl at %s is in "
				     "percent mode, where MiB/s values are "
				     "refused; remount it with 'umount %s && "
				     "mount -t resctrl -o mba_MBps resctrl "
				     "%s', drop --mba-mbps, or give "
				     "--resctrl-root of the target's resctrl",
				     root, root, root);
	if (!o->mba_mbps && ri->mode == RDT_MODE_MBPS)
		return tune_export_refuse(w, "--mba-percent: resctrl at %s is "
				     "mounted with mba_MBps, where values are "
				     "MiB/s, not percent; drop --mba-percent "
				     "or remount it without mba_MBps", root);
	ri->mbps = o->mba_mbps > 0 || (o->mba_mbps < 0 &&
				       ri->mode == RDT_MODE_MBPS);
	if (!ok)
		tune_export_warn(w, "no MBA information under %s: assumed a %d%% "
			    "granularity, %d%% minimum and one domain (0); "
			    "check info/MB on the target", root, ri->gran,
			    ri->min);
	if (ri->mbps && ri->mode == RDT_MODE_UNKNOWN)
		tune_export_warn(w, "MiB/s values: the target's resctrl must be "
			    "mounted with -o mba_MBps (not checked: no "
			    "resctrl at %s)", root);
	return 0;
}

/**
 * tune_rdt_value() - the MBA value for @bps: MiB/s rounded up, or the percent
 * of @ref_bps rounded up to the next step the hardware accepts,
 * min_bandwidth + N x bandwidth_gran, at most 100.  Up, so that a
 * best-effort core is never limited below its guaranteed bandwidth.
 */
long tune_rdt_value(const struct rdt_info *ri, double bps, double ref_bps)
{
	double pct;
	long v;

	if (ri->mbps)
		return (long)ceil(bps / 1048576.0);
	pct = ref_bps > 0 ? bps / ref_bps * 100.0 : 100.0;
	if (pct <= ri->min)
		return ri->min;
	v = ri->min + (long)ceil((pct - ri->min) / ri->gran - 1e-9) *
		      ri->gran;
	return v > 100 ? 100 : v;
}

/**
 * tune_rdt_no_limit() - whether MBA value @v limits nothing: 100 % in percent
 * mode, or at least the sustainable bandwidth @ref_bps in MiB/s.
 */
bool tune_rdt_no_limit(const struct rdt_info *ri, long v, double ref_bps)
{
	return ri->mbps ? (double)v >= ref_bps / 1048576.0 : v >= 100;
}

/* common_warnings - what no MBA setting can express. */
static void common_warnings(const struct tune_config *c,
			    struct export_warnings *w, const struct rdt_info *ri)
{
	tune_export_warn(w, "MBA has no regulation period (%d us), no LMS "
		    "adaptation, no reclaim or spare sharing: the limits are "
		    "static", c->period_us);
	tune_export_warn(w, "MBA limits read and write traffic together: each "
		    "limit is the core's guaranteed read + write bandwidth");
	tune_export_warn(w, "MBA cannot guarantee bandwidth: real-time cores stay "
		    "unthrottled in the default group");
	if (!ri->mbps)
		tune_export_warn(w, "percentages are of the sustainable bandwidth "
			    "(%.0f MB/s read); MBA's percent is a per-core "
			    "throttling delay, so the limit is approximate",
			    c->ceiling_bps[TUNE_READ] / 1e6);
}

/* be_value - the MBA value of best-effort CPU entry @p. */
static long be_value(const struct tune_config *c, const struct tune_cpu *p,
		     const struct rdt_info *ri)
{
	return tune_rdt_value(ri, p->b[TUNE_READ].guaranteed_bps +
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

/*
 * limits - the MBA value of each best-effort core of @c into @v (0 for a
 * core that gets no group), warning for each that rounds to no limit and
 * when none is limited at all.  Returns the number of groups.
 */
static int limits(const struct tune_config *c, const struct rdt_info *ri,
		  long *v, struct export_warnings *w)
{
	double ref = c->ceiling_bps[TUNE_READ];
	int groups = 0, free_run = 0;

	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];

		v[i] = 0;
		if (!p->regulated || !strcmp(p->role, "rt"))
			continue;
		v[i] = be_value(c, p, ri);
		groups++;
		if (tune_rdt_no_limit(ri, v[i], ref)) {
			free_run++;
			tune_export_warn(w, "cpu %d: its guarantee (%.0f MB/s) rounds "
				    "to %ld%s, which is no limit", p->cpu,
				    (p->b[TUNE_READ].guaranteed_bps +
				     p->b[TUNE_WRITE].guaranteed_bps) / 1e6,
				    v[i], ri->mbps ? " MiB/s (the sustainable "
				    "bandwidth or more)" : " %");
		}
	}
	if (groups && free_run == groups)
		tune_export_warn(w, "every class is unlimited: this export changes "
			    "nothing on the target; only memreg can regulate "
			    "this configuration");
	if (!ri->mbps && groups)
		tune_export_warn(w, "percentages are rounded up to the next step "
			    "the hardware accepts (%d %% + N x %d %%), so no "
			    "core is limited below its guarantee", ri->min,
			    ri->gran);
	return groups;
}

/**
 * tune_export_resctrl() - a POSIX sh script that mounts resctrl if needed and
 * creates group memcal_cpuN (cpus_list N, schemata MB:...) for each
 * best-effort core.  Names appear only in comments, escaped; every value
 * written is single-quoted.
 */
int tune_export_resctrl(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w)
{
	long v[TUNE_MAX_CPUS];
	struct rdt_info ri;
	char mix[256];
	int rc, groups;

	rc = tune_rdt_info_read(o, &ri, w);
	if (rc)
		return rc;
	common_warnings(c, w, &ri);
	groups = limits(c, &ri, v, w);
	fprintf(out, "#!/bin/sh\n# resctrl schemata - written by memtune "
		"export from tuned configuration %lld (mix '%s')\n# MBA "
		"values in %s\n", o->config_id,
		tune_export_printable(c->mix, false, mix, sizeof(mix)),
		ri.mbps ? "MiB/s (mba_MBps)" : "percent");
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	fprintf(out, "set -e\nR=\"${RESCTRL:-/sys/fs/resctrl}\"\n"
		"[ -e \"$R/schemata\" ] || mount -t resctrl resctrl%s \"$R\"\n",
		ri.mbps ? " -o mba_MBps" : "");
	for (int i = 0; i < c->n_cpus; i++) {
		const struct tune_cpu *p = &c->cpus[i];
		char line[256], q[512], names[512];

		if (!v[i])
			continue;
		schemata_line(&ri, v[i], line, sizeof(line));
		if (tune_export_sh_quote(line, q, sizeof(q)))
			return tune_export_refuse(w, "schemata line too long");
		fprintf(out, "# cpu %d (%s): %.1f MB/s read + %.1f MB/s write "
			"guaranteed\nmkdir -p \"$R/memcal_cpu%d\"\n"
			"echo %d > \"$R/memcal_cpu%d/cpus_list\"\n"
			"echo %s > \"$R/memcal_cpu%d/schemata\"\n", p->cpu,
			tune_export_printable(p->workloads, false, names,
					 sizeof(names)),
			p->b[0].guaranteed_bps / 1e6,
			p->b[1].guaranteed_bps / 1e6, p->cpu, p->cpu, p->cpu, q,
			p->cpu);
	}
	if (!groups)
		fprintf(out, "# no best-effort core: nothing to limit\n");
	return 0;
}

/**
 * tune_export_pqos() - one pqos command line: classes of service 1.. with the
 * best-effort limits (-e) and their cores (-a); the OS interface (-I) so
 * that it goes through resctrl.  Both lists are single-quoted.
 */
int tune_export_pqos(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w)
{
	char e[1024] = "", a[1024] = "", qe[2048], qa[2048], mix[256];
	long v[TUNE_MAX_CPUS];
	struct rdt_info ri;
	size_t ue = 0, ua = 0;
	int cos = 0, rc;

	rc = tune_rdt_info_read(o, &ri, w);
	if (rc)
		return rc;
	common_warnings(c, w, &ri);
	if (ri.mbps)
		tune_export_warn(w, "MiB/s limits need the MBA software controller: "
			    "mount resctrl with -o mba_MBps before running pqos");
	limits(c, &ri, v, w);
	for (int i = 0; i < c->n_cpus; i++) {
		if (!v[i])
			continue;
		cos++;
		if (ue < sizeof(e))
			ue += (size_t)snprintf(e + ue, sizeof(e) - ue,
					       "%s%s:%d=%ld", ue ? ";" : "",
					       ri.mbps ? "mba_max" : "mba", cos,
					       v[i]);
		if (ua < sizeof(a))
			ua += (size_t)snprintf(a + ua, sizeof(a) - ua,
					       "%score:%d=%d", ua ? ";" : "",
					       cos, c->cpus[i].cpu);
	}
	if (ue >= sizeof(e) || ua >= sizeof(a) ||
	    tune_export_sh_quote(e, qe, sizeof(qe)) ||
	    tune_export_sh_quote(a, qa, sizeof(qa)))
		return tune_export_refuse(w, "too many classes for one pqos "
				     "command line");
	fprintf(out, "# pqos - written by memtune export from tuned "
		"configuration %lld (mix '%s')\n", o->config_id,
		tune_export_printable(c->mix, false, mix, sizeof(mix)));
	for (int i = 0; i < w->n; i++)
		fprintf(out, "# warning: %s\n", w->text[i]);
	if (!cos)
		fprintf(out, "# no best-effort core: nothing to limit\n");
	else
		fprintf(out, "pqos -I -e %s -a %s\n", qe, qa);
	return 0;
}
