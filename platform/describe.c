// SPDX-License-Identifier: GPL-2.0-only
/*
 * describe.c - the identity of the machine memcal runs on, as the
 * database's platform row holds it: host, architecture, kernel, CPU model,
 * the topology's counts and JSON, and the fingerprint that says two runs
 * were on the same board.
 */
#include "memcal_platform.h"
#include "memcal_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* cpu_model - "model name" (x86) or "CPU implementer/part" (Arm). */
static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], impl[32] = "", part[32] = "";

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!c)
			continue;
		c++;
		c += strspn(c, " \t");
		c[strcspn(c, "\n")] = '\0';
		if (strncmp(line, "model name", 10) == 0) {
			snprintf(buf, len, "%s", c);
			fclose(f);
			return;
		}
		if (strncmp(line, "CPU implementer", 15) == 0 && !impl[0])
			snprintf(impl, sizeof(impl), "%s", c);
		if (strncmp(line, "CPU part", 8) == 0 && !part[0])
			snprintf(part, sizeof(part), "%s", c);
	}
	fclose(f);
	if (impl[0] || part[0])
		snprintf(buf, len, "implementer %s part %s", impl, part);
}

/* fnv1a - 64-bit FNV-1a of @s continuing from @h. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

/*
 * memcal_platform_describe - fill @p from this machine's identity and
 * the topology @t.  The fingerprint hashes the CPU model, architecture
 * and the topology's shape (counts and caches), so the same board gets
 * the same row across runs.  Returns 0 or MEMCAL_ENOMEM.
 */
int memcal_platform_describe(const struct memcal_topology *t,
			     struct memcal_platform *p)
{
	struct utsname u;
	json_t *topo = memcal_platform_topology_to_json(t), *shape;
	char *shape_txt;
	uint64_t h[4];

	memset(p, 0, sizeof(*p));
	if (!topo)
		return MEMCAL_ENOMEM;
	if (uname(&u) == 0) {
		snprintf(p->hostname, sizeof(p->hostname), "%s", u.nodename);
		snprintf(p->arch, sizeof(p->arch), "%.31s", u.machine);
		snprintf(p->kernel, sizeof(p->kernel), "%s", u.release);
	}
	cpu_model(p->cpu_model, sizeof(p->cpu_model));
	p->packages = (int)t->n_packages;
	p->numa_nodes = (int)t->n_nodes;
	p->cores = (int)t->n_cores;
	p->pus = (int)t->n_pus;
	p->topology_json = json_dumps(topo, JSON_COMPACT | JSON_SORT_KEYS);
	shape = json_deep_copy(topo);
	json_object_del(shape, "source");
	shape_txt = json_dumps(shape, JSON_COMPACT | JSON_SORT_KEYS);
	for (unsigned i = 0; i < 4; i++) {
		h[i] = 0xcbf29ce484222325ull ^ (0x9e3779b97f4a7c15ull * (i + 1));
		h[i] = fnv1a(h[i], p->cpu_model);
		h[i] = fnv1a(h[i], p->arch);
		h[i] = fnv1a(h[i], shape_txt ? shape_txt : "");
	}
	snprintf(p->fingerprint, sizeof(p->fingerprint),
		 "%016llx%016llx%016llx%016llx", (unsigned long long)h[0],
		 (unsigned long long)h[1], (unsigned long long)h[2],
		 (unsigned long long)h[3]);
	free(shape_txt);
	json_decref(shape);
	json_decref(topo);
	return p->topology_json ? 0 : -1;
}
