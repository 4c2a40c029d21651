/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * unit_id.h - this unit's identity (hostname, machine-id, DMI serial),
 * stored beside every run it measures.
 */
#ifndef MEMCAL_UNIT_ID_H
#define MEMCAL_UNIT_ID_H

#include "memcal_db.h"
#include "memcal_db_unit.h"

void cal_unit_here(const struct memcal_platform *p, const char *root,
		   struct memcal_unit *u);

#endif /* MEMCAL_UNIT_ID_H */
