/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export_bundle.h - the deployment bundle (memtune export --format
 * bundle): every file a target needs, built in memory, then written as a
 * folder or a ustar archive (export_tar.c).
 */
#ifndef MEMTUNE_EXPORT_BUNDLE_H
#define MEMTUNE_EXPORT_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "export.h"

/**
 * struct bundle_file - one file (or folder) of the bundle.
 * @path: relative path inside the bundle.
 * @mode: permission bits.
 * @dir:  a folder (@data unused).
 * @data: contents.
 * @len:  bytes of @data.
 */
struct bundle_file {
	char *path;
	unsigned mode;
	bool dir;
	char *data;
	size_t len;
};

/**
 * struct tune_bundle - the bundle's files, folders before what they hold.
 * @f:   the files.
 * @n:   how many.
 * @cap: allocated.
 */
struct tune_bundle {
	struct bundle_file *f;
	int n, cap;
};

/**
 * struct bundle_opts - where the bundle's parts come from.
 * @kmod_src: folder holding memreg's kmod/ and core/ (NULL: the rule of
 *            tune_bundle_kmod_src()).
 * @module:   a prebuilt memreg.ko to carry for its kernel (NULL: none).
 * @memtune:  a static memtune to carry (NULL: the build's static one,
 *            when there is one; "" none).
 */
struct bundle_opts {
	const char *kmod_src;
	const char *module;
	const char *memtune;
};

int tune_bundle_build(const struct tune_config *c, const struct export_opts *o,
		      const struct bundle_opts *b, struct tune_bundle *out,
		      struct export_warnings *w);
void tune_bundle_free(struct tune_bundle *b);
int tune_bundle_write_dir(const struct tune_bundle *b, const char *dir,
			  char *err, size_t errlen);
int tune_bundle_write_tar(const struct tune_bundle *b, FILE *out,
			  long long mtime);
const char *tune_bundle_kmod_src(const char *given, char *buf, size_t len);
int tune_bundle_elf_arch(const char *path, char *arch, size_t len,
			 bool *is_static);
int tune_bundle_ko_release(const char *data, size_t len, char *rel,
			   size_t rlen);

int tune_tar_add(FILE *out, const char *path, unsigned mode, bool dir,
		 const void *data, size_t len, long long mtime);
int tune_tar_finish(FILE *out);

/* The templates, from tuner/bundle/ (bundle_templates.c, generated). */
extern const char tune_bundle_install_sh[];
extern const char tune_bundle_readme[];

#endif /* MEMTUNE_EXPORT_BUNDLE_H */
