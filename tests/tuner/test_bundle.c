// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_bundle.c - the deployment bundle (memtune export --format bundle)
 * from the fixed configuration of the export tests: its file list and
 * generated files against golden files (tests/fixtures/export/bundle_*),
 * memreg's sources byte for byte as the source tree has them, the
 * prebuilt module placed by its vermagic, the static memtune taken only
 * for the configuration's architecture, the folder never written over,
 * and the ustar writer read back by tar(1).
 * MEMCAL_UPDATE_GOLDEN=1 rewrites the golden files (review the diff).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export_bundle.h"
#include "golden.h"
#include "tuned_config.h"

#define FIX MEMCAL_SOURCE_DIR "/tests/fixtures/export/"
#define KSRC MEMCAL_SOURCE_DIR "/regulator"

/* load - the export tests' fixture configuration. */
static struct tune_config *load(void)
{
	struct tune_config *c = calloc(1, sizeof(*c));
	char *text = slurp(FIX "config.json"), err[512];

	cr_assert(text);
	cr_assert_eq(tune_config_from_text(text, c, err, sizeof(err)), 0, "%s", err);
	free(text);
	return c;
}

/* scratch - a new temporary folder. */
static char *scratch(void)
{
	char *d = strdup("/tmp/test_bundle.XXXXXX");

	cr_assert(mkdtemp(d));
	return d;
}

/* put - write @len bytes of @data to @path. */
static void put(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	cr_assert(f, "%s", path);
	cr_assert_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* fake_ko - a file with a module's vermagic, enough for the bundle. */
static void fake_ko(const char *path, const char *rel)
{
	char buf[256];
	int n = snprintf(buf, sizeof(buf), "\177ELF....license=GPL%cvermagic=%s "
			 "SMP preempt mod_unload modversions %cname=memreg",
			 0, rel, 0);

	put(path, buf, (size_t)n);
}

/*
 * fake_elf - a 64-bit little-endian ELF header for @machine (62 x86-64,
 * 183 aarch64) with one program header, PT_INTERP when @dynamic.
 */
static void fake_elf(const char *path, unsigned machine, bool dynamic)
{
	unsigned char b[64 + 56] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };

	b[18] = machine & 0xff;
	b[19] = machine >> 8;
	b[32] = 64;		/* e_phoff */
	b[54] = 56;		/* e_phentsize */
	b[56] = 1;		/* e_phnum */
	b[64] = dynamic ? 3 : 1;	/* PT_INTERP or PT_LOAD */
	put(path, b, sizeof(b));
}

/* find - the bundle's entry @path, or NULL. */
static const struct bundle_file *find(const struct tune_bundle *b,
				      const char *path)
{
	for (int i = 0; i < b->n; i++)
		if (!strcmp(b->f[i].path, path))
			return &b->f[i];
	return NULL;
}

/* build - the bundle of the fixture with @bo; 0 or the status. */
static int build(const struct bundle_opts *bo, struct tune_bundle *b,
		 struct export_warnings *w)
{
	struct tune_config *c = load();
	struct export_opts o = { .config_id = 7 };
	int rc;

	memset(w, 0, sizeof(*w));
	rc = tune_bundle_build(c, &o, bo, b, w);
	free(c);
	return rc;
}

/*
 * listing - the bundle's entries, one a line: mode, path and, for the
 * installer, README, bundle.conf and the module, the size; the others
 * by name only (the sources change with every edit of the module, the
 * exports have golden files of their own).
 */
static char *listing(const struct tune_bundle *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (int i = 0; i < b->n; i++) {
		const struct bundle_file *e = &b->f[i];

		if (e->dir)
			fprintf(f, "d %04o %s/\n", e->mode, e->path);
		else if (strcmp(e->path, "install.sh") &&
			 strcmp(e->path, "README") &&
			 strcmp(e->path, "bundle.conf") &&
			 strncmp(e->path, "prebuilt/", 9))
			fprintf(f, "f %04o %s\n", e->mode, e->path);
		else
			fprintf(f, "f %04o %s %zu\n", e->mode, e->path, e->len);
	}
	fclose(f);
	return text;
}

