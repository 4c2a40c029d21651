// SPDX-License-Identifier: GPL-2.0-only
/*
 * dram_banks.c - the table of documented DRAM address mappings and the
 * single-bank plan drawn from it (dram_banks.h).
 */
#include "dram_banks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "memcal_status.h"

/*
 * The table.  Intel Coffee Lake with one single-rank DDR4 DIMM on one
 * channel: the functions Blacksmith (Jattke et al., IEEE S&P 2022) loads
 * as known for one rank, found with DRAMA's method (Pessl et al., USENIX
 * Security 2016) on the i7-8700K and i9-9900K it was evaluated on.
 */
static const struct memcal_dram_map dram_maps[] = {
	{ "i7-8700K", "DDR4, 1 channel, 1 single-rank DIMM", 4,
	  { 0x2040, 0x24000, 0x48000, 0x90000 }, 0x3ffe0000,
	  "Jattke et al., Blacksmith, IEEE S&P 2022 "
	  "(github.com/comsec-group/blacksmith, DramAnalyzer.cpp)" },
	{ "i9-9900K", "DDR4, 1 channel, 1 single-rank DIMM", 4,
	  { 0x2040, 0x24000, 0x48000, 0x90000 }, 0x3ffe0000,
	  "Jattke et al., Blacksmith, IEEE S&P 2022 "
	  "(github.com/comsec-group/blacksmith, DramAnalyzer.cpp)" },
};

/* cal_dram_bank_of - the bank of physical address @addr under @m. */
unsigned cal_dram_bank_of(const struct memcal_dram_map *m, uint64_t addr)
{
	unsigned bank = 0;

	for (unsigned i = 0; i < m->n_fn; i++)
		bank |= (unsigned)__builtin_parityll(addr & m->fn[i]) << i;
	return bank;
}

/*
 * cal_running_virtualised - whether this kernel runs under a hypervisor
 * (the x86 "hypervisor" CPU flag, or /sys/hypervisor/type): then the
 * addresses it sees are guest-physical, not DRAM addresses.
 */
bool cal_running_virtualised(void)
{
	FILE *f = fopen("/sys/hypervisor/type", "r");
	char line[4096];
	bool vm = false;

	if (f) {
		vm = fgets(line, sizeof(line), f) && line[0] && line[0] != '\n';
		fclose(f);
		if (vm)
			return true;
	}
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return false;
	while (!vm && fgets(line, sizeof(line), f))
		if (!strncmp(line, "flags", 5) && strstr(line, " hypervisor"))
			vm = true;
	fclose(f);
	return vm;
}

/* cal_bank_plan_free - release what a plan owns. */
void cal_bank_plan_free(struct memcal_bank_plan *p)
{
	free(p->offs);
	memset(p, 0, sizeof(*p));
}

/*
 * plan_build - bank 0's line offsets inside one plan page and the row
 * stride under @m.  MEMCAL_EUNSUPPORTED when the functions reach beyond
 * the page (its physical base would then change the bank), MEMCAL_ENOMEM
 * when memory runs out.
 */
static int plan_build(const struct memcal_dram_map *m, unsigned line,
		      struct memcal_bank_plan *p)
{
	uint64_t all = 0, rows;
	size_t cap = MEMCAL_DRAM_PLAN_PAGE / line;

	for (unsigned i = 0; i < m->n_fn; i++)
		all |= m->fn[i];
	if (all >= MEMCAL_DRAM_PLAN_PAGE)
		return MEMCAL_EUNSUPPORTED;
	rows = m->row_mask & ~all;
	p->row_stride = rows ? rows & -rows : 0;
	p->offs = calloc(cap, sizeof(*p->offs));
	if (!p->offs)
		return MEMCAL_ENOMEM;
	for (uint64_t o = 0; o < MEMCAL_DRAM_PLAN_PAGE; o += line)
		if (!cal_dram_bank_of(m, o))
			p->offs[p->n_offs++] = (uint32_t)o;
	p->map = m;
	return MEMCAL_OK;
}

/**
 * cal_bank_plan_for() - the single-bank plan for a board.
 * @cpu_model:   the CPU model name.
 * @virtualised: this runs in a virtual machine.
 * @line:        cache-line size, bytes.
 * @p:           the plan, on success (free with cal_bank_plan_free()).
 * @reason:      why not, otherwise.
 * @len:         size of @reason.
 *
 * Return: MEMCAL_OK with @p filled, or MEMCAL_EUNSUPPORTED with the
 * precise reason in @reason (MEMCAL_ENOMEM when memory runs out).
 */
int cal_bank_plan_for(const char *cpu_model, bool virtualised,
		      unsigned line, struct memcal_bank_plan *p,
		      char *reason, size_t len)
{
	const struct memcal_dram_map *m = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	for (size_t i = 0; !m && i < sizeof(dram_maps) / sizeof(*dram_maps); i++)
		if (cpu_model && strstr(cpu_model, dram_maps[i].model))
			m = &dram_maps[i];
	if (virtualised || !m) {
		snprintf(reason, len, "%s%s%s%s%s",
			 virtualised ? "this is a virtual machine: "
			 "guest-physical addresses are not DRAM addresses" : "",
			 virtualised && !m ? ", and " : "",
			 m ? "" : "the DRAM address mapping of CPU model '",
			 m ? "" : cpu_model && *cpu_model ? cpu_model : "unknown",
			 m ? "" : "' is not in the table of documented boards "
			 "(row-conflict timing is not tried)");
		return MEMCAL_EUNSUPPORTED;
	}
	rc = line ? plan_build(m, line, p) : MEMCAL_EINVAL;
	if (rc) {
		cal_bank_plan_free(p);
		snprintf(reason, len, "%s", rc == MEMCAL_ENOMEM ? "out of "
			 "memory for the single-bank plan" : "the documented "
			 "bank functions reach beyond a 2 MiB page");
		return rc == MEMCAL_ENOMEM ? rc : MEMCAL_EUNSUPPORTED;
	}
	snprintf(p->text, sizeof(p->text), "bank 0 of %u functions (%s): %zu "
		 "of %u lines per 2 MiB page, next row every %llu KiB; %s",
		 m->n_fn, m->config, p->n_offs,
		 (unsigned)(MEMCAL_DRAM_PLAN_PAGE / line),
		 (unsigned long long)(p->row_stride >> 10), m->source);
	return MEMCAL_OK;
}
