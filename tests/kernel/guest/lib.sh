# shellcheck shell=dash
# "echo V > FILE; rc=$?" is the status of a sysfs write, on purpose:
# shellcheck disable=SC2320
# lib.sh - shared by the /init scripts of the memreg QEMU guests (busybox
# sh): the x86-64 suite (tests/kernel/guest/init.sh), the arm64 suite
# (tests/arm64/guest/init.sh) and the overhead guest
# (tests/overhead/guest/init.sh).  Every harness copies it to /lib.sh.
#
# Conventions: a group first declares the checks it will run (plan), then
# every check prints exactly one line
#   MEMREG-PLAN <name>...
#   MEMREG-CHECK <name> PASS|FAIL <detail>
# (the measured checks in C, the programs of tests/kernel/guest and the
# library checklib.h; the shell only orchestrates), and a guest ends with
# guest_finish (the kernel log between
# MEMREG-DMESG-BEGIN/END, since the console runs "quiet", then
# "MEMREG-DONE" and a forced power-off); the host side is
# scripts/qemu/lib.sh.

M=/sys/kernel/memreg
KO=/memreg.ko
T=/sys/kernel/tracing
CPU1_ONLINE=/sys/devices/system/cpu/cpu1/online

# guest_mount: the file systems every check needs
guest_mount() {
	export PATH=/bin:/sbin
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev 2>/dev/null
	mount -t tracefs nodev $T 2>/dev/null
	# No task names recorded with trace events (the checks read none):
	# the recorder hooks sched_switch when the first event is enabled and
	# unhooks it with the last, each time patching the tracepoint's jump
	# in __schedule.  Under QEMU 7.2's multi-threaded TCG that patch can
	# leave a vCPU re-executing the transient int3 in __schedule for
	# good, rq lock held and interrupts off (scripts/qemu/lib.sh,
	# qemu_x86_accel: the harnesses run single-threaded TCG for it): 2 of
	# 3 such boots hung that toggled a memreg event 300 times beside a
	# throttled hog, none of 4 without the recorder.  Fewer patches stay
	# fewer chances on any emulator.
	echo 0 > $T/options/record-cmd 2>/dev/null
}

