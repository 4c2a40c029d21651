/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memcal_status.h - the status codes every memcal library returns: the
 * database, the platform and calibration code, the tuner and the
 * simulator.  0 is success; every other code is positive and says what
 * kind of failure it was, so a caller can choose an exit status or a
 * fall-back without reading the message.
 *
 * The message is never in the code.  As in memcal_db: a function called on
 * a handle keeps one sentence on the handle (memcal_db_errmsg()); a
 * function without one takes `char *err, size_t errlen` and writes the
 * sentence there, saying what was wrong and what to do.
 *
 * The regulator core (regulator/core/include/memreg.h) keeps the kernel's
 * negative errno codes, since memreg.ko shares it; the simulator turns
 * them into these.
 */
#ifndef MEMCAL_STATUS_H
#define MEMCAL_STATUS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum memcal_status {
	MEMCAL_OK = 0,
	MEMCAL_ERROR = 1,	/* any other failure; the message says which */
	MEMCAL_ENEWER = 2,	/* database written by a newer memcal: refused */
	MEMCAL_ENOTADB = 3,	/* the file is not an SQLite database */
	MEMCAL_EBUSY = 4,	/* another process holds it (lock, module) */
	MEMCAL_ECANTOPEN = 5,	/* a file or directory cannot be opened */
	MEMCAL_ENOTFOUND = 6,	/* no such row, record or file */
	MEMCAL_EREADONLY = 7,	/* opened read-only or not writable */
	MEMCAL_EMISUSE = 8,	/* API used wrongly (a write outside a txn) */
	MEMCAL_EINVAL = 9,	/* a bad argument or value (out of range) */
	MEMCAL_ENOMEM = 10,	/* not enough memory */
	MEMCAL_EIO = 11,	/* a file cannot be read or written */
	MEMCAL_ESYNTAX = 12,	/* a file does not parse (line given) */
	MEMCAL_ERANGE = 13,	/* values inconsistent with each other */
	MEMCAL_EUNSUPPORTED = 14, /* not possible on this hardware/kernel */
	MEMCAL_EPERM = 15,	/* needs root */
	MEMCAL_ETOPO = 16,	/* the topology cannot be loaded */
	MEMCAL_ENOFIT = 17,	/* budgets cannot fit the sustainable bandwidth */
	MEMCAL_ESIM = 18,	/* the simulator refused a configuration */
	MEMCAL_EFORMAT = 19,	/* unknown export format */
	MEMCAL_EREFUSED = 20,	/* a value the target cannot carry */
	MEMCAL_EBOARD = 21,	/* tuned for another board */
	MEMCAL_ECONFLICT = 22,	/* another bandwidth regulator is loaded */
};

/*
 * memcal_errf() - write the sentence into a caller's `char *err, size_t
 * errlen`; a NULL @err or a zero @errlen means the caller wants none.
 */
__attribute__((format(printf, 3, 4)))
static inline void memcal_errf(char *err, size_t errlen, const char *fmt,
			       ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

#endif /* MEMCAL_STATUS_H */
