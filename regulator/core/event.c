// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * event.c - counter event specs, shared by memreg.ko and user space.
 *
 * One spec names the event one class counts: "none", "page-faults",
 * "cpu-clock", "raw:CODE", "TYPE:CONFIG" or "PMU_NAME:CONFIG" (numbers in
 * C syntax).  A PMU name is the portable form: a dynamic PMU's type number
 * is given at registration, in the order PMUs register, so it differs
 * between kernels and boots; the name is resolved where the counter is
 * created (memreg.ko: regulator/kmod/counter.c).  A
 * per-CPU list, "CPUS:SPEC,CPUS:SPEC" with CPUS one CPU or a range N-M,
 * gives CPUs their own spec.  The module parses its parameters and sysfs
 * writes with these functions and the tuner checks what it exports with
 * the same ones, so both accept exactly the same text.  Messages are
 * static; the caller names the token (the entry carries it).
 */
#include "memreg_internal.h"

/* Point *why at @msg if the caller asked for a message. */
static int memreg_ev_fail(const char **why, const char *msg)
{
	if (why)
		*why = msg;
	return MEMREG_EINVAL;
}

static int memreg_ev_streq(const char *s, memreg_u32 len, const char *lit)
{
	memreg_u32 i;

	for (i = 0; i < len; i++)
		if (!lit[i] || lit[i] != s[i])
			return 0;
	return !lit[len];
}

static int memreg_ev_is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/*
 * Is s[0..len) a PMU name: a letter or '_' first (a digit starts a type
 * number), then letters, digits, '_', '-' or '.'?
 */
static int memreg_ev_pmu_name(const char *s, memreg_u32 len)
{
	memreg_u32 i;

	if (!len || !memreg_ev_is_alpha(s[0]))
		return 0;
	for (i = 1; i < len; i++)
		if (!memreg_ev_is_alpha(s[i]) && !(s[i] >= '0' && s[i] <= '9') &&
		    s[i] != '-' && s[i] != '.')
			return 0;
	return 1;
}

/*
 * Parse the unsigned number s[0..len) in C syntax (0x hex, 0 octal,
 * decimal) into *out, refusing values above @max.  Returns MEMREG_OK or
 * MEMREG_EINVAL with a message.
 */
