#!/bin/sh
# memtune_e2e.sh - /init of the memtune end-to-end QEMU guest (built by
# tests/tuner/qemu_e2e.sh): 'memtune apply' loads the real memreg.ko with
# a tuned configuration planned on the host, the values are read back
# from /sys/kernel/memreg, then 'memtune validate' runs the mix
# unregulated (monitor-only), under static budgets (guarantees only) and
# regulated, with the real-time workload's per-job latency solo and in
# each co-run condition stored and drawn.  Then the
# real-time exemption: the exempt mix's configuration (/cfg-exempt.json,
# /mix-exempt.yaml, its id in /exempt-config-id) loaded by apply, every
# budget cut to one event a period, both cores faulting pages (the x86
# guest's counter): the exempt real-time core counts exempt overruns and
# is never throttled while the best-effort core is.  Then the headroom:
# /cfg-headroom.json (the plain export rewritten by hand so that the
# platform ceiling is well above the guarantees) loaded by apply, and
# /headroom (tests/kernel/guest/headroom.c) with the real-time and the
# best-effort CPU of /headroom-cpus: LMS raises the best-effort budget
# while the real-time core idles and lowers it when that core is busy,
# the real-time budget never below its guarantee, spare grants counted
# only when both are throttled.  First the checks it
# will run, then one line per check:
#   MEMTUNE-PLAN <name>...
#   MEMTUNE-CHECK <name> PASS|FAIL [detail]
# then MEMTUNE-DONE, and the guest powers off.
#
# Expects /m.db (platform profile, workload profiles, the tuned
# configuration), /cfg.json (its JSON export), /mix.yaml, /memreg.ko and
# memtune and memcal-load on PATH; for the deployment bundle's checks
# (bundle_e2e.sh) /bundle-src, /bundle_e2e.sh, /cfg-other.json and memcal.  Two optional parameters, both unset by
# the x86-64 guest:
#   MEMTUNE_E2E_NESTED=1    run by another /init (the arm64 guest's e2e
#                           group, tests/arm64/guest/init.sh) that mounted
#                           proc/sys/dev and powers off itself.
#   MEMTUNE_E2E_PMU_EVENT=E after the unload, 'memtune apply' loads memreg
#                           once more with the tuned configuration's read
#                           counter set to the hardware event E (arm64:
#                           raw:0x11, CPU_CYCLES of the emulated PMUv3),
#                           monitor-only, and checks it counts there.
if [ -z "${MEMTUNE_E2E_NESTED:-}" ]; then
	/bin/busybox mount -t proc proc /proc
	/bin/busybox mount -t sysfs sys /sys
	/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
fi
export PATH=/bin:/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
cd /
echo	# the console's escape sequences end up on this line, not a check
plan="apply-loads apply-period apply-lms-on apply-cpu1-regulated apply-matches-plan plan-headroom-loaded
	apply-again-sysfs validate-runs validate-regulated validate-leaves-regulating
	memreg-periods-counted validate-static latency-conditions latency-stored report-draws-latency unload"
[ -f /cfg-exempt.json ] && plan="$plan exempt-apply-loads exempt-sysfs exempt-rt-not-throttled
	exempt-be-throttled exempt-validate-latency exempt-rt-not-throttled-validate exempt-unload"
[ -f /cfg-headroom.json ] && plan="$plan headroom-apply-loads be-budget-rises
	be-budget-falls rt-budget-guaranteed share-none-alone share-grants-counted
	headroom-unload"
[ -d /bundle-src ] && plan="$plan bundle-fingerprint bundle-export bundle-install
	bundle-boot-loads bundle-boot-params bundle-unload bundle-uninstall bundle-other-install
	bundle-other-refused bundle-other-unloaded bundle-other-uninstall"
