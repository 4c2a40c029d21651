/* SPDX-License-Identifier: GPL-2.0 */
/*
 * port_kernel.h - the kernel port of the portable regulator core (see
 * regulator/core/include/memreg_port.h for the contract).  Included by
 * memreg_port.h when MEMREG_PORT_KERNEL is defined (Kbuild does that and
 * puts this folder on the include path).
 */
#ifndef MEMREG_PORT_KERNEL_H
#define MEMREG_PORT_KERNEL_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/math64.h>
#include <linux/bitops.h>
#include <linux/compiler.h>

typedef u8 memreg_u8;
typedef u16 memreg_u16;
typedef u32 memreg_u32;
typedef u64 memreg_u64;
typedef s32 memreg_s32;
typedef s64 memreg_s64;
typedef atomic64_t memreg_atomic64_t;

#define memreg_atomic64_read(v)			atomic64_read(v)
#define memreg_atomic64_set(v, i)		atomic64_set((v), (i))
#define memreg_atomic64_add_return(i, v)	atomic64_add_return((i), (v))
#define memreg_atomic64_cmpxchg(v, o, n)	atomic64_cmpxchg((v), (o), (n))
#define memreg_div64_u64(a, b)			div64_u64((a), (b))
#define memreg_fls64(x)				fls64(x)
#define MEMREG_READ_ONCE(x)			READ_ONCE(x)
#define MEMREG_WRITE_ONCE(x, v)			WRITE_ONCE((x), (v))
#define MEMREG_NULL				NULL

#endif /* MEMREG_PORT_KERNEL_H */
