// SPDX-License-Identifier: GPL-2.0-only
/*
 * export_bundle.c - memtune export --format bundle: one folder (or ustar
 * archive) with everything a target needs to run memreg with a tuned
 * configuration:
 *   memreg-VERSION/       memreg's DKMS source tree (kmod/, core/,
 *                         dkms.conf), from tune_bundle_kmod_src()
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
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_bundle.h"

#ifndef MEMCAL_BUNDLE_SRC
#define MEMCAL_BUNDLE_SRC ""
#endif
#ifndef MEMCAL_BUNDLE_STATIC_MEMTUNE
#define MEMCAL_BUNDLE_STATIC_MEMTUNE ""
#endif
#define MEMREG_DIR "memreg-" MEMCAL_VERSION
#define BUNDLE_MAX_FILE (256u << 20)

/* add - append a file (taking @data) or a folder.  Return 0 or ENOMEM. */
static int add(struct tune_bundle *b, const char *path, unsigned mode,
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

/* slurp - @path's bytes into a new buffer.  Return 0 or a status. */
static int slurp_file(const char *path, char **data, size_t *len)
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

/* kmod_tree_ok - @dir holds kmod/Kbuild, kmod/dkms.conf, core/memreg.h. */
static bool kmod_tree_ok(const char *dir)
{
	static const char *const need[] = { "kmod/Kbuild", "kmod/Makefile",
					    "kmod/dkms.conf", "core/memreg.h" };
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

/* add_sources - @src/@sub's source files as memreg-VERSION/@sub/. */
static int add_sources(struct tune_bundle *b, const char *src, const char *sub,
		       struct export_warnings *w)
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
	rc = add(b, rel, 0755, true, NULL, 0);
	for (int i = 0; i < n; i++) {
		char *data = NULL;
		size_t len = 0;

		if (!rc) {
			snprintf(path, sizeof(path), "%s/%s", dir,
				 ents[i]->d_name);
			snprintf(rel, sizeof(rel), MEMREG_DIR "/%s/%s", sub,
				 ents[i]->d_name);
			rc = slurp_file(path, &data, &len);
			if (rc)
				rc = tune_export_refuse(w, "cannot read %s: %s",
							path, strerror(errno));
			else
				rc = add(b, rel, 0644, false, data, len);
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
 * add_memtune - bin/memtune: @given, else this memtune when it is static,
 * else the build's static one; only a static program of the
 * configuration's architecture.  What is left out is a warning: the
 * target then needs memtune installed another way.
 */
static int add_memtune(struct tune_bundle *b, const struct tune_config *c,
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
		rc = slurp_file(p, &data, &len);
		if (rc)
			return tune_export_refuse(w, "cannot read %s", p);
		rc = add(b, "bin", 0755, true, NULL, 0);
		return rc ? rc : add(b, "bin/memtune", 0755, false, data, len);
	}
	tune_export_warn(w, "the bundle carries no memtune (%s for %s): the "
			 "target needs one installed; build it with 'cmake "
			 "--build BUILD --target memtune-static' (x86_64) or "
			 "'scripts/arm64/cross-quick --static' (aarch64) and "
			 "give --bundle-memtune", why, c->arch);
	return 0;
}

/* add_module - prebuilt/REL/memreg.ko from @ko (its vermagic's REL). */
static int add_module(struct tune_bundle *b, const char *ko,
		      struct export_warnings *w)
{
	char rel[128], path[256], *data = NULL;
	size_t len = 0;
	int rc;

	if (!ko)
		return 0;
	if (slurp_file(ko, &data, &len))
		return tune_export_refuse(w, "--module %s cannot be read", ko);
	if (tune_bundle_ko_release(data, len, rel, sizeof(rel))) {
		free(data);
		return tune_export_refuse(w, "--module %s has no vermagic: it is "
					  "not a kernel module", ko);
	}
	snprintf(path, sizeof(path), "prebuilt/%s", rel);
	rc = add(b, "prebuilt", 0755, true, NULL, 0);
	if (!rc)
		rc = add(b, path, 0755, true, NULL, 0);
	snprintf(path, sizeof(path), "prebuilt/%s/memreg.ko", rel);
	return rc ? (free(data), rc) : add(b, path, 0644, false, data, len);
}

/* add_text - a file of @text (copied). */
static int add_text(struct tune_bundle *b, const char *path, unsigned mode,
		    const char *text)
{
	char *d = strdup(text);

	return d ? add(b, path, mode, false, d, strlen(d)) : MEMCAL_ENOMEM;
}

/*
 * add_exports - the configuration, the unit, the modprobe.d file (the
 * modprobe export and the install line) and the modules-load.d file.
 */
static int add_exports(struct tune_bundle *b, const struct tune_config *c,
		       const struct export_opts *o, struct export_warnings *w)
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
		rc = add(b, "tuned-config.json", 0644, false, text, len);
	/* the unit's own hint (install the JSON by hand) is install.sh's job */
	if (!rc)
		rc = render(tune_export_systemd, c, o, &ww, &text, &len);
	if (!rc)
		rc = add(b, "memreg-tune.service", 0644, false, text, len);
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
	rc = add(b, "modprobe.d", 0755, true, NULL, 0);
	if (!rc)
		rc = add(b, "modprobe.d/memreg.conf", 0644, false, mp,
			 strlen(mp));
	else
		free(mp);
	if (!rc)
		rc = render(tune_export_modules_load, c, o, &ww, &text, &len);
	if (!rc)
		rc = add(b, "modules-load.d", 0755, true, NULL, 0);
	if (!rc)
		rc = add(b, "modules-load.d/memreg.conf", 0644, false, text,
			 len);
	merge(w, &ww);
out:
	if (rc == MEMCAL_EREFUSED && !w->error[0])
		snprintf(w->error, sizeof(w->error), "%s", ww.error);
	return rc;
}

/*
 * add_conf - bundle.conf: what install.sh installs where, as sh
 * assignments of quoted words (install.sh sources it).
 */
static int add_conf(struct tune_bundle *b, const struct tune_config *c,
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
	return add(b, "bundle.conf", 0644, false, text, strlen(text));
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
	rc = add(out, MEMREG_DIR, 0755, true, NULL, 0);
	snprintf(path, sizeof(path), "%s/kmod/dkms.conf", src);
	if (!rc && !(rc = slurp_file(path, &data, &len)))
		rc = add(out, MEMREG_DIR "/dkms.conf", 0644, false, data, len);
	else if (!rc)
		rc = tune_export_refuse(w, "cannot read %s", path);
	if (!rc)
		rc = add_sources(out, src, "kmod", w);
	if (!rc)
		rc = add_sources(out, src, "core", w);
	if (!rc)
		rc = add_module(out, bo->module, w);
	if (!rc)
		rc = add_memtune(out, c, bo->memtune, w);
	if (!rc)
		rc = add_exports(out, c, o, w);
	releases(out, rel, sizeof(rel));
	if (!rc && !rel[0])
		tune_export_warn(w, "the bundle carries no prebuilt memreg.ko "
				 "(--module): install.sh needs dkms on the "
				 "target");
	if (!rc)
		rc = add_conf(out, c, o, rel, w);
	if (!rc)
		rc = add_text(out, "install.sh", 0755, tune_bundle_install_sh);
	if (!rc)
		rc = add_text(out, "README", 0644, tune_bundle_readme);
	if (rc)
		tune_bundle_free(out);
	return rc;
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