Test(bundle, file_list_and_generated_files)
{
	char *d = scratch(), ko[512], *text;
	struct bundle_opts bo = { .kmod_src = KSRC, .module = ko,
				  .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;
	const char *gen[][2] = {
		{ "bundle.conf", "bundle_conf.golden" },
		{ "modprobe.d/memreg.conf", "bundle_modprobe.golden" },
		{ "modules-load.d/memreg.conf", "bundle_modules_load.golden" },
	};

	snprintf(ko, sizeof(ko), "%s/memreg.ko", d);
	fake_ko(ko, "6.1.0-99-test-amd64");
	cr_assert_eq(build(&bo, &b, &w), 0, "%s", w.error);
	text = listing(&b);
	golden_check(FIX "bundle_list.golden", text);
	free(text);
	for (size_t i = 0; i < sizeof(gen) / sizeof(gen[0]); i++) {
		const struct bundle_file *e = find(&b, gen[i][0]);
		char path[512];

		cr_assert(e, "%s missing", gen[i][0]);
		snprintf(path, sizeof(path), FIX "%s", gen[i][1]);
		golden_check(path, e->data);
	}
	/* the templates as tuner/bundle/ has them */
	text = slurp(MEMCAL_SOURCE_DIR "/tuner/bundle/install.sh");
	cr_assert_str_eq(find(&b, "install.sh")->data, text);
	free(text);
	cr_assert_eq(find(&b, "install.sh")->mode, 0755);
	/* the unit is the systemd export's: it runs 'memtune apply' */
	cr_assert(strstr(find(&b, "memreg-tune.service")->data,
			 "\nExecStart=/usr/local/bin/memtune apply --file "
			 "/etc/memcal/tuned-config.json\n"));
	cr_assert_eq(find(&b, "prebuilt/6.1.0-99-test-amd64/memreg.ko")->len,
		     (size_t)(strlen("\177ELF....license=GPL") + 1 +
			      strlen("vermagic=6.1.0-99-test-amd64 SMP preempt "
				     "mod_unload modversions ") + 1 +
			      strlen("name=memreg")));
	tune_bundle_free(&b);
	unlink(ko);
	rmdir(d);
	free(d);
}

/* every source file DKMS builds from, byte for byte; at least @min of them */
static void same_sources(const struct tune_bundle *b, const char *sub,
			 int min)
{
	char dir[512], path[1024], rel[512];
	struct dirent *e;
	DIR *dd;
	int n = 0;

	snprintf(dir, sizeof(dir), KSRC "/%s", sub);
	dd = opendir(dir);
	cr_assert(dd);
	while ((e = readdir(dd))) {
		size_t len = strlen(e->d_name);
		const struct bundle_file *f;
		char *text;

		if (strcmp(e->d_name, "Kbuild") && strcmp(e->d_name, "Makefile") &&
		    strcmp(e->d_name, "dkms.conf") &&
		    !(len > 2 && e->d_name[len - 2] == '.' &&
		      strchr("ch", e->d_name[len - 1])))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(rel, sizeof(rel), "memreg-" MEMCAL_VERSION "/%s/%s", sub,
			 e->d_name);
		f = find(b, rel);
		cr_assert(f, "%s is not in the bundle", rel);
		text = slurp(path);
		cr_assert_eq(f->len, strlen(text), "%s", rel);
		cr_assert_eq(memcmp(f->data, text, f->len), 0, "%s differs", rel);
		free(text);
		n++;
	}
	closedir(dd);
	cr_assert_geq(n, min, "%d files in %s", n, sub);
}

Test(bundle, dkms_tree_is_the_source)
{
	struct bundle_opts bo = { .kmod_src = KSRC, .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;
	char *conf;

	cr_assert_eq(build(&bo, &b, &w), 0, "%s", w.error);
	same_sources(&b, "kmod", 6);
	same_sources(&b, "core", 6);
	same_sources(&b, "core/include", 3);
	conf = slurp(KSRC "/kmod/dkms.conf");
	cr_assert_str_eq(find(&b, "memreg-" MEMCAL_VERSION "/dkms.conf")->data,
			 conf);
	cr_assert(strstr(conf, "PACKAGE_VERSION=\"" MEMCAL_VERSION "\""),
		  "dkms.conf's version is not memcal's: the bundle's folder "
		  "name would not match");
	free(conf);
	/* no prebuilt module: said, and bundle.conf lists none */
	cr_assert(strstr(find(&b, "bundle.conf")->data, "PREBUILT=''\n"));
	cr_assert(!find(&b, "prebuilt"));
	tune_bundle_free(&b);
}

Test(bundle, paths_quoted)
{
	struct tune_config *c = load();
	struct export_opts o = { .memtune_path = "/opt/mem tune/memtune",
				 .config_path = "/etc/it's here/c.json" };
	struct bundle_opts bo = { .kmod_src = KSRC, .memtune = "" };
	struct export_warnings w = { 0 };
	struct tune_bundle b;

	cr_assert_eq(tune_bundle_build(c, &o, &bo, &b, &w), 0, "%s", w.error);
	cr_assert(strstr(find(&b, "bundle.conf")->data,
			 "\nMEMTUNE_PATH='/opt/mem tune/memtune'\n"
			 "CONFIG_PATH='/etc/it'\\''s here/c.json'\n"),
		  "%s", find(&b, "bundle.conf")->data);
	cr_assert(strstr(find(&b, "modprobe.d/memreg.conf")->data,
			 "\ninstall memreg '/opt/mem tune/memtune' apply --file "
			 "'/etc/it'\\''s here/c.json'\n"));
	tune_bundle_free(&b);
	/* install.sh installs at absolute paths only */
	o.config_path = "etc/c.json";
	memset(&w, 0, sizeof(w));
	cr_assert_eq(tune_bundle_build(c, &o, &bo, &b, &w), MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "is not an absolute path"), "%s", w.error);
	free(c);
}

Test(bundle, kmod_src_refused_with_reason)
{
	struct bundle_opts bo = { .kmod_src = "/nonexistent/regulator",
				  .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;

	cr_assert_eq(build(&bo, &b, &w), MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "memreg's sources were not found in "
			 "/nonexistent/regulator"), "%s", w.error);
	cr_assert_eq(b.n, 0);
}

Test(bundle, module_without_vermagic_refused)
{
	char *d = scratch(), ko[512];
	struct bundle_opts bo = { .kmod_src = KSRC, .module = ko, .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;

	snprintf(ko, sizeof(ko), "%s/memreg.ko", d);
	put(ko, "not a module", 12);
	cr_assert_eq(build(&bo, &b, &w), MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "has no vermagic"), "%s", w.error);
	unlink(ko);
	rmdir(d);
	free(d);
}

Test(bundle, memtune_only_static_for_the_arch)
{
	char *d = scratch(), st[512], dyn[512], arm[512], arch[32];
	struct bundle_opts bo = { .kmod_src = KSRC, .memtune = st };
	struct export_warnings w;
	struct tune_bundle b;
	bool is_static;

	snprintf(st, sizeof(st), "%s/static", d);
	snprintf(dyn, sizeof(dyn), "%s/dynamic", d);
	snprintf(arm, sizeof(arm), "%s/arm", d);
	fake_elf(st, 62, false);
	fake_elf(dyn, 62, true);
	fake_elf(arm, 183, false);
	cr_assert_eq(tune_bundle_elf_arch(dyn, arch, sizeof(arch), &is_static), 0);
	cr_assert_str_eq(arch, "x86_64");
	cr_assert(!is_static);
	cr_assert_eq(tune_bundle_elf_arch(arm, arch, sizeof(arch), &is_static), 0);
	cr_assert_str_eq(arch, "aarch64");
	cr_assert(is_static);
	/* the fixture is an x86_64 board */
	cr_assert_eq(build(&bo, &b, &w), 0, "%s", w.error);
	cr_assert_eq(find(&b, "bin/memtune")->len, 64 + 56);
	cr_assert_eq(find(&b, "bin/memtune")->mode, 0755);
	tune_bundle_free(&b);
	bo.memtune = dyn;
	cr_assert_eq(build(&bo, &b, &w), MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "is a dynamic program for x86_64"), "%s", w.error);
	bo.memtune = arm;
	cr_assert_eq(build(&bo, &b, &w), MEMCAL_EREFUSED);
	cr_assert(strstr(w.error, "is aarch64, the configuration is for x86_64"),
		  "%s", w.error);
	/* none asked: said, not an error */
	bo.memtune = "";
	cr_assert_eq(build(&bo, &b, &w), 0);
	cr_assert(!find(&b, "bin/memtune"));
	tune_bundle_free(&b);
	unlink(st);
	unlink(dyn);
	unlink(arm);
	rmdir(d);
	free(d);
}

