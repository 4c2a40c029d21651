#!/bin/sh
# /init of the arm64 memreg QEMU test initramfs (busybox sh), booted by
# scripts/arm64/memreg-qemu-arm64 on qemu-system-aarch64 -M virt
# -cpu max,pmu=on.  Regulation runs on the real hardware-PMU path: the
# armv8_pmuv3 counter for raw event 0x11 (CPU_CYCLES) with its overflow
# interrupt.  The emulated PMU counts no cache refills (0x17/0x18 read 0),
# so CPU cycles stand in for memory traffic.  The harness runs QEMU with
# -icount (shift=4: 16 ns of guest time per instruction; every group but
# cycles) and the emulated cycle counter counts 1 per guest ns, so the
# checks do not depend on how loaded the host is.  Accuracy uses 10 ms periods (10^7 cycles): at 16 ns
# per instruction, kernel paths (interrupt entry, irq_work, the wake-up of
# the throttle thread) take ~16x their hardware time in guest time.
#
# The host passes the check group as memreg_group=NAME on the kernel command
# line (the groups are listed in tests/kernel/groups).  A group declares
# its checks first (plan), then every check prints exactly one line
#   MEMREG-CHECK <name> PASS|FAIL <detail>
# then the kernel log between MEMREG-DMESG-BEGIN/END, "MEMREG-DONE" and a
# forced power-off: the helpers and conventions shared with the x86-64
# suite are in tests/kernel/guest/lib.sh, copied to /lib.sh.  This script
# orchestrates; the measured checks are computed by /pmu_check
# (pmu_check.c) and the x86 suite's /accuracy, /hotplug and (lib.sh's
# load_unload_cycles) /memleak.
# Figures come back as one line of words that "set -- $(...)" splits into
# positional parameters, and "echo V > FILE; rc=$?" is the status of a
# sysfs write, both on purpose:
# shellcheck disable=SC2046,SC2320 source=../../kernel/guest/lib.sh
. /lib.sh
guest_mount
# perf throttles any counter that overflows more often than
# perf_event_max_sample_rate / HZ per tick, and lowers that rate itself
# whenever an overflow interrupt takes longer than perf_cpu_time_max_percent
# allows.  Under emulation every interrupt is slow, the rate soon drops to
# ~2500/s and memreg's counter then stops delivering overflows for the rest
# of each tick (seen: 5 overflows per 10 ms period instead of 80, budgets
# not enforced).  A board that regulates with a fine slack_div needs the
# same two settings (docs/arm64.md), in this order: the rate cannot be
# written once the automatic lowering is off.
echo 200000 > /proc/sys/kernel/perf_event_max_sample_rate
echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
EV=raw:0x11
group=${memreg_group:-load}

# load: regulation on the PMU counter comes up on both CPUs, the overflow
# interrupt throttles (pmu_check load), the module unloads cleanly; bad
# parameters are refused with a message and leave nothing behind.
group_load() {
	plan load-pmu pmu-overflow-irq unload-pmu raw-0x17-emulated $(bad_params_plan) \
		bad-event-raw-garbage pmu-by-name bad-pmu-name-unknown
	insmod $KO read_event=$EV period_us=10000 read_budget=2000000 platform_read=20000000; rc=$?
	/pmu_check load "$rc"
	unload_check unload-pmu
	insmod $KO read_event=raw:0x17 monitor=1; rc=$?
	/spin -c 1 -t 0.5 > /dev/null
	n=$(rd $M/cpu1/read_events)
	rmmod memreg 2>/dev/null
	# Under emulation L2D_CACHE_REFILL is accepted but never counts: a
	# real board's MemGuard event cannot be exercised here, say so.
	check raw-0x17-emulated "insmod read_event=raw:0x17 rc=$rc; counted $n L2 refills while spinning (QEMU's PMU implements no cache events)" \
		test "$rc" = 0 -a "$n" = 0
	bad_params read_event=$EV
	bad event-raw-garbage read_event=raw:0xzz
	group_pmu_name
}

