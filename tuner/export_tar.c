// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_tar.c - a POSIX ustar writer for the deployment bundle: regular
 * files and folders, owner root, one fixed mtime.  No library on the
 * build machines writes tar (libarchive's headers are not installed), and
 * the bundle needs nothing beyond what POSIX.1-1988 ustar carries: a
 * path up to 255 bytes (prefix + name), files under 8 GiB.
 */
#include <stdio.h>
#include <string.h>

#include "export_bundle.h"

#define TAR_BLOCK 512

/*
 * octal - @v as @len - 1 octal digits and a NUL in @f (the ustar
 * numeric fields).  Return: 0, or MEMCAL_EREFUSED when @v does not fit.
 */
static int octal(char *f, size_t len, unsigned long long v)
{
	char tmp[32];

	if (snprintf(tmp, sizeof(tmp), "%0*llo", (int)(len - 1), v) !=
	    (int)(len - 1))
		return MEMCAL_EREFUSED;
	memcpy(f, tmp, len);
	return 0;
}

/*
 * split - put @path into the header's name (100) and prefix (155) fields,
 * splitting at a '/'.  Return: 0, or MEMCAL_EREFUSED when no split fits.
 */
static int split(char *hdr, const char *path)
{
	size_t n = strlen(path);

	if (n <= 100) {
		memcpy(hdr, path, n);
		return 0;
	}
	for (size_t i = n - 1; i > 0; i--) {
		if (path[i] != '/')
			continue;
		if (i > 155)
			continue;
		if (n - i - 1 > 100 || n - i - 1 == 0)
			return MEMCAL_EREFUSED;
		memcpy(hdr + 345, path, i);
		memcpy(hdr, path + i + 1, n - i - 1);
		return 0;
	}
	return MEMCAL_EREFUSED;
}

/**
 * tune_tar_add() - one entry of a ustar archive: a folder (@dir, @data
 * unused) or a regular file of @len bytes.
 * @out:   the archive.
 * @path:  its path in the archive, relative, no trailing '/'.
 * @mode:  permission bits.
 * @mtime: seconds since the epoch.
 * Return: 0, MEMCAL_EREFUSED when the path or size cannot be carried by
 * ustar, MEMCAL_EIO on a write error.
 */
int tune_tar_add(FILE *out, const char *path, unsigned mode, bool dir,
		 const void *data, size_t len, long long mtime)
{
	static const char zero[TAR_BLOCK];
	char hdr[TAR_BLOCK] = { 0 }, full[512];
	unsigned sum = 0;

	if (!path[0] || path[0] == '/' ||
	    snprintf(full, sizeof(full), "%s%s", path, dir ? "/" : "") >=
	    (int)sizeof(full) || split(hdr, full))
		return MEMCAL_EREFUSED;
	if (octal(hdr + 100, 8, mode & 07777) || octal(hdr + 108, 8, 0) ||
	    octal(hdr + 116, 8, 0) || octal(hdr + 124, 12, dir ? 0 : len) ||
	    octal(hdr + 136, 12, mtime < 0 ? 0 : (unsigned long long)mtime))
		return MEMCAL_EREFUSED;
	memset(hdr + 148, ' ', 8);
	hdr[156] = dir ? '5' : '0';
	memcpy(hdr + 257, "ustar", 6);
	memcpy(hdr + 263, "00", 2);
	memcpy(hdr + 265, "root", 4);
	memcpy(hdr + 297, "root", 4);
	for (size_t i = 0; i < TAR_BLOCK; i++)
		sum += (unsigned char)hdr[i];
	snprintf(hdr + 148, 8, "%06o", sum);
	if (fwrite(hdr, 1, TAR_BLOCK, out) != TAR_BLOCK)
		return MEMCAL_EIO;
	if (dir || !len)
		return 0;
	if (fwrite(data, 1, len, out) != len ||
	    fwrite(zero, 1, (TAR_BLOCK - len % TAR_BLOCK) % TAR_BLOCK, out) !=
	    (TAR_BLOCK - len % TAR_BLOCK) % TAR_BLOCK)
		return MEMCAL_EIO;
	return 0;
}

/** tune_tar_finish() - the two zero blocks that end an archive. */
int tune_tar_finish(FILE *out)
{
	static const char zero[2 * TAR_BLOCK];

	return fwrite(zero, 1, sizeof(zero), out) == sizeof(zero) ? 0 :
	       MEMCAL_EIO;
}
