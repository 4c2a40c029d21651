/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_platform.h - the board both tools work on: its topology as hwloc
 * describes it (packages, NUMA nodes with their memory, cores, hardware
 * threads and every cache level with its size, line size and the CPUs that
 * share it), and its identity as the database stores it (names and the
 * fingerprint that ties a calibration or a tuned configuration to a board).
 * The one public header of the memcal_platform library (platform/).
 *
 * Source of the description, in order of precedence:
 *   1. a synthetic description passed by the caller (tests),
 *   2. $HWLOC_XMLFILE (a recorded board, e.g. tests/fixtures/topology/),
 *   3. $HWLOC_SYNTHETIC,
 *   4. this machine.
 * A file or description that does not parse is an error, never a silent
 * fall-back to this machine.  CPU numbers are OS numbers everywhere.
 */
#ifndef MEMCAL_PLATFORM_H
#define MEMCAL_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hwloc.h>
#include <jansson.h>

#include "memcal_status.h"

/**
 * struct memcal_cache - one cache object.
 * @level:    1, 2, 3 ...
 * @type:     'd' data, 'i' instruction, 'u' unified.
 * @size:     bytes.
 * @line:     line size in bytes (0 if unknown).
 * @cpus:     OS CPU list sharing it, as text ("0-3").
 * @n_cpus:   number of PUs sharing it.
 */
struct memcal_cache {
	int level;
	char type;
	uint64_t size;
	unsigned line;
	char cpus[64];
	unsigned n_cpus;
};

/**
 * struct memcal_node - one NUMA node.
 * @os_index: node number as the OS numbers it.
 * @memory:   local memory in bytes.
 * @cpus:     OS CPU list of the node, as text.
 */
struct memcal_node {
	int os_index;
	uint64_t memory;
	char cpus[64];
};

/**
 * struct memcal_topology - a loaded board description.
 * @hw:          the hwloc topology (owned).
 * @this_system: true when it describes the machine we run on (binding and
 *               measuring are meaningful).
 * @source:      "this machine", "xml:<path>" or "synthetic:<desc>".
 * @n_packages, @n_nodes, @n_cores, @n_pus: counts.
 * @cpus:        OS numbers of the first PU of every core, ascending
 *               (what "a core" means for --cores).
 * @pus:         OS numbers of every PU, ascending.
 * @caches:      every data/unified cache, sorted by level then first CPU.
 * @n_caches:    entries in @caches.
 * @line_size:   cache line size to use for strides: the largest line any
 *               cache reports, else 64 bytes.
 * @nodes:       NUMA nodes, @n_nodes entries.
 */
struct memcal_topology {
	hwloc_topology_t hw;
	bool this_system;
	char source[320];
	unsigned n_packages, n_nodes, n_cores, n_pus;
	unsigned *cpus;
	unsigned *pus;
	struct memcal_cache *caches;
	unsigned n_caches;
	unsigned line_size;
	struct memcal_node *nodes;
};

int memcal_platform_topology_load(struct memcal_topology *t, const char *synthetic,
			 char *err, size_t errlen);
void memcal_platform_topology_free(struct memcal_topology *t);

bool memcal_platform_topology_has_pu(const struct memcal_topology *t, unsigned cpu);
/* What memcal_platform_topology_cpu_node() returns for a CPU without one. */
#define MEMCAL_PLATFORM_NODE_UNKNOWN (-1)
int memcal_platform_topology_cpu_node(const struct memcal_topology *t, unsigned cpu);
const struct memcal_cache *
memcal_platform_topology_llc(const struct memcal_topology *t, unsigned cpu);
json_t *memcal_platform_topology_to_json(const struct memcal_topology *t);
int memcal_platform_cpulist_format(const unsigned *cpus, size_t n, char *buf,
			  size_t len);
const char *memcal_platform_sysfs_root(void);

struct memcal_platform;	/* memcal_db.h: the row this fills */

int memcal_platform_describe(const struct memcal_topology *t,
			     struct memcal_platform *p);

#endif /* MEMCAL_PLATFORM_H */
