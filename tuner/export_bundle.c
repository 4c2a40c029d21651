// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_bundle.c - memtune export --format bundle: one folder (or ustar
 * archive) with everything a target needs to run memreg with a tuned
 * configuration:
 *   memreg-VERSION/       memreg's DKMS source tree (kmod/, core/,
 *                         core/include/, dkms.conf), from
 *                         tune_bundle_kmod_src()
 *   prebuilt/REL/memreg.ko  a prebuilt module for kernel REL (--module)
 *   bin/memtune           a static memtune for the configuration's
 *                         architecture, when one is at hand
 *   tuned-config.json, memreg-tune.service, modprobe.d/memreg.conf,
 *   modules-load.d/memreg.conf   the other export formats
 *   bundle.conf           the paths install.sh installs to (sh words)
 *   install.sh, README    tuner/bundle/'s templates
 * The boot path is the unit: it runs 'memtune apply', which checks the
 * unit first.  The modprobe.d file's "install memreg" line sends every
 * other load (modprobe, a modules-load.d entry) through the same apply,
 * so nothing loads memreg without the check (tuner/bundle/README says
 * why the unit, not modules-load.d).
 *
 * File map (private declarations in export_bundle_int.h):
 *   export_bundle.c        tune_bundle_build(): the bundle, part by part
 *   export_bundle_tree.c   the files in memory (tune_bundle_add()), and
 *                          written as a folder or through export_tar.c
 *   export_bundle_progs.c  what runs on the target: memreg's DKMS source
 *                          tree, a prebuilt module, a static memtune
 *   export_bundle_conf.c   what configures it: the other export formats
 *                          and bundle.conf
 *   export_tar.c           the ustar writer
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_bundle_int.h"

/* add_text - a file of @text (copied). */
static int add_text(struct tune_bundle *b, const char *path, unsigned mode,
		    const char *text)
{
	char *d = strdup(text);

	return d ? tune_bundle_add(b, path, mode, false, d, strlen(d)) :
		   MEMCAL_ENOMEM;
}

/* releases - the kernel releases of prebuilt/, space-separated. */
static void releases(const struct tune_bundle *b, char *buf, size_t len)
{
	buf[0] = '\0';
	for (int i = 0; i < b->n; i++) {
		const char *p = b->f[i].path;
		size_t n = strlen(p);

		if (!b->f[i].dir && !strncmp(p, "prebuilt/", 9) && n > 19 &&
		    !strcmp(p + n - 10, "/memreg.ko"))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%.*s",
				 buf[0] ? " " : "", (int)(n - 19), p + 9);
	}
}

/**
 * tune_bundle_build() - every file of the bundle for @c into @out.
 * Return: 0, or a status (MEMCAL_EREFUSED with @w->error).
 */
int tune_bundle_build(const struct tune_config *c, const struct export_opts *o,
		      const struct bundle_opts *bo, struct tune_bundle *out,
		      struct export_warnings *w)
{
	char src[4096], rel[1024], *data = NULL, path[4200];
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!tune_bundle_kmod_src(bo->kmod_src, src, sizeof(src)))
		return tune_export_refuse(w, "memreg's sources were not found%s%s"
			"%s: give --kmod-src DIR, a folder holding kmod/ (with "
			"dkms.conf) and core/, as regulator/ in the source tree "
			"or /usr/src/%s", bo->kmod_src ? " in " : " (looked in "
			"/usr/src/" MEMREG_DIR " and ", bo->kmod_src ?
			bo->kmod_src : MEMCAL_BUNDLE_SRC[0] ? MEMCAL_BUNDLE_SRC :
			"no source tree", bo->kmod_src ? "" : ")", MEMREG_DIR);
	rc = tune_bundle_add(out, MEMREG_DIR, 0755, true, NULL, 0);
	snprintf(path, sizeof(path), "%s/kmod/dkms.conf", src);
	if (!rc && !(rc = tune_bundle_slurp(path, &data, &len)))
		rc = tune_bundle_add(out, MEMREG_DIR "/dkms.conf", 0644, false,
				     data, len);
	else if (!rc)
		rc = tune_export_refuse(w, "cannot read %s", path);
	if (!rc)
		rc = tune_bundle_add_sources(out, src, "kmod", w);
	if (!rc)
		rc = tune_bundle_add_sources(out, src, "core", w);
	if (!rc)
		rc = tune_bundle_add_sources(out, src, "core/include", w);
	if (!rc)
		rc = tune_bundle_add_module(out, bo->module, w);
	if (!rc)
		rc = tune_bundle_add_memtune(out, c, bo->memtune, w);
	if (!rc)
		rc = tune_bundle_add_exports(out, c, o, w);
	releases(out, rel, sizeof(rel));
	if (!rc && !rel[0])
		tune_export_warn(w, "the bundle carries no prebuilt memreg.ko "
				 "(--module): install.sh needs dkms on the "
				 "target");
	if (!rc)
		rc = tune_bundle_add_conf(out, c, o, rel, w);
	if (!rc)
		rc = add_text(out, "install.sh", 0755, tune_bundle_install_sh);
	if (!rc)
		rc = add_text(out, "README", 0644, tune_bundle_readme);
	if (rc)
		tune_bundle_free(out);
	return rc;
}
