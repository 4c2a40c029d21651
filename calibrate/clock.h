/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * clock.h - the one clock memcal measures with.
 *
 * CLOCK_MONOTONIC_RAW is not slewed by NTP, so a bandwidth or latency
 * measured across an adjustment is not distorted.  Everything that times
 * work in calibrate/ (and in `memcal overhead`) calls memcal_now_ns().
 */
#ifndef MEMCAL_CLOCK_H
#define MEMCAL_CLOCK_H

#include <stdint.h>
#include <time.h>

/*
 * memcal_now_ns - nanoseconds on CLOCK_MONOTONIC_RAW (arbitrary origin).
 * Only differences are meaningful.
 */
static inline uint64_t memcal_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * memcal_spin_until_ns - busy-wait until memcal_now_ns() reaches @deadline.
 * Used for pacing load generators: a sleep would hand the core away and
 * wake up tens of microseconds late in a VM.
 */
static inline void memcal_spin_until_ns(uint64_t deadline)
{
	while (memcal_now_ns() < deadline)
		;
}

#endif /* MEMCAL_CLOCK_H */
