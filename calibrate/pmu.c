// SPDX-License-Identifier: GPL-2.0-only
/*
 * pmu.c - PMU discovery and bytes-per-event validation (see pmu.h).
 */
#include "pmu.h"
#include "pmu_tables_arm.h"
#include "memcal_status.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>

#include "cpu_types.h"
#include "kernels.h"
#include "stats.h"

/* Validation passes per event (median kept) after one warm-up pass. */
#define PMU_VALIDATE_PASSES	3

/* perf_open - perf_event_open on the calling thread; fd or -errno. */
static int perf_open(struct perf_event_attr *attr)
{
	long fd;

	attr->size = sizeof(*attr);
	attr->disabled = 1;
	attr->exclude_hv = 1;
	fd = syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
	return fd < 0 ? -errno : (int)fd;
}

/* core_pmu_name - libpfm4's detected core PMU name, or NULL. */
static const char *core_pmu_name(void)
{
	static char name[64];
	pfm_pmu_t p;

	pfm_for_all_pmus(p) {
		pfm_pmu_info_t info;

		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS)
			continue;
		if (info.is_present && info.type == PFM_PMU_TYPE_CORE) {
			snprintf(name, sizeof(name), "%s", info.name);
			return name;
		}
	}
	return NULL;
}

/* arm_cpu_part - MIDR part number from /proc/cpuinfo, or 0. */
static unsigned arm_cpu_part(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	unsigned part = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "CPU part", 8) == 0) {
			char *c = strchr(line, ':');

			if (c)
				part = (unsigned)strtoul(c + 1, NULL, 0);
			break;
		}
	fclose(f);
	return part;
}

/* list_event_sources - names under <sysfs>/bus/event_source/devices. */
static void list_event_sources(char *buf, size_t len)
{
	struct cal_event_sources it;
	const char *name;
	size_t off = 0;

	buf[0] = '\0';
	if (cal_event_sources_open(&it)) {
		snprintf(buf, len, "(unreadable)");
		return;
	}
	while ((name = cal_event_sources_next(&it))) {
		int w = snprintf(buf + off, len - off, "%s%s", off ? " " : "",
				 name);

		if (w < 0 || (size_t)w >= len - off)
			break;
		off += (size_t)w;
	}
	cal_event_sources_close(&it);
}

/* family_in - the entry of @tab (@n long) matching @pfm_name or @arm_part. */
static const struct memcal_pmu_family *
family_in(const struct memcal_pmu_family *tab, size_t n, const char *pfm_name,
	  unsigned arm_part)
{
	for (size_t i = 0; i < n; i++) {
		const struct memcal_pmu_family *f = &tab[i];

		if (arm_part && f->arm_part == arm_part)
			return f;
		for (size_t j = 0; pfm_name && f->pfm_names[j]; j++)
			if (strcmp(f->pfm_names[j], pfm_name) == 0)
				return f;
	}
	return NULL;
}

/*
 * cal_pmu_family_find - the table family for libpfm4 PMU @pfm_name or
 * Arm part @arm_part (either may be NULL/0), or NULL.  The main tables
 * (pmu_tables.c) come first, then the further Arm cores
 * (pmu_tables_arm.c).
 */
const struct memcal_pmu_family *cal_pmu_family_find(const char *pfm_name,
						       unsigned arm_part)
{
	const struct memcal_pmu_family *f;

	f = family_in(cal_pmu_families, cal_pmu_n_families, pfm_name,
		      arm_part);
	return f ? f : family_in(cal_pmu_families_arm,
				 cal_pmu_n_families_arm, pfm_name, arm_part);
}

/*
 * cal_pmu_sysfs_name - the PMU device of perf type @type
 * (<sysfs>/bus/event_source/devices/NAME/type holds it) into @buf, or ""
 * when none has it (the alias types hardware and hw_cache, RAW on Arm,
 * no sysfs).  memreg takes the name: a dynamic type's number is given in
 * registration order and names another PMU on another kernel.
 */
void cal_pmu_sysfs_name(uint32_t type, char *buf, size_t len)
{
	struct cal_event_sources it;
	const char *name;
	char text[32], *end;
	unsigned long t;

	buf[0] = '\0';
	if (cal_event_sources_open(&it))
		return;
	while ((name = cal_event_sources_next(&it))) {
		if (cal_event_source_read(name, "type", text, sizeof(text)))
			continue;
		errno = 0;
		t = strtoul(text, &end, 10);
		if (!errno && end != text && t == type) {
			snprintf(buf, len, "%s", name);
			break;
		}
	}
	cal_event_sources_close(&it);
}

/*
 * encode - perf attr for candidate @c: libpfm4 first ("<pmu>::<event>"),
 * then the raw number.  Fills @e's name and encoding; 0, or
 * MEMCAL_EUNSUPPORTED when neither encodes it.
 */
