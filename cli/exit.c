// SPDX-License-Identifier: GPL-2.0-only
/*
 * exit.c - the one mapping from a library's status to a command's exit
 * code (cli.h, docs/design.md "Status codes").
 */
#include "cli.h"
#include "memcal_status.h"

int cli_exit_for(int status)
{
	switch (status) {
	case MEMCAL_OK:
		return CLI_EXIT_OK;
	case MEMCAL_EUNSUPPORTED:
		return CLI_EXIT_UNSUPPORTED;
	default:
		return CLI_EXIT_FAILURE;
	}
}