# console_drain: wait until the serial console has sent what was written
# to it.  The emulated UART sends at its baud rate and a forced power-off
# drops what is still queued (seen: a 4-CPU guest lost its last lines and
# MEMREG-DONE), so wait until the UARTs' transmit counts
# (/proc/tty/driver/*) stop moving for 0.2 s, at most 10 s.
console_drain() {
	local a b i=0
	a=$(cat /proc/tty/driver/* 2>/dev/null)
	while [ $i -lt 50 ]; do
		sleep 0.2
		b=$(cat /proc/tty/driver/* 2>/dev/null)
		[ "$a" = "$b" ] && return
		a=$b
		i=$((i + 1))
	done
}

# guest_finish [LINES]: the kernel log (its last LINES lines if given),
# the end marker, power off once the console has sent it all
guest_finish() {
	echo MEMREG-DMESG-BEGIN
	if [ -n "${1:-}" ]; then dmesg | tail -n "$1"; else dmesg; fi
	echo MEMREG-DMESG-END
	echo MEMREG-DONE
	console_drain
	poweroff -f
}

# plan NAME...: the checks the group will run, declared before any runs:
# the harness passes the group only when each of them reported PASS and
# no other check was reported
plan() { echo "MEMREG-PLAN $*"; }
# result NAME PASS|FAIL DETAIL...
result() { local rn=$1 rs=$2; shift 2; echo "MEMREG-CHECK $rn $rs $*"; }
# check NAME DETAIL CONDITION...: PASS if the condition command succeeds
check() { local cn=$1 cd=$2; shift 2; if "$@"; then result "$cn" PASS "$cd"; else result "$cn" FAIL "$cd"; fi; }
# rd FILE: its contents, or "unreadable:FILE", which no numeric or
# equality condition accepts: a renamed or missing attribute fails the
# check that reads it instead of passing as 0.
rd() { cat "$1" 2>/dev/null || echo "unreadable:$1"; }
# leftover: what of memreg is still present (sysfs, module, threads)
leftover() {
	[ -d $M ] && echo "sysfs"
	grep -q '^memreg ' /proc/modules && echo "module"
	cat /proc/[0-9]*/comm 2>/dev/null | grep -q '^memreg' && echo "threads"
	true
}

# bad NAME PARAMS...: insmod with PARAMS must fail, log a message and
# leave nothing behind.  With bad_names set, it only prints the check's
# name (bad_params_plan).
bad() {
	local name=$1 before rc msg left
	[ -n "${bad_names:-}" ] && { printf 'bad-%s ' "$name"; return; }
	shift
	before=$(dmesg | grep -c memreg)
	insmod $KO "$@" 2>/dev/null; rc=$?
	msg=$(dmesg | grep memreg | tail -n +$((before + 1)) | tail -1 | tr -s ' ' | cut -c1-150)
	left=$(leftover)
	[ -n "$left" ] && rmmod memreg 2>/dev/null
	check "bad-$name" "args='$*' rc=$rc left='$left' msg='$msg'" \
		test "$rc" != 0 -a -z "$left" -a -n "$msg"
}

# bad_params [PARAM]: the bad module parameters of every architecture,
# each with PARAM (e.g. the counter event) in front
# shellcheck disable=SC2086 # $e is optional: no word at all when empty
bad_params() {
	local e=${1:-}
	bad period0 $e period_us=0
	bad period-absurd $e period_us=2000000
	bad period-tiny $e period_us=5
	bad period-garbage $e period_us=abc
	bad master-missing $e master_cpu=7
	bad event-unknown-type read_event=99:1
	bad event-garbage read_event=bogus
	bad event-cpus-garbage $e read_event_cpus=1:bogus
	bad event-cpus-no-spec $e read_event_cpus=0,1:cpu-clock
	bad event-cpus-missing $e read_event_cpus=5:cpu-clock
	bad event-cpus-twice $e read_event_cpus=0-1:cpu-clock,1:page-faults
	bad write-event-cpus-type $e write_event_cpus=1:2:1
	bad budget-sum $e read_budget=600000,600000 platform_read=1000000
	bad cpus-missing $e cpus=5
	bad cpus-garbage $e cpus=x-y
	bad slack0 $e slack_div=0
	bad taps0 $e lms=1 lms_taps=0
	bad taps17 $e lms=1 lms_taps=17
	bad mu0 $e lms=1 lms_mu=0
	[ -n "${bad_names:-}" ] || echo 0 > $CPU1_ONLINE
	bad master-offline $e master_cpu=1
	[ -n "${bad_names:-}" ] || echo 1 > $CPU1_ONLINE
}
# bad_params_plan: the names of bad_params's checks (the same with any
# PARAM), for a group's plan
bad_params_plan() { (bad_names=1; bad_params ""); }

# hang_watch PID WHAT: wait for PID; if it has not exited after 15 s,
# print (once) what the kernel is doing, from a watcher pinned to cpu0 (the
# hang seen under arm64 emulation holds a task on cpu1 in a function call
# to cpu0): /proc/interrupts twice 2 s apart (which interrupts cpu0 still
# takes), the task's kernel stack and every CPU's backtrace (sysrq l).
# Then it keeps waiting: the harness's timeout decides.  Returns PID's
# exit status.  memreg_nowatch=1 on the kernel command line only waits (a
# watcher pinned to cpu0 changes what cpu0 does).
hang_watch() {
	local p=$1
	[ -n "${memreg_nowatch:-}" ] && { wait "$p"; return; }
	taskset -c 0 sh -c "n=0
		while kill -0 $p 2>/dev/null; do
			sleep 0.1; n=\$((n + 1))
			[ \$n = 150 ] || continue
			echo 'MEMREG-HANG $2 (pid $p) has not returned after 15 s'
			cat /proc/interrupts; cat /proc/$p/stack
			echo l > /proc/sysrq-trigger; sleep 2
			cat /proc/interrupts; dmesg | tail -n 150
			echo MEMREG-HANG-END
		done" 2>/dev/null
	wait "$p"
}

# rmmod_watched: rmmod memreg under hang_watch
rmmod_watched() {
	rmmod memreg & hang_watch $! rmmod
}

# load_unload_cycles N PERIOD_US PARAMS...: N load/unload cycles (with
# whatever workloads the caller runs), periods from PERIOD_US up by 2 % a
# cycle, reclaim and LMS toggled; check load-unload-N.  Then
# cycles-no-leak (memleak.c): no perf counter, vmalloc or per-CPU
# memory left behind.
load_unload_cycles() {
	local n=$1 p=$2 ok=0 i=1 mem0
	shift 2
	mem0=$(/memleak usage)
	while [ $i -le "$n" ]; do
		if insmod $KO "$@" cpus=0,1 period_us=$((p + i * p / 50)) \
			reclaim=$((i % 2)) lms=$((i / 2 % 2)) 2>/dev/null; then
			sleep 0.05
			rmmod_watched && ok=$((ok + 1))
		fi
		[ $((i % 10)) = 0 ] && echo "MEMREG-PROGRESS cycle $i ok=$ok"
		i=$((i + 1))
	done
	check "load-unload-$n" "cycles ok=$ok/$n left='$(leftover)'" test "$ok" = "$n" -a -z "$(leftover)"
	sleep 1	# RCU-deferred frees (thread stacks, perf events)
	# shellcheck disable=SC2086 # three figures, one argument each
	/memleak check "$n" $mem0
}

# unload_check NAME: rmmod memreg; NAME passes if it worked and nothing is left
unload_check() {
	local rc
	rmmod memreg; rc=$?
	check "$1" "rmmod rc=$rc left='$(leftover)'" test "$rc" = 0 -a -z "$(leftover)"
}
# kallsyms (diagnostic, not in CTest, both suites): the kernel's text
# symbols, which the harness keeps to name where each vCPU was when a
# group timed out (the guests boot with nokaslr, so the addresses hold
# from boot to boot; scripts/qemu/lib.sh, qemu_kallsyms)
group_kallsyms() {
	echo MEMREG-KALLSYMS-BEGIN
	grep ' [tTwW] ' /proc/kallsyms
	echo MEMREG-KALLSYMS-END
}
