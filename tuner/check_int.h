/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_int.h - what the files of 'memtune check' share and nothing else
 * includes (the file map is at the top of check.c).
 */
#ifndef MEMTUNE_CHECK_INT_H
#define MEMTUNE_CHECK_INT_H

#include <stdarg.h>
#include <stdio.h>

#include "check.h"

#define NO_PROVENANCE "unknown: the configuration carries no provenance " \
	"(planned by an older memtune); plan it again to check this item"

const struct tune_machine_cpu *tune_check_find_cpu(const struct tune_machine *m,
						   int cpu);
long tune_check_pmu_type(const char *name);

/* set - item @id's verdict and reason. */
static inline void __attribute__((format(printf, 4, 5)))
set(struct tune_check *r, enum tune_check_item_id id, enum tune_verdict v,
    const char *fmt, ...)
{
	va_list ap;

	r->items[id].name = tune_check_item_name(id);
	r->items[id].verdict = v;
	va_start(ap, fmt);
	vsnprintf(r->items[id].reason, sizeof(r->items[id].reason), fmt, ap);
	va_end(ap);
}

#endif /* MEMTUNE_CHECK_INT_H */
