/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dram_banks.h - documented DRAM address mappings, for the single-bank
 * guaranteed bandwidth: every access to one bank, each a row conflict.
 *
 * Only mappings with a citable source are in the table (published
 * reverse-engineered bank functions).  A bank function is a mask of
 * physical-address bits whose parity (XOR) is one bit of the bank number;
 * bank 0 is where every function's parity is even.  A plan lists the
 * line offsets inside one huge page that fall in bank 0, which is enough
 * when every function's bits lie below the huge page's size: the page's
 * physical base then adds nothing to them.
 */
#ifndef MEMCAL_DRAM_BANKS_H
#define MEMCAL_DRAM_BANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most bank functions of one mapping. */
#define MEMCAL_DRAM_MAX_FNS	8
/* Huge page a plan is laid out in: 2 MiB. */
#define MEMCAL_DRAM_PLAN_PAGE	(2u << 20)

/**
 * struct memcal_dram_map - one documented mapping.
 * @model:   substring of the CPU model name (/proc/cpuinfo) it applies to.
 * @config:  the memory configuration it was found on, in words.
 * @n_fn:    bank functions.
 * @fn:      the bank functions (masks of physical-address bits).
 * @row_mask: physical-address bits of the row number.
 * @source:  where the mapping is published.
 */
struct memcal_dram_map {
	const char *model;
	const char *config;
	unsigned n_fn;
	uint64_t fn[MEMCAL_DRAM_MAX_FNS];
	uint64_t row_mask;
	const char *source;
};

/**
 * struct memcal_bank_plan - how to aim every access at bank 0.
 * @map:        the mapping used.
 * @row_stride: the smallest address step that changes the row and keeps
 *              the bank (the lowest row bit in no bank function).
 * @offs:       line offsets inside a MEMCAL_DRAM_PLAN_PAGE page that are
 *              in bank 0 (malloc'd; cal_bank_plan_free()), @n_offs of them.
 * @text:       the plan in words (stored with the figure).
 */
struct memcal_bank_plan {
	const struct memcal_dram_map *map;
	uint64_t row_stride;
	uint32_t *offs;
	size_t n_offs;
	char text[256];
};

int cal_bank_plan_for(const char *cpu_model, bool virtualised,
		      unsigned line, struct memcal_bank_plan *p,
		      char *reason, size_t len);
void cal_bank_plan_free(struct memcal_bank_plan *p);
unsigned cal_dram_bank_of(const struct memcal_dram_map *m, uint64_t addr);
bool cal_running_virtualised(void);

#endif /* MEMCAL_DRAM_BANKS_H */
