/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export_bundle_int.h - what the files of the bundle share and nothing
 * else includes (the file map is at the top of export_bundle.c).
 */
#ifndef MEMTUNE_EXPORT_BUNDLE_INT_H
#define MEMTUNE_EXPORT_BUNDLE_INT_H

#include "export_bundle.h"

/* Set by the build for export_bundle.c and export_bundle_progs.c. */
#ifndef MEMCAL_BUNDLE_SRC
#define MEMCAL_BUNDLE_SRC ""
#endif
#ifndef MEMCAL_BUNDLE_STATIC_MEMTUNE
#define MEMCAL_BUNDLE_STATIC_MEMTUNE ""
#endif
#define MEMREG_DIR "memreg-" MEMCAL_VERSION
#define BUNDLE_MAX_FILE (256u << 20)

/* export_bundle_tree.c */
int tune_bundle_add(struct tune_bundle *b, const char *path, unsigned mode,
		    bool dir, char *data, size_t len);
int tune_bundle_slurp(const char *path, char **data, size_t *len);

/* export_bundle_progs.c */
int tune_bundle_add_sources(struct tune_bundle *b, const char *src,
			    const char *sub, struct export_warnings *w);
int tune_bundle_add_module(struct tune_bundle *b, const char *ko,
			   struct export_warnings *w);
int tune_bundle_add_memtune(struct tune_bundle *b, const struct tune_config *c,
			    const char *given, struct export_warnings *w);

/* export_bundle_conf.c */
int tune_bundle_add_exports(struct tune_bundle *b, const struct tune_config *c,
			    const struct export_opts *o,
			    struct export_warnings *w);
int tune_bundle_add_conf(struct tune_bundle *b, const struct tune_config *c,
			 const struct export_opts *o, const char *releases,
			 struct export_warnings *w);

#endif /* MEMTUNE_EXPORT_BUNDLE_INT_H */