static int memreg_ev_number(const char *s, memreg_u32 len, memreg_u64 max,
			    memreg_u64 *out, const char **why)
{
	memreg_u32 base = 10, i = 0;
	memreg_u64 v = 0;

	if (!len)
		return memreg_ev_fail(why, "a number is missing");
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (len > 1 && s[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < len; i++) {
		char c = s[i];
		memreg_u32 d;

		if (c >= '0' && c <= '9')
			d = (memreg_u32)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (memreg_u32)(c - 'a') + 10;
		else if (c >= 'A' && c <= 'F')
			d = (memreg_u32)(c - 'A') + 10;
		else
			d = 16;
		if (d >= base)
			return memreg_ev_fail(why, "not a number (decimal, 0x hex or 0 octal)");
		if (v > memreg_div64_u64(max - d, base))
			return memreg_ev_fail(why, "number too large");
		v = v * base + d;
	}
	*out = v;
	return MEMREG_OK;
}

int memreg_event_parse(const char *spec, memreg_u32 len,
		       struct memreg_event *ev, const char **why)
{
	memreg_u64 type, config;
	memreg_u32 colon;
	int ret;

	ev->counted = 0;
	ev->type = 0;
	ev->config = 0;
	ev->pmu = 0;
	ev->pmu_len = 0;
	if (len >= MEMREG_EVENT_LEN)
		return memreg_ev_fail(why, "event spec longer than 31 characters");
	if (!len || memreg_ev_streq(spec, len, "none")) {
		if (why)
			*why = "";
		return MEMREG_OK;
	}
	ev->counted = 1;
	if (memreg_ev_streq(spec, len, "page-faults")) {
		ev->type = MEMREG_EV_TYPE_SOFTWARE;
		ev->config = MEMREG_EV_SW_PAGE_FAULTS;
	} else if (memreg_ev_streq(spec, len, "cpu-clock")) {
		ev->type = MEMREG_EV_TYPE_SOFTWARE;
		ev->config = MEMREG_EV_SW_CPU_CLOCK;
	} else {
		for (colon = 0; colon < len && spec[colon] != ':'; colon++)
			;
		if (colon == len) {
			ev->counted = 0;
			return memreg_ev_fail(why, "not an event spec (none, page-faults, "
					      "cpu-clock, raw:0xNN, TYPE:CONFIG or PMU:CONFIG)");
		}
		if (memreg_ev_streq(spec, colon, "raw")) {
			type = MEMREG_EV_TYPE_RAW;
		} else if (memreg_ev_streq(spec, colon, "software")) {
			/* the one PMU whose type the perf ABI fixes by name */
			type = MEMREG_EV_TYPE_SOFTWARE;
		} else if (memreg_ev_streq(spec, colon, "tracepoint") ||
			   memreg_ev_streq(spec, colon, "breakpoint")) {
			ev->counted = 0;
			return memreg_ev_fail(why, "tracepoint and breakpoint "
					      "events cannot regulate");
		} else if (memreg_ev_pmu_name(spec, colon)) {
			type = MEMREG_EV_TYPE_NAMED;
			ev->pmu = spec;
			ev->pmu_len = colon;
		} else {
			ret = memreg_ev_number(spec, colon, MEMREG_EV_TYPE_MAX, &type, why);
			if (ret) {
				ev->counted = 0;
				return memreg_ev_fail(why, "event type is not raw, a number "
						      "or a PMU name");
			}
			if (type == MEMREG_EV_TYPE_TRACEPOINT ||
			    type == MEMREG_EV_TYPE_BREAKPOINT) {
				ev->counted = 0;
				return memreg_ev_fail(why, "tracepoint and breakpoint "
						      "events cannot regulate");
			}
		}
		ret = memreg_ev_number(spec + colon + 1, len - colon - 1,
				       ~(memreg_u64)0, &config, why);
		if (ret) {
			ev->counted = 0;
			ev->pmu = 0;
			ev->pmu_len = 0;
			return ret;
		}
		ev->type = (memreg_u32)type;
		ev->config = config;
	}
	if (why)
		*why = "";
	return MEMREG_OK;
}

void memreg_event_list_begin(struct memreg_event_iter *it, const char *list,
			     memreg_u32 nr_cpus)
{
	it->pos = list;
	it->seen = 0;
	it->nr_cpus = nr_cpus > MEMREG_MAX_CPUS ? MEMREG_MAX_CPUS : nr_cpus;
}

int memreg_event_list_next(struct memreg_event_iter *it,
			   struct memreg_event_entry *e, const char **why)
{
	const char *s = it->pos;
	memreg_u64 first, last, mask;
	memreg_u32 len, colon, dash;
	int ret;

	if (!*s || (s[0] == '\n' && !s[1]))
		return 0;	/* the end (a sysfs write's one newline allowed) */
	for (len = 0; s[len] && s[len] != ',' && !(s[len] == '\n' && !s[len + 1]); len++)
		;
	e->tok = s;
	e->tok_len = len;
	it->pos = s + len + (s[len] == ',');
	if (s[len] == ',' && (!*it->pos || *it->pos == '\n'))
		return memreg_ev_fail(why, "empty entry after ','");
	if (!len)
		return memreg_ev_fail(why, "empty entry (want CPUS:SPEC)");
	for (colon = 0; colon < len && s[colon] != ':'; colon++)
		;
	if (colon == len)
		return memreg_ev_fail(why, "no ':' (want CPUS:SPEC, CPUS one CPU or "
				      "N-M; give each range its own entry)");
	for (dash = 0; dash < colon && s[dash] != '-'; dash++)
		;
	ret = memreg_ev_number(s, dash, MEMREG_MAX_CPUS - 1, &first, why);
	if (!ret)
		ret = dash < colon ?
		      memreg_ev_number(s + dash + 1, colon - dash - 1,
				       MEMREG_MAX_CPUS - 1, &last, why) :
		      (last = first, MEMREG_OK);
	if (ret)
		return memreg_ev_fail(why, "CPUS is not a CPU number or a range N-M "
				      "of CPUs 0..63");
	if (last < first)
		return memreg_ev_fail(why, "CPU range ends before it starts");
	if (last >= it->nr_cpus)
		return memreg_ev_fail(why, "CPU beyond the CPUs this configuration has");
	mask = (last == 63 ? ~(memreg_u64)0 : ((memreg_u64)1 << (last + 1)) - 1) &
	       ~(((memreg_u64)1 << first) - 1);
	if (it->seen & mask)
		return memreg_ev_fail(why, "a CPU is named twice");
	it->seen |= mask;
	e->first = (memreg_u32)first;
	e->last = (memreg_u32)last;
	e->spec = s + colon + 1;
	e->spec_len = len - colon - 1;
	if (!e->spec_len)
		return memreg_ev_fail(why, "empty event spec (write none to count nothing)");
	return memreg_event_parse(e->spec, e->spec_len, &e->event, why) ?
	       MEMREG_EINVAL : 1;
}
