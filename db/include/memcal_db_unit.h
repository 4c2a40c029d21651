/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_unit.h - the unit a calibration run measured.  A board type
 * is a platform row (one fingerprint); a fleet has many units of it, each
 * known by what the unit itself says it is (hostname, machine-id, DMI
 * serial), never by a name memcal made up.  A run imported from another
 * unit's document carries that unit's identity, when and from which file
 * it was imported, and the content key that keeps it from being stored
 * twice.
 */
#ifndef MEMCAL_DB_UNIT_H
#define MEMCAL_DB_UNIT_H

#include "memcal_db.h"

/**
 * struct memcal_unit - the unit of one run.
 * @hostname:    node name when it was measured.
 * @machine_id:  /etc/machine-id, or "" where it was not readable.
 * @serial:      DMI product serial, or "" where it was not readable.
 * @kernel:      uname release when it was measured.
 * @content_key: for an imported run, the document's content key (64 hex
 *               digits); "" for a run measured here.
 * @imported_at: when it was imported (UTC ISO 8601), "" when measured here.
 * @imported_from: the file it was imported from, "" when measured here.
 */
struct memcal_unit {
	char hostname[128];
	char machine_id[64];
	char serial[128];
	char kernel[128];
	char content_key[65];
	char imported_at[32];
	char imported_from[512];
};

int memcal_db_unit_store(memcal_db *db, int64_t run_id,
			 const struct memcal_unit *u);
int memcal_db_unit_get(memcal_db *db, int64_t run_id, struct memcal_unit *u);
int memcal_db_unit_by_key(memcal_db *db, const char *key, int64_t *run_id);
int memcal_db_platform_find(memcal_db *db, const char *fingerprint,
			    int64_t *id);

#endif /* MEMCAL_DB_UNIT_H */
