// SPDX-License-Identifier: GPL-2.0-only
/*
 * identity.c - content keys for what memtune's records were made from.
 * A key is the 64-bit FNV-1a hash of the bytes, in hex: a check against
 * accidental change (an edited mix, a rebuilt binary), not against
 * someone forging a collision.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "identity.h"
#include "workload_run.h"

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* fnv - fold @n bytes at @p into @h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * FNV_PRIME;
	return h;
}

/*
 * fnv_file - fold the contents of @path into *@h; 0, MEMCAL_ECANTOPEN or
 * MEMCAL_EIO (errno says why).
 */
static int fnv_file(const char *path, uint64_t *h)
{
	unsigned char buf[65536];
	FILE *f = fopen(path, "rb");
	size_t n;

	if (!f)
		return MEMCAL_ECANTOPEN;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		*h = fnv(*h, buf, n);
	n = (size_t)ferror(f);
	fclose(f);
	return n ? MEMCAL_EIO : 0;
}

/**
 * tune_ident_binary() - the identity of the binary @argv0 runs: its path after
 * PATH lookup (as tune_runner_start() resolves it), size and content hash.
 * Return: 0, or a MEMCAL_E* code with @err when it cannot be found or read.
 */
int tune_ident_binary(const char *argv0, struct memcal_binary *b, char *err,
		 size_t errlen)
{
	uint64_t h = FNV_OFFSET;
	struct stat st;

	memset(b, 0, sizeof(*b));
	b->size = -1;
	if (tune_runner_resolve(argv0, b->path, sizeof(b->path))) {
		snprintf(err, errlen, "'%s' is not an executable file here "
			 "(looked up along $PATH)", argv0);
		return MEMCAL_ENOTFOUND;
	}
	if (stat(b->path, &st) || fnv_file(b->path, &h)) {
		snprintf(err, errlen, "cannot read %s: %s", b->path,
			 strerror(errno));
		return MEMCAL_EIO;
	}
	b->size = (int64_t)st.st_size;
	snprintf(b->hash, sizeof(b->hash), "%016llx", (unsigned long long)h);
	return 0;
}

/**
 * tune_ident_inputs_key() - the key of everything a plan is computed from: the
 * mix file's bytes, the profiles of its workloads, the platform profile
 * and overhead measurement, its guaranteed figures, the options
 * (@assume_ns, the candidate periods, --guarantees-from-streaming) and
 * this memtune's version.
 * Return: 0, or a MEMCAL_E* code with @err when the mix file cannot be read.
 */
int tune_ident_inputs_key(const struct tune_inputs *ti, double assume_ns,
		     char key[65], char *err, size_t errlen)
{
	const struct plan_input *in = &ti->in;
	uint64_t h = fnv(FNV_OFFSET, MEMCAL_VERSION, sizeof(MEMCAL_VERSION));

	if (fnv_file(in->mix->path, &h)) {
		snprintf(err, errlen, "cannot read %s: %s", in->mix->path,
			 strerror(errno));
		return MEMCAL_EIO;
	}
	for (int i = 0; i < in->mix->n; i++)
		h = fnv(h, &in->prof[i].id, sizeof(in->prof[i].id));
	h = fnv(h, &in->platform_id, sizeof(in->platform_id));
	h = fnv(h, &in->calibration_run_id, sizeof(in->calibration_run_id));
	h = fnv(h, &in->overhead_run_id, sizeof(in->overhead_run_id));
	h = fnv(h, &assume_ns, sizeof(assume_ns));
	h = fnv(h, in->periods_us, sizeof(in->periods_us));
	h = fnv(h, in->guaranteed_bps, sizeof(in->guaranteed_bps));
	h = fnv(h, &in->guarantees_from_streaming,
		sizeof(in->guarantees_from_streaming));
	snprintf(key, 65, "%016llx", (unsigned long long)h);
	return 0;
}
