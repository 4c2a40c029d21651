/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* sharemode.c compiles the simulator in: its sources include this name. */
#include "../../../regulator/sim/include/memreg_sim.h"