static int encode(const struct memcal_pmu_candidate *c, const char *pmu,
		  struct memcal_pmu_event *e, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	if (c->event) {
		pfm_perf_encode_arg_t arg;
		int rc, w;

		memset(&arg, 0, sizeof(arg));
		arg.attr = attr;
		arg.size = sizeof(arg);
		if (pmu)
			w = snprintf(e->name, sizeof(e->name), "%s::%s", pmu,
				     c->event);
		else
			w = snprintf(e->name, sizeof(e->name), "%s", c->event);
		if (w < 0 || (size_t)w >= sizeof(e->name))
			return MEMCAL_EINVAL;
		rc = pfm_get_os_event_encoding(e->name, PFM_PLM3,
					       PFM_OS_PERF_EVENT, &arg);
		if (rc == PFM_SUCCESS)
			goto done;
		snprintf(e->message, sizeof(e->message), "libpfm4: %s",
			 pfm_strerror(rc));
		memset(attr, 0, sizeof(*attr));
	}
	if (!c->has_raw)
		return MEMCAL_EUNSUPPORTED;
	attr->type = PERF_TYPE_RAW;
	attr->config = c->raw;
	attr->exclude_kernel = 1;
	snprintf(e->name, sizeof(e->name), "raw:0x%llx (%s)",
		 (unsigned long long)c->raw, c->what);
	e->message[0] = '\0';
done:
	e->perf_type = attr->type;
	cal_pmu_sysfs_name(attr->type, e->perf_pmu, sizeof(e->perf_pmu));
	e->perf_config = attr->config;
	e->perf_config1 = attr->config1;
	return 0;
}

/*
 * cal_pmu_discover - identify the family, encode and open every
 * candidate, and fill @r->status.  Always returns 0 unless memory runs
 * out (MEMCAL_ENOMEM): "no PMU" is a result, not an error.
 */
int cal_pmu_discover(struct memcal_pmu_report *r)
{
	struct perf_event_attr attr;
	const char *pfm = NULL;
	char sources[192];
	unsigned part = arm_cpu_part();
	int rc, hw_fd, opened = 0;

	memset(r, 0, sizeof(*r));
	list_event_sources(sources, sizeof(sources));
	rc = pfm_initialize();
	if (rc != PFM_SUCCESS) {
		snprintf(r->status.message, sizeof(r->status.message),
			 "no PMU data: libpfm4 failed to initialise (%s)",
			 pfm_strerror(rc));
		return 0;
	}
	pfm = core_pmu_name();
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	hw_fd = perf_open(&attr);
	if (hw_fd >= 0)
		close(hw_fd);
	r->family = cal_pmu_family_find(pfm, part);
	if (!r->family) {
		snprintf(r->status.message, sizeof(r->status.message),
			 "no memory-traffic event table for this CPU (libpfm4 "
			 "core PMU: %s, Arm part: 0x%x); perf cycles: %s",
			 pfm ? pfm : "none", part,
			 hw_fd >= 0 ? "counts" : strerror(-hw_fd));
		return 0;
	}
	snprintf(r->status.pmu_name, sizeof(r->status.pmu_name), "%s",
		 pfm ? pfm : r->family->name);
	r->n_events = r->family->n_events;
	r->events = calloc(r->n_events, sizeof(*r->events));
	r->fds = calloc(r->n_events, sizeof(*r->fds));
	if (!r->events || !r->fds)
		return MEMCAL_ENOMEM;
	for (size_t i = 0; i < r->n_events; i++) {
		const struct memcal_pmu_candidate *c = &r->family->events[i];
		struct memcal_pmu_event *e = &r->events[i];
		bool pfm_ok = pfm && c->event &&
			      (!r->family->arm_part || strstr(pfm, "arm"));

		r->fds[i] = -1;
		snprintf(e->pmu, sizeof(e->pmu), "%s", r->status.pmu_name);
		snprintf(e->traffic, sizeof(e->traffic), "%s", c->traffic);
		if (encode(c, pfm_ok ? pfm : NULL, e, &attr)) {
			if (!e->message[0])
				snprintf(e->message, sizeof(e->message),
					 "cannot be encoded");
			continue;
		}
		r->fds[i] = perf_open(&attr);
		if (r->fds[i] < 0) {
			snprintf(e->message, sizeof(e->message),
				 "perf_event_open: %s", strerror(-r->fds[i]));
			r->fds[i] = -1;
			continue;
		}
		e->opened = true;
		opened++;
	}
	r->status.available = opened > 0;
	if (opened)
		snprintf(r->status.message, sizeof(r->status.message),
			 "%s: %d of %zu candidate events open", r->family->name,
			 opened, r->n_events);
	else {
		/* A long event-source list may be cut: the verdict comes first
		 * (the length is taken so GCC sees the truncation is expected). */
		int n = snprintf(r->status.message, sizeof(r->status.message),
			 "no hardware PMU: libpfm4 identifies %s, but the kernel "
			 "offers no hardware counters (perf_event_open of cycles:"
			 " %s; event sources: %s); PMU events are not used",
			 r->status.pmu_name,
			 hw_fd >= 0 ? "counts" : strerror(-hw_fd), sources);

		(void)n;
	}
	return 0;
}

