/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * port_user.h - the user-space port of the regulator core (see
 * memreg_port.h for the contract).
 *
 * It uses only compiler built-ins (GCC/Clang __atomic_* with seq_cst
 * ordering, __builtin_clzll, the predefined __UINT64_TYPE__ family), so the
 * core still compiles with -ffreestanding -nostdinc in user space; the
 * freestanding check target in CMakeLists.txt relies on that.
 */
#ifndef MEMREG_PORT_USER_H
#define MEMREG_PORT_USER_H

typedef __UINT8_TYPE__ memreg_u8;
typedef __UINT16_TYPE__ memreg_u16;
typedef __UINT32_TYPE__ memreg_u32;
typedef __UINT64_TYPE__ memreg_u64;
typedef __INT32_TYPE__ memreg_s32;
typedef __INT64_TYPE__ memreg_s64;

/**
 * struct memreg_atomic64 - a 64-bit value accessed only atomically
 * @counter: the value; touch it only through memreg_atomic64_*()
 */
typedef struct memreg_atomic64 {
	memreg_s64 counter;
} memreg_atomic64_t;

/* Relaxed, single-copy-atomic load. */
static inline memreg_s64 memreg_atomic64_read(const memreg_atomic64_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

/* Relaxed, single-copy-atomic store. */
static inline void memreg_atomic64_set(memreg_atomic64_t *v, memreg_s64 i)
{
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}

/* Fully ordered add; returns the new value. */
static inline memreg_s64 memreg_atomic64_add_return(memreg_s64 i,
						    memreg_atomic64_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}

/* Fully ordered compare-and-exchange; returns the previous value. */
static inline memreg_s64 memreg_atomic64_cmpxchg(memreg_atomic64_t *v,
						 memreg_s64 old,
						 memreg_s64 new_val)
{
	__atomic_compare_exchange_n(&v->counter, &old, new_val, 0,
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	return old;	/* on failure the builtin wrote the current value */
}

/* 64-by-64 unsigned division; the caller guarantees divisor != 0. */
static inline memreg_u64 memreg_div64_u64(memreg_u64 dividend,
					  memreg_u64 divisor)
{
	return dividend / divisor;
}

/* 1-based index of the most significant set bit; 0 for 0. */
static inline int memreg_fls64(memreg_u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

#define MEMREG_PORT_INLINE_ATOMICS 1
#define MEMREG_READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define MEMREG_WRITE_ONCE(x, v) \
	do { *(volatile __typeof__(x) *)&(x) = (v); } while (0)

#endif /* MEMREG_PORT_USER_H */
