#!/bin/sh
# /init of the memreg QEMU test initramfs (busybox sh).  The host harness
# (scripts/qemu/memreg-qemu.sh) passes the check group on the kernel command
# line as memreg_group=NAME (the kernel hands unknown name=value words to
# init as environment variables).  The helpers and conventions shared with
# the arm64 and overhead guests (check lines, the kernel log and power-off
# at the end, bad parameters, load/unload cycles) are in
# lib.sh beside this file, copied to /lib.sh.  This script orchestrates
# (loads memreg, starts the workloads); the measured checks are computed
# by the C programs beside it (accuracy.c, lms.c, reclaim.c, hotplug.c,
# rtopts.c, ...; sizing.c for the figures memreg is loaded with), one per
# group or a few cohesive checks each.  Each group_<name> declares its checks
# first (plan); the groups are listed in tests/kernel/groups.
# Figures come back as one line of words that "set -- $(...)" splits into
# positional parameters, and "echo V > FILE; rc=$?" is the status of a
# sysfs write, both on purpose:
# shellcheck disable=SC2046,SC2320
. /lib.sh
guest_mount
group=${memreg_group:-load}

# pf_rate CPU SECONDS: the unregulated page-fault rate /pfload reaches
pf_rate() { /pfload -c "$1" -t "$2" | sed -n 's/.* rate=\([0-9]*\).*/\1/p'; }

group_load() {
	plan load-defaults unload-defaults $(bad_params_plan) bad-event-unknown-raw \
		perf-throttle perf-throttle-clear bad-overflow-rate bad-slack-above-guarantee \
		overflow-rate-commit slack-commit cpus-all rearm-cpu-clock \
		pcpu-load pcpu-param-readback pcpu-param-counts pcpu-sysfs-commit \
		pcpu-sysfs-readback pcpu-sysfs-counts pcpu-bad-refused pcpu-bad-discarded \
		pcpu-bad-readback pcpu-bad-counts pcpu-unload $(pmuname_plan)
	insmod $KO; rc=$?
	sleep 0.3
	p0=$(rd $M/cpu0/periods); p1=$(rd $M/cpu1/periods)
	check load-defaults "insmod rc=$rc periods cpu0=$p0 cpu1=$p1 running=$(rd $M/cpu0/running)$(rd $M/cpu1/running) error=$(rd $M/error)" \
		test "$rc" = 0 -a "$p0" -gt 10 -a "$p1" -gt 10 -a "$(rd $M/cpu1/running)" = 1
	unload_check unload-defaults
	# shellcheck disable=SC2119 # no counter parameter: the default event
	bad_params
	bad event-unknown-raw read_event=raw:0x17	# no PMU in this guest
	group_perf_throttle
	group_overflow_checks
	group_pcpu_soft
	group_pmuname
}