/*
 * cal_pmu_error_pct - deviation of @bpe from the nearest power of two
 * between 8 and 256 bytes, in per cent (100 for a non-positive value).
 */
double cal_pmu_error_pct(double bpe)
{
	double best = 100;

	if (!(bpe > 0))
		return 100;
	for (double s = 8; s <= 256; s *= 2) {
		double e = fabs(bpe - s) / s * 100;

		if (e < best)
			best = e;
	}
	return best;
}

/*
 * count_pass - one kernel pass over @buf with @fd counting; the count, or
 * CAL_PMU_NO_COUNT.
 */
static double count_pass(int fd, const struct memcal_kernel *k, void *buf,
			 size_t bytes)
{
	uint64_t count = 0;
	volatile uint64_t sink;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	sink = k->fn(buf, buf, bytes, 1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	(void)sink;
	if (read(fd, &count, sizeof(count)) != sizeof(count))
		return CAL_PMU_NO_COUNT;
	return (double)count;
}

/*
 * cal_pmu_count_pass - what @fd counts while the best read (or, with
 * @write, write) kernel passes once over @buf (@bytes, a multiple of
 * MEMCAL_KERNEL_GRANULE); CAL_PMU_NO_COUNT when it cannot be read.
 */
double cal_pmu_count_pass(int fd, bool write, void *buf, size_t bytes)
{
	const struct memcal_kernel *k =
		cal_kernel_best(write ? MEMCAL_OP_WRITE : MEMCAL_OP_READ);

	return k ? count_pass(fd, k, buf, bytes) : CAL_PMU_NO_COUNT;
}

/*
 * cal_pmu_validate - measure bytes per event of every opened event
 * with the read or write kernel over @buf (@bytes, far beyond the LLC),
 * then choose the best read and write event.  The calling thread must be
 * pinned.  Returns 0, or MEMCAL_EUNSUPPORTED when nothing opened.
 */
int cal_pmu_validate(struct memcal_pmu_report *r, void *buf, size_t bytes)
{
	int best[2] = { -1, -1 };

	if (!r->status.available)
		return MEMCAL_EUNSUPPORTED;
	bytes -= bytes % MEMCAL_KERNEL_GRANULE;
	for (size_t i = 0; i < r->n_events; i++) {
		struct memcal_pmu_event *e = &r->events[i];
		bool wr = strcmp(e->traffic, "write") == 0;
		const struct memcal_kernel *k =
			cal_kernel_best(wr ? MEMCAL_OP_WRITE : MEMCAL_OP_READ);
		double v[PMU_VALIDATE_PASSES];
		unsigned n = 0;

		if (r->fds[i] < 0 || !k)
			continue;
		k->fn(buf, buf, bytes, 1);	/* warm-up: steady state */
		for (unsigned p = 0; p < PMU_VALIDATE_PASSES; p++) {
			double c = count_pass(r->fds[i], k, buf, bytes);

			if (c > 0)
				v[n++] = (double)bytes / c;
		}
		if (!n) {
			snprintf(e->message, sizeof(e->message),
				 "counted nothing while %zu bytes moved", bytes);
			continue;
		}
		e->bytes_per_event = cal_median(v, n);
		e->error_pct = cal_pmu_error_pct(e->bytes_per_event);
		if (e->error_pct > MEMCAL_PMU_MAX_ERROR_PCT) {
			snprintf(e->message, sizeof(e->message),
				 "%.1f bytes per event is not a transfer size "
				 "(error %.0f%%)", e->bytes_per_event,
				 e->error_pct);
			continue;
		}
		if (best[wr] < 0 || e->error_pct < r->events[best[wr]].error_pct)
			best[wr] = (int)i;
	}
	for (int t = 0; t < 2; t++)
		if (best[t] >= 0)
			r->events[best[t]].chosen = true;
	return 0;
}

/* cal_pmu_report_free - close the events and free the report. */
void cal_pmu_report_free(struct memcal_pmu_report *r)
{
	for (size_t i = 0; r->fds && i < r->n_events; i++)
		if (r->fds[i] >= 0)
			close(r->fds[i]);
	free(r->fds);
	free(r->events);
	memset(r, 0, sizeof(*r));
}
