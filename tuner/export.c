// SPDX-License-Identifier: GPL-2.0-only
/*
 * export.c - pick the exporter for a format name; collect warnings.
 */
#include <stdarg.h>
#include <string.h>

#include "export.h"
#include "plan.h"

/*
 * bundle_stream - the bundle is many files: cmd_export.c writes it to a
 * folder or a tar file (export_bundle.c); a stream refuses.
 */
static int bundle_stream(const struct tune_config *c,
			 const struct export_opts *o, FILE *out,
			 struct export_warnings *w)
{
	(void)c;
	(void)o;
	(void)out;
	return tune_export_refuse(w, "the bundle format writes many files: "
				  "give --out DIR or --out FILE.tar");
}

/** tune_export_warn() - record what a format cannot express. */
void tune_export_warn(struct export_warnings *w, const char *fmt, ...)
{
	va_list ap;

	if (w->n >= EXPORT_MAX_WARN)
		return;
	va_start(ap, fmt);
	vsnprintf(w->text[w->n++], sizeof(w->text[0]), fmt, ap);
	va_end(ap);
}

/**
 * tune_export_render() - render @c in @format to @out.
 * Return: 0 or an enum export_rc (MEMCAL_EREFUSED with @w->error).
 */
int tune_export_render(const struct tune_config *c, const char *format,
		  const struct export_opts *o, FILE *out,
		  struct export_warnings *w)
{
	static const struct {
		const char *name;
		int (*fn)(const struct tune_config *,
			  const struct export_opts *, FILE *,
			  struct export_warnings *);
	} fmts[] = {
		{ "json", tune_export_json },
		{ "modprobe", tune_export_modprobe },
		{ "modules-load", tune_export_modules_load },
		{ "systemd", tune_export_systemd },
		{ "resctrl", tune_export_resctrl },
		{ "pqos", tune_export_pqos },
		{ "bundle", bundle_stream },
	};
	char numeric[512];

	w->n = 0;
	w->error[0] = '\0';
	/* a plan without a guarantee under load says so in every format */
	if (!strcmp(c->pool_from, "streaming"))
		tune_export_warn(w, "%s", TUNE_STREAMING_WARNING);
	/* memreg's events: resctrl and pqos carry none */
	if (strcmp(format, "resctrl") && strcmp(format, "pqos") &&
	    tune_config_numeric_events(c, numeric, sizeof(numeric)))
		tune_export_warn(w, "%s", numeric);
	for (size_t i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (!strcmp(format, fmts[i].name)) {
			int rc = fmts[i].fn(c, o, out, w);

			if (!rc && (fflush(out) || ferror(out)))
				rc = MEMCAL_EIO;
			return rc;
		}
	return MEMCAL_EFORMAT;
}

/**
 * tune_export_strerror() - a sentence for tune_export_render()'s result @rc: the
 * refusal's reason, or what failed.
 */
const char *tune_export_strerror(int rc, const struct export_warnings *w)
{
	if (rc == MEMCAL_EREFUSED && w->error[0])
		return w->error;
	if (rc == MEMCAL_EFORMAT)
		return "unknown export format";
	return "the output could not be written";
}
