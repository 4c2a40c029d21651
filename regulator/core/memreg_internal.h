/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * memreg_internal.h - helpers shared by the core's .c files; not API.
 *
 * Cross-CPU words pack a 32-bit period tag (the low 32 bits of a period
 * number) in the high half and a 32-bit value in the low half of one
 * memreg_atomic64_t, so a reader gets tag and value from a single atomic
 * load and can never pair a value with the wrong period.
 */
#ifndef MEMREG_INTERNAL_H
#define MEMREG_INTERNAL_H

#include "memreg.h"

#define memreg_likely(x)	__builtin_expect(!!(x), 1)
#define memreg_unlikely(x)	__builtin_expect(!!(x), 0)
/* Per-class helpers of the hot paths: always inlined, so no loop remains. */
#define MEMREG_ALWAYS_INLINE	inline __attribute__((__always_inline__))
/*
 * Make the compiler treat @var as opaque (the kernel's OPTIMIZER_HIDE_VAR),
 * so that it keeps a computed per-CPU pointer in a register instead of
 * recomputing it from the base and the index at every use.
 */
#define MEMREG_HIDE_VAR(var)	__asm__("" : "+r"(var))

/* Pack {tag, value}; @value must be <= MEMREG_EVENTS_MAX. */
static inline memreg_s64 memreg_pack(memreg_u64 period, memreg_u64 value)
{
	return (memreg_s64)(((memreg_u64)(memreg_u32)period << 32) |
			    (memreg_u32)value);
}

/* The period tag of a packed word. */
static inline memreg_u32 memreg_word_tag(memreg_s64 w)
{
	return (memreg_u32)((memreg_u64)w >> 32);
}

/* The value of a packed word. */
static inline memreg_u64 memreg_word_val(memreg_s64 w)
{
	return (memreg_u32)(memreg_u64)w;
}

/*
 * Is @tag older than the tag of @period?  Serial-number comparison, valid
 * while the two are less than 2^31 periods apart (the master refreshes
 * stale words every period, which keeps them so).
 */
static inline int memreg_tag_before(memreg_u32 tag, memreg_u64 period)
{
	return (memreg_s32)(tag - (memreg_u32)period) < 0;
}

/* Atomically OR @bits into @v; returns the new value. */
static inline memreg_u64 memreg_mask_set(memreg_atomic64_t *v,
					 memreg_u64 bits)
{
	memreg_s64 old = memreg_atomic64_read(v), seen;

	for (;;) {
		seen = memreg_atomic64_cmpxchg(v, old,
					       (memreg_s64)((memreg_u64)old | bits));
		if (seen == old)
			return (memreg_u64)old | bits;
		old = seen;
	}
}

/* Atomically clear @bits in @v; returns the new value. */
static inline memreg_u64 memreg_mask_clear(memreg_atomic64_t *v,
					   memreg_u64 bits)
{
	memreg_s64 old = memreg_atomic64_read(v), seen;

	for (;;) {
		seen = memreg_atomic64_cmpxchg(v, old,
					       (memreg_s64)((memreg_u64)old & ~bits));
		if (seen == old)
			return (memreg_u64)old & ~bits;
		old = seen;
	}
}

/* Is @cpu a regulated CPU of @r? */
static inline int memreg_cpu_ok(const struct memreg *r, memreg_u32 cpu)
{
	return cpu < MEMREG_MAX_CPUS && ((r->active_mask >> cpu) & 1);
}

/* Regulated CPUs that are online (see memreg_cpu_set_online()). */
static inline memreg_u64 memreg_online(const struct memreg *r)
{
	return (memreg_u64)memreg_atomic64_read(&r->online_mask) & r->active_mask;
}

/* Flags under which the master publishes budgets. */
#define MEMREG_F_PUBLISHED	(MEMREG_F_LMS | MEMREG_F_RECLAIM)