[ -n "${MEMTUNE_E2E_PMU_EVENT:-}" ] && plan="$plan pmu-apply-loads pmu-apply-matches pmu-counts pmu-unload"
# shellcheck disable=SC2086 # a list of names, on one line
echo "MEMTUNE-PLAN" $plan
check() { # name cond-rc detail
	if [ "$2" -eq 0 ]; then echo "MEMTUNE-CHECK $1 PASS $3"
	else echo "MEMTUNE-CHECK $1 FAIL $3"; fi
}
val() { tr -d '\n' < "$1" 2>/dev/null; }
M=/sys/kernel/memreg
# cpulist "0-1,3" -> "0 1 3"
cpulist() {
	echo "$1" | awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, a, "-")
		for (c = a[1]; c <= (n > 1 ? a[2] : a[1]); c++) printf "%d ", c } }'
}
# matches_export JSON: every module parameter of JSON's modprobe export
# (the values 'memtune apply' hands memreg) against its sysfs attribute:
# the global ones, cpus= as cpuN/regulated, and the per-CPU budget arrays
# (read_budget, write_budget, read_max, write_max) of the regulated CPUs
# as cpuN/{read,write}_{guaranteed,ceiling}.  Prints how many values were
# compared and any mismatch; true when at least 20 were and all agree.
matches_export() {
	opts=$(memtune export --format modprobe --file "$1" 2>/dev/null |
	       sed -n 's/^options memreg //p')
	nv=0; bad=
	on=$(cpulist "$(echo " $opts" | sed -n 's/.* cpus=\([^ ]*\).*/\1/p')")
	for kv in $opts; do
		k=${kv%%=*}; v=${kv#*=}
		case $k in
		cpus) for c in $on; do
			[ "$(val "$M/cpu$c/regulated")" = 1 ] || bad="$bad cpu$c/regulated"
			nv=$((nv + 1))
		      done ;;
		read_budget|write_budget|read_max|write_max)
			f=${k%%_*}_guaranteed
			[ "${k#*_}" = max ] && f=${k%%_*}_ceiling
			i=0
			for x in $(echo "$v" | tr , ' '); do
				if echo " $on " | grep -q " $i "; then
					got=$(val "$M/cpu$i/$f")
					[ "$got" = "$x" ] || bad="$bad cpu$i/$f=$got!=$x"
					nv=$((nv + 1))
				fi
				i=$((i + 1))
			done ;;
		*) got=$(val "$M/$k")
		   [ "$got" = "$v" ] || bad="$bad $k=$got!=$v"
		   nv=$((nv + 1)) ;;
		esac
	done
	echo "$nv values compared${bad:+, differing:$bad}"
	[ "$nv" -ge 20 ] && [ -z "$bad" ]
}

memtune --db /m.db apply --file /cfg.json --module /memreg.ko \
	--force-board > /tmp/apply.out 2>&1
rc=$?
check apply-loads $rc "$(tr '\n' ' ' < /tmp/apply.out)"

want_p=$(sed -n 's/^ *"period_us": \([0-9]*\),$/\1/p' /cfg.json | head -1)
got_p=$(val /sys/kernel/memreg/period_us)
[ -n "$want_p" ] && [ "$got_p" = "$want_p" ]
check apply-period $? "sysfs period_us=$got_p config=$want_p"
got_l=$(val /sys/kernel/memreg/lms)
[ "$got_l" = 1 ]
check apply-lms-on $? "sysfs lms=$got_l"
got_r=$(val /sys/kernel/memreg/cpu1/regulated)
[ "$got_r" = 1 ]
check apply-cpu1-regulated $? "cpu1/regulated=$got_r"
got_e=$(val /sys/kernel/memreg/error)
echo "memreg error attribute: $got_e"
out=$(matches_export /cfg.json)
check apply-matches-plan $? "sysfs against 'memtune export --format modprobe': $out"
# the planner's two pools as memreg holds them: the best-effort core
# (cpu 0) may grow past its guarantee, and the platform ceiling is above
# the sum of the guarantees
g0=$(val $M/cpu0/read_guaranteed); c0=$(val $M/cpu0/read_ceiling)
g1=$(val $M/cpu1/read_guaranteed); pr=$(val $M/platform_read)
[ -n "$g0" ] && [ -n "$c0" ] && [ -n "$g1" ] && [ -n "$pr" ] &&
	[ "$c0" -gt "$g0" ] && [ "$pr" -gt $((g0 + g1)) ]
check plan-headroom-loaded $? "cpu0 read guarantee $g0 ceiling $c0, cpu1 guarantee $g1, platform_read $pr"

# applying again with memreg loaded goes through sysfs staging + commit
memtune apply --file /cfg.json --force-board > /tmp/apply2.out 2>&1
rc=$?
grep -q "switched to configuration" /tmp/apply2.out
check apply-again-sysfs $(( rc | $? )) "$(tr '\n' ' ' < /tmp/apply2.out)"

