/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report_figures.h - the headline figures of a calibration run, computed
 * from its stored rows by one set of functions (report_summary.c) that
 * both `memcal show` and the reports call, so that the two never print
 * different numbers for the same figure.
 */
#ifndef MEMCAL_REPORT_FIGURES_H
#define MEMCAL_REPORT_FIGURES_H

#include <stddef.h>

#include "memcal_db.h"

double figures_bw_at(const struct memcal_bw *bw, size_t n, const char *kind,
		     int n_cpus, double *lo, double *hi);
int figures_max_cpus(const struct memcal_bw *bw, size_t n);
double figures_bw_peak(const struct memcal_bw *bw, size_t n,
		       const char *kind, int *n_cpus);
const struct memcal_sustainable *
figures_sustainable(const struct memcal_sustainable *sus, size_t n,
		    const char *traffic);

#endif /* MEMCAL_REPORT_FIGURES_H */
