// SPDX-License-Identifier: GPL-2.0
/*
 * pmudecoy.c - two do-nothing PMUs, "decoyA" and "decoyB", for the guest
 * checks of memreg's PMU names (tests/kernel/guest/init.sh, group_pmuname).
 *
 * perf gives a dynamic PMU the lowest free type from PERF_TYPE_MAX in the
 * order PMUs register, so order=ab and order=ba swap the two type numbers:
 * a configuration that names decoyB must find it under either, one that
 * gives its number finds the other PMU.  Each PMU counts the events
 * created on it (inits) and scheduled on it (adds; a disabled event never
 * is), and how many are on it now (active), as read-only parameters under
 * /sys/module/pmudecoy/parameters/.  The counters never count nor
 * interrupt; sampling events are accepted.  Each event holds a reference
 * on this module (perf takes it), so it cannot be unloaded under them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>

/**
 * struct decoy - one decoy PMU
 * @pmu:    the PMU perf knows
 * @inits:  events created on it (event_init accepted)
 * @adds:   times an event was scheduled on it (add)
 * @active: events scheduled on it now
 */
struct decoy {
	struct pmu	pmu;
	atomic_t	inits;
	atomic_t	adds;
	atomic_t	active;
};

static struct decoy decoys[2];
static const char *const decoy_names[2] = { "decoyA", "decoyB" };
static bool registered[2];

static char *order = "ab";
module_param(order, charp, 0444);
MODULE_PARM_DESC(order, "registration order: ab (decoyA first) or ba");

static struct decoy *to_decoy(struct perf_event *event)
{
	return container_of(event->pmu, struct decoy, pmu);
}

static int decoy_event_init(struct perf_event *event)
{
	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (event->cpu < 0)
		return -EOPNOTSUPP;	/* per-CPU events only, as uncore PMUs */
	atomic_inc(&to_decoy(event)->inits);
	return 0;
}

static void decoy_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void decoy_stop(struct perf_event *event, int flags)
{
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static int decoy_add(struct perf_event *event, int flags)
{
	struct decoy *d = to_decoy(event);

	atomic_inc(&d->adds);
	atomic_inc(&d->active);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		decoy_start(event, flags);
	return 0;
}

static void decoy_del(struct perf_event *event, int flags)
{
	decoy_stop(event, flags);
	atomic_dec(&to_decoy(event)->active);
}

static void decoy_read(struct perf_event *event)
{
}

/* The counters as read-only parameters: "a_adds" etc. */
static int decoy_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", atomic_read(kp->arg));
}

static const struct kernel_param_ops decoy_counter_ops = {
	.get = decoy_get,
};

#define DECOY_COUNTER(name, i, field) \
	module_param_cb(name, &decoy_counter_ops, &decoys[i].field, 0444)
DECOY_COUNTER(a_inits, 0, inits);
DECOY_COUNTER(a_adds, 0, adds);
DECOY_COUNTER(a_active, 0, active);
DECOY_COUNTER(b_inits, 1, inits);
DECOY_COUNTER(b_adds, 1, adds);
DECOY_COUNTER(b_active, 1, active);

static void decoy_unregister(void)
{
	int i;

	for (i = 1; i >= 0; i--) {
		if (registered[i])
			perf_pmu_unregister(&decoys[i].pmu);
		registered[i] = false;
	}
}

static int __init decoy_init(void)
{
	int first, k, ret;

	if (!strcmp(order, "ab")) {
		first = 0;
	} else if (!strcmp(order, "ba")) {
		first = 1;
	} else {
		pr_err("order '%s': want ab or ba\n", order);
		return -EINVAL;
	}
	for (k = 0; k < 2; k++) {
		int i = k ? !first : first;
		struct decoy *d = &decoys[i];

		d->pmu = (struct pmu) {
			.module		= THIS_MODULE,
			.task_ctx_nr	= perf_invalid_context,
			.event_init	= decoy_event_init,
			.add		= decoy_add,
			.del		= decoy_del,
			.start		= decoy_start,
			.stop		= decoy_stop,
			.read		= decoy_read,
		};
		ret = perf_pmu_register(&d->pmu, decoy_names[i], -1);
		if (ret) {
			pr_err("cannot register %s: %d\n", decoy_names[i], ret);
			decoy_unregister();
			return ret;
		}
		registered[i] = true;
		pr_info("%s has type %d\n", decoy_names[i], d->pmu.type);
	}
	return 0;
}

static void __exit decoy_exit(void)
{
	decoy_unregister();
}

module_init(decoy_init);
module_exit(decoy_exit);
MODULE_DESCRIPTION("two do-nothing PMUs for memreg's PMU-name tests");
MODULE_LICENSE("GPL");