# ---- events by PMU name: /pmudecoy.ko (tests/kernel/pmudecoy) registers
# decoyA and decoyB in the order its parameter gives, so their type
# numbers swap between loads; it counts the events scheduled on each
# (adds, active).  memreg regulates cpu 1 on decoyB:0x1a.
D=/sys/module/pmudecoy/parameters
PMU_EV="cpus=1 period_us=10000 read_budget=1000 platform_read=1000000"
pmuname_plan() {
	echo pmu-order-ab pmu-unload-refused pmu-order-ba pmu-numeric-other \
		pmu-unknown-load pmu-vanish-commit pmu-online-absent pmu-online-resolves \
		pmu-unload
}
# waitfor CMD...: until CMD succeeds, at most 5 s (hotplug work is async)
waitfor() { w=0; while [ $w -lt 50 ] && ! "$@"; do sleep 0.1; w=$((w + 1)); done; }
# decoy_gone: unload pmudecoy; 0 once it is gone
decoy_gone() { rmmod pmudecoy 2>/dev/null; ! grep -q '^pmudecoy ' /proc/modules; }
# decoys: "a_adds/a_active b_adds/b_active"
decoys() { echo "$(rd $D/a_adds)/$(rd $D/a_active) $(rd $D/b_adds)/$(rd $D/b_active)"; }
# pmu_on_b NAME DETAIL: memreg runs cpu 1 on decoyB's counter, none on decoyA
pmu_on_b() {
	check "$1" "$2 decoys a,b adds/active=$(decoys) cpu1 running=$(rd $M/cpu1/running) read_event=$(rd $M/cpu1/read_event) read_pmu_type=$(rd $M/cpu1/read_pmu_type) error='$(rd $M/error)'" \
		test "$(rd $D/a_adds)" = 0 -a "$(rd $D/b_adds)" -gt 0 -a "$(rd $D/b_active)" = 1 \
		-a "$(rd $M/cpu1/read_pmu_type)" = "$(rd /sys/bus/event_source/devices/decoyB/type)" \
		-a "$(rd $M/cpu1/running)" = 1 -a "$(rd $M/cpu1/read_event)" = decoyB:0x1a
}
group_pmuname() {
	# shellcheck disable=SC2086 # $PMU_EV: several parameters
	insmod /pmudecoy.ko order=ab && insmod $KO $PMU_EV read_event=decoyB:0x1a; rc=$?
	ta=$(rd /sys/bus/event_source/devices/decoyA/type)
	tb=$(rd /sys/bus/event_source/devices/decoyB/type)
	pmu_on_b pmu-order-ab "order ab (types A=$ta B=$tb) insmod rc=$rc"
	rmmod pmudecoy 2>/dev/null; rc=$?
	check pmu-unload-refused "rmmod pmudecoy under memreg's counters rc=$rc running=$(rd $M/cpu1/running)" \
		test "$rc" != 0 -a "$(rd $M/cpu1/running)" = 1
	rmmod memreg; rmmod pmudecoy
	# shellcheck disable=SC2086
	insmod /pmudecoy.ko order=ba && insmod $KO $PMU_EV read_event=decoyB:0x1a; rc=$?
	pmu_on_b pmu-order-ba "order ba (types A=$(rd /sys/bus/event_source/devices/decoyA/type) B=$(rd /sys/bus/event_source/devices/decoyB/type)) insmod rc=$rc"
	rmmod memreg; rmmod pmudecoy
	# decoyB's number under order ab names decoyA under ba: why exports warn
	# shellcheck disable=SC2086
	insmod /pmudecoy.ko order=ba && insmod $KO $PMU_EV read_event="$tb:0x1a"; rc=$?
	check pmu-numeric-other "read_event=$tb:0x1a under order ba: insmod rc=$rc decoys a,b adds/active=$(decoys)" \
		test "$rc" = 0 -a "$(rd $D/a_active)" = 1 -a "$(rd $D/b_adds)" = 0
	rmmod memreg
	# shellcheck disable=SC2086
	insmod $KO $PMU_EV read_event=nosuchpmu:0x1 2>/dev/null; rc=$?
	e=$(dmesg | grep memreg | tail -1)
	check pmu-unknown-load "insmod read_event=nosuchpmu:0x1 rc=$rc left='$(leftover)' msg='$e'" \
		test "$rc" != 0 -a -z "$(leftover)" -a -n "$(echo "$e" | grep "nosuchpmu:0x1'.*no such PMU")"
	# a PMU that goes while memreg holds no counter on it: commit refused
	# shellcheck disable=SC2086
	insmod $KO $PMU_EV read_event=decoyB:0x1a
	echo page-faults > $M/read_event; echo 1 > $M/commit
	rmmod pmudecoy; rc=$?
	echo decoyB:0x1a > $M/read_event; echo 1 > $M/commit 2>/dev/null; e=$?
	check pmu-vanish-commit "decoy released rmmod rc=$rc; commit decoyB:0x1a without it rc=$e error='$(rd $M/error)' cpu1 running=$(rd $M/cpu1/running)" \
		test "$rc" = 0 -a "$e" != 0 -a "$(rd $M/cpu1/running)" = 1 \
		-a -n "$(rd $M/error | grep 'no such PMU')"
	rmmod memreg
	# resolved again when a CPU comes online: cpu 1 offline, decoys gone,
	# online (refused: runs unregulated); offline, decoys back in the
	# other order, online: on decoyB again (cpu 1's own event this time)
	insmod /pmudecoy.ko order=ab
	# shellcheck disable=SC2086
	insmod $KO $PMU_EV read_event_cpus=1:decoyB:0x1a
	# the offline CPU's counters are released by memreg's hotplug work
	echo 0 > $CPU1_ONLINE; waitfor decoy_gone; decoy_gone; rc=$?
	echo 1 > $CPU1_ONLINE
	waitfor test "$(rd $M/cpu1/counter_error)" != 0
	check pmu-online-absent "rmmod with cpu1 offline rc=$rc; online: running=$(rd $M/cpu1/running) counter_error=$(rd $M/cpu1/counter_error) error='$(rd $M/error)'" \
		test "$rc" = 0 -a "$(rd $M/cpu1/running)" = 0 -a "$(rd $M/cpu1/counter_error)" != 0 \
		-a -n "$(rd $M/error | grep 'no such PMU')"
	echo 0 > $CPU1_ONLINE; insmod /pmudecoy.ko order=ba
	echo 1 > $CPU1_ONLINE
	waitfor test "$(rd $M/cpu1/running)" = 1
	pmu_on_b pmu-online-resolves "cpu1 online under order ba: counter_error=$(rd $M/cpu1/counter_error)"
	unload_check pmu-unload
	rmmod pmudecoy
}