# pmu-by-name: the CPU PMU by its sysfs name (armv8_pmuv3 under a device
# tree, its type a number given at boot): memreg resolves it and counts
# cycles on cpu 1 with overflow interrupts; an unknown name is refused.
group_pmu_name() {
	pmu=
	for d in /sys/bus/event_source/devices/armv8*; do
		[ -e "$d" ] && { pmu=${d##*/}; break; }
	done
	insmod $KO read_event="$pmu:0x11" cpus=1 period_us=10000 read_budget=2000000 \
		platform_read=20000000; rc=$?
	/spin -c 1 -t 0.5 > /dev/null
	n=$(rd $M/cpu1/read_events); o=$(rd $M/cpu1/overflows)
	check pmu-by-name "insmod read_event=$pmu:0x11 (type $(rd "/sys/bus/event_source/devices/$pmu/type")) rc=$rc: cpu1 read_event=$(rd $M/cpu1/read_event) counted $n cycles, $o overflows, error='$(rd $M/error)'" \
		test "$rc" = 0 -a -n "$pmu" -a "$(rd $M/cpu1/read_event)" = "$pmu:0x11" \
		-a "$n" -gt 0 -a "$o" -gt 0
	rmmod memreg 2>/dev/null
	bad pmu-name-unknown read_event=nosuchpmu:0x11
}

# accuracy: regulate cpu1 at 10/25/50/75 % of the cycles of its 10 ms
# period (monitor mode measures them first); pmu_check accuracy judges
# the overshoot per throttle and the CPU share of the spinning program
group_accuracy() {
	plan baseline-cycles accuracy-10 stats-10 irqs-per-period-10 accuracy-25 stats-25 \
		irqs-per-period-25 accuracy-50 stats-50 irqs-per-period-50 accuracy-75 stats-75 \
		irqs-per-period-75 core-context
	insmod $KO read_event=$EV cpus=1 monitor=1 period_us=10000 slack_div=8 platform_read=40000000 ||
		{ result accuracy-load FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"; return; }
	/pmu_check accuracy
	/accuracy core-context
	rmmod memreg
}

# twoclass: both classes of cpu1 count the PMU's cycle event, reclaim on,
# cpu0 an idle donor; neither class passes its budget plus one overflow's
# slack in a period (tests/kernel/guest/twoclass.c says how it is judged).
group_twoclass() {
	plan twoclass-reclaim
	/twoclass -k $KO -e $EV
}

# fuzz: random writes to every sysfs file while cpu1 regulates a spinning
# program on the PMU event.  The fuzzer runs on cpu0, which is not
# regulated: a throttled emulated CPU spins in memreg's thread, and TCG
# executes that spin ~100x slower than ordinary code.
group_fuzz() {
	plan sysfs-fuzz fuzz-after fuzz-unload
	insmod $KO read_event=$EV cpus=1 read_budget=3000000 platform_read=20000000 period_us=10000 ||
		{ result fuzz-load FAIL "insmod failed"; return; }
	/spin -c 1 -t 600 > /dev/null & w=$!
	t0=$(rd $M/cpu1/throttles)
	out=$(taskset 0x1 /memreg_fuzz -n 300 -s 42); rc=$?
	t1=$(rd $M/cpu1/throttles)
	echo "$out" | grep BAD | head -20
	check sysfs-fuzz "$(echo "$out" | tail -1); cpu1 throttles meanwhile $((t1 - t0))" test "$rc" = 0 -a $((t1 - t0)) -gt 0
	echo 1 > $M/commit; rc=$?
	check fuzz-after "commit of the discarded-stage config rc=$rc event=$(rd $M/read_event) periods=$(rd $M/cpu1/periods) error=$(rd $M/error)" \
		test "$rc" = 0 -a "$(rd $M/read_event)" = "$EV"
	kill $w 2>/dev/null; wait $w 2>/dev/null
	unload_check fuzz-unload
}

# cycles: 50 load/unload cycles under load, as on x86 (memreg_cycles=N
# overrides), then CPU hotplug while the PMU counter of the CPU regulates
# (the counter must be recreated), commits racing hotplug, and the PMU's
# overflow interrupts on cpu1 after all that.  The harness runs this group
# under multi-threaded TCG, not -icount: see perf-release below.
# Budgets of 70 % keep both CPUs throttling every period while leaving the
# (slowly emulated) throttle spin short.
group_cycles() {
	plan "load-unload-${memreg_cycles:-50}" cycles-no-leak cpu1-offline cpu1-online \
		commit-vs-hotplug cpu1-pmu-irqs hotplug-unload
	/spin -c 0 -t 900 > /dev/null & w0=$!
	/spin -c 1 -t 900 > /dev/null & w1=$!
	set -- read_event=$EV read_budget=7000000,7000000 platform_read=20000000
	load_unload_cycles "${memreg_cycles:-50}" 10000 "$@"
	if insmod $KO "$@" cpus=0,1 period_us=10000; then
		/hotplug cpu1 10000 20 $w1
		/pmu_check cpu1-pmu-irqs
		unload_check hotplug-unload
	else
		result hotplug FAIL "insmod failed: $(dmesg | grep memreg | tail -1)"
	fi
	kill $w0 $w1 2>/dev/null
}

# perf-release (diagnostic, not in CTest): memreg's unload path without
# memreg.  With both CPUs busy, /perf_release on cpu1 opens sampling
# CPU_CYCLES counters on cpu0 and cpu1 (memreg's sample period: 7*10^6 / 8;
# a ring buffer and a wake-up per sample, so every overflow also queues an
# irq_work), lets them run 50 ms and closes them, memreg_cycles times
# (default 300), in one process and with no watcher: a task pinned to cpu0
# (hang_watch) changes what cpu0 does enough to hide the hang.  Under
# -icount it hangs within the first cycles exactly where memreg's rmmod
# was seen to (perf_remove_from_context's function call to cpu0, never
# run); under --mttcg it does not.
group_perf_release() {
	plan perf-release
	/spin -c 0 -t 3600 > /dev/null & w0=$!
	/spin -c 1 -t 3600 > /dev/null & w1=$!
	n=${memreg_cycles:-300}
	/perf_release -n "$n" -c 0 -s 1 -e 0x11 -p 875000 -u 50000 > /tmp/pr.out 2>&1; rc=$?
	check perf-release "rc=$rc $(tail -1 /tmp/pr.out)" test "$rc" = 0
	kill $w0 $w1 2>/dev/null
}

# e2e: memcal and memtune end to end in this kernel, with the statically
# cross-built programs: `memcal run --quick` (NEON kernels, stored; the
# PMU verdict printed), `memcal show` and `memcal show --json` (the JSON
# goes to the host between MEMCAL-SHOW-JSON-BEGIN/END: the harness parses
# it), then memtune profile, plan and export of a small mix of memcal-load
# workloads, and the x86 suite's apply/validate checks
# (tests/kernel/guest/memtune_e2e.sh, run nested) with a last apply on the
# PMU's raw CPU_CYCLES event.  16 MiB buffers: a quick pass, not a board
# calibration; overhead assumed (emulator timing says nothing about a
# board's interrupt cost).
group_e2e() {
	# memcal-show-json is judged by the harness, from the JSON printed here
	plan memcal-quick memcal-pmu-stated memcal-show memcal-show-json memtune-profile \
		memtune-plan memtune-export-json memtune-export-modprobe
	db=/m.db
	memcal --db $db run --quick --size 16777216 > /tmp/run.out 2>&1; rc=$?
	sed 's/^/  | /' /tmp/run.out
	nneon=$(grep -Ec '^ +(core|aggregate) .* neon ' /tmp/run.out)
	check memcal-quick "rc=$rc, $nneon bandwidth rows with the NEON kernels, $(grep -o 'stored as run [0-9]*' /tmp/run.out)" \
		test "$rc" = 0 -a "$nneon" -ge 2 -a -n "$(grep -E '^ +core +[0-9]+ +read .* neon ' /tmp/run.out)" \
		-a -n "$(grep 'stored as run 1 ' /tmp/run.out)"
	pmu=$(sed -n 's/^PMU: //p' /tmp/run.out)
	check memcal-pmu-stated "PMU: $pmu" test -n "$pmu"
	memcal --db $db show > /tmp/show.out 2>&1; rc=$?
	check memcal-show "rc=$rc: $(grep -E '^run 1 |read, one core' /tmp/show.out | tr -s ' ' | tr '\n' ';')" \
		test "$rc" = 0 -a -n "$(grep '^run 1 *quick' /tmp/show.out)" -a -n "$(grep 'aarch64' /tmp/show.out)" \
		-a -n "$(grep 'read, one core' /tmp/show.out)"
	memcal --db $db --json show --run 1 > /tmp/show.json 2>&1; rc=$?
	echo "MEMCAL-SHOW-JSON-RC $rc"
	echo MEMCAL-SHOW-JSON-BEGIN
	cat /tmp/show.json
	echo
	echo MEMCAL-SHOW-JSON-END
	# a periodic real-time reader on cpu 1 beside a best-effort writer
	cat > /mix.yaml <<-'MIX'
	name: arm64-guest-e2e
	runs: 1
	percentile: 99
	margin_pct: 20
	workloads:
	  - name: rt-reader
	    argv: [memcal-load, read, --mb, "1", --size, "1048576", --period-us,
	           "20000", --jobs, "8"]
	    criticality: rt
	    period_us: 20000
	    cpu: 1
	  - name: be-writer
	    command: memcal-load write --mb 32 --size 4194304
	    criticality: be
	MIX
	memtune --db $db profile /mix.yaml > /tmp/profile.out 2>&1; rc=$?
	sed 's/^/  | /' /tmp/profile.out
	check memtune-profile "rc=$rc: $(grep -E '^(rt-reader|be-writer) ' /tmp/profile.out | tr -s ' ' | tr '\n' ';')" \
		test "$rc" = 0 -a "$(grep -Ec '^(rt-reader|be-writer) ' /tmp/profile.out)" = 2
	# 20 ms as well: under TCG the guaranteed (all-row-miss) figure is
	# about 0.3 GB/s, and at 5 ms the real-time floors (the private
	# caches refilled once a period) alone exceed it
	memtune --db $db plan /mix.yaml --periods 1000,2000,5000,20000 --assume-overhead-ns 50000 > /tmp/plan.out 2>&1; rc=$?
	sed 's/^/  | /' /tmp/plan.out
	check memtune-plan "rc=$rc: $(grep -m1 '^tuned configuration' /tmp/plan.out); $(grep -m1 '^ *period ' /tmp/plan.out | tr -s ' ')" \
		test "$rc" = 0 -a -n "$(grep '^tuned configuration 1 ' /tmp/plan.out)" -a -n "$(grep -E '^ *period [0-9]+ us, master cpu [0-9]' /tmp/plan.out)"
	memtune --db $db export --format json --out /cfg.json > /tmp/export.out 2>&1; rc=$?
	check memtune-export-json "rc=$rc, $(wc -c < /cfg.json 2>/dev/null) bytes, $(grep -m1 '"period_us"' /cfg.json | tr -d ' ,')" \
		test "$rc" = 0 -a -n "$(grep '"format"' /cfg.json 2>/dev/null)"
	memtune --db $db export --format modprobe --out /memreg.conf > /tmp/export2.out 2>&1; rc=$?
	opts=$(sed -n 's/^options memreg //p' /memreg.conf 2>/dev/null)
	echo "  | $opts"
	check memtune-export-modprobe "rc=$rc: $(echo "$opts" | cut -c1-200)" \
		test "$rc" = 0 -a -n "$(echo " $opts" | grep ' period_us=[0-9]' | grep ' read_budget=')"
	# apply, sysfs readback, apply again, validate, unload, then the
	# PMU apply: the x86 suite's checks (MEMTUNE-CHECK lines)
	MEMTUNE_E2E_NESTED=1 MEMTUNE_E2E_PMU_EVENT=$EV sh /memtune_e2e.sh
}

# pcpu: the two CPUs count different events, as a big.LITTLE board's
# tuned configuration has them: CPU 0 CPU_CYCLES (raw 0x11), CPU 1
# INST_RETIRED (raw 0x08, 1/16 of the cycles at -icount shift=4).  Loaded
# with the options line memtune exports for a configuration giving the
# two CPUs those events (/memreg.conf: tests/fixtures/export/
# modprobe_guest_pcpu.golden, which test_tuner_export checks), swapped through
# cpuN/read_event and commit, one CPU back to the global read_event with
# "default"; cpu 1 taken offline and back keeps counting its own event; a
# bad per-CPU spec refuses the commit and changes nothing;
# bad per-CPU parameters are refused at load.  Monitor-only: the counts
# are compared, nothing throttles.  The verdicts are pcpu's
# (tests/kernel/guest/pcpu.c, shared with the x86-64 load group).
group_pcpu() {
	plan pcpu-load pcpu-param-readback pcpu-param-counts pcpu-sysfs-commit pcpu-sysfs-readback \
		pcpu-sysfs-counts pcpu-hotplug pcpu-hotplug-readback pcpu-hotplug-counts pcpu-bad-refused pcpu-bad-discarded pcpu-bad-readback pcpu-bad-counts \
		pcpu-type-refused pcpu-type-discarded pcpu-type-readback pcpu-type-counts \
		pcpu-default-commit pcpu-default-readback pcpu-default-counts pcpu-unload \
		bad-event-cpus-raw-garbage bad-event-cpus-beyond bad-write-event-cpus-list
	# pmubusy's checks (below) on a line of their own: the harness joins
	# every MEMREG-PLAN line, and a long one is easier to break on the console
	plan commit-keeps-old commit-after-release cpu-counters-held cpu-counters-held-retry \
		cpu-counters-held-master
	opts=$(sed -n 's/^options memreg //p' /memreg.conf)
	# shellcheck disable=SC2086 # the options line is split into parameters
	insmod $KO $opts; rc=$?
	check pcpu-load "insmod with memtune's exported options ($(echo "$opts" | grep -o 'read_event[^ ]*' | tr '\n' ' ')) rc=$rc error=$(rd $M/error)" \
		test "$rc" = 0 -a -n "$(echo " $opts" | grep ' read_event_cpus=0:raw:0x11,1:raw:0x08')"
	/pcpu -n pcpu-param -e raw:0x11,raw:0x08
	/pcpu -n pcpu-sysfs -s 0=raw:0x08,1=raw:0x11 -e raw:0x08,raw:0x11
	# cpu 1 away and back: its counters are opened again with its own event
	echo 0 > $CPU1_ONLINE; off=$?; sleep 0.2
	echo 1 > $CPU1_ONLINE; on=$?; sleep 0.5
	check pcpu-hotplug "cpu1 offline rc=$off, online rc=$on, running=$(rd $M/cpu1/running) error=$(rd $M/error)" \
		test "$off" = 0 -a "$on" = 0 -a "$(rd $M/cpu1/running)" = 1
	/pcpu -n pcpu-hotplug -e raw:0x08,raw:0x11
	/pcpu -n pcpu-bad -b 1=raw:0xzz -e raw:0x08,raw:0x11
	/pcpu -n pcpu-type -b 0=2:1 -e raw:0x08,raw:0x11
	/pcpu -n pcpu-default -s 0=default -e page-faults,raw:0x11
	unload_check pcpu-unload
	bad event-cpus-raw-garbage read_event=$EV read_event_cpus=0:raw:0x11,1:raw:0xzz
	bad event-cpus-beyond read_event=$EV read_event_cpus=0:raw:0x11,2:raw:0x08
	bad write-event-cpus-list read_event=$EV write_event_cpus=0,1:raw:0x08
	# a commit whose counter cannot be created on cpu1 (its PMU taken by a
	# pinned exclusive group) leaves the old configuration regulating
	/pmubusy excl $KO
	# cpu1's PMU held by such a group when it comes back online
	/pmubusy held $KO
}

# selfcheck: memcal's overflow-delivery check on each CPU with the
# emulated PMU; selfcheck-nopmu: the guest has none (pmu=off) and the check
# must say it cannot open the counter.  /selfcheck plans its checks and
# judges them in C.
group_selfcheck() { /selfcheck; }
group_selfcheck_nopmu() { /selfcheck --no-pmu; }

echo "MEMREG-GROUP $group kernel=$(uname -r) machine=$(uname -m)"
# the groups are listed in tests/kernel/groups; each is group_<name> here
# (perf-release: group_perf_release)
if type "group_$(echo "$group" | tr - _)" > /dev/null 2>&1; then
	"group_$(echo "$group" | tr - _)"
else
	result group FAIL "no group '$group' in this guest"
fi
# shellcheck disable=SC2119 # the whole kernel log
guest_finish
