// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_dram_banks.c - the table of documented DRAM mappings: a board in
 * the table gets a single-bank plan whose every offset is in bank 0 and
 * whose row stride keeps the bank; a board not in it, or a virtual
 * machine, gets the precise reason; the random-line kernel aimed by a
 * plan touches only the plan's lines.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "dram_banks.h"
#include "memcal_status.h"
#include "randline.h"

#define COFFEE "Intel(R) Core(TM) i7-8700K CPU @ 3.70GHz"

Test(dram_banks, a_documented_board_gets_a_plan_for_bank_0)
{
	struct memcal_bank_plan p;
	char why[256] = "";

	cr_assert_eq(cal_bank_plan_for(COFFEE, false, 64, &p, why,
				       sizeof(why)), MEMCAL_OK, "%s", why);
	cr_assert_not_null(p.map);
	/* 4 bank functions: one line in 16 of a 2 MiB page is in bank 0 */
	cr_expect_eq(p.n_offs, (2u << 20) / 64 / 16);
	for (size_t i = 0; i < p.n_offs; i++) {
		cr_assert_eq(cal_dram_bank_of(p.map, p.offs[i]), 0,
			     "offset 0x%x", p.offs[i]);
		cr_assert_eq(p.offs[i] % 64, 0);
	}
	/* bits 17..19 are in bank functions: the next row of a bank is bit 20 */
	cr_expect_eq(p.row_stride, 1u << 20);
	for (uint64_t a = 0; a < (4u << 20); a += 0x40 * 97)
		cr_assert_eq(cal_dram_bank_of(p.map, a),
			     cal_dram_bank_of(p.map, a + p.row_stride));
	cr_expect(strstr(p.text, "Blacksmith"), "%s", p.text);
	cal_bank_plan_free(&p);
}

Test(dram_banks, an_unknown_board_or_a_vm_gets_the_reason)
{
	struct memcal_bank_plan p;
	char why[256];

	cr_expect_eq(cal_bank_plan_for("AMD EPYC 9B45", false, 64, &p, why,
				       sizeof(why)), MEMCAL_EUNSUPPORTED);
	cr_expect_str_eq(why, "the DRAM address mapping of CPU model 'AMD "
			 "EPYC 9B45' is not in the table of documented boards "
			 "(row-conflict timing is not tried)");
	cr_expect_null(p.offs);
	cr_expect_eq(cal_bank_plan_for(COFFEE, true, 64, &p, why, sizeof(why)),
		     MEMCAL_EUNSUPPORTED);
	cr_expect_str_eq(why, "this is a virtual machine: guest-physical "
			 "addresses are not DRAM addresses");
	cr_expect_eq(cal_bank_plan_for("QEMU Virtual CPU", true, 64, &p, why,
				       sizeof(why)), MEMCAL_EUNSUPPORTED);
	cr_expect(strstr(why, "virtual machine") && strstr(why, "QEMU Virtual "
		  "CPU' is not in the table"), "%s", why);
}

Test(dram_banks, the_kernel_touches_only_the_plans_lines)
{
	struct memcal_bank_plan p;
	char why[256];
	size_t bytes = 4u << 20;
	uint64_t *buf = aligned_alloc(2u << 20, bytes), n = 0, touched = 0;

	cr_assert_not_null(buf);
	memset(buf, 0, bytes);
	cr_assert_eq(cal_bank_plan_for(COFFEE, false, 64, &p, why,
				       sizeof(why)), MEMCAL_OK);
	struct memcal_randline a = {
		.buf = buf, .lines = bytes / 64, .line = 64, .streams = 8,
		.write = true, .seed = 1, .offs = p.offs, .n_offs = p.n_offs,
		.page = 2u << 20,
	};
	cal_randline_run(&a, memcal_now_ns() + 20000000ull, &n);
	cr_assert_gt(n, 0);
	for (size_t w = 0; w < bytes / 8; w++) {
		if (!buf[w])
			continue;
		cr_assert_eq(w % 8, 0, "only the first word of a line");
		cr_assert_eq(cal_dram_bank_of(p.map, (w * 8) % (2u << 20)), 0,
			     "byte 0x%zx is outside bank 0", w * 8);
		touched += buf[w];
	}
	cr_expect_eq(touched, n, "every access dirtied one counted line");
	cal_bank_plan_free(&p);
	free(buf);
}
