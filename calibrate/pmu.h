/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pmu.h - find the PMU events that count memory traffic and measure how
 * many bytes each count stands for.
 *
 * 1. Identify the PMU family: libpfm4's detected core PMU on x86 (Intel,
 *    AMD), the MIDR part number in /proc/cpuinfo on Arm.
 * 2. For each candidate of the family's table (pmu_tables.c) get the
 *    perf_event_attr from libpfm4 (or the table's raw encoding when
 *    libpfm4 lacks the event) and open it with perf_event_open.
 * 3. Validate every opened event: count it while a kernel moves a known
 *    number of bytes through a buffer far larger than the LLC; bytes per
 *    event = bytes / count.  The error is the deviation from the nearest
 *    transfer size a counter can stand for (a power of two, 8..256 bytes:
 *    beat, half line, line, pair of lines).  The event with the smallest
 *    error is chosen for reads and for writes.
 * With no hardware PMU (a VM) nothing opens: the status says so plainly,
 * and the caller goes on without PMU data.
 */
#ifndef MEMCAL_PMU_H
#define MEMCAL_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memcal_db.h"

/* An event is usable when its bytes-per-event error is below this (%). */
#define MEMCAL_PMU_MAX_ERROR_PCT	15.0

/**
 * struct memcal_pmu_candidate - one table entry.
 * @event:   libpfm4 event string ("L2D_CACHE_REFILL"), or NULL (raw only).
 * @raw:     PERF_TYPE_RAW config used when libpfm4 cannot encode @event.
 * @has_raw: @raw is valid.
 * @traffic: "read" or "write".
 * @what:    what the event counts, in words.
 */
struct memcal_pmu_candidate {
	const char *event;
	uint64_t raw;
	bool has_raw;
	const char *traffic;
	const char *what;
};

/**
 * struct memcal_pmu_family - the candidates of one PMU family.
 * @name:       family name stored as the PMU name ("arm_ac53", "skx").
 * @pfm_names:  libpfm4 PMU names that identify it (NULL-terminated).
 * @arm_part:   MIDR part number on Arm (0: not an Arm family).
 * @events:     candidates.
 * @n_events:   entries in @events.
 */
struct memcal_pmu_family {
	const char *name;
	const char *const *pfm_names;
	unsigned arm_part;
	const struct memcal_pmu_candidate *events;
	size_t n_events;
};

extern const struct memcal_pmu_family cal_pmu_families[];
extern const size_t cal_pmu_n_families;

/**
 * struct memcal_pmu_report - what discovery and validation found.
 * @status:     stored as the run's PMU status.
 * @family:     the matched family, or NULL.
 * @events:     one entry per candidate of @family.
 * @n_events:   entries in @events.
 * @fds:        perf fd per event (-1 when it did not open).
 */
struct memcal_pmu_report {
	struct memcal_pmu_status status;
	const struct memcal_pmu_family *family;
	struct memcal_pmu_event *events;
	size_t n_events;
	int *fds;
};

const struct memcal_pmu_family *cal_pmu_family_find(const char *pfm_name,
						       unsigned arm_part);
int cal_pmu_discover(struct memcal_pmu_report *r);
void cal_pmu_sysfs_name(uint32_t type, char *buf, size_t len);
int cal_pmu_validate(struct memcal_pmu_report *r, void *buf, size_t bytes);
/* What cal_pmu_count_pass() returns when the counter cannot be read. */
#define CAL_PMU_NO_COUNT (-1.0)
double cal_pmu_count_pass(int fd, bool write, void *buf, size_t bytes);
double cal_pmu_error_pct(double bytes_per_event);
void cal_pmu_report_free(struct memcal_pmu_report *r);

#endif /* MEMCAL_PMU_H */
