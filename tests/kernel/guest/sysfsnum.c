/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sysfsnum - guest-side checks of memreg's number rules and of an exempt
 * CPU's overflows (the "fuzz" groups); loads and unloads /memreg.ko:
 *
 *   sysfs-decimal      a sysfs number is decimal: "010" stages 10, "0x10"
 *                      is refused (EINVAL) with "decimal" in error
 *   lms-mu-below-2     lms_mu 131072 (2.0 in Q16) is refused at the sysfs
 *                      write (ERANGE, the range in error) and as a module
 *                      parameter (insmod fails); 131071 is accepted
 *   exempt-one-trace   cpu1 exempt (rt_exempt=1), page-faults on the slack
 *                      scheme, spare sharing on, a page-fault hog on cpu1:
 *                      its counter keeps overflowing after the budget is
 *                      used up, yet each exhausted period is traced (and
 *                      may poke the master) once: memreg:throttle events
 *                      of cpu1 <= its exempt_overruns + 2
 *
 *   sysfsnum [-k MODULE]
 *
 * Exit status: 0 when every check passed, 1 otherwise, 2 on bad usage.
 * Linked statically, with checklib, for the initramfs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checklib.h"

static const char *ko = "/memreg.ko";
static int failed;

#define result(name, pass, ...) \
	(failed |= !mr_check(name, pass, __VA_ARGS__))

static void decimal(void)
{
	char err[256] = "", v1[32], v2[32];
	int r1, r2;

	r1 = mr_put("010", "lms_mu");
	mr_gets(v1, sizeof(v1), "lms_mu");
	r2 = mr_put("0x10", "lms_mu");
	mr_gets(err, sizeof(err), "error");
	mr_gets(v2, sizeof(v2), "lms_mu");
	result("sysfs-decimal", !r1 && !strcmp(v1, "10") && r2 == -EINVAL &&
	       strstr(err, "decimal") && !strcmp(v2, "10"),
	       "\"010\": rc=%d staged %s; \"0x10\": rc=%d staged %s error \"%s\"",
	       r1, v1, r2, v2, err);
}

static void mu(void)
{
	char err[256] = "";
	int r1, r2, i1, i2;

	r1 = mr_put("131072", "lms_mu");
	mr_gets(err, sizeof(err), "error");
	r2 = mr_put("131071", "lms_mu");
	mr_rmmod();
	i1 = mr_insmod(ko, "lms_mu=131072");
	if (!i1)
		mr_rmmod();
	i2 = mr_insmod(ko, "lms_mu=131071");
	result("lms-mu-below-2", r1 == -ERANGE && strstr(err, "131071") && !r2 &&
	       i1 && !i2,
	       "sysfs 131072: rc=%d error \"%s\"; 131071: rc=%d; insmod lms_mu=131072 rc=%d, "
	       "131071 rc=%d", r1, err, r2, i1, i2);
	if (!i2)
		mr_rmmod();
}

static void exempt(void)
{
	char *hog[] = { "/pfload", "-c", "1", "-t", "3", NULL };
	char line[512];
	long long o0, x0, o, x, n = 0;
	FILE *f;
	pid_t h;

	if (mr_insmod(ko, "cpus=0,1 period_us=10000 read_budget=400,50 "
		      "platform_read=1000 slack_div=16 share=1 rt_exempt=1")) {
		result("exempt-one-trace", 0, "insmod failed");
		return;
	}
	mr_trace_on("throttle");
	o0 = mr_cpu(1, "overflows");
	x0 = mr_cpu(1, "exempt_overruns");
	h = mr_spawn(NULL, hog);
	mr_sleep(2);
	o = mr_cpu(1, "overflows") - o0;
	x = mr_cpu(1, "exempt_overruns") - x0;
	mr_trace_off("throttle");
	if (h > 0) {
		kill(h, SIGKILL);
		mr_reap(h);
	}
	f = fopen(MR_TRACE "/trace", "r");
	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, "throttle: cpu=1 ") != NULL;
	if (f)
		fclose(f);
	mr_rmmod();
	result("exempt-one-trace", x > 10 && o > 2 * x && n <= x + 2,
	       "cpu1 exempt: %lld overflows, %lld exempt overruns, %lld memreg:throttle events",
	       o, x, n);
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "k:")) != -1) {
		if (opt != 'k') {
			fprintf(stderr, "usage: sysfsnum [-k MODULE]\n");
			return 2;
		}
		ko = optarg;
	}
	mr_plan("sysfs-decimal", "lms-mu-below-2", "exempt-one-trace", NULL);
	if (mr_insmod(ko, "cpus=1")) {
		result("sysfs-decimal", 0, "insmod failed");
		return 1;
	}
	decimal();
	mu();
	exempt();
	return failed;
}
