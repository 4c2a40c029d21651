// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the memreg tracepoints declared in trace.h.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
