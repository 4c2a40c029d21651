/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * validate.h - the co-scheduled runs of 'memtune validate' (validate.c);
 * the command line is cmd_validate.c.
 */
#ifndef MEMTUNE_VALIDATE_H
#define MEMTUNE_VALIDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "apply.h"
#include "cli.h"
#include "memcal_db_tune.h"
#include "mix.h"
#include "validate_latency.h"
/**
 * struct validate_opts - options of 'memtune validate'.
 * @id:       --config.
 * @runs:     co-scheduled repetitions per mode (median kept).
 * @timeout_s: per co-scheduled run.
 * @reg:      where memreg is.
 * @keep:     leave memreg loaded when validate loaded it.
 * @no_static: leave out the static condition (--no-static).
 */
struct validate_opts {
	int64_t id;
	unsigned runs;
	unsigned timeout_s;
	struct tune_reg reg;
	bool keep;
	bool no_static;
};

const char *tune_validate_conditions(bool regulated, bool has_static);
json_t *tune_validate_result_json(const struct memcal_validation_result *r,
				  bool regulated);
void tune_validate_static_config(const struct tune_config *c,
				 struct tune_config *s);

int tune_validate_run(struct cli_ctx *ctx, const struct mix *m,
		 const struct tune_config *c, struct validate_opts *o,
		 const double *solo, struct memcal_validation *v,
		 struct memcal_validation_result *r, struct vlat *lat,
		 char *note, size_t len);

#endif /* MEMTUNE_VALIDATE_H */
