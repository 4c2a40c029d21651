// SPDX-License-Identifier: GPL-2.0-only
/*
 * topology.c - load the board description with hwloc and flatten what
 * memcal needs (counts, cores, caches, NUMA nodes) into plain structs.
 */
#include "memcal_platform.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* cmp_unsigned - qsort comparator for unsigned ints. */
static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* cmp_cache - order caches by level, then by first CPU. */
static int cmp_cache(const void *a, const void *b)
{
	const struct memcal_cache *x = a, *y = b;

	if (x->level != y->level)
		return x->level - y->level;
	return strcmp(x->cpus, y->cpus);
}

/*
 * memcal_platform_sysfs_root - where sysfs is read from: $MEMCAL_SYSFS_ROOT, else
 * "/sys".  Tests point it at a recorded tree to describe other boards.
 */
const char *memcal_platform_sysfs_root(void)
{
	const char *r = getenv("MEMCAL_SYSFS_ROOT");

	return (r && *r) ? r : "/sys";
}

/*
 * memcal_platform_cpulist_format - write @n OS CPU numbers as a compact list
 * ("0-3,6").  Returns 0, or MEMCAL_ERANGE when @buf is too small (it is
 * truncated).
 */
int memcal_platform_cpulist_format(const unsigned *cpus, size_t n, char *buf,
			  size_t len)
{
	size_t i = 0, off = 0;

	if (!len)
		return MEMCAL_ERANGE;
	buf[0] = '\0';
	while (i < n) {
		size_t j = i;
		int w;

		while (j + 1 < n && cpus[j + 1] == cpus[j] + 1)
			j++;
		if (j == i)
			w = snprintf(buf + off, len - off, "%s%u",
				     off ? "," : "", cpus[i]);
		else
			w = snprintf(buf + off, len - off, "%s%u-%u",
				     off ? "," : "", cpus[i], cpus[j]);
		if (w < 0 || (size_t)w >= len - off)
			return MEMCAL_ERANGE;
		off += (size_t)w;
		i = j + 1;
	}
	return 0;
}

/*
 * use_synthetic - point hwloc at the synthetic description @desc, called
 * @what in the error when it does not parse.
 */
static int use_synthetic(struct memcal_topology *t, const char *desc,
			 const char *what, char *err, size_t errlen)
{
	snprintf(t->source, sizeof(t->source), "synthetic:%s", desc);
	if (hwloc_topology_set_synthetic(t->hw, desc) < 0) {
		memcal_errf(err, errlen, "%s '%s' does not parse", what, desc);
		return MEMCAL_ETOPO;
	}
	return MEMCAL_OK;
}

/* choose_source - point hwloc at the description the caller asked for. */
static int choose_source(struct memcal_topology *t, const char *synthetic,
			 char *err, size_t errlen)
{
	const char *xml = getenv("HWLOC_XMLFILE");
	const char *env_syn = getenv("HWLOC_SYNTHETIC");

	if (synthetic)
		return use_synthetic(t, synthetic, "synthetic topology", err,
				     errlen);
	if (xml && *xml) {
		snprintf(t->source, sizeof(t->source), "xml:%s", xml);
		if (access(xml, R_OK) != 0) {
			memcal_errf(err, errlen,
				"topology file '%s' (HWLOC_XMLFILE): %s", xml,
				strerror(errno));
			return MEMCAL_ETOPO;
		}
		if (hwloc_topology_set_xml(t->hw, xml) < 0) {
			memcal_errf(err, errlen,
				"topology file '%s' (HWLOC_XMLFILE) is not a "
				"valid hwloc XML topology", xml);
			return MEMCAL_ETOPO;
		}
		return MEMCAL_OK;
	}
	if (env_syn && *env_syn)
		return use_synthetic(t, env_syn, "HWLOC_SYNTHETIC", err,
				     errlen);
	snprintf(t->source, sizeof(t->source), "this machine");
	return MEMCAL_OK;
}

/* collect_cpus - fill @t->cpus (first PU per core) and @t->pus. */
static int collect_cpus(struct memcal_topology *t)
{
	hwloc_topology_t hw = t->hw;
	unsigned i;

	t->pus = calloc(t->n_pus ? t->n_pus : 1, sizeof(*t->pus));
	t->cpus = calloc(t->n_pus ? t->n_pus : 1, sizeof(*t->cpus));
	if (!t->pus || !t->cpus)
		return MEMCAL_ENOMEM;
	for (i = 0; i < t->n_pus; i++)
		t->pus[i] = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, i)->os_index;
	qsort(t->pus, t->n_pus, sizeof(*t->pus), cmp_unsigned);
	if (t->n_cores == 0) {
		/* No core level: every PU counts as a core. */
		memcpy(t->cpus, t->pus, t->n_pus * sizeof(*t->pus));
		t->n_cores = t->n_pus;
	} else {
		for (i = 0; i < t->n_cores; i++) {
			hwloc_obj_t c = hwloc_get_obj_by_type(hw,
							      HWLOC_OBJ_CORE, i);
			t->cpus[i] = (unsigned)hwloc_bitmap_first(c->cpuset);
		}
		qsort(t->cpus, t->n_cores, sizeof(*t->cpus), cmp_unsigned);
	}
	return MEMCAL_OK;
}

