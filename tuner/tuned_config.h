/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tuned_config.h - the tuned configuration: one versioned JSON document
 * (docs/design.md, "Tuned configuration") and its C form.  The planner
 * fills a struct tune_config, tune_config_to_json() renders the document stored
 * in the database, tune_config_from_json() reads it back for apply and the
 * exporters.
 *
 * Document (format "memcal.tuned-config", version 1):
 *   format, version, mix, created_at, tool_version
 *   platform   {id, fingerprint, arch, cpu_model, nr_cpus}
 *   period_us, master_cpu
 *   modes      {lms, reclaim, share, share_mode, monitor} (share_mode
 *              "grant", "spare" or "proportional"; absent: grant)
 *   lms        {taps, mu, mu_q16, headroom_pct, headroom_q16}
 *   reclaim_quantum_events
 *   counters   {read|write: {event, perf_type, perf_config, bytes_per_event,
 *               source: "validated"|"assumed"}}
 *   platform_ceiling {read_bps, write_bps, read_events, write_events}
 *   guaranteed_pool {read_bps, write_bps, from}: the pool the guarantees
 *              are reserved from; from: the guaranteed figure's method
 *              ("random-line", "single-bank", "declared") or "streaming"
 *              (--guarantees-from-streaming); absent in older documents
 *   cpus       [{cpu, role: "rt"|"be"|"idle", regulated, master, rt_exempt?,
 *                kind?, workloads: [names], read: {guaranteed_bps,
 *                ceiling_bps, guaranteed_events, ceiling_events[,
 *                floor_bps, floor_events][, event]}, write: {...}}]
 *              kind: the CPU's kind ("Cortex-A55"); event: the memreg
 *              event spec this CPU counts the class with (absent: the
 *              class's counters.event)
 *   workloads  [{name, cpu, criticality, deadline_us, period_us, argv}]
 *   provenance {platform_id, calibration_run_id, overhead_run_id,
 *               overhead_method, profile_ids, mix_file, percentile,
 *               margin_pct, trace_sources[, machine, bandwidth]}
 *              machine: the board the plan was made on, item by item,
 *              for 'memtune check' (machine.c: cpus, memory, smt, kernel,
 *              memreg_version); bandwidth: the calibration's all-core
 *              read figure {read_bps, cpus, n_cpus, variant,
 *              buffer_bytes}; both absent
 *              in older documents, whose items check reports "unknown"
 *   explain    [sentences: why each choice]
 *   reasons    {period, master: the explain sentence of that choice}
 *   warnings   [sentences]
 */
#ifndef MEMTUNE_TUNED_CONFIG_H
#define MEMTUNE_TUNED_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "cli.h"
#include "memcal_status.h"

#define TUNE_CONFIG_FORMAT "memcal.tuned-config"
#define TUNE_CONFIG_VERSION 1
#define TUNE_MAX_CPUS 64
#define TUNE_MAX_WL 64
#define TUNE_MAX_NOTES 48
#define TUNE_NOTE_LEN 400

enum { TUNE_READ = 0, TUNE_WRITE = 1, TUNE_NR_CLASSES = 2 };

/*
 * Choices whose explanation a reader looks up by key (the "reasons"
 * object of the document, keys tune_reason_key()).
 */
enum tune_reason {
	TUNE_REASON_PERIOD = 0,
	TUNE_REASON_MASTER = 1,
	TUNE_REASON_MIX = 2,
	TUNE_NR_REASONS = 3,
};

/**
 * struct tune_budget - one CPU's limits for one traffic class.
 * @guaranteed_bps, @ceiling_bps: bytes per second.
 * @guaranteed_events, @ceiling_events: the same per period, in counter
 *	events (what memreg takes).
 * @floor_bps, @floor_events: the least a real-time core is given whatever
 *	its trace says (0 elsewhere); see plan_floor.c.
 */
struct tune_budget {
	double guaranteed_bps, ceiling_bps;
	uint64_t guaranteed_events, ceiling_events;
	double floor_bps;
	uint64_t floor_events;
};

/**
 * struct tune_cpu - one CPU of the board in the configuration.
 * @cpu:       OS CPU number.
 * @role:      "rt", "be" or "idle".
 * @regulated: memreg regulates it.
 * @rt_exempt: real-time exemption: memreg monitors it but never throttles
 *             it (document field "rt_exempt": true, absent when false).
 * @workloads: names of the workloads placed on it, comma-separated.
 * @b:         per class budgets.
 * @kind:      the kind of CPU ("Cortex-A76"), "" when unknown.
 * @event:     per class, the memreg event spec this CPU counts with, ""
 *             for the class's counter event (tune_cpu_event()).
 */
struct tune_cpu {
	int cpu;
	char role[8];
	bool regulated;
	bool rt_exempt;
	char workloads[256];
	struct tune_budget b[TUNE_NR_CLASSES];
	char kind[64];
	char event[TUNE_NR_CLASSES][32];
};

/**
 * struct tune_counter - the counter event of one traffic class.
 * @event:           memreg event spec ("raw:0x17", "page-faults", "none").
 * @name:            libpfm4 name, or "".
 * @perf_type, @perf_config: encoding.
 * @bytes_per_event: bytes one count stands for.
 * @validated:       @bytes_per_event was measured by memcal (else assumed).
 */
struct tune_counter {
	char event[64];
	char name[128];
	uint32_t perf_type;
	uint64_t perf_config;
	double bytes_per_event;
	bool validated;
};

/**
 * struct tune_wl - a workload as placed.
 * @name, @cpu, @rt, @deadline_us, @period_us: from the mix and the plan.
 * @argv_json: the command as a JSON array text.
 */
struct tune_wl {
	char name[64];
	int cpu;
	bool rt;
	uint64_t deadline_us, period_us;
	char argv_json[1024];
};

#define TUNE_MACHINE_MAX_CPUS 256

/**
 * struct tune_machine_cpu - one CPU as the machine's files describe it.
 * @cpu:   OS CPU number.
 * @kind:  the kind's label as calibrate's discovery names it
 *         ("Cortex-A76"), "" when unknown.
 * @pmu:   the event source serving it ("armv8_cortex_a76", "cpu"; "" none).
 * @vendor, @family, @model, @stepping: x86 identity ("" / 0 on Arm).
 * @implementer, @part, @variant, @revision: Arm MIDR fields (0 on x86).
 */
struct tune_machine_cpu {
	int cpu;
	char kind[64];
	char pmu[64];
	char vendor[16];
	unsigned family, model, stepping;
	unsigned implementer, part, variant, revision;
};

/**
 * struct tune_machine - what 'memtune check' compares item by item; the
 * plan records the calibrating machine's, check reads the target's.
 * @present:     the document carried it (older ones do not).
 * @n_cpus, @cpus: per CPU, lowest first.
 * @mem_bytes:   MemTotal (0: unknown).
 * @dimm_type, @dimm_speed: SMBIOS memory devices ("DDR4", "3200 MT/s"),
 *               "unknown" when the firmware tables are absent or unreadable.
 * @smt:         1 on, 0 off, -1 unknown.
 * @kernel:      kernel release ("" unknown).
 * @memreg_version: the memreg the configuration is made for, or (probed)
 *               the loaded one's ("" when none is loaded).
 * @bw_read_bps: the calibration's aggregate read bandwidth (0: none).
 * @bw_cpus, @bw_n_cpus, @bw_variant: where and how it was measured.
 * @bw_buffer_bytes: its buffer per CPU (0: unknown).
 */
struct tune_machine {
	bool present;
	int n_cpus;
	struct tune_machine_cpu cpus[TUNE_MACHINE_MAX_CPUS];
	uint64_t mem_bytes;
	char dimm_type[32];
	char dimm_speed[32];
	int smt;
	char kernel[128];
	char memreg_version[32];
	double bw_read_bps;
	char bw_cpus[64];
	int bw_n_cpus;
	char bw_variant[16];
	uint64_t bw_buffer_bytes;
};

/**
 * struct tune_config - the whole tuned configuration.
 * @mix, @created_at, @tool_version: identity.
 * @platform_id, @fingerprint, @arch, @cpu_model, @nr_cpus: the board.
 * @period_us, @master_cpu: headline choices.
 * @lms, @reclaim, @share, @monitor: modes.
 * @share_mode: with @share, what memreg does once every regulated CPU is
 *             throttled: MEMREG_SHARE_GRANT (0), _SPARE or _PROPORTIONAL
 *             (regulator/core/include/memreg.h); chosen by replay (plan_lms.c).
 * @taps, @mu_q16, @headroom_q16: NLMS parameters.
 * @reclaim_quantum: events per take from the pool.
 * @counter: per class.
 * @ceiling_bps, @ceiling_events: platform ceiling per class.
 * @pool_bps:  per class, the guaranteed pool the guarantees fit in.
 * @pool_from: where the pool comes from (guaranteed_pool.from; "" when
 *             the document has none).
 * @n_cpus, @cpus: per CPU (index = position, not CPU number).
 * @n_wl, @wl: the workloads.
 * @calibration_run_id, @overhead_run_id, @overhead_method: provenance.
 * @profile_ids, @n_profiles: workload profiles used.
 * @mix_file, @percentile, @margin_pct, @trace_sources: provenance.
 * @n_explain, @explain, @n_warn, @warn: prose.
 * @reason:    per enum tune_reason, the explain sentence of that choice
 *             ("" when the planner gave none).
 * @machine:   provenance for 'memtune check' (provenance.machine and
 *             provenance.bandwidth).
 */
struct tune_config {
	char mix[128];
	char created_at[32];
	char tool_version[32];
	int64_t platform_id;
	char fingerprint[65];
	char arch[32];
	char cpu_model[128];
	int nr_cpus;
	int period_us;
	int master_cpu;
	bool lms, reclaim, share, monitor;
	uint32_t share_mode;
	uint32_t taps, mu_q16, headroom_q16;
	uint32_t reclaim_quantum;
	struct tune_counter counter[TUNE_NR_CLASSES];
	double ceiling_bps[TUNE_NR_CLASSES];
	uint64_t ceiling_events[TUNE_NR_CLASSES];
	double pool_bps[TUNE_NR_CLASSES];
	char pool_from[16];
	int n_cpus;
	struct tune_cpu cpus[TUNE_MAX_CPUS];
	int n_wl;
	struct tune_wl wl[TUNE_MAX_WL];
	int64_t calibration_run_id, overhead_run_id;
	char overhead_method[16];
	int64_t profile_ids[TUNE_MAX_WL];
	int n_profiles;
	char mix_file[512];
	double percentile, margin_pct;
	char trace_sources[128];
	size_t n_explain;
	char explain[TUNE_MAX_NOTES][TUNE_NOTE_LEN];
	size_t n_warn;
	char warn[TUNE_MAX_NOTES][TUNE_NOTE_LEN];
	char reason[TUNE_NR_REASONS][TUNE_NOTE_LEN];
	struct tune_machine machine;
};

/*
 * TUNE_STREAMING_WARNING - what a configuration planned with
 * --guarantees-from-streaming warns, in its document and every export.
 */
#define TUNE_STREAMING_WARNING "guarantees were planned from the " \
	"streaming sustainable bandwidth (--guarantees-from-streaming), not " \
	"from the guaranteed bandwidth the memory keeps when every access " \
	"misses its row: under such a load the real-time guarantees may not " \
	"hold; run 'memcal run' for a guaranteed figure and plan again"

json_t *tune_config_to_json(const struct tune_config *c);
int tune_config_from_json(json_t *doc, struct tune_config *c, char *err,
		     size_t errlen);
int tune_config_from_text(const char *text, struct tune_config *c, char *err,
		     size_t errlen);
/* tune_config_explain() - record why a choice was made (cli_note_add()). */
#define tune_config_explain(c, ...) CLI_NOTE_ADD((c)->explain, &(c)->n_explain, __VA_ARGS__)
void tune_config_reason(struct tune_config *c, enum tune_reason kind,
		   const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
const char *tune_reason_key(enum tune_reason kind);
/* tune_config_warn() - record something the user must know. */
#define tune_config_warn(c, ...) CLI_NOTE_ADD((c)->warn, &(c)->n_warn, __VA_ARGS__)
struct tune_cpu *tune_config_cpu(struct tune_config *c, int cpu);
const struct tune_cpu *tune_config_cpu_const(const struct tune_config *c, int cpu);
void tune_config_cpulist(const struct tune_config *c, char *buf, size_t len);
const char *tune_cpu_event(const struct tune_config *c,
			   const struct tune_cpu *p, int cls);
int tune_config_event_cpus(const struct tune_config *c, int cls, char *buf,
		      size_t len);
void tune_config_exempt_cpulist(const struct tune_config *c, char *buf,
			   size_t len);
/* machine.c */
json_t *tune_machine_to_json(const struct tune_machine *m);
json_t *tune_machine_bw_json(const struct tune_machine *m);
int tune_machine_from_json(json_t *machine, json_t *bw, struct tune_machine *m,
			   char *err, size_t errlen);
/* config_print.c */
void tune_config_print(FILE *f, const struct tune_config *c, int64_t id);

#endif /* MEMTUNE_TUNED_CONFIG_H */
