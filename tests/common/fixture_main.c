// SPDX-License-Identifier: GPL-2.0-only
/* fixture_main.c - memcal-fixture-db PATH: write the fixture database. */
#include <stdio.h>

#include "fixture_db.h"

/* main - create the fixture at argv[1]; exit 0 on success. */
int main(int argc, char **argv)
{
	struct fixture_ids ids;

	if (argc != 2) {
		fprintf(stderr, "usage: memcal-fixture-db PATH\n");
		return 2;
	}
	return fixture_db_create(argv[1], &ids) ? 1 : 0;
}