/*
 * collect_caches - every data or unified cache, flattened and sorted, and
 * the line size their largest line gives.
 */
static int collect_caches(struct memcal_topology *t)
{
	hwloc_obj_t o = NULL;
	unsigned n = 0, cap = 16;

	t->caches = calloc(cap, sizeof(*t->caches));
	if (!t->caches)
		return MEMCAL_ENOMEM;
	for (int d = 0; d < hwloc_topology_get_depth(t->hw); d++) {
		o = NULL;
		while ((o = hwloc_get_next_obj_by_depth(t->hw, d, o))) {
			struct memcal_cache *c;

			if (!hwloc_obj_type_is_dcache(o->type))
				continue;
			if (n == cap) {
				void *p = realloc(t->caches,
						  2 * cap * sizeof(*t->caches));
				if (!p)
					return MEMCAL_ENOMEM;
				t->caches = p;
				cap *= 2;
			}
			c = &t->caches[n++];
			memset(c, 0, sizeof(*c));
			c->level = (int)o->attr->cache.depth;
			c->type = o->attr->cache.type == HWLOC_OBJ_CACHE_UNIFIED
				  ? 'u' : 'd';
			c->size = o->attr->cache.size;
			c->line = o->attr->cache.linesize;
			if (c->line > t->line_size)
				t->line_size = c->line;
			c->n_cpus = (unsigned)hwloc_bitmap_weight(o->cpuset);
			hwloc_bitmap_list_snprintf(c->cpus, sizeof(c->cpus),
						   o->cpuset);
		}
	}
	t->n_caches = n;
	if (!t->line_size)
		t->line_size = 64;
	qsort(t->caches, n, sizeof(*t->caches), cmp_cache);
	return MEMCAL_OK;
}

/* collect_nodes - NUMA nodes with their memory and CPUs. */
static int collect_nodes(struct memcal_topology *t)
{
	unsigned i;

	t->nodes = calloc(t->n_nodes ? t->n_nodes : 1, sizeof(*t->nodes));
	if (!t->nodes)
		return MEMCAL_ENOMEM;
	for (i = 0; i < t->n_nodes; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->hw, HWLOC_OBJ_NUMANODE,
						      i);
		t->nodes[i].os_index = (int)o->os_index;
		t->nodes[i].memory = o->attr->numanode.local_memory;
		hwloc_bitmap_list_snprintf(t->nodes[i].cpus,
					   sizeof(t->nodes[i].cpus), o->cpuset);
	}
	return MEMCAL_OK;
}

/*
 * memcal_platform_topology_load - load the board description (see
 * memcal_platform.h for the order of sources) into @t.  @synthetic may be NULL.  On failure @t
 * holds nothing and @err says why.
 */
int memcal_platform_topology_load(struct memcal_topology *t, const char *synthetic,
			 char *err, size_t errlen)
{
	int rc;

	memset(t, 0, sizeof(*t));
	if (hwloc_topology_init(&t->hw) < 0) {
		memcal_errf(err, errlen, "hwloc_topology_init failed");
		return MEMCAL_ETOPO;
	}
	rc = choose_source(t, synthetic, err, errlen);
	if (rc)
		goto fail;
	if (hwloc_topology_load(t->hw) < 0) {
		if (strncmp(t->source, "xml:", 4) == 0)
			memcal_errf(err, errlen, "topology file '%s' (HWLOC_XMLFILE)"
				" is not a valid hwloc XML topology",
				t->source + 4);
		else
			memcal_errf(err, errlen, "hwloc could not load the "
				"topology (%s)", t->source);
		rc = MEMCAL_ETOPO;
		goto fail;
	}
	t->this_system = hwloc_topology_is_thissystem(t->hw);
	t->n_packages = (unsigned)hwloc_get_nbobjs_by_type(t->hw,
							    HWLOC_OBJ_PACKAGE);
	t->n_nodes = (unsigned)hwloc_get_nbobjs_by_type(t->hw,
							 HWLOC_OBJ_NUMANODE);
	t->n_cores = (unsigned)hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_CORE);
	t->n_pus = (unsigned)hwloc_get_nbobjs_by_type(t->hw, HWLOC_OBJ_PU);
	if (t->n_pus == 0) {
		memcal_errf(err, errlen, "topology (%s) has no processing units",
			t->source);
		rc = MEMCAL_ETOPO;
		goto fail;
	}
	rc = collect_cpus(t);
	if (!rc)
		rc = collect_caches(t);
	if (!rc)
		rc = collect_nodes(t);
	if (rc) {
		memcal_errf(err, errlen, "out of memory reading the topology");
		goto fail;
	}
	return MEMCAL_OK;
