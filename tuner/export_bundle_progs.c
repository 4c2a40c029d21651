// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_bundle_progs.c - what the bundle carries to run on the target:
 * memreg's DKMS source tree (memreg-VERSION/), a prebuilt memreg.ko for
 * its kernel (prebuilt/REL/) and a static memtune (bin/).
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_bundle_int.h"

/* kmod_tree_ok - @dir holds kmod/Kbuild, kmod/dkms.conf and the core's
 * public header core/include/memreg.h. */
static bool kmod_tree_ok(const char *dir)
{
	static const char *const need[] = { "kmod/Kbuild", "kmod/Makefile",
					    "kmod/dkms.conf",
					    "core/include/memreg.h" };
	char p[4096];

	if (!dir || !dir[0])
		return false;
	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if (snprintf(p, sizeof(p), "%s/%s", dir, need[i]) >=
		    (int)sizeof(p) || access(p, R_OK))
			return false;
	return true;
}

/**
 * tune_bundle_kmod_src() - where memreg's sources come from, by the rule
 * 'memtune apply' finds memreg.ko by: the folder given (--kmod-src), else
 * the installed DKMS source (/usr/src/memreg-VERSION, where dkms.conf
 * says to put it), else the source tree this memtune was built from.
 * Each must hold kmod/ and core/ side by side.
 * Return: the folder in @buf, or NULL (none has the sources).
 */
const char *tune_bundle_kmod_src(const char *given, char *buf, size_t len)
{
	const char *try[] = { "/usr/src/" MEMREG_DIR, MEMCAL_BUNDLE_SRC };

	if (given)
		return kmod_tree_ok(given) &&
		       snprintf(buf, len, "%s", given) < (int)len ? buf : NULL;
	for (size_t i = 0; i < sizeof(try) / sizeof(try[0]); i++)
		if (kmod_tree_ok(try[i]) &&
		    snprintf(buf, len, "%s", try[i]) < (int)len)
			return buf;
	return NULL;
}

/* source_file - what DKMS builds from: Kbuild, Makefile, dkms.conf, C. */
static int source_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	if (!strcmp(d->d_name, "Kbuild") || !strcmp(d->d_name, "Makefile") ||
	    !strcmp(d->d_name, "dkms.conf"))
		return 1;
	return n > 2 && d->d_name[n - 2] == '.' &&
	       (d->d_name[n - 1] == 'c' || d->d_name[n - 1] == 'h');
}

/* tune_bundle_add_sources() - @src/@sub's source files as
 * memreg-VERSION/@sub/. */
int tune_bundle_add_sources(struct tune_bundle *b, const char *src,
			    const char *sub, struct export_warnings *w)
{
	struct dirent **ents = NULL;
	char dir[4096], path[4352], rel[512];
	int n, rc = 0;

	snprintf(dir, sizeof(dir), "%s/%s", src, sub);
	n = scandir(dir, &ents, source_file, alphasort);
	if (n < 0)
		return tune_export_refuse(w, "cannot list memreg's sources in "
					  "%s: %s", dir, strerror(errno));
	snprintf(rel, sizeof(rel), MEMREG_DIR "/%s", sub);
	rc = tune_bundle_add(b, rel, 0755, true, NULL, 0);
	for (int i = 0; i < n; i++) {
		char *data = NULL;
		size_t len = 0;

		if (!rc) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 ents[i]->d_name);
			snprintf(rel, sizeof(rel), MEMREG_DIR "/%s/%s", sub,
				 ents[i]->d_name);
			rc = tune_bundle_slurp(path, &data, &len);
			if (rc)
				rc = tune_export_refuse(w, "cannot read %s: %s",
							path, strerror(errno));
			else
				rc = tune_bundle_add(b, rel, 0644, false,
						     data, len);
		}
		free(ents[i]);
	}
	free(ents);
	return rc;
}

/**
 * tune_bundle_ko_release() - the kernel release a module was built for,
 * from its vermagic ("vermagic=6.1.0-28-amd64 SMP preempt ...").
 * Return: 0, or MEMCAL_ESYNTAX when @data has no vermagic.
 */
int tune_bundle_ko_release(const char *data, size_t len, char *rel,
			   size_t rlen)
{
	static const char key[] = "vermagic=";
	const char *p = memmem(data, len, key, sizeof(key) - 1);
	size_t n = 0;

	if (!p)
		return MEMCAL_ESYNTAX;
	p += sizeof(key) - 1;
	while (p + n < data + len && p[n] && p[n] != ' ' && n + 1 < rlen &&
	       (p[n] == '.' || p[n] == '-' || p[n] == '_' || p[n] == '+' ||
		(p[n] >= '0' && p[n] <= '9') || (p[n] >= 'a' && p[n] <= 'z') ||
		(p[n] >= 'A' && p[n] <= 'Z')))
		n++;
	if (!n || (p + n < data + len && p[n] && p[n] != ' '))
		return MEMCAL_ESYNTAX;
	memcpy(rel, p, n);
	rel[n] = '\0';
	return 0;
}

