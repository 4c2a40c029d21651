/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * memreg_port.h - what the portable regulator core needs from its host.
 *
 * The core (regulator/core/) is compiled twice: into memreg.ko and into
 * user space (simulator, tests, benchmark).  It includes no libc header and
 * no kernel header; everything it needs from the environment comes through
 * this file, which selects one implementation:
 *
 *   MEMREG_PORT_KERNEL defined  ->  #include "port_kernel.h"
 *                                   (regulator/kmod/, on the Kbuild -I path)
 *   otherwise                   ->  #include "port_user.h" (this folder)
 *
 * A port must provide exactly the following.  "Fully ordered" means the
 * operation behaves as if surrounded by full memory barriers (the Linux
 * atomic64_add_return()/atomic64_cmpxchg() guarantee; C11 seq_cst).
 *
 *  Types (exact widths, two's complement):
 *    memreg_u8 memreg_u16 memreg_u32 memreg_u64 memreg_s32 memreg_s64
 *    memreg_atomic64_t      an object holding one 64-bit value that is only
 *                           accessed through the functions below
 *                           (kernel: atomic64_t).
 *
 *  Atomics (function-like macros or static inline functions):
 *    memreg_s64 memreg_atomic64_read(const memreg_atomic64_t *v)
 *        single-copy-atomic load, no ordering required (atomic64_read).
 *    void memreg_atomic64_set(memreg_atomic64_t *v, memreg_s64 i)
 *        single-copy-atomic store, no ordering required (atomic64_set).
 *    memreg_s64 memreg_atomic64_add_return(memreg_s64 i, memreg_atomic64_t *v)
 *        fully ordered; returns the new value (atomic64_add_return).
 *    memreg_s64 memreg_atomic64_cmpxchg(memreg_atomic64_t *v,
 *                                       memreg_s64 old, memreg_s64 new)
 *        fully ordered; stores @new if *v == @old; always returns the
 *        value *v held before the call (atomic64_cmpxchg).
 *
 *  Arithmetic:
 *    memreg_u64 memreg_div64_u64(memreg_u64 dividend, memreg_u64 divisor)
 *        64-by-64 unsigned division, divisor != 0 (div64_u64).
 *    int memreg_fls64(memreg_u64 x)
 *        1-based position of the most significant set bit, 0 for x == 0
 *        (fls64).
 *
 *  Access:
 *    MEMREG_READ_ONCE(x), MEMREG_WRITE_ONCE(x, val)
 *        a single, non-torn, non-elided access of a naturally aligned
 *        scalar of at most the native word size (READ_ONCE/WRITE_ONCE).
 *
 * A kernel port is, in full:
 *
 *   #include <linux/types.h>
 *   #include <linux/atomic.h>
 *   #include <linux/math64.h>
 *   #include <linux/bitops.h>
 *   #include <linux/compiler.h>
 *   typedef u8 memreg_u8;   typedef u16 memreg_u16;  typedef u32 memreg_u32;
 *   typedef u64 memreg_u64; typedef s32 memreg_s32;  typedef s64 memreg_s64;
 *   typedef atomic64_t memreg_atomic64_t;
 *   #define memreg_atomic64_read(v)            atomic64_read(v)
 *   #define memreg_atomic64_set(v, i)          atomic64_set((v), (i))
 *   #define memreg_atomic64_add_return(i, v)   atomic64_add_return((i), (v))
 *   #define memreg_atomic64_cmpxchg(v, o, n)   atomic64_cmpxchg((v), (o), (n))
 *   #define memreg_div64_u64(a, b)             div64_u64((a), (b))
 *   #define memreg_fls64(x)                    fls64(x)
 *   #define MEMREG_READ_ONCE(x)                READ_ONCE(x)
 *   #define MEMREG_WRITE_ONCE(x, v)            WRITE_ONCE((x), (v))
 *
 * Nothing else: the core does no allocation, no locking, no printing, no
 * floating point and never calls into another CPU.
 */
#ifndef MEMREG_PORT_H
#define MEMREG_PORT_H

#if defined(MEMREG_PORT_KERNEL)
#include "port_kernel.h"
#else
#include "port_user.h"
#endif

#if !defined(memreg_atomic64_read) && !defined(MEMREG_PORT_INLINE_ATOMICS)
#error "memreg port: memreg_atomic64_read missing (see memreg_port.h)"
#endif
#ifndef MEMREG_READ_ONCE
#error "memreg port: MEMREG_READ_ONCE missing (see memreg_port.h)"
#endif
#ifndef MEMREG_WRITE_ONCE
#error "memreg port: MEMREG_WRITE_ONCE missing (see memreg_port.h)"
#endif

#ifndef MEMREG_NULL
#define MEMREG_NULL ((void *)0)
#endif

#endif /* MEMREG_PORT_H */