fail:
	memcal_platform_topology_free(t);
	return rc;
}

/* memcal_platform_topology_free - release everything memcal_platform_topology_load() made. */
void memcal_platform_topology_free(struct memcal_topology *t)
{
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	free(t->cpus);
	free(t->pus);
	free(t->caches);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

/* memcal_platform_topology_has_pu - whether OS CPU @cpu exists in the topology. */
bool memcal_platform_topology_has_pu(const struct memcal_topology *t, unsigned cpu)
{
	for (unsigned i = 0; i < t->n_pus; i++)
		if (t->pus[i] == cpu)
			return true;
	return false;
}

/*
 * memcal_platform_topology_cpu_node - OS number of the NUMA node whose memory is
 * local to @cpu, or MEMCAL_PLATFORM_NODE_UNKNOWN (negative).
 */
int memcal_platform_topology_cpu_node(const struct memcal_topology *t, unsigned cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, cpu);
	hwloc_obj_t o;

	if (!pu)
		return MEMCAL_PLATFORM_NODE_UNKNOWN;
	for (o = pu; o; o = o->parent) {
		if (o->memory_arity > 0) {
			hwloc_obj_t m = o->memory_first_child;

			while (m && m->type != HWLOC_OBJ_NUMANODE)
				m = m->memory_first_child;
			if (m)
				return (int)m->os_index;
		}
	}
	return MEMCAL_PLATFORM_NODE_UNKNOWN;
}

/*
 * memcal_platform_topology_llc - the last-level (largest level) data cache that
 * @cpu sees, or NULL when it has none.
 */
const struct memcal_cache *
memcal_platform_topology_llc(const struct memcal_topology *t, unsigned cpu)
{
	hwloc_obj_t pu = hwloc_get_pu_obj_by_os_index(t->hw, cpu);
	hwloc_obj_t o, best = NULL;
	char list[64];

	if (!pu)
		return NULL;
	for (o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			best = o;	/* keep the outermost one */
	if (!best)
		return NULL;
	hwloc_bitmap_list_snprintf(list, sizeof(list), best->cpuset);
	for (unsigned i = 0; i < t->n_caches; i++)
		if (t->caches[i].level == (int)best->attr->cache.depth &&
		    strcmp(t->caches[i].cpus, list) == 0)
			return &t->caches[i];
	return NULL;
}

/*
 * memcal_platform_topology_to_json - the whole description as one JSON object
 * (stored with the platform).  Returns a new reference or NULL.
 */
json_t *memcal_platform_topology_to_json(const struct memcal_topology *t)
{
	json_t *doc = json_object(), *caches = json_array(),
	       *nodes = json_array(), *cores = json_array();
	char buf[256];

	if (!doc || !caches || !nodes || !cores) {
		json_decref(doc);
		json_decref(caches);
		json_decref(nodes);
		json_decref(cores);
		return NULL;
	}
	json_object_set_new(doc, "source", json_string(t->source));
	json_object_set_new(doc, "packages", json_integer(t->n_packages));
	json_object_set_new(doc, "numa_nodes", json_integer(t->n_nodes));
	json_object_set_new(doc, "cores", json_integer(t->n_cores));
	json_object_set_new(doc, "pus", json_integer(t->n_pus));
	for (unsigned i = 0; i < t->n_cores; i++)
		json_array_append_new(cores, json_integer(t->cpus[i]));
	json_object_set_new(doc, "core_cpus", cores);
	if (memcal_platform_cpulist_format(t->pus, t->n_pus, buf, sizeof(buf)) == 0)
		json_object_set_new(doc, "pu_list", json_string(buf));
	for (unsigned i = 0; i < t->n_caches; i++) {
		const struct memcal_cache *c = &t->caches[i];
		char type[2] = { c->type, 0 };

		json_array_append_new(caches,
			json_pack("{s:i, s:s, s:I, s:i, s:s, s:i}",
				  "level", c->level, "type", type,
				  "size", (json_int_t)c->size,
				  "line", (int)c->line, "cpus", c->cpus,
				  "n_cpus", (int)c->n_cpus));
	}
	json_object_set_new(doc, "caches", caches);
	for (unsigned i = 0; i < t->n_nodes; i++)
		json_array_append_new(nodes,
			json_pack("{s:i, s:I, s:s}",
				  "os_index", t->nodes[i].os_index,
				  "memory", (json_int_t)t->nodes[i].memory,
				  "cpus", t->nodes[i].cpus));
	json_object_set_new(doc, "nodes", nodes);
	return doc;
}