memtune --db /m.db --json validate /mix.yaml > /tmp/val.json 2> /tmp/val.err
rc=$?
check validate-runs $rc "$(tr '\n' ' ' < /tmp/val.err)"
grep -q '"regulated": true' /tmp/val.json
check validate-regulated $? "$(tr -d '\n ' < /tmp/val.json | cut -c1-600)"
got_m=$(val /sys/kernel/memreg/monitor)
[ "$got_m" = 0 ]
check validate-leaves-regulating $? "monitor=$got_m"
p1=$(val /sys/kernel/memreg/cpu1/periods)
[ -n "$p1" ] && [ "$p1" -gt 0 ]
check memreg-periods-counted $? "cpu1/periods=$p1"
# latency_conditions FILE: the conditions of FILE's per-job latency rows
latency_conditions() {
	sed -n 's/^ *"condition": "\([a-z]*\)",*$/\1/p' "$1" | tr '\n' ' '
}
grep -q '"static": true' /tmp/val.json &&
	[ "$(grep -c '"slowdown_static": [0-9]' /tmp/val.json)" -ge 2 ] &&
	! grep -q '"slowdown_static": null' /tmp/val.json
check validate-static $? "$(grep -E '"(static|slowdown_static|static_throttles)"' /tmp/val.json | tr -d ' \n')"
got=$(latency_conditions /tmp/val.json)
[ "$got" = "solo unregulated static regulated " ]
check latency-conditions $? "conditions: $got; $(grep -E '"(p99_ns|deadline_misses)"' /tmp/val.json | tr -d ' \n')"
memtune --db /m.db report --format json --out /tmp/report.json > /tmp/rep.out 2>&1
rc=$?
got=$(latency_conditions /tmp/report.json)
[ $rc -eq 0 ] && [ "$got" = "solo unregulated static regulated " ]
check latency-stored $? "rc=$rc stored conditions: $got"
memtune --db /m.db report --out /tmp/report.html > /tmp/rep2.out 2>&1
rc=$?
grep -q 'id="chart-job-latency" class="chart"' /tmp/report.html
check report-draws-latency $(( rc | $? )) "$(tr '\n' ' ' < /tmp/rep2.out)"

rmmod memreg
check unload $? ""

# The real-time exemption.
if [ -f /cfg-exempt.json ]; then
	memtune --db /m.db apply --file /cfg-exempt.json --module /memreg.ko \
		--force-board > /tmp/apply-x.out 2>&1
	check exempt-apply-loads $? "$(tr '\n' ' ' < /tmp/apply-x.out)"
	x1=$(val $M/cpu1/rt_exempt); x0=$(val $M/cpu0/rt_exempt)
	[ "$x1" = 1 ] && [ "$x0" = 0 ]
	check exempt-sysfs $? "cpu1/rt_exempt=$x1 cpu0/rt_exempt=$x0"
	for c in 0 1; do
		for f in read_guaranteed write_guaranteed read_ceiling write_ceiling; do
			echo 1 > $M/cpu$c/$f
		done
	done
	# one-event budgets need a one-event sample period (page-faults keep
	# the slack scheme; memreg refuses a guarantee below slack_div)
	echo 1 > $M/slack_div
	echo 0 > $M/monitor
	echo 1 > $M/commit
	t0=$(val $M/cpu0/throttles); t1=$(val $M/cpu1/throttles)
	o1=$(val $M/cpu1/exempt_overruns)
	taskset 2 memcal-load write --mb 32 --size 33554432 > /dev/null 2>&1 &
	taskset 1 memcal-load write --mb 32 --size 33554432 > /dev/null 2>&1
	wait
	u0=$(val $M/cpu0/throttles); u1=$(val $M/cpu1/throttles)
	v1=$(val $M/cpu1/exempt_overruns)
	[ "$u1" = "$t1" ] && [ "$u1" = 0 ] && [ "$v1" -gt "$o1" ]
	check exempt-rt-not-throttled $? "cpu1: throttles $t1 -> $u1, exempt_overruns $o1 -> $v1 (budgets 1 event, error: $(val $M/error))"
	[ "$u0" -gt "$t0" ]
	check exempt-be-throttled $? "cpu0: throttles $t0 -> $u0"
	memtune --db /m.db --json validate /mix-exempt.yaml --config \
		"$(val /exempt-config-id)" > /tmp/val-x.json 2> /tmp/val-x.err
	rc=$?
	got=$(latency_conditions /tmp/val-x.json)
	[ $rc -eq 0 ] && [ "$got" = "solo unregulated static regulated " ]
	check exempt-validate-latency $? "rc=$rc conditions: $got; $(tr '\n' ' ' < /tmp/val-x.err)"
	w1=$(val $M/cpu1/throttles)
	[ "$w1" = 0 ]
	check exempt-rt-not-throttled-validate $? "cpu1/throttles=$w1 after the regulated run, exempt_overruns=$(val $M/cpu1/exempt_overruns), cpu0/throttles=$(val $M/cpu0/throttles)"
	rmmod memreg
	check exempt-unload $? ""
