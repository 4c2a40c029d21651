// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_topology.c - topology handling on boards this machine is not:
 * a 4 x Cortex-A53 board with one shared 1 MiB L2 and no L3, a 2-socket
 * NUMA server (recorded hwloc XML in tests/fixtures/topology), synthetic
 * descriptions, and files that do not parse.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "buffers.h"
#include "memcal_platform.h"

#define FIXTURES MEMCAL_SOURCE_DIR "/tests/fixtures/topology/"

/* load_xml - load a fixture through $HWLOC_XMLFILE, as memcal run does. */
static int load_xml(struct memcal_topology *t, const char *name, char *err,
		    size_t len)
{
	setenv("HWLOC_XMLFILE", name, 1);
	int rc = memcal_platform_topology_load(t, NULL, err, len);

	unsetenv("HWLOC_XMLFILE");
	return rc;
}

Test(topology, cortex_a53_board_has_shared_l2_and_no_l3)
{
	struct memcal_topology t;
	char err[256] = "";
	const struct memcal_cache *llc;

	cr_assert_eq(load_xml(&t, FIXTURES "cortex-a53-4core.xml", err,
			      sizeof(err)), 0, "%s", err);
	cr_expect_not(t.this_system);
	cr_expect_eq(t.n_packages, 1);
	cr_expect_eq(t.n_nodes, 1);
	cr_expect_eq(t.n_cores, 4);
	cr_expect_eq(t.n_pus, 4);
	for (unsigned i = 0; i < t.n_caches; i++)
		cr_expect_lt(t.caches[i].level, 3, "no L3 on this board");
	for (unsigned cpu = 0; cpu < 4; cpu++) {
		llc = memcal_platform_topology_llc(&t, cpu);
		cr_assert_not_null(llc);
		cr_expect_eq(llc->level, 2);
		cr_expect_eq(llc->size, 1 << 20);
		cr_expect_eq(llc->n_cpus, 4);
		cr_expect_str_eq(llc->cpus, "0-3");
		cr_expect_eq(memcal_platform_topology_cpu_node(&t, cpu), 0);
	}
	/* 8 x 1 MiB is below the floor: the floor applies. */
	cr_expect_eq(cal_buffer_default_size(&t, 0, false),
		     MEMCAL_BUF_MIN_BYTES);
	cr_expect(memcal_platform_topology_has_pu(&t, 3));
	cr_expect_not(memcal_platform_topology_has_pu(&t, 4));
	cr_expect(strstr(t.source, "cortex-a53-4core.xml") != NULL);
	memcal_platform_topology_free(&t);
}

Test(topology, two_socket_numa_server)
{
	struct memcal_topology t;
	char err[256] = "";
	const struct memcal_cache *llc;

	cr_assert_eq(load_xml(&t, FIXTURES "numa-2socket.xml", err,
			      sizeof(err)), 0, "%s", err);
	cr_expect_eq(t.n_packages, 2);
	cr_expect_eq(t.n_nodes, 2);
	cr_expect_eq(t.n_cores, 16);
	cr_expect_eq(t.n_pus, 32);
	cr_expect_eq(t.nodes[0].memory, 64ull << 30);
	/* One core = its first PU: 0, 2, 4, ... */
	cr_expect_eq(t.cpus[0], 0);
	cr_expect_eq(t.cpus[1], 2);
	cr_expect_eq(memcal_platform_topology_cpu_node(&t, 0), 0);
	cr_expect_eq(memcal_platform_topology_cpu_node(&t, 31), 1);
	llc = memcal_platform_topology_llc(&t, 20);
	cr_assert_not_null(llc);
	cr_expect_eq(llc->level, 3);
	cr_expect_eq(llc->size, 32ull << 20);
	cr_expect_str_eq(llc->cpus, "16-31");
	cr_expect_eq(cal_buffer_default_size(&t, 20, false),
		     MEMCAL_BUF_LLC_FACTOR * (32ull << 20));
	cr_expect_eq(cal_buffer_default_size(&t, 20, true),
		     MEMCAL_BUF_LLC_FACTOR_QUICK * (32ull << 20));
	/* a run's buffers: the CPUs' default, or the size asked for */
	cr_expect_eq(cal_buffer_size_for(&t, (const unsigned[]){ 0, 20 }, 2, 0,
					 false),
		     MEMCAL_BUF_LLC_FACTOR * (32ull << 20));
	cr_expect_eq(cal_buffer_size_for(&t, (const unsigned[]){ 0, 20 }, 2,
					 3ull << 20, false), 3ull << 20);
	memcal_platform_topology_free(&t);
}

/*
 * A cache larger than any real chip has per PU (a hypervisor's CPUID
 * figure) sizes buffers from the bound; a big but real one does not.
 */
