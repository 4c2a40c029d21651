// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_bundle_tree.c - the bundle's files in memory, folders before
 * what they hold, and the bundle written as a folder (all or nothing)
 * or as a ustar archive (export_tar.c).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_bundle_int.h"

/* tune_bundle_add() - append a file (taking @data) or a folder.  Return 0
 * or MEMCAL_ENOMEM. */
int tune_bundle_add(struct tune_bundle *b, const char *path, unsigned mode,
		    bool dir, char *data, size_t len)
{
	struct bundle_file *f;

	if (b->n == b->cap) {
		int cap = b->cap ? 2 * b->cap : 32;
		void *p = realloc(b->f, (size_t)cap * sizeof(*b->f));

		if (!p)
			goto nomem;
		b->f = p;
		b->cap = cap;
	}
	f = &b->f[b->n];
	f->path = strdup(path);
	if (!f->path)
		goto nomem;
	f->mode = mode;
	f->dir = dir;
	f->data = data;
	f->len = len;
	b->n++;
	return 0;
nomem:
	free(data);
	return MEMCAL_ENOMEM;
}

/* tune_bundle_slurp() - @path's bytes into a new buffer.  Return 0 or a
 * status. */
int tune_bundle_slurp(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;
	long sz;

	*data = NULL;
	if (!f)
		return MEMCAL_ECANTOPEN;
	if (fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 ||
	    (unsigned long)sz > BUNDLE_MAX_FILE || fseek(f, 0, SEEK_SET))
		goto io;
	buf = malloc((size_t)sz + 1);
	if (!buf) {
		fclose(f);
		return MEMCAL_ENOMEM;
	}
	n = fread(buf, 1, (size_t)sz, f);
	if (n != (size_t)sz || ferror(f))
		goto io;
	fclose(f);
	buf[n] = '\0';
	*data = buf;
	*len = n;
	return 0;
io:
	free(buf);
	fclose(f);
	return MEMCAL_EIO;
}

/** tune_bundle_free() - release what tune_bundle_build() made. */
void tune_bundle_free(struct tune_bundle *b)
{
	for (int i = 0; i < b->n; i++) {
		free(b->f[i].path);
		free(b->f[i].data);
	}
	free(b->f);
	memset(b, 0, sizeof(*b));
}

/* write_all - @b's files under @root.  Return 0 or errno. */
static int write_all(const struct tune_bundle *b, const char *root)
{
	char path[8192];

	for (int i = 0; i < b->n; i++) {
		const struct bundle_file *f = &b->f[i];
		FILE *out;
		int err = 0;

		snprintf(path, sizeof(path), "%s/%s", root, f->path);
		if (f->dir) {
			if (mkdir(path, f->mode) && errno != EEXIST)
				return errno;
			continue;
		}
		out = fopen(path, "wbx");
		if (!out)
			return errno;
		if (fwrite(f->data, 1, f->len, out) != f->len)
			err = errno ? errno : EIO;
		if (fchmod(fileno(out), f->mode) && !err)
			err = errno;
		if (fclose(out) && !err)
			err = errno ? errno : EIO;
		if (err)
			return err;
	}
	return 0;
}

/* remove_tree - remove what write_all() made under @root, and @root. */
static void remove_tree(const struct tune_bundle *b, const char *root)
{
	char path[8192];

	for (int i = b->n - 1; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s", root, b->f[i].path);
		if (b->f[i].dir)
			rmdir(path);
		else
			unlink(path);
	}
	rmdir(root);
}

/* dir_empty - @dir is a folder with nothing in it. */
static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/**
 * tune_bundle_write_dir() - @b as the folder @dir, which must not exist
 * or be empty: the files are written into a sibling folder first and
 * renamed into place, so a failure leaves nothing half written and an
 * existing bundle (or anything else) is never overwritten.
 * Return: 0, or a status with @err.
 */
int tune_bundle_write_dir(const struct tune_bundle *b, const char *dir,
			  char *err, size_t errlen)
{
	char tmp[4200];
	struct stat st;
	int e;

	if (!stat(dir, &st) && (!S_ISDIR(st.st_mode) || !dir_empty(dir))) {
		snprintf(err, errlen, "%s exists and is not an empty folder: "
			 "give a new folder (nothing was written)", dir);
		return MEMCAL_EREFUSED;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.partial-%ld", dir, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		snprintf(err, errlen, "%s: path too long", dir);
		return MEMCAL_EINVAL;
	}
	if (mkdir(tmp, 0755)) {
		snprintf(err, errlen, "cannot create %s: %s", tmp,
			 strerror(errno));
		return MEMCAL_ECANTOPEN;
	}
	e = write_all(b, tmp);
	if (!e && rename(tmp, dir))
		e = errno;
	if (e) {
		remove_tree(b, tmp);
		snprintf(err, errlen, "cannot write the bundle to %s: %s", dir,
			 strerror(e));
		return MEMCAL_EIO;
	}
	return 0;
}

/**
 * tune_bundle_write_tar() - @b as a ustar archive on @out, every path
 * under "memreg-bundle/", each entry's mtime @mtime.
 * Return: 0 or a status.
 */
int tune_bundle_write_tar(const struct tune_bundle *b, FILE *out,
			  long long mtime)
{
	char path[1024];
	int rc = tune_tar_add(out, "memreg-bundle", 0755, true, NULL, 0, mtime);

	for (int i = 0; !rc && i < b->n; i++) {
		snprintf(path, sizeof(path), "memreg-bundle/%s", b->f[i].path);
		rc = tune_tar_add(out, path, b->f[i].mode, b->f[i].dir,
				  b->f[i].data, b->f[i].len, mtime);
	}
	return rc ? rc : tune_tar_finish(out);
}