fi

# The headroom above the guarantees moves (the checks are headroom.c's,
# renamed to MEMTUNE-CHECK).
if [ -f /cfg-headroom.json ]; then
	memtune --db /m.db apply --file /cfg-headroom.json --module /memreg.ko \
		--force-board > /tmp/apply-h.out 2>&1
	check headroom-apply-loads $? "$(tr '\n' ' ' < /tmp/apply-h.out)"
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	# shellcheck disable=SC2046 # two CPU numbers
	/headroom $(val /headroom-cpus) | sed 's/^MEMREG-CHECK /MEMTUNE-CHECK /'
	echo "memreg error attribute: $(val $M/error)"
	rmmod memreg
	check headroom-unload $? ""
fi

# The deployment bundle, installed and booted (bundle_e2e.sh).
# shellcheck source=tests/kernel/guest/bundle_e2e.sh
[ -d /bundle-src ] && . /bundle_e2e.sh

# The tuned configuration with its read counter on a hardware PMU event,
# loaded by 'memtune apply' monitor-only: its budgets are in units of the
# planned counter (memory traffic), so on another event (CPU cycles) they
# would throttle the regulated CPUs to a sliver of each period.
ev=${MEMTUNE_E2E_PMU_EVENT:-}
if [ -n "$ev" ]; then
	# the "event" of the read counter, monitor on; the rest unchanged
	awk -v ev="$ev" '/"read": *\{/ { r = 1 }
		r && /"event":/ { sub(/"event": *"[^"]*"/, "\"event\": \"" ev "\""); r = 0 }
		/"monitor": *(true|false)/ { sub(/"monitor": *(true|false)/, "\"monitor\": true") }
		{ print }' /cfg.json > /cfg-pmu.json
	memtune apply --file /cfg-pmu.json --module /memreg.ko --force-board \
		> /tmp/apply3.out 2>&1
	rc=$?
	check pmu-apply-loads $rc "$(tr '\n' ' ' < /tmp/apply3.out)"
	out=$(matches_export /cfg-pmu.json)
	rc=$?
	got_ev=$(val $M/read_event); got_mon=$(val $M/monitor)
	[ $rc -eq 0 ] && [ "$got_ev" = "$ev" ] && [ "$got_mon" = 1 ]
	check pmu-apply-matches $? "read_event=$got_ev monitor=$got_mon; $out"
	c=$(for x in 0 1 2 3 4 5 6 7; do [ "$(val $M/cpu$x/regulated)" = 1 ] && echo $x; done | tail -1)
	e0=$(val "$M/cpu$c/read_events"); p0=$(val "$M/cpu$c/periods")
	i0=$(grep -i pmu /proc/interrupts | tr -s ' ' | tr '\n' ';')
	taskset "$(printf %x $((1 << ${c:-0})))" memcal-load compute --ms 400 > /dev/null 2>&1
	e1=$(val "$M/cpu$c/read_events"); p1=$(val "$M/cpu$c/periods")
	i1=$(grep -i pmu /proc/interrupts | tr -s ' ' | tr '\n' ';')
	# the cycle counter counts guest nanoseconds (QEMU: 1 GHz): 400 ms of
	# compute are ~4e8 events; > 1e8 leaves room for guest-clock skew
	[ -n "$c" ] && [ $((e1 - e0)) -gt 100000000 ] && [ $((p1 - p0)) -gt 0 ] &&
		[ "$(val "$M/cpu$c/throttles")" = 0 ]
	check pmu-counts $? "cpu$c: $((e1 - e0)) $ev events in $((p1 - p0)) periods during 400 ms of compute, throttles=$(val "$M/cpu$c/throttles") (monitor); pmu irqs before '$i0' after '$i1'"
	rmmod memreg
	check pmu-unload $? ""
fi
echo MEMTUNE-DONE
[ -n "${MEMTUNE_E2E_NESTED:-}" ] || poweroff -f