Test(topology, implausible_llc_sizes_from_the_bound)
{
	struct memcal_topology t;
	char err[256] = "";
	const struct memcal_cache *llc;
	bool implausible = false;

	cr_assert_eq(memcal_platform_topology_load(&t, "pack:1 l3:2(size=508MiB) "
					  "core:1 pu:1", err, sizeof(err)),
		     0, "%s", err);
	llc = memcal_platform_topology_llc(&t, 1);
	cr_assert_not_null(llc);
	cr_expect_eq(llc->size, 508ull << 20);
	cr_expect_eq(cal_llc_sizing_bytes(llc, &implausible),
		     MEMCAL_LLC_MAX_PER_PU);
	cr_expect(implausible);
	cr_expect_eq(cal_buffer_default_size(&t, 1, true),
		     MEMCAL_BUF_LLC_FACTOR_QUICK * MEMCAL_LLC_MAX_PER_PU);
	cr_expect_eq(cal_buffer_default_size(&t, 1, false),
		     MEMCAL_BUF_LLC_FACTOR * MEMCAL_LLC_MAX_PER_PU);
	memcal_platform_topology_free(&t);

	/* 96 MiB shared by 8 cores (a stacked-cache part): kept as is */
	cr_assert_eq(memcal_platform_topology_load(&t, "pack:1 l3:1(size=96MiB) "
					  "core:8 pu:1", err, sizeof(err)),
		     0, "%s", err);
	llc = memcal_platform_topology_llc(&t, 3);
	cr_assert_not_null(llc);
	cr_expect_eq(llc->n_cpus, 8);
	cr_expect_eq(cal_llc_sizing_bytes(llc, &implausible), 96ull << 20);
	cr_expect_not(implausible);
	cr_expect_eq(cal_buffer_default_size(&t, 3, false),
		     MEMCAL_BUF_LLC_FACTOR * (96ull << 20));
	cr_expect_eq(cal_llc_sizing_bytes(NULL, &implausible), 0);
	memcal_platform_topology_free(&t);
}

Test(topology, synthetic_description_and_json)
{
	struct memcal_topology t;
	char err[256] = "";
	json_t *doc;

	cr_assert_eq(memcal_platform_topology_load(&t, "pack:1 l3:1(size=8MiB) core:2 "
					  "pu:2", err, sizeof(err)), 0, "%s",
		     err);
	cr_expect_eq(t.n_cores, 2);
	cr_expect_eq(t.n_pus, 4);
	cr_expect_eq(t.line_size, 64);
	doc = memcal_platform_topology_to_json(&t);
	cr_assert_not_null(doc);
	cr_expect_eq(json_integer_value(json_object_get(doc, "pus")), 4);
	cr_expect_eq(json_array_size(json_object_get(doc, "caches")), 1);
	json_decref(doc);
	memcal_platform_topology_free(&t);
}

Test(topology, this_machine_loads)
{
	struct memcal_topology t;
	char err[256] = "";

	cr_assert_eq(memcal_platform_topology_load(&t, NULL, err, sizeof(err)), 0, "%s",
		     err);
	cr_expect(t.this_system);
	cr_expect_geq(t.n_cores, 1);
	cr_expect_geq(cal_buffer_default_size(&t, t.cpus[0], true),
		      MEMCAL_BUF_MIN_BYTES);
	memcal_platform_topology_free(&t);
}

Test(topology, malformed_and_missing_files_are_errors)
{
	struct memcal_topology t;
	char err[256] = "";

	cr_expect_eq(load_xml(&t, FIXTURES "malformed.xml", err, sizeof(err)),
		     MEMCAL_ETOPO);
	cr_expect(strstr(err, "malformed.xml") != NULL, "message: %s", err);
	err[0] = '\0';
	cr_expect_eq(load_xml(&t, FIXTURES "no-such-file.xml", err,
			      sizeof(err)), MEMCAL_ETOPO);
	cr_expect(strstr(err, "No such file") != NULL, "message: %s", err);
	cr_expect_eq(memcal_platform_topology_load(&t, "pack:x garbage", err,
					  sizeof(err)), MEMCAL_ETOPO);
}

Test(topology, cpulist_format)
{
	unsigned a[] = { 0, 1, 2, 3, 6, 8, 9 };
	char buf[32];

	cr_expect_eq(memcal_platform_cpulist_format(a, 7, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "0-3,6,8-9");
	cr_expect_eq(memcal_platform_cpulist_format(a, 1, buf, sizeof(buf)), 0);
	cr_expect_str_eq(buf, "0");
	cr_expect_neq(memcal_platform_cpulist_format(a, 7, buf, 4), 0);
}
