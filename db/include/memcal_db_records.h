/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_db_records.h - memtune's records as a user manages them: every
 * configuration, workload profile and validation run listed newest
 * first, one of them fetched or deleted together with what depends on it;
 * the identity of the binary a profile ran; the key of the inputs a
 * configuration was planned from.  Same rules as memcal_db.h.
 */
#ifndef MEMCAL_DB_RECORDS_H
#define MEMCAL_DB_RECORDS_H

#include <stdbool.h>

#include "memcal_db.h"

/**
 * struct memcal_record - one record as listed.
 * @kind:       "config", "profile" or "validation".
 * @id:         row id within its kind.
 * @created_at: ISO-8601 UTC (a validation: when it started).
 * @mix:        mix name.
 * @name:       a profile's workload; "" otherwise.
 * @parent_id:  a validation's configuration; 0 otherwise.
 * @detail:     one line on what it holds.
 * @dependents: records that depend on it (a configuration: its
 *              validations; a profile: the configurations planned from it).
 */
struct memcal_record {
	char kind[16];
	int64_t id;
	char created_at[32];
	char mix[128];
	char name[128];
	int64_t parent_id;
	char detail[256];
	int64_t dependents;
};

typedef int (*memcal_db_record_fn)(const struct memcal_record *, void *user);

/* @kind, @mix: NULL for any. */
int memcal_db_record_list(memcal_db *db, const char *kind, const char *mix,
			  memcal_db_record_fn fn, void *user);
int memcal_db_record_get(memcal_db *db, const char *kind, int64_t id,
			 struct memcal_record *r);
int memcal_db_record_dependents(memcal_db *db, const char *kind, int64_t id,
				memcal_db_record_fn fn, void *user);
int memcal_db_record_delete(memcal_db *db, const char *kind, int64_t id,
			    bool force, memcal_db_record_fn fn, void *user);

/**
 * struct memcal_binary - the identity of the binary a profile ran.
 * @path: absolute path after PATH lookup ("" when not recorded).
 * @size: bytes (-1 when not recorded).
 * @hash: content hash, hex.
 */
struct memcal_binary {
	char path[4096];
	int64_t size;
	char hash[65];
};

int memcal_db_profile_binary_set(memcal_db *db, int64_t profile_id,
				 const struct memcal_binary *b);
int memcal_db_profile_binary_get(memcal_db *db, int64_t profile_id,
				 struct memcal_binary *b);

struct memcal_validation;
int memcal_db_validation_get(memcal_db *db, int64_t id,
			     struct memcal_validation *v);

int memcal_db_config_key_set(memcal_db *db, int64_t config_id,
			     const char *key);
int memcal_db_config_find_key(memcal_db *db, const char *key, int64_t *id);

#endif /* MEMCAL_DB_RECORDS_H */
