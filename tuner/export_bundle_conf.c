// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_bundle_conf.c - what configures the target: the tuned
 * configuration, the unit, the modprobe.d and modules-load.d files (the
 * other export formats, rendered in memory) and bundle.conf, the paths
 * install.sh installs to.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_bundle_int.h"

/* render - one exporter's output into a new buffer. */
static int render(int (*fn)(const struct tune_config *,
			    const struct export_opts *, FILE *,
			    struct export_warnings *),
		  const struct tune_config *c, const struct export_opts *o,
		  struct export_warnings *w, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);
	int rc;

	if (!f)
		return MEMCAL_ENOMEM;
	rc = fn(c, o, f, w);
	if (fclose(f) && !rc)
		rc = MEMCAL_EIO;
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* merge - @from's warnings into @w, each once. */
static void merge(struct export_warnings *w, const struct export_warnings *from)
{
	for (int i = 0; i < from->n; i++) {
		int j = 0;

		while (j < w->n && strcmp(w->text[j], from->text[i]))
			j++;
		if (j == w->n)
			tune_export_warn(w, "%s", from->text[i]);
	}
}

/*
 * tune_bundle_add_exports() - the configuration, the unit, the
 * modprobe.d file (the modprobe export and the install line) and the
 * modules-load.d file.
 */
int tune_bundle_add_exports(struct tune_bundle *b, const struct tune_config *c,
			    const struct export_opts *o,
			    struct export_warnings *w)
{
	const char *bin = o->memtune_path ? o->memtune_path :
			  "/usr/local/bin/memtune";
	const char *file = o->config_path ? o->config_path :
			   "/etc/memcal/tuned-config.json";
	struct export_warnings ww = { 0 };
	char *text = NULL, qbin[8192], qfile[8192], *mp;
	size_t len = 0;
	int rc;

	rc = render(tune_export_json, c, o, &ww, &text, &len);
	if (!rc)
		rc = tune_bundle_add(b, "tuned-config.json", 0644, false, text,
				     len);
	/* the unit's own hint (install the JSON by hand) is install.sh's job */
	if (!rc)
		rc = render(tune_export_systemd, c, o, &ww, &text, &len);
	if (!rc)
		rc = tune_bundle_add(b, "memreg-tune.service", 0644, false,
				     text, len);
	ww.n = 0;
	if (!rc)
		rc = render(tune_export_modprobe, c, o, &ww, &text, &len);
	if (rc)
		goto out;
	if (tune_export_sh_quote(bin, qbin, sizeof(qbin)) ||
	    tune_export_sh_quote(file, qfile, sizeof(qfile)) ||
	    strpbrk(bin, "\n\r") || strpbrk(file, "\n\r")) {
		free(text);
		rc = tune_export_refuse(w, "the memtune or configuration path "
					"cannot be written into a modprobe.d "
					"install line");
		goto out;
	}
	if (asprintf(&mp, "%s# memreg loads only through 'memtune apply', which "
		     "checks this unit\n# against the configuration first "
		     "(README): modprobe, a modules-load.d\n# entry or a "
		     "dependency all run this line instead of loading it.\n"
		     "install memreg %s apply --file %s\n", text, qbin,
		     qfile) < 0) {
		free(text);
		rc = MEMCAL_ENOMEM;
		goto out;
	}
	free(text);
	rc = tune_bundle_add(b, "modprobe.d", 0755, true, NULL, 0);
	if (!rc)
		rc = tune_bundle_add(b, "modprobe.d/memreg.conf", 0644, false,
				     mp, strlen(mp));
	else
		free(mp);
	if (!rc)
		rc = render(tune_export_modules_load, c, o, &ww, &text, &len);
	if (!rc)
		rc = tune_bundle_add(b, "modules-load.d", 0755, true, NULL, 0);
	if (!rc)
		rc = tune_bundle_add(b, "modules-load.d/memreg.conf", 0644,
				     false, text, len);
	merge(w, &ww);
out:
	if (rc == MEMCAL_EREFUSED && !w->error[0])
		snprintf(w->error, sizeof(w->error), "%s", ww.error);
	return rc;
}

/*
 * tune_bundle_add_conf() - bundle.conf: what install.sh installs where, as sh
 * assignments of quoted words (install.sh sources it).
 */
int tune_bundle_add_conf(struct tune_bundle *b, const struct tune_config *c,
			 const struct export_opts *o, const char *releases,
			 struct export_warnings *w)
{
	const char *bin = o->memtune_path ? o->memtune_path :
			  "/usr/local/bin/memtune";
	const char *file = o->config_path ? o->config_path :
			   "/etc/memcal/tuned-config.json";
	char qbin[8192], qfile[8192], qarch[128], *text;

	if (bin[0] != '/' || file[0] != '/')
		return tune_export_refuse(w, "the bundle installs memtune and the "
					  "configuration at absolute paths: "
					  "--memtune and --config-path must "
					  "start with '/'");
	if (tune_export_sh_quote(bin, qbin, sizeof(qbin)) ||
	    tune_export_sh_quote(file, qfile, sizeof(qfile)) ||
	    tune_export_sh_quote(c->arch, qarch, sizeof(qarch)))
		return tune_export_refuse(w, "a path is too long for bundle.conf");
	if (asprintf(&text, "# bundle.conf - read by install.sh (sh "
		     "assignments); written by memtune export\n"
		     "BUNDLE_FORMAT=1\n"
		     "MEMREG_VERSION=%s\n"
		     "MEMREG_DIR=%s\n"
		     "CONFIG_ID=%lld\n"
		     "ARCH=%s\n"
		     "MEMTUNE_PATH=%s\n"
		     "CONFIG_PATH=%s\n"
		     "UNIT=memreg-tune.service\n"
		     "PREBUILT='%s'\n", MEMCAL_VERSION, MEMREG_DIR,
		     o->config_id, qarch, qbin, qfile, releases) < 0)
		return MEMCAL_ENOMEM;
	return tune_bundle_add(b, "bundle.conf", 0644, false, text,
			       strlen(text));
}