/*
 * The budget of class @cls that CPU @c runs with in @period, as far as
 * the master can tell: the published budget if one was published for
 * @period (LMS or reclaim), else the guarantee; always the guarantee for
 * a class no CPU counts (the master publishes nothing for it).  memreg_replenish() uses
 * the same rule, so sums computed with it match what the CPUs got.
 */
static MEMREG_ALWAYS_INLINE memreg_u64 memreg_base_budget(const struct memreg *r,
							  const struct memreg_cpu *c,
							  memreg_u32 cls,
							  memreg_u64 period,
							  int *stale)
{
	memreg_u32 f = r->cfg.flags;

	if ((f & MEMREG_F_PUBLISHED) && !(f & MEMREG_F_UNCOUNTED(cls))) {
		memreg_u64 w = (memreg_u64)
			memreg_atomic64_read(&c->next_budget[period & 1][cls]);
		memreg_u64 lo = (memreg_u64)memreg_pack(period, 1);

		/*
		 * Tag == @period and value >= 1 (0 is "never published";
		 * published budgets are >= 1), in one unsigned comparison:
		 * w lies in [pack(period, 1), pack(period, E)].
		 */
		if (w - lo < MEMREG_EVENTS_MAX)
			return memreg_word_val((memreg_s64)w);
		*stale = 1;
	}
	return c->guaranteed[cls];
}

/*
 * The reclaim pool's donate and take (rules and proof in reclaim.c).
 * Lock-free; any CPU.
 */
/* The pool slot that period @period uses for class @cls. */
static inline memreg_atomic64_t *memreg_pool_slot(struct memreg_pool *pool,
						  memreg_u32 cls,
						  memreg_u64 period)
{
	return &pool->slot[period & 1][cls];
}

/* Donate; the caller guarantees @amount <= MEMREG_EVENTS_MAX. */
static MEMREG_ALWAYS_INLINE memreg_u64
memreg_pool_donate_inline(struct memreg_pool *pool, memreg_u32 cls,
			  memreg_u64 period, memreg_u64 amount)
{
	memreg_atomic64_t *slot = memreg_pool_slot(pool, cls, period);
	memreg_s64 old = memreg_atomic64_read(slot), seen, repl;
	memreg_u64 have;
	memreg_u32 tag = (memreg_u32)period;

	for (;;) {
		memreg_u32 t = memreg_word_tag(old);

		if (t == tag) {
			have = memreg_word_val(old) + amount;	/* < 2^33 */
			repl = memreg_pack(period, memreg_sat_events(have));
		} else if (memreg_tag_before(t, period)) {
			repl = memreg_pack(period, amount);
		} else {
			return 0;	/* the pool is in a later period */
		}
		seen = memreg_atomic64_cmpxchg(slot, old, repl);
		if (seen == old)
			return amount;
		old = seen;
	}
}


/* Take up to @want. */
static MEMREG_ALWAYS_INLINE memreg_u64
memreg_pool_take_inline(struct memreg_pool *pool, memreg_u32 cls,
			memreg_u64 period, memreg_u64 want)
{
	memreg_atomic64_t *slot = memreg_pool_slot(pool, cls, period);
	memreg_s64 old = memreg_atomic64_read(slot), seen;
	memreg_u32 tag = (memreg_u32)period;

	for (;;) {
		memreg_u64 have, t;

		if (memreg_word_tag(old) != tag)
			return 0;
		have = memreg_word_val(old);
		t = want < have ? want : have;
		if (!t)
			return 0;
		seen = memreg_atomic64_cmpxchg(slot, old,
					       memreg_pack(period, have - t));
		if (seen == old)
			return t;
		old = seen;
	}
}

/* Events available in the pool for @period (0 if the pool is stale). */
static inline memreg_u64 memreg_pool_available(const struct memreg_pool *pool,
					       memreg_u32 cls, memreg_u64 period)
{
	memreg_s64 w = memreg_atomic64_read(&pool->slot[period & 1][cls]);

	return memreg_word_tag(w) == (memreg_u32)period ? memreg_word_val(w) : 0;
}

#endif /* MEMREG_INTERNAL_H */
