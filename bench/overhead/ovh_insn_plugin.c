// SPDX-License-Identifier: GPL-2.0-only
/*
 * ovh_insn_plugin.c - a QEMU TCG plugin that counts the guest's executed
 * instructions per translation block, and writes what each block executed
 * since the previous marker whenever the guest executes a marker
 * instruction.  bench/overhead/run.sh --profile loads it into the arm64
 * -icount guest, where ovh_table_guest executes the marker around each
 * cell's C and C' runs, so the instructions memreg's own code, the rest of
 * the kernel and the task executed in those windows can be told apart
 * exactly (ovh_profile.c attributes them).  The count is an inline add at
 * each block's start: it changes no guest instruction, so -icount time,
 * and every figure of the table, is the same with the plugin loaded.
 *
 *   qemu-system-aarch64 ... -plugin PATH/ovh_insn_plugin.so,out=FILE
 *
 * FILE:
 *   # ovh-insn-profile 1
 *   M <n>                      the n-th marker (0, 1, ...) executed;
 *   T <vaddr> <insns> <execs>  a block at <vaddr> (hex) of <insns>
 *                              instructions executed <execs> times since
 *                              the previous M line (or the start)
 *   E                          QEMU exited: the blocks since the last M
 * A block whose execution an exception cut short counts whole (rare in
 * the windows: page faults of the task's first touch).  The marker is
 * the AArch64 hint #0x7d (an unallocated hint, a NOP on any CPU),
 * recognised in user space only.  Only a guest whose vCPUs share one TCG thread
 * count exactly (the inline add is not atomic): the bench runs that way.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/* hint #0x7d: 0xd503201f | 0x7d << 5 */
#define OVH_MARKER_INSN		0xd5032fbfu
/* Guest virtual addresses below this are user space (AArch64, 48-bit). */
#define OVH_USER_TOP		0x0001000000000000ull

/**
 * struct ovh_block - one translated block's execution count
 * @vaddr:  guest virtual address of its first instruction
 * @insns:  instructions in it
 * @execs:  times executed (the inline add's target)
 * @dumped: @execs at the last marker
 * @next:   next block in the same hash chain
 */
struct ovh_block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t execs;
	uint64_t dumped;
	struct ovh_block *next;
};

/**
 * struct ovh_profile - the plugin's state
 * @out:     the dump file
 * @chain:   hash chains of blocks by (vaddr, insns)
 * @nchain:  number of chains (a power of two)
 * @all:     every block, in creation order, for the dumps
 * @n, @cap: blocks in @all and its capacity
 * @marks:   markers executed so far
 * @failed:  out of memory: the dump says so instead of undercounting
 */
struct ovh_profile {
	FILE *out;
	struct ovh_block **chain;
	size_t nchain;
	struct ovh_block **all;
	size_t n, cap;
	uint64_t marks;
	int failed;
};

static struct ovh_profile prof;

static size_t chain_of(uint64_t vaddr, uint64_t insns, size_t nchain)
{
	uint64_t h = (vaddr >> 2) * 0x9e3779b97f4a7c15ull ^ insns;

	return (size_t)(h ^ h >> 29) & (nchain - 1);
}

/* rehash - doubles the chains once there are more blocks than chains. */
static int rehash(void)
{
	size_t n = prof.nchain * 2;
	struct ovh_block **c = calloc(n, sizeof(*c));

	if (!c)
		return -1;
	for (size_t i = 0; i < prof.n; i++) {
		struct ovh_block *b = prof.all[i];
		size_t k = chain_of(b->vaddr, b->insns, n);

		b->next = c[k];
		c[k] = b;
	}
	free(prof.chain);
	prof.chain = c;
	prof.nchain = n;
	return 0;
}

/* block_get - the counter of the block (@vaddr, @insns), made on first
 * translation; a block translated again (evicted, or other flags)
 * counts into the same one.  NULL when out of memory. */
static struct ovh_block *block_get(uint64_t vaddr, uint64_t insns)
{
	size_t k = chain_of(vaddr, insns, prof.nchain);
	struct ovh_block *b;

	for (b = prof.chain[k]; b; b = b->next)
		if (b->vaddr == vaddr && b->insns == insns)
			return b;
	if (prof.n == prof.cap) {
		size_t cap = prof.cap * 2;
		struct ovh_block **all = realloc(prof.all, cap * sizeof(*all));

		if (!all)
			return NULL;
		prof.all = all;
		prof.cap = cap;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->vaddr = vaddr;
	b->insns = insns;
	b->next = prof.chain[k];
	prof.chain[k] = b;
	prof.all[prof.n++] = b;
	if (prof.n > prof.nchain && rehash())
		return NULL;
	return b;
}

/* dump - every block's executions since the last dump, after @head. */
static void dump(const char *head)
{
	if (!prof.out)
		return;
	fputs(head, prof.out);
	if (prof.failed)
		fputs("F out of memory: counts are incomplete\n", prof.out);
	for (size_t i = 0; i < prof.n; i++) {
		struct ovh_block *b = prof.all[i];
		uint64_t d = b->execs - b->dumped;

		if (!d)
			continue;
		fprintf(prof.out, "T %" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
			b->vaddr, b->insns, d);
		b->dumped = b->execs;
	}
	fflush(prof.out);
}

static void on_marker(unsigned int vcpu, void *udata)
{
	char head[48];

	(void)vcpu;
	(void)udata;
	snprintf(head, sizeof(head), "M %" PRIu64 "\n", prof.marks++);
	dump(head);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct ovh_block *b;

	(void)id;
	if (!n)
		return;
	b = block_get(vaddr, n);
	if (!b) {
		prof.failed = 1;
		return;
	}
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	if (vaddr >= OVH_USER_TOP)
		return;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t word;

		if (qemu_plugin_insn_size(insn) != sizeof(word))
			continue;
		memcpy(&word, qemu_plugin_insn_data(insn), sizeof(word));
		if (word == OVH_MARKER_INSN)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker,
						QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	dump("E\n");
	if (prof.out)
		fclose(prof.out);
	prof.out = NULL;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *out = NULL;

	if (strcmp(info->target_name, "aarch64")) {
		fprintf(stderr, "ovh_insn_plugin: guest %s: only aarch64 "
			"guests carry the marker\n", info->target_name);
		return -1;
	}
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out = argv[i] + 4;
		} else {
			fprintf(stderr, "ovh_insn_plugin: unknown argument "
				"'%s' (out=FILE)\n", argv[i]);
			return -1;
		}
	}
	if (!out) {
		fprintf(stderr, "ovh_insn_plugin: no out=FILE\n");
		return -1;
	}
	prof.out = fopen(out, "w");
	prof.nchain = 1024;
	prof.cap = 1024;
	prof.chain = calloc(prof.nchain, sizeof(*prof.chain));
	prof.all = malloc(prof.cap * sizeof(*prof.all));
	if (!prof.out || !prof.chain || !prof.all) {
		fprintf(stderr, "ovh_insn_plugin: %s: cannot open or out of "
			"memory\n", out);
		return -1;
	}
	fputs("# ovh-insn-profile 1\n", prof.out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