# group_pcpu_soft: each CPU its own event on software counters, cpu 0
# page-faults and cpu 1 cpu-clock (nanoseconds), by read_event_cpus=,
# then swapped through cpuN/read_event and commit; a bad spec staged for
# one CPU refuses the commit and changes nothing.  Monitor-only: the
# counts are compared (the verdicts are /pcpu's, tests/kernel/guest/pcpu.c).
group_pcpu_soft() {
	insmod $KO monitor=1 read_event_cpus=0:page-faults,1:cpu-clock; rc=$?
	check pcpu-load "insmod monitor=1 read_event_cpus=0:page-faults,1:cpu-clock rc=$rc error=$(rd $M/error)" \
		test "$rc" = 0
	/pcpu -n pcpu-param -e page-faults,cpu-clock
	/pcpu -n pcpu-sysfs -s 0=cpu-clock,1=page-faults -e cpu-clock,page-faults
	/pcpu -n pcpu-bad -b 1=raw:0xzz -e cpu-clock,page-faults
	unload_check pcpu-unload
}

# group_overflow_checks: what load and commit refuse about overflow
# interrupts (kernel.perf_event_max_sample_rate, a guarantee below
# slack_div), cpus=all, and a re-armed counter (cpu-clock) taking one
# overflow interrupt per period while throttled every period.
group_overflow_checks() {
	sample_rate 1000
	bad overflow-rate cpus=1 period_us=1000 read_event=page-faults read_budget=16 slack_div=16
	sample_rate 100000
	bad slack-above-guarantee cpus=1 read_budget=4 slack_div=8
	insmod $KO cpus=1 period_us=1000 read_event=page-faults read_budget=16 slack_div=16 \
		|| { result overflow-rate-commit FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	sample_rate 1000
	echo 1 > $M/commit 2>/dev/null; rc=$?
	e=$(rd $M/error)
	sample_rate 100000
	check overflow-rate-commit "sample rate 1000/s, 16 overflows per 1 ms period: commit rc=$rc error='$e'" \
		test "$rc" != 0 -a -n "$(echo "$e" | grep 'perf_event_max_sample_rate')"
	echo 32 > $M/slack_div
	echo 1 > $M/commit 2>/dev/null; rc=$?
	e=$(rd $M/error)
	echo 0 > $M/commit
	check slack-commit "guarantee 16, slack_div 32: commit rc=$rc error='$e'" \
		test "$rc" != 0 -a -n "$(echo "$e" | grep 'below slack_div')"
	rmmod memreg
	insmod $KO cpus=all; rc=$?
	n=0; r=0
	for d in "$M"/cpu*; do n=$((n + 1)); r=$((r + $(rd "$d"/regulated))); done
	check cpus-all "insmod cpus=all rc=$rc: $r of $n possible CPUs ($(cat /sys/devices/system/cpu/possible)) regulated" \
		test "$rc" = 0 -a "$n" = $(($(sed 's/.*-//' /sys/devices/system/cpu/possible) + 1)) -a "$r" = "$n"
	rmmod memreg
	# cpu-clock: one overflow interrupt per throttled period (accuracy.c)
	insmod $KO cpus=1 period_us=10000 read_event=cpu-clock read_budget=5000000 slack_div=16 platform_read=20000000 \
		|| { result rearm-cpu-clock FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	sleep 0.2
	/accuracy rearm-cpu-clock
	rmmod memreg
}

# A counter whose overflows exceed kernel.perf_event_max_sample_rate is
# throttled by perf (it counts, but its overflow handler is not called, so
# budgets go unenforced): memreg counts each throttle and says so in
# error.  cpu-clock in ns, re-armed to the budget left: a 900 us budget
# per 1 ms period overflows once per period, 1,000/s, 4 per 4 ms tick; a
# sample rate of 500/s allows 2 per tick.  (page-faults cannot be
# throttled by perf: a software event's single overflow is exempt.)
# Dynamic lowering of the rate is switched off so that only the rate set
# here applies (the kernel refuses a new rate while it is off).
# perf throttles at the second overflow after a tick and lifts it at the
# next tick, so between two ticks of cpu1 there are at most two overflows
# and a throttle for each second one: with O overflows over J jiffies
# (cpu1 ticks at most J + 1 times), perf throttled at least O - (J + 2)
# times and at most (O + 1) / 2.  memreg must count them all: a count
# taken at the period timer alone misses the throttles that perf's tick
# lifts before the period timer runs (a CI run saw 33 of at least 64).
# A vCPU the host runs in short slices overflows less often, so the hog
# runs 1 s at a time, up to 5 s, until a throttle is counted.
jiffies() { awk '$1 == "jiffies:" { print $2; exit }' /proc/timer_list; }
sample_rate() {
	echo 25 > /proc/sys/kernel/perf_cpu_time_max_percent
	echo "$1" > /proc/sys/kernel/perf_event_max_sample_rate
	echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
}
group_perf_throttle() {
	sample_rate 100000
	insmod $KO cpus=1 period_us=1000 read_event=cpu-clock read_budget=900000 \
		platform_read=1000000 slack_div=16 \
		|| { result perf-throttle FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/pfload -c 1 -t 1 > /dev/null
	t0=$(rd $M/cpu1/perf_throttled); e0=$(rd $M/error)
	sample_rate 500
	r1=$(rd /proc/sys/kernel/perf_event_max_sample_rate)
	# The window opens after the new rate, whose throttles start at
	# once: cpu-clock counts an idle CPU's time too.  Overflows, then
	# throttles, then overflows again, at each end: the throttles counted
	# lie between the two overflow counts' bounds, give or take the one
	# throttle a tick may add between two reads at either end.
	p1=$(rd $M/cpu1/periods) j1=$(jiffies)
	o0=$(rd $M/cpu1/overflows) tb=$(rd $M/cpu1/perf_throttled) o1=$(rd $M/cpu1/overflows)
	for s1 in 1 2 3 4 5; do
		/pfload -c 1 -t 1 > /dev/null
		[ "$(rd $M/cpu1/perf_throttled)" = "$tb" ] || break
	done
	o2=$(rd $M/cpu1/overflows) t1=$(rd $M/cpu1/perf_throttled)
	o3=$(rd $M/cpu1/overflows) j1=$(($(jiffies) - j1))
	e1=$(rd $M/error)
	p1=$(($(rd $M/cpu1/periods) - p1)) t1=$((t1 - tb)) o2=$((o2 - o1)) o3=$((o3 - o0))
	lo=$((o2 - j1 - 2 - 1)) hi=$(((o3 + 1) / 2 + 1))
	check perf-throttle "max_sample_rate 100000: perf_throttled=$t0 error='$e0'; $r1: perf_throttled $tb + $t1 after ${s1} s ($p1 periods, $o2..$o3 overflows, $j1 jiffies: from $lo to $hi throttles) error='$e1'" \
		test "$t0" = 0 -a "$e0" = none -a "$t1" -gt 0 -a "$t1" -ge "$lo" -a "$t1" -le "$hi" \
			-a -n "$(echo "$e1" | grep 'cpu 1: perf throttled its counter')"
	sample_rate 100000
	echo 1 > $M/commit; rc=$?
	/pfload -c 1 -t 1 > /dev/null
	check perf-throttle-clear "rate restored, commit rc=$rc: perf_throttled=$(rd $M/cpu1/perf_throttled) periods=$(rd $M/cpu1/periods) error='$(rd $M/error)'" \
		test "$rc" = 0 -a "$(rd $M/cpu1/perf_throttled)" = 0 -a "$(rd $M/cpu1/periods)" -gt 100 -a "$(rd $M/error)" = none
	rmmod memreg
	echo 25 > /proc/sys/kernel/perf_cpu_time_max_percent
}

# accuracy: cpu1 regulated at 10/25/50/75 % of its unregulated rate, one
# overflow's slack B / 16 (accuracy.c says how it is judged)
group_accuracy() {
	plan baseline-stats accuracy-10 stats-10 accuracy-25 stats-25 accuracy-50 stats-50 \
		accuracy-75 stats-75 core-context
	insmod $KO cpus=1 monitor=1 period_us=10000 slack_div=16 || { result accuracy-load FAIL "insmod failed: $(dmesg | tail -1)"; return; }
	/accuracy budgets
	/accuracy core-context
	rmmod memreg
}

# LMS: demand low (20 % of R0) -> high (60 %) -> low for 2 s each, paced
# by pfload; the period and levels from sizing lms
group_lms() {
	plan lms-low lms-high lms-step-up lms-step-down lms-sysfs
	insmod $KO cpus=1 monitor=1 period_us=10000 || { result lms-load FAIL "insmod failed"; return; }
	r0=$(pf_rate 1 1)
	rmmod memreg
	# P Ls Hs L H G C: period, low and high rate, the same per period,
	# guarantee, ceiling
	set -- $(/sizing lms "$r0")
	insmod $KO cpus=1 period_us="$1" lms=1 read_budget="1,$6" read_max="1,$7" lms_cold_read="$6" lms_taps=4 lms_mu=32768 lms_headroom=16384 platform_read=$(($7 * 2)) \
		|| { result lms-load FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/lms "$@"
	rmmod memreg
}

# regulate_both PERIOD BUDGET CEILING CHECK: load regulating both CPUs at
# BUDGET read events per period under a platform CEILING (CHECK fails if
# the load is refused)
regulate_both() {
	insmod $KO cpus=0,1 period_us="$1" read_budget="$2,$2" platform_read="$3" \
		|| { result "$4" FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return 1; }
}

# reclaim: both CPUs regulated at 25 % of R0 per period (period from
# sizing period), cpu0 idle: with reclaim on cpu1 takes what cpu0
# donates.  Then spare sharing: both demanding at 10 % of R0 (so that both
# exhaust their budgets even when the host slows the guest), platform
# ceiling 4x one budget: once both are throttled the master shares
# (4B - 2B) / 2 = B more to each.  reclaim (reclaim.c) judges both.
# Then share=spare and share=proportional (sharemode.c).
group_reclaim() {
	plan reclaim-off reclaim-on share-off share-on share-param \
		share-spare-release share-spare-sim share-prop-period \
		share-prop-sim
	insmod $KO cpus=1 monitor=1 period_us=10000 || { result reclaim-load FAIL "insmod failed"; return; }
	r0=$(pf_rate 1 1)
	rmmod memreg
	P=$(/sizing period "$r0")
	echo "reclaim: unregulated rate=$r0/s period=${P}us"
	B=$(/sizing budget "$r0" 25 "$P")
	regulate_both "$P" "$B" $((B * 2)) reclaim-load || return
	/reclaim reclaim read_reclaimed "$B"
	rmmod memreg
	B=$(/sizing budget "$r0" 10 "$P")
	regulate_both "$P" "$B" $((B * 4)) share-load || return
	/pfload -c 0 -t 6 > /dev/null & w0=$!
	/reclaim share read_shared "$B"
	kill $w0 2>/dev/null; wait $w0 2>/dev/null
	rmmod memreg
	# share=spare and share=proportional (sharemode.c)
	/sharemode -k $KO -p "$P" -b "$B"
}

# twoclass: two counted classes on cpu1 with reclaim on and an idle donor
# (/twoclass, 10,000 periods of 1 ms): neither class runs past its own
# budget.  A group of its own: the 10,000 periods take 10-20 s of guest
# time, more than the reclaim group had left of its timeout under load.
group_twoclass() {
	plan twoclass-reclaim
	/twoclass -k $KO
}

# tcgpatch (manual, a diagnostic of the emulator): toggle trace events
# (memreg_toggle_events=sched/sched_switch,... on the kernel line, default
# memreg/period) N times (memreg_toggles=N, default 300) while
# both CPUs are regulated beside a throttled hog.  Each toggle patches the
# tracepoint's jump with text_poke_bp(); under QEMU 7.2's multi-threaded
# TCG (MEMREG_QEMU_ACCEL=tcg,thread=multi) this load leaves a vCPU looping
# in the int3 and the boot hangs (scripts/qemu/lib.sh, qemu_x86_accel).
# Passing means the guest came through every toggle still regulating.
group_tcgpatch() {
	plan tcgpatch-toggles
	n=${memreg_toggles:-300}
	/pfload -c 0 -t 600 > /dev/null & w0=$!
	/pfload -c 1 -t 600 > /dev/null & w1=$!
	insmod $KO cpus=0,1 period_us=1000 read_budget=20,20 || { result tcgpatch-toggles FAIL "insmod failed"; return; }
	evs=$(echo "${memreg_toggle_events:-memreg/period}" | tr , ' ')
	p0=$(rd $M/cpu0/periods) p1=$(rd $M/cpu1/periods)
	i=0
	while [ $i -lt "$n" ]; do
		for e in $evs; do echo 1 > "$T/events/$e/enable"; done
		for e in $evs; do echo 0 > "$T/events/$e/enable"; done
		i=$((i + 1))
	done
	kill $w0 $w1 2>/dev/null
	wait $w0 $w1 2>/dev/null
	p0=$(($(rd $M/cpu0/periods) - p0)) p1=$(($(rd $M/cpu1/periods) - p1))
	check tcgpatch-toggles "$i toggles of $evs; periods meanwhile cpu0=$p0 cpu1=$p1, cpu1 throttles=$(rd $M/cpu1/throttles)" \
		test "$i" = "$n" -a "$p0" -gt 0 -a "$p1" -gt 0
	rmmod memreg
}

group_fuzz() {
	plan sysfs-fuzz fuzz-after fuzz-unload sysfs-decimal lms-mu-below-2 exempt-one-trace
	insmod $KO period_us=1000 || { result fuzz-load FAIL "insmod failed"; return; }
	out=$(/memreg_fuzz -n 1000 -s 42); rc=$?
	echo "$out" | grep BAD | head -20
	check sysfs-fuzz "$(echo "$out" | tail -1)" test "$rc" = 0
	echo 1 > $M/commit; rc=$?
	check fuzz-after "commit of the discarded-stage config rc=$rc periods=$(rd $M/cpu1/periods) error=$(rd $M/error)" test "$rc" = 0
	unload_check fuzz-unload
	# decimal numbers, lms_mu < 2, an exempt CPU traced once a period
	/sysfsnum -k $KO
}

group_cycles() {
	plan load-unload-50 cycles-no-leak
	/pfload -c 0 -t 600 > /dev/null & w0=$!
	/pfload -c 1 -t 600 > /dev/null & w1=$!
	load_unload_cycles 50 1000 read_budget=20,20
	kill $w0 $w1 2>/dev/null
}

group_hotplug() {
	plan cpu1-offline cpu1-online commit-vs-hotplug hotplug-unload share-cpu-offline \
		live-commit-budgets live-commit-events live-commit-slack cpu-counters-failed \
		cpu-counters-retry
	/pfload -c 0 -t 600 > /dev/null & w0=$!
	/pfload -c 1 -t 600 > /dev/null & w1=$!
	if insmod $KO cpus=0,1 period_us=1000 read_budget=20,20; then
		/hotplug cpu1 1000 100 $w1
		unload_check hotplug-unload
	else
		result hotplug FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"
	fi
	kill $w0 $w1 2>/dev/null
	wait $w0 $w1 2>/dev/null
	hotplug_share_check
	/kmodfail live $KO
	/kmodfail failed $KO
}

# hotplug_share_check: both CPUs regulated at 20 page faults per 10 ms
# period with spare sharing under a platform ceiling of 80; cpu1 offline
# while cpu0 hogs (hotplug share-cpu-offline)
hotplug_share_check() {
	insmod $KO cpus=0,1 period_us=10000 read_budget=20,20 platform_read=80 share=1 \
		|| { result share-cpu-offline FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/hotplug share-cpu-offline
	rmmod memreg
}

# ---- real-time options (throttle.c): idle while held, rt_prio, rt_exempt;
# rtopts (rtopts.c) and rtwake -k (tests/kernel/guest/rtwake.c) measure and
# judge
group_rt() {
	plan bad-throttle-prio0 bad-throttle-prio99 bad-rt-prio1 bad-rt-prio100 \
		bad-rt-exempt-garbage bad-rt-exempt-missing rt-prio-sysfs rt-idle-while-held \
		rt-idle-latency rt-prio-held-off rt-prio-wakes rt-prio-unmap rt-exempt \
		rt-exempt-param rt-unload
	bad throttle-prio0 throttle_prio=0
	bad throttle-prio99 throttle_prio=99
	bad rt-prio1 rt_prio=1
	bad rt-prio100 rt_prio=100
	bad rt-exempt-garbage rt_exempt=x
	bad rt-exempt-missing rt_exempt=5
	# the kernel's events rtwake traces, enabled now, while no CPU is busy
	# (patching sched_switch can hang a TCG vCPU: rtwake.c, tr_keep())
	/rtwake -k events
	insmod $KO cpus=1 monitor=1 period_us=10000 || { result rt-load FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	r0=$(pf_rate 1 1)
	rmmod memreg
	P=$(/sizing period "$r0")
	B=$(/sizing budget "$r0" 7 "$P")
	# both CPUs regulated, cpu1's hog held ~80-90 % of each period
	insmod $KO cpus=0,1 period_us="$P" read_budget="$B,$B" platform_read=$((B * 2)) \
		|| { result rt-load FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/rtopts prio-sysfs
	/rtopts idle "$P" "$B" "$r0"
	/rtwake -k idle-latency -P "$P"
	/rtwake -k wakes -P "$P"
	/rtopts exempt "$B"
	rmmod memreg
	insmod $KO cpus=0,1 period_us="$P" read_budget="$B,$B" platform_read=$((B * 2)) rt_exempt=1 \
		|| { result rt-exempt-param FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/pfload -c 1 -t 1 > /dev/null
	check rt-exempt-param "rt_exempt=1: cpu0/rt_exempt=$(rd $M/cpu0/rt_exempt) cpu1/rt_exempt=$(rd $M/cpu1/rt_exempt) cpu1 throttles=$(rd $M/cpu1/throttles) exempt_overruns=$(rd $M/cpu1/exempt_overruns)" \
		test "$(rd $M/cpu0/rt_exempt)" = 0 -a "$(rd $M/cpu1/rt_exempt)" = 1 -a "$(rd $M/cpu1/throttles)" = 0 -a "$(rd $M/cpu1/exempt_overruns)" -gt 10
	unload_check rt-unload
}

# master: the master tick (regulator/kmod/master.c); the verdicts are
# computed by /mastertick (tests/kernel/guest/mastertick.c)
group_master() {
	plan master-timer-armed master-rides-period master-unregulated-ticks master-no-tick master-throttled-ticks master-skipped-reported
	/mastertick -k $KO -t 8
}

# nohz: booted with nohz_full=1 (option nohz1); the overflow-rate check
# against perf's per-tick limit, which a tick-less CPU stretches to a
# second (kmodfail.c measures and judges)
group_nohz() {
	plan rate-tick-equal nohz-rate-refused nohz-accepted-runs
	/kmodfail nohz $KO
}

# ---- four CPUs (booted with -smp 4): smp4.c measures and judges
group_smp4() {
	plan smp4-all-cpus smp4-master-rides smp4-throttle-share smp4-hotplug-share \
		smp4-master-offline smp4-unload
	/smp4 -k $KO
}

echo "MEMREG-GROUP $group kernel=$(uname -r)"
# the groups are listed in tests/kernel/groups; each is group_<name> here
if type "group_$group" > /dev/null 2>&1; then
	"group_$group"
else
	result group FAIL "no group '$group' in this guest"
fi
# shellcheck disable=SC2119 # the whole kernel log
guest_finish
