// SPDX-License-Identifier: GPL-2.0-only
/*
 * apply.c - load memreg with a tuned configuration, for 'memtune apply'
 * (cmd_apply.c) and the regulated runs of 'memtune validate'.
 *
 * Checks first, in this order, each refusal saying what is wrong:
 *   - the configuration was tuned for this board (fingerprint, CPUs);
 *   - the kernel can load modules (/proc/modules exists);
 *   - no other bandwidth regulator (MemGuard, BWLOCK, MemPol) is loaded;
 *   - memreg.ko exists (when memreg is not loaded yet).
 * Then memreg is loaded with the configuration as module parameters (so
 * it boots regulated), or, when it is loaded already, the values are
 * staged in sysfs and committed at once; memreg's last error is read back
 * on failure.  LMS adaptation is on unless the configuration says
 * otherwise.  The low-level work goes through tuner/apply_ctl.c, which
 * uses regulator/ctl (memreg_ctl).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "apply.h"
#include "memcal_db.h"
#include "memcal_platform.h"

/* Modules of other bandwidth regulators memreg must not run beside. */
static const char *const other_regulators[] = {
	"memguard", "memguard_rt", "bwlock", "bwlockmod", "mempol",
	"memguard_mod", NULL,
};

/**
 * tune_reg_check_board() - whether @c was tuned for the machine this runs
 * on: same fingerprint (CPU model, architecture, topology shape) and
 * every CPU it names present.
 * Return: MEMCAL_OK or MEMCAL_EBOARD with @err.
 */
int tune_reg_check_board(const struct tune_config *c, char *err,
			 size_t errlen)
{
	struct memcal_topology t;
	struct memcal_platform p;
	char terr[256];
	int rc = MEMCAL_OK;

	if (memcal_platform_topology_load(&t, NULL, terr, sizeof(terr))) {
		snprintf(err, errlen, "cannot read this machine's topology: %s",
			 terr);
		return MEMCAL_EBOARD;
	}
	if (memcal_platform_describe(&t, &p)) {
		snprintf(err, errlen, "cannot describe this machine");
		rc = MEMCAL_EBOARD;
	} else if (strcmp(p.fingerprint, c->fingerprint)) {
		snprintf(err, errlen, "the configuration was tuned for another "
			 "board (%s, %s, fingerprint %.16s...), this is %s, %s "
			 "(%.16s...): run 'memcal run' and 'memtune plan' on "
			 "this board", c->arch, c->cpu_model, c->fingerprint,
			 p.arch, p.cpu_model, p.fingerprint);
		rc = MEMCAL_EBOARD;
	}
	for (int i = 0; !rc && i < c->n_cpus; i++)
		if (c->cpus[i].regulated &&
		    !memcal_platform_topology_has_pu(&t, (unsigned)c->cpus[i].cpu)) {
			snprintf(err, errlen, "the configuration regulates cpu "
				 "%d, which this machine does not have",
				 c->cpus[i].cpu);
			rc = MEMCAL_EBOARD;
		}
	memcal_db_platform_free(&p);
	memcal_platform_topology_free(&t);
	return rc;
}

/*
 * check_kernel - modules supported, no other regulator loaded.
 * Returns MEMCAL_OK, MEMCAL_EUNSUPPORTED or MEMCAL_ECONFLICT.
 */
static int check_kernel(const struct tune_reg *r, char *err, size_t errlen)
{
	const char *env = getenv("MEMTUNE_PROC_MODULES");
	const char *path = r->proc_modules ? r->proc_modules :
			   env && *env ? env : "/proc/modules";
	FILE *f = fopen(path, "r");
	char line[512];
	int rc = MEMCAL_OK;

	if (!f) {
		snprintf(err, errlen, "this kernel cannot load modules (%s is "
			 "absent): memreg cannot run here; boot a kernel with "
			 "module support (CONFIG_MODULES)", path);
		return MEMCAL_EUNSUPPORTED;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char name[128];

		if (sscanf(line, "%127s", name) != 1)
			continue;
		for (int i = 0; other_regulators[i]; i++)
			if (!strcmp(name, other_regulators[i])) {
				snprintf(err, errlen, "another bandwidth "
					 "regulator is loaded (module '%s'): "
					 "unload it first (rmmod %s)", name,
					 name);
				rc = MEMCAL_ECONFLICT;
			}
	}
	fclose(f);
	return rc;
}

/*
 * find_module - @r->module, else memreg.ko under /lib/modules/RELEASE
 * (extra/ or updates/dkms/).  Returns 0 with @out set, or ENOMOD.
 */
static int find_module(const struct tune_reg *r, char *out, size_t len,
		       char *err, size_t errlen)
{
	static const char *const where[] = { "extra", "updates/dkms",
					     "updates", "kernel/extra" };
	struct utsname u;

	if (r->module) {
		if (access(r->module, R_OK)) {
			snprintf(err, errlen, "module %s: %s", r->module,
				 strerror(errno));
			return MEMCAL_EUNSUPPORTED;
		}
		snprintf(out, len, "%s", r->module);
		return MEMCAL_OK;
	}
	if (uname(&u)) {
		snprintf(err, errlen, "uname: %s", strerror(errno));
		return MEMCAL_EUNSUPPORTED;
	}
	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		int n = snprintf(out, len, "/lib/modules/%s/%s/memreg.ko",
				 u.release, where[i]);

		if (n > 0 && (size_t)n < len && !access(out, R_OK))
			return MEMCAL_OK;
	}
	snprintf(err, errlen, "memreg.ko is not installed for kernel %s: build "
		 "it (make -C regulator/kmod) and give --module PATH, or "
		 "install it with dkms", u.release);
	return MEMCAL_EUNSUPPORTED;
}

/**
 * tune_reg_apply() - bring memreg into configuration @c: load it with
 * parameters, or stage and commit when it is loaded.
 * Return: a TUNE_REG_* code with @err.
 */
int tune_reg_apply(struct tune_reg *r, const struct tune_config *c,
		   char *err, size_t errlen)
{
	char ko[4096];
	int rc;

	rc = check_kernel(r, err, errlen);
	if (tune_reg_loaded(r)) {
		/* built in, or a fake tree in tests: only a rival matters */
		if (rc == MEMCAL_ECONFLICT)
			return rc;
		return tune_ctl_stage_commit(r, c, err, errlen);
	}
	if (!rc)
		rc = find_module(r, ko, sizeof(ko), err, errlen);
	if (!rc)
		rc = tune_ctl_load(r, ko, c, err, errlen);
	if (!rc)
		r->loaded_here = true;
	return rc;
}
