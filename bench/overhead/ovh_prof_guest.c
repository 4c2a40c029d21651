// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_prof_guest.c - markers and addresses for bench/overhead's
 * instruction profile (ovh_prof_guest.h).  The marker is AArch64's
 * unallocated hint #0x7d, which every CPU executes as a NOP and the
 * plugin recognises; other architectures have no profile.
 */
#include <stdio.h>
#include <string.h>

#include "ovh_prof_guest.h"

static unsigned marks;

/* memreg's code sections that kallsyms names no function in. */
static const char *const plt_sections[] = {
	".plt", ".text.ftrace_trampoline",
};

unsigned ovh_prof_mark(void)
{
#if defined(__aarch64__)
	__asm__ volatile("hint #0x7d" ::: "memory");
#endif
	return marks++;
}

int ovh_prof_boot(unsigned load)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long a;
	char t, name[256];
	int rc = -1;

	if (!f) {
		printf("OVH-ERROR profile: /proc/kallsyms unreadable\n");
		return -1;
	}
	while (fscanf(f, "%llx %c %255s%*[^\n]", &a, &t, name) == 3)
		if (!strcmp(name, "_stext")) {
			rc = a ? 0 : -1;
			break;
		}
	fclose(f);
	if (rc)
		printf("OVH-ERROR profile: no address for _stext in "
		       "/proc/kallsyms (kptr_restrict?)\n");
	else
		printf("OVH-PROF load=%u kernel_text=%llx\n", load, a);
	return rc;
}

int ovh_prof_module(const char *cell, unsigned load)
{
	FILE *f = fopen("/proc/modules", "r");
	unsigned long long base = 0, size = 0, a;
	char line[512], name[256], t;
	int found = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "memreg %llu %*s %*s %*s %llx", &size,
			   &base) == 2) {
			found = 1;
			break;
		}
	if (f)
		fclose(f);
	if (!found || !base) {
		printf("OVH-ERROR cell=%s load=%u profile: no memreg line "
		       "with an address in /proc/modules\n", cell, load);
		return -1;
	}
	printf("OVH-MODULE-RANGE cell=%s load=%u base=%llx size=%llu\n",
	       cell, load, base, size);
	f = fopen("/proc/kallsyms", "r");
	if (!f) {
		printf("OVH-ERROR cell=%s load=%u profile: /proc/kallsyms "
		       "unreadable\n", cell, load);
		return -1;
	}
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "\t[memreg]") &&
		    sscanf(line, "%llx %c %255s", &a, &t, name) == 3 &&
		    (t == 't' || t == 'T'))
			printf("OVH-SYM cell=%s load=%u %llx %s\n", cell, load,
			       a, name);
	fclose(f);
	/*
	 * Code without symbols: the veneers through which the module calls
	 * kernel functions out of branch range (arm64 module PLTs; how many
	 * calls need one depends on where KASLR put the module).
	 */
	for (size_t i = 0; i < sizeof(plt_sections) / sizeof(*plt_sections);
	     i++) {
		char path[128];

		snprintf(path, sizeof(path), "/sys/module/memreg/sections/%s",
			 plt_sections[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llx", &a) == 1 && a)
			printf("OVH-SYM cell=%s load=%u %llx [%s]\n", cell,
			       load, a, plt_sections[i]);
		fclose(f);
	}
	return 0;
}
