/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ovh_prof_guest.h - the guest's half of bench/overhead's instruction
 * profile (run.sh --profile): markers the host's QEMU plugin
 * (ovh_insn_plugin.c) dumps its counts at, and the addresses
 * ovh_profile.c needs to attribute them (bench/overhead/README.md).
 */
#ifndef OVH_PROF_GUEST_H
#define OVH_PROF_GUEST_H

#include <stdbool.h>

/**
 * ovh_prof_mark() - execute the marker: with the plugin loaded, its dump
 * "M n" holds what ran since the previous marker.  A NOP without it.
 *
 * Return: n, this marker's index in the boot (0, 1, ...).
 */
unsigned ovh_prof_mark(void);

/**
 * ovh_prof_boot() - print the kernel's text address (OVH-PROF load=L
 * kernel_text=ADDR), against which the host relocates System.map.
 * @load: this boot's load index
 *
 * Return: 0, or -1 after printing OVH-ERROR (kallsyms unreadable).
 */
int ovh_prof_boot(unsigned load);

/**
 * ovh_prof_module() - print the loaded memreg's core range and its
 * functions' addresses (OVH-MODULE-RANGE, OVH-SYM lines of @cell).
 * @cell: the cell's name
 * @load: this boot's load index
 *
 * Return: 0, or -1 after printing OVH-ERROR.
 */
int ovh_prof_module(const char *cell, unsigned load);

#endif /* OVH_PROF_GUEST_H */
