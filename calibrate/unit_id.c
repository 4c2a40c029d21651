// SPDX-License-Identifier: GPL-2.0-only
/*
 * unit_id.c - what this unit says it is, recorded with every run it
 * stores: the hostname and kernel of the board row, /etc/machine-id and
 * the DMI product serial where they are readable (the serial usually
 * needs root).  What is not readable stays empty: a unit's identity is
 * never made up.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "unit_id.h"

/* read_line - the first line of @path, trimmed, into @buf ("" if unreadable). */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	n = strlen(buf);
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
}

/**
 * cal_unit_here() - this unit's identity into @u, for a run of board @p
 * measured now.  @root prefixes the paths read (NULL or "" for /).
 */
void cal_unit_here(const struct memcal_platform *p, const char *root,
		   struct memcal_unit *u)
{
	char path[4096];

	memset(u, 0, sizeof(*u));
	snprintf(u->hostname, sizeof(u->hostname), "%s", p->hostname);
	snprintf(u->kernel, sizeof(u->kernel), "%s", p->kernel);
	snprintf(path, sizeof(path), "%s/etc/machine-id", root ? root : "");
	read_line(path, u->machine_id, sizeof(u->machine_id));
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/product_serial",
		 root ? root : "");
	read_line(path, u->serial, sizeof(u->serial));
}
