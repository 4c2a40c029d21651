/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ovh_raw.h - reading the guest's raw "OVH-... key=value" lines and the
 * one statistic both host programs take of them (ovh_verdict.c,
 * ovh_profile.c).  libc only.
 */
#ifndef MEMCAL_OVH_RAW_H
#define MEMCAL_OVH_RAW_H

#include <stddef.h>

/* Most values ovh_median() takes (loads, or repetitions of one load). */
#define OVH_MEDIAN_MAX	64

int ovh_field(const char *line, const char *key, char *buf, size_t len);
int ovh_num(const char *line, const char *key, long long *v);
int ovh_hex(const char *line, const char *key, unsigned long long *v);
double ovh_median(const double *v, unsigned n);

#endif /* MEMCAL_OVH_RAW_H */
