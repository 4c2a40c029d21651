/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memreg_fuzz - guest-side sysfs fuzzer for the memreg QEMU checks.
 *
 *   memreg_fuzz [-n WRITES] [-s SEED] [ROOT]      (ROOT: /sys/kernel/memreg)
 *
 * For every writable file under ROOT and ROOT/cpu*\/ it makes WRITES writes
 * of random input: garbage bytes (with NULs), huge and negative numbers,
 * long strings, values with and without a newline, valid numbers and event
 * names.  Each write must either be refused with the file unchanged, or be
 * accepted with the file then reading back the value written.  The commit
 * file only gets garbage (a fuzzed staged configuration could legitimately
 * select a 10 us period, which livelocks an emulated CPU); at the end the
 * staged changes are discarded with "0".
 *
 * Prints "memreg_fuzz files=F writes=W accepted=A refused=R bad=B" and one
 * "BAD ..." line per inconsistency (at most 20); exit status 1 if B > 0.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long writes, accepted, refused, bad;

/* Read a sysfs file into @buf (NUL-terminated, newline stripped). */
static int readf(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

/* Write @len bytes to @path in one write(); returns write()'s result. */
static ssize_t writef(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	close(fd);
	return n;
}

/* Fill @buf with one random input; returns its length. */
static size_t gen(char *buf, size_t cap, int is_commit)
{
	static const char *const words[] = {
		"0", "1", "2", "10", "1000", "64", "-1", "-0", "+5", "0x10",
		"010", "18446744073709551615", "18446744073709551616",
		"99999999999999999999999999", "-9223372036854775808",
		"4294967295", "4294967296", "page-faults", "cpu-clock", "none",
		"raw:0x17", "1:2", "1:0", "4:", ":", "raw:", "1:99999999999",
		" 1", "1 ", "1\n\n", "", "\n", "abc", "1e3", "0b1",
	};
	size_t n, i;
	int k = rand() % 6;

	if (is_commit && k >= 3)
		k = 0;
	switch (k) {
	case 0:			/* garbage, NULs included */
		n = rand() % 64;
		for (i = 0; i < n; i++)
			buf[i] = (char)(rand() % 256);
		if (is_commit && n && (buf[0] == '0' || buf[0] == '1'))
			buf[0] = 'x';
		return n;
	case 1:			/* long string */
		n = 32 + rand() % (cap - 32);
		memset(buf, '7', n);
		return n;
	case 2:			/* no terminator, embedded NUL */
		return (size_t)snprintf(buf, cap, "%d", rand() % 100) + 1;
	case 3:			/* a word, with or without newline */
		n = (size_t)snprintf(buf, cap, "%s%s", words[rand() % (sizeof(words) / sizeof(words[0]))],
				     rand() % 2 ? "\n" : "");
		return n;
	case 4:			/* small valid number */
		return (size_t)snprintf(buf, cap, "%d\n", rand() % 2000);
	default:		/* large number */
		return (size_t)snprintf(buf, cap, "%llu",
					((unsigned long long)rand() << 33) ^ (unsigned long long)rand());
	}
}

/*
 * After an accepted write of @in (length @len) the file reads back @now:
 * consistent if it is the number kstrtou64(base 10) would parse (sysfs
 * numbers are decimal: "010" is 10, "0x10" must be refused), or the string
 * itself for event files.
 */
static int consistent(const char *in, size_t len, const char *now)
{
	char tmp[4096];
	unsigned long long v;
	char *end;

	if (len >= sizeof(tmp))
		return 0;
	memcpy(tmp, in, len);
	tmp[len] = '\0';
	if (len && tmp[len - 1] == '\n')
		tmp[len - 1] = '\0';
	if (!strcmp(tmp, now))
		return 1;
	if (!isdigit((unsigned char)tmp[tmp[0] == '+']))
		return 0;
	errno = 0;
	v = strtoull(tmp, &end, 10);
	if (errno || *end)
		return 0;
	return strtoull(now, NULL, 10) == v;
}

/* Fuzz one file with @n writes. */
static void fuzz_file(const char *path, long n)
{
	int is_commit = strstr(path, "/commit") != NULL;
	static char in[5000];
	char before[4096], after[4096];

	for (long i = 0; i < n; i++) {
		size_t len = gen(in, sizeof(in), is_commit);
		ssize_t r;

		if (!is_commit && readf(path, before, sizeof(before))) {
			if (bad++ < 20)
				printf("BAD %s: unreadable\n", path);
			return;
		}
		r = writef(path, in, len);
		writes++;
		if (is_commit) {
			if (r >= 0 && len) {
				if (bad++ < 20)
					printf("BAD %s: garbage accepted\n", path);
			} else {
				refused++;
			}
			continue;
		}
		readf(path, after, sizeof(after));
		if (r < 0 || r == 0) {
			refused++;
			if (strcmp(before, after) && bad++ < 20)
				printf("BAD %s: refused write changed '%s' -> '%s'\n",
				       path, before, after);
		} else {
			accepted++;
			if (!consistent(in, len, after) && bad++ < 20)
				printf("BAD %s: accepted '%.*s' but reads '%s'\n",
				       path, (int)(len > 40 ? 40 : len), in, after);
		}
	}
}

/* Fuzz every writable regular file in @dir. */
static int fuzz_dir(const char *dir, long n)
{
	char path[512];
	struct dirent *d;
	struct stat st;
	int files = 0;
	DIR *dp = opendir(dir);

	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) ||
		    !(st.st_mode & S_IWUSR))
			continue;
		fuzz_file(path, n);
		files++;
	}
	closedir(dp);
	return files;
}

/* Entry point: see the header comment. */
int main(int argc, char **argv)
{
	const char *root = "/sys/kernel/memreg";
	char sub[512];
	long n = 1000;
	int opt, files;
	unsigned int seed = 1;

	while ((opt = getopt(argc, argv, "n:s:")) != -1) {
		if (opt == 'n')
			n = atol(optarg);
		else if (opt == 's')
			seed = (unsigned int)atol(optarg);
		else
			return 2;
	}
	if (optind < argc)
		root = argv[optind];
	srand(seed);
	files = fuzz_dir(root, n);
	for (int cpu = 0; cpu < 64; cpu++) {
		snprintf(sub, sizeof(sub), "%s/cpu%d", root, cpu);
		files += fuzz_dir(sub, n);
	}
	snprintf(sub, sizeof(sub), "%s/commit", root);
	writef(sub, "0", 1);
	printf("memreg_fuzz files=%d writes=%ld accepted=%ld refused=%ld bad=%ld\n",
	       files, writes, accepted, refused, bad);
	return bad || !files ? 1 : 0;
}
