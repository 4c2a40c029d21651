/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export.h - render a tuned configuration for deployment.  Every format
 * comes from the one JSON document (struct tune_config):
 *   json      the document itself
 *   modprobe      /etc/modprobe.d/memreg.conf: memreg's boot parameters
 *   modules-load  /etc/modules-load.d/memreg.conf: load memreg at boot
 *   systemd       a oneshot unit that runs 'memtune apply --file' at boot
 *   resctrl       a sh script creating one resctrl group per best-effort core
 *                 (Intel RDT MBA / Arm MPAM): percent rounded up to the
 *                 platform's granularity, or MiB/s with mba_MBps
 *   pqos          the equivalent pqos command line
 * Each format is exactly one file, for one place.  Every name or path
 * written into a file is escaped or quoted for that file's syntax
 * (export_quote.c), and a value it cannot carry refuses the export.
 * What a format cannot express is returned as warnings (and written into
 * the output as comments where the format has them).
 */
#ifndef MEMTUNE_EXPORT_H
#define MEMTUNE_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "memcal_status.h"
#include "tuned_config.h"

#define EXPORT_MAX_WARN 16

/**
 * struct export_opts - knobs of the exporters.
 * @config_id:     database id of the configuration (for comments).
 * @resctrl_root:  where resctrl's info/ lives ("/sys/fs/resctrl").
 * @mba_mbps:      1 force MiB/s, 0 force percent, -1 detect.
 * @memtune_path:  memtune binary for the systemd unit.
 * @config_path:   where the unit expects the JSON export.
 */
struct export_opts {
	long long config_id;
	const char *resctrl_root;
	int mba_mbps;
	const char *memtune_path;
	const char *config_path;
};

/**
 * struct export_warnings - what the chosen format could not express.
 * @n:     count.
 * @text:  sentences.
 * @error: why the export was refused (MEMCAL_EREFUSED), else empty.
 */
struct export_warnings {
	int n;
	char text[EXPORT_MAX_WARN][256];
	char error[512];
};

int tune_export_render(const struct tune_config *c, const char *format,
		  const struct export_opts *o, FILE *out,
		  struct export_warnings *w);
void tune_export_warn(struct export_warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int tune_export_refuse(struct export_warnings *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
const char *tune_export_strerror(int rc, const struct export_warnings *w);

/* Quoting for generated files (export_quote.c). */
const char *tune_export_printable(const char *s, bool unit, char *buf,
			     size_t len);
int tune_export_sh_quote(const char *s, char *buf, size_t len);
int tune_export_unit_arg(const char *s, bool exe, char *buf, size_t len,
		    const char **why);

int tune_export_module_params(const struct tune_config *c, char *buf, size_t len);
/*
 * memreg's share value for @c: "0" (off), "1" (grant, as every memreg
 * takes it), "spare" or "proportional".
 */
const char *tune_export_share(const struct tune_config *c);
int tune_export_json(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w);
int tune_export_modprobe(const struct tune_config *c, const struct export_opts *o,
		    FILE *out, struct export_warnings *w);
int tune_export_modules_load(const struct tune_config *c,
			const struct export_opts *o, FILE *out,
			struct export_warnings *w);
int tune_export_systemd(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w);
int tune_export_resctrl(const struct tune_config *c, const struct export_opts *o,
		   FILE *out, struct export_warnings *w);
int tune_export_pqos(const struct tune_config *c, const struct export_opts *o,
		FILE *out, struct export_warnings *w);

/* Shared by the RDT exporters (export_rdt.c). */
/* Units of the resctrl found: MBA values in percent or MiB/s. */
enum rdt_mode {
	RDT_MODE_UNKNOWN = 0,	/* no resctrl found */
	RDT_MODE_PERCENT,
	RDT_MODE_MBPS,		/* mounted with mba_MBps */
};

/**
 * struct rdt_info - what resctrl says about MBA on this board.
 * @gran:     bandwidth granularity, percent.
 * @min:      minimum bandwidth, percent.
 * @mbps:     values are MiB/s (mba_MBps mount).
 * @mode:     the units the resctrl found uses.
 * @domains:  MBA domain ids, comma-separated ("0" or "0,1").
 * @found:    read from a live resctrl (else defaults were assumed).
 */
struct rdt_info {
	int gran;
	int min;
	bool mbps;
	enum rdt_mode mode;
	char domains[64];
	bool found;
};
int tune_rdt_info_read(const struct export_opts *o, struct rdt_info *ri,
		  struct export_warnings *w);
long tune_rdt_value(const struct rdt_info *ri, double bps, double ref_bps);
bool tune_rdt_no_limit(const struct rdt_info *ri, long v, double ref_bps);

#endif /* MEMTUNE_EXPORT_H */