Test(bundle, ko_release)
{
	static const char ko[] = "x\0vermagic=6.1.0-57-rt-amd64 SMP preempt_rt "
				 "mod_unload\0";
	char rel[64];

	cr_assert_eq(tune_bundle_ko_release(ko, sizeof(ko), rel, sizeof(rel)), 0);
	cr_assert_str_eq(rel, "6.1.0-57-rt-amd64");
	cr_assert_eq(tune_bundle_ko_release("vermagic=../x y", 15, rel,
					    sizeof(rel)), MEMCAL_ESYNTAX);
	cr_assert_eq(tune_bundle_ko_release("no magic", 8, rel, sizeof(rel)),
		     MEMCAL_ESYNTAX);
}

Test(bundle, folder_never_overwritten)
{
	char *d = scratch(), out[512], keep[600], *text;
	struct bundle_opts bo = { .kmod_src = KSRC, .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;
	char err[512];
	struct stat st;

	cr_assert_eq(build(&bo, &b, &w), 0);
	snprintf(out, sizeof(out), "%s/b", d);
	cr_assert_eq(tune_bundle_write_dir(&b, out, err, sizeof(err)), 0, "%s", err);
	snprintf(keep, sizeof(keep), "%s/install.sh", out);
	cr_assert_eq(stat(keep, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0755);
	/* a second write refuses and leaves the first one as it was */
	put(keep, "mine", 4);
	cr_assert_eq(tune_bundle_write_dir(&b, out, err, sizeof(err)),
		     MEMCAL_EREFUSED);
	cr_assert(strstr(err, "is not an empty folder"), "%s", err);
	text = slurp(keep);
	cr_assert_str_eq(text, "mine");
	free(text);
	tune_bundle_free(&b);
	snprintf(keep, sizeof(keep), "rm -rf %s", d);
	cr_assert_eq(system(keep), 0);
	free(d);
}

Test(bundle, tar_read_back_by_tar)
{
	char *d = scratch(), tar[512], cmd[2048], *text;
	char long_dir[160], long_path[300];
	FILE *f;

	/* a path over 100 bytes goes into the ustar prefix field */
	memset(long_dir, 'd', 120);
	long_dir[120] = '\0';
	snprintf(long_path, sizeof(long_path), "top/%s/file.txt", long_dir);
	snprintf(tar, sizeof(tar), "%s/t.tar", d);
	f = fopen(tar, "wb");
	cr_assert(f);
	cr_assert_eq(tune_tar_add(f, "top", 0755, true, NULL, 0, 1700000000), 0);
	cr_assert_eq(tune_tar_add(f, "top/run.sh", 0755, false, "#!/bin/sh\n",
				  10, 1700000000), 0);
	cr_assert_eq(tune_tar_add(f, "top/empty", 0644, false, "", 0,
				  1700000000), 0);
	cr_assert_eq(tune_tar_add(f, long_path, 0600, false, "x", 1,
				  1700000000), 0);
	cr_assert_eq(tune_tar_add(f, "/abs", 0644, false, "", 0, 0),
		     MEMCAL_EREFUSED);
	memset(long_path, 'p', 200);
	long_path[200] = '\0';	/* no '/' to split at */
	cr_assert_eq(tune_tar_add(f, long_path, 0644, false, "", 0, 0),
		     MEMCAL_EREFUSED);
	cr_assert_eq(tune_tar_finish(f), 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd %s && tar -xf t.tar && test -x top/run.sh "
		 "&& test -f top/empty && ! test -s top/empty && "
		 "test \"$(stat -c %%a top/%s/file.txt)\" = 600 && "
		 "test \"$(stat -c %%Y top/run.sh)\" = 1700000000 && "
		 "tar -tvf t.tar > list.txt", d, long_dir);
	cr_assert_eq(system(cmd), 0, "tar could not read the archive back");
	snprintf(cmd, sizeof(cmd), "%s/top/run.sh", d);
	text = slurp(cmd);
	cr_assert_str_eq(text, "#!/bin/sh\n");
	free(text);
	snprintf(cmd, sizeof(cmd), "%s/top/%s/file.txt", d, long_dir);
	text = slurp(cmd);
	cr_assert_str_eq(text, "x");
	free(text);
	snprintf(cmd, sizeof(cmd), "%s/list.txt", d);
	text = slurp(cmd);
	cr_assert(strstr(text, "root/root"), "%s", text);
	free(text);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", d);
	cr_assert_eq(system(cmd), 0);
	free(d);
}

Test(bundle, tar_of_bundle_equals_folder)
{
	char *d = scratch(), cmd[2048], out[512];
	struct bundle_opts bo = { .kmod_src = KSRC, .memtune = "" };
	struct export_warnings w;
	struct tune_bundle b;
	char err[512];
	FILE *f;

	cr_assert_eq(build(&bo, &b, &w), 0);
	snprintf(out, sizeof(out), "%s/dir", d);
	cr_assert_eq(tune_bundle_write_dir(&b, out, err, sizeof(err)), 0, "%s", err);
	snprintf(out, sizeof(out), "%s/b.tar", d);
	f = fopen(out, "wb");
	cr_assert(f);
	cr_assert_eq(tune_bundle_write_tar(&b, f, 1700000000), 0);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir x && tar -xf b.tar -C x && "
		 "diff -r dir x/memreg-bundle && test -x x/memreg-bundle/install.sh",
		 d);
	cr_assert_eq(system(cmd), 0, "the tar's bundle differs from the folder");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", d);
	cr_assert_eq(system(cmd), 0);
	tune_bundle_free(&b);
	free(d);
}