/* tune_bundle_add_module() - prebuilt/REL/memreg.ko from @ko (its
 * vermagic's REL). */
int tune_bundle_add_module(struct tune_bundle *b, const char *ko,
			   struct export_warnings *w)
{
	char rel[128], path[256], *data = NULL;
	size_t len = 0;
	int rc;

	if (!ko)
		return 0;
	if (tune_bundle_slurp(ko, &data, &len))
		return tune_export_refuse(w, "--module %s cannot be read", ko);
	if (tune_bundle_ko_release(data, len, rel, sizeof(rel))) {
		free(data);
		return tune_export_refuse(w, "--module %s has no vermagic: it is "
					  "not a kernel module", ko);
	}
	snprintf(path, sizeof(path), "prebuilt/%s", rel);
	rc = tune_bundle_add(b, "prebuilt", 0755, true, NULL, 0);
	if (!rc)
		rc = tune_bundle_add(b, path, 0755, true, NULL, 0);
	snprintf(path, sizeof(path), "prebuilt/%s/memreg.ko", rel);
	return rc ? (free(data), rc) :
	       tune_bundle_add(b, path, 0644, false, data, len);
}

/* le16, le64 - little-endian fields of an ELF header. */
static unsigned le16(const unsigned char *p)
{
	return p[0] | (unsigned)p[1] << 8;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/**
 * tune_bundle_elf_arch() - the architecture of the 64-bit little-endian
 * ELF program @path ("x86_64", "aarch64", else "unknown") and whether it
 * is static (no program interpreter).
 * Return: 0, or MEMCAL_ESYNTAX when @path is no such program.
 */
int tune_bundle_elf_arch(const char *path, char *arch, size_t len,
			 bool *is_static)
{
	unsigned char h[64], ph[56];
	FILE *f = fopen(path, "rb");
	unsigned mach, phentsize, phnum;
	uint64_t phoff;
	int rc = MEMCAL_ESYNTAX;

	if (!f)
		return MEMCAL_ECANTOPEN;
	if (fread(h, 1, sizeof(h), f) != sizeof(h) || memcmp(h, "\177ELF", 4) ||
	    h[4] != 2 || h[5] != 1)
		goto out;
	mach = le16(h + 18);
	phoff = le64(h + 32);
	phentsize = le16(h + 54);
	phnum = le16(h + 56);
	snprintf(arch, len, "%s", mach == 62 ? "x86_64" : mach == 183 ?
		 "aarch64" : "unknown");
	*is_static = true;
	if (phnum && phentsize < sizeof(ph))
		goto out;
	for (unsigned i = 0; i < phnum; i++) {
		if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) ||
		    fread(ph, 1, sizeof(ph), f) != sizeof(ph))
			goto out;
		if (le16(ph) == 3)	/* PT_INTERP */
			*is_static = false;
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

/*
 * tune_bundle_add_memtune() - bin/memtune: @given, else this memtune
 * when it is static, else the build's static one; only a static program of the
 * configuration's architecture.  What is left out is a warning: the
 * target then needs memtune installed another way.
 */
int tune_bundle_add_memtune(struct tune_bundle *b, const struct tune_config *c,
			    const char *given, struct export_warnings *w)
{
	const char *cand[] = { "/proc/self/exe", MEMCAL_BUNDLE_STATIC_MEMTUNE };
	const char *why = "no static memtune was found";
	char arch[32], *data = NULL;
	size_t len = 0;
	int rc;

	if (given && !given[0])
		return 0;
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		const char *p = given ? given : cand[i];
		bool st = false;

		if (!p[0])
			continue;
		if (tune_bundle_elf_arch(p, arch, sizeof(arch), &st)) {
			if (given)
				return tune_export_refuse(w, "--bundle-memtune "
					"%s is not a 64-bit ELF program", p);
			continue;
		}
		if (!st || strcmp(arch, c->arch)) {
			if (given)
				return tune_export_refuse(w, "--bundle-memtune "
					"%s is %s%s, the configuration is for "
					"%s: give a static memtune for %s",
					p, st ? "" : "a dynamic program for ",
					arch, c->arch, c->arch);
			continue;
		}
		rc = tune_bundle_slurp(p, &data, &len);
		if (rc)
			return tune_export_refuse(w, "cannot read %s", p);
		rc = tune_bundle_add(b, "bin", 0755, true, NULL, 0);
		return rc ? rc : tune_bundle_add(b, "bin/memtune", 0755, false,
						 data, len);
	}
	tune_export_warn(w, "the bundle carries no memtune (%s for %s): the "
			 "target needs one installed; build it with 'cmake "
			 "--build BUILD --target memtune-static' (x86_64) or "
			 "'scripts/arm64/cross-quick --static' (aarch64) and "
			 "give --bundle-memtune", why, c->arch);
	return 0;
}
