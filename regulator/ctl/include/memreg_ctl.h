/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * memreg_ctl.h - user-space control of the memreg.ko regulator.
 *
 * Everything goes through a sysfs root that defaults to /sys/kernel/memreg
 * and can be pointed elsewhere (unit tests use a fake tree in a temporary
 * directory).  Module loading uses finit_module(2) and delete_module(2).
 *
 * Typical use (what `memtune apply` does):
 *
 *   struct memreg_ctl *c = memreg_ctl_open(NULL);
 *   memreg_ctl_stage(c, "period_us", "1000");
 *   memreg_ctl_stage_cpu(c, 1, "read_guaranteed", "5000");
 *   if (memreg_ctl_commit(c))
 *           fprintf(stderr, "%s\n", memreg_ctl_error(c));
 *
 * Every function returns 0 or a negative errno; on failure the reason
 * (for a refused write or commit: the module's "error" file) is available
 * from memreg_ctl_error().  Not thread-safe: one handle per thread.
 */
#ifndef MEMREG_CTL_H
#define MEMREG_CTL_H

#include <stddef.h>
#include <stdint.h>

#define MEMREG_CTL_DEFAULT_ROOT "/sys/kernel/memreg"

struct memreg_ctl;

/** enum memreg_ctl_loaded - what memreg_ctl_detect() found */
enum memreg_ctl_loaded {
	MEMREG_CTL_NONE = 0,	/* no regulator loaded */
	MEMREG_CTL_MEMREG = 1,	/* memreg is loaded (sysfs root present) */
	MEMREG_CTL_OTHER = 2,	/* another regulator (e.g. memguard) is */
};

/* Open a handle on @root (NULL: $MEMREG_SYSFS_ROOT, else the default). */
struct memreg_ctl *memreg_ctl_open(const char *root);
/* Close a handle (NULL is fine). */
void memreg_ctl_close(struct memreg_ctl *c);
/* The last error message of @c ("" if none). */
const char *memreg_ctl_error(const struct memreg_ctl *c);
/* The sysfs root @c uses. */
const char *memreg_ctl_root(const struct memreg_ctl *c);

/*
 * Load the module file @ko_path with the parameter string @params ("name=v
 * name=v ...", may be NULL) through finit_module(2).  -EEXIST if loaded.
 */
int memreg_ctl_load(struct memreg_ctl *c, const char *ko_path,
		    const char *params);
/* Unload memreg through delete_module(2) (O_NONBLOCK). */
int memreg_ctl_unload(struct memreg_ctl *c);
/*
 * Which regulator is loaded: memreg (its sysfs root exists), another known
 * one (memguard, bwlock, memguard_rt in @modules_path, default
 * /proc/modules; its name is copied to @other if non-NULL), or none.
 */
enum memreg_ctl_loaded memreg_ctl_detect(struct memreg_ctl *c,
					 const char *modules_path,
					 char *other, size_t other_len);

/* Stage a global attribute: write @value to ROOT/@name. */
int memreg_ctl_stage(struct memreg_ctl *c, const char *name,
		     const char *value);
/* Stage a per-CPU attribute: write @value to ROOT/cpu@cpu/@name. */
int memreg_ctl_stage_cpu(struct memreg_ctl *c, int cpu, const char *name,
			 const char *value);
/* Apply the staged configuration atomically (write "1" to commit). */
int memreg_ctl_commit(struct memreg_ctl *c);
/* Discard the staged configuration (write "0" to commit). */
int memreg_ctl_discard(struct memreg_ctl *c);
/* Read the module's last error into @buf (newline stripped). */
int memreg_ctl_last_error(struct memreg_ctl *c, char *buf, size_t len);

/* Read ROOT/@name (global, @cpu < 0) or ROOT/cpuN/@name as a string. */
int memreg_ctl_read(struct memreg_ctl *c, int cpu, const char *name,
		    char *buf, size_t len);
/*
 * Read a numeric attribute; a CPU's statistics are read this way, each by
 * its name in regulator/kmod/README.md.
 */
int memreg_ctl_read_u64(struct memreg_ctl *c, int cpu, const char *name,
			uint64_t *val);

#endif /* MEMREG_CTL_H */
