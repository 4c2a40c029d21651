#!/bin/sh
# bench/overhead/run.sh - memreg's own cost per regulation period, measured
# in a QEMU guest with memreg.ko in monitor-only mode (timers and counting,
# no throttling) at 1000, 100 and 32 us, against the same pinned compute
# benchmark with the module unloaded (C and C' interleaved).
#
#   bench/overhead/run.sh [--arch arm64|x86_64] [--reps N] [--ms MS]
#                         [--build DIR]
#
# arm64 (default) runs under -accel tcg,thread=single -icount shift=0: one
# guest nanosecond is one instruction, so the extra time per period is the
# instructions memreg costs the regulated core per period, kernel timer
# entry included, and repetitions agree closely.  x86-64 runs under plain
# TCG (its guest does not boot with -icount) and its figures are NOISY:
# time, not instructions, on a shared host.
# Target: <= 5,000 instructions per period and C'/C <= 1.20 at
# 32 us on arm64.  Prints the table and "TARGET MET" / "TARGET MISSED";
# exit 0 when the guest run succeeded (whatever the figures), 1 otherwise.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
arch=arm64
reps=5
ms=40
build=$src/build-ovh/bench-qemu
while [ $# -gt 0 ]; do
	case $1 in
	--arch) arch=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--ms) ms=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	-h|--help) sed -n '2,19p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1'"; exit 1 ;;
	esac
done
out=$(mktemp)
"$src/tests/overhead/guest/overhead-qemu.sh" --arch "$arch" --mode bench \
	--reps "$reps" --ms "$ms" --build "$build" --timeout 590 > "$out" 2>&1
rc=$?
grep -E '^(overhead-qemu|OVH-INFO|OVH-ERROR)' "$out"
if [ $rc -ne 0 ]; then
	cat "$out"
	rm -f "$out"
	exit $rc
fi
unit="instr"
[ "$arch" = arm64 ] || unit="ns (NOISY)"
echo
echo "memreg monitor-only cost, $arch, $reps repetitions, C = $ms ms (guest)"
printf '%-8s %-9s %-24s %s\n' "period" "master" "C'/C median (min..max)" "cost per period ($unit)"
grep '^OVH-POINT' "$out" | tr -d '\r' | awk -v cpu=0 -v unit="$unit" -v arch="$arch" '
{
	for (i = 2; i <= NF; i++) { split($i, a, "="); v[a[1]] = a[2] }
	where = (v["master"] == v["cpu"]) ? "on core" : "elsewhere"
	printf "%-8s %-9s %6.4f (%.4f..%.4f)    %s\n", v["period_us"] " us", where,
		v["median"], v["min"], v["max"], v["cost_ns_per_period"]
	if (v["period_us"] == 32 && v["median"] > 1.20) miss = 1
	if (v["cost_ns_per_period"] > 5000) miss = 1
	n++
}
END {
	if (!n) { print "no points"; exit 1 }
	if (arch != "arm64") print "x86-64 plain TCG: NOISY, not checked against the target"
	else print (miss ? "TARGET MISSED" : "TARGET MET") ": <= 5000 instructions per period and C'"'"'/C <= 1.20 at 32 us"
}'
rc=$?
rm -f "$out"
exit $rc
