/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * sim_output.h - memreg-sim's table and JSON printers (executable only;
 * the library memreg_sim never prints).
 */
#ifndef MEMREG_SIM_OUTPUT_H
#define MEMREG_SIM_OUTPUT_H

#include <stdio.h>

#include "memreg_sim.h"

/* Print the per-period table (unless it has no rows) and the summary. */
void sim_print_table(FILE *f, const struct memreg_sim_config *cfg,
		     const struct memreg_sim_result *res);

/*
 * Print the whole result as one JSON document; returns 0, MEMCAL_ENOMEM or
 * MEMCAL_EIO.
 */
int sim_print_json(FILE *f, const struct memreg_sim_config *cfg,
		   const struct memreg_sim_result *res);

/* Print {"error": @msg} as JSON. */
void sim_print_json_error(FILE *f, const char *msg);

#endif /* MEMREG_SIM_OUTPUT_H */
