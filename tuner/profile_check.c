// SPDX-License-Identifier: GPL-2.0-only
/*
 * profile_check.c - does each workload profile still describe what the
 * mix runs?  A profile is keyed by what was run: the argv, the binary it
 * resolved to (path, size, content hash) and the core the mix declared.
 * Planning from a profile of another command would size budgets for
 * traffic nobody will produce, so any difference is refused with the
 * command that profiles the mix again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identity.h"

/* stale - why profile @p of workload @w no longer fits, into @why. */
static int stale(memcal_db *db, const struct mix_workload *w,
		 const struct memcal_profile *p, char *why, size_t len)
{
	struct memcal_binary was, now;
	char *argv = tune_mix_argv_json(w), err[512];
	int rc = 1;

	if (!argv)
		snprintf(why, len, "out of memory");
	else if (strcmp(argv, p->argv_json ? p->argv_json : ""))
		snprintf(why, len, "its command changed: profiled %s, the mix "
			 "now runs %s", p->argv_json ? p->argv_json : "[]",
			 argv);
	else if (w->cpu >= 0 && w->cpu != p->cpu)
		snprintf(why, len, "it was profiled on cpu %d, the mix now "
			 "declares cpu %d", p->cpu, w->cpu);
	else if (memcal_db_profile_binary_get(db, p->id, &was) ||
		 !was.path[0])
		snprintf(why, len, "profile %lld does not record which binary "
			 "it ran", (long long)p->id);
	else if (tune_ident_binary(w->argv[0], &now, err, sizeof(err)))
		snprintf(why, len, "%.400s (profiled: %.400s)", err, was.path);
	else if (strcmp(now.path, was.path))
		snprintf(why, len, "'%.200s' now resolves to %.300s, profiled %.300s",
			 w->argv[0], now.path, was.path);
	else if (now.size != was.size || strcmp(now.hash, was.hash))
		snprintf(why, len, "its binary %.400s changed since it was "
			 "profiled (%lld bytes, hash %s; profiled %lld bytes, "
			 "hash %s)", now.path, (long long)now.size, now.hash,
			 (long long)was.size, was.hash);
	else
		rc = 0;
	free(argv);
	return rc;
}

/**
 * tune_profile_check() - refuse when a profile loaded into @ti no longer
 * describes what mix @m runs.
 * Return: 0, or a MEMCAL_E* code with @err naming the workload, what changed and the
 * command that profiles the mix again.
 */
int tune_profile_check(memcal_db *db, const struct mix *m,
		  const struct tune_inputs *ti, char *err, size_t errlen)
{
	char why[1024];

	for (int i = 0; i < m->n; i++) {
		if (!ti->have[i] || !stale(db, &m->wl[i], &ti->profiles[i],
					   why, sizeof(why)))
			continue;
		snprintf(err, errlen, "workload '%s' of mix '%s' is not what was "
			 "profiled: %s; profile it again with 'memtune profile "
			 "%s' (or give plan --reprofile)", m->wl[i].name,
			 m->name, why, m->path);
		return MEMCAL_EINVAL;
	}
	return 0;
}
