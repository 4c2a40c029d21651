#!/bin/sh
# memreg-qemu.sh - boot the Debian kernel under QEMU (TCG) with memreg.ko and
# run one group of guest-side checks; turn the serial log into pass/fail.
#
#   scripts/qemu/memreg-qemu.sh [--flavor std|rt] [--build DIR]
#                               [--timeout SECONDS] GROUP
#
# GROUP: load accuracy lms reclaim fuzz cycles hotplug rt master (see tests/kernel/guest/init.sh).
# --flavor std boots the newest /boot/vmlinuz-*-amd64, rt the newest
# /boot/vmlinuz-*-rt-amd64; the module is built against the matching
# /usr/src/linux-headers-<version> (nothing is hard-coded).
# Outputs go under --build (default build-kmod/qemu): the module build, the
# static guest programs, the initramfs and <flavor>-<group>.log.
#
# MEMREG_QEMU_APPEND adds kernel command-line words (e.g. loglevel=7).
# Exit status: 0 all expected checks PASS; 1 any FAIL, a missing check, a
# WARN/BUG/oops/Call Trace in the log, or a timeout; 77 (skip) when the
# kernel, its headers, qemu, busybox-static or cpio are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
flavor=std
build=$src/build-kmod/qemu
tmo=300
while [ $# -gt 0 ]; do
	case $1 in
	--flavor) flavor=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	-h|--help) sed -n '2,18p' "$0"; exit 0 ;;
	*) break ;;
	esac
done
group=${1:-}
. "$here/lib.sh"
skip() { echo "memreg-qemu: SKIP: $*"; exit 77; }
die() { echo "memreg-qemu: ERROR: $*"; exit 1; }

case $group in
load) expect="load-defaults unload-defaults bad-period0 bad-period-absurd bad-period-tiny bad-period-garbage bad-master-missing bad-event-unknown-raw bad-event-unknown-type bad-event-garbage bad-event-cpus-garbage bad-event-cpus-no-spec bad-event-cpus-missing bad-event-cpus-twice bad-write-event-cpus-type bad-budget-sum bad-cpus-missing bad-cpus-garbage bad-slack0 bad-taps0 bad-taps17 bad-mu0 bad-master-offline perf-throttle perf-throttle-clear bad-overflow-rate bad-slack-above-guarantee overflow-rate-commit slack-commit cpus-all rearm-cpu-clock" ;;
accuracy) expect="baseline-stats accuracy-10 stats-10 accuracy-25 stats-25 accuracy-50 stats-50 accuracy-75 stats-75 core-context" ;;
lms) expect="lms-low lms-high lms-step-up lms-step-down lms-sysfs" ;;
reclaim) expect="reclaim-off reclaim-on share-off share-on" ;;
fuzz) expect="sysfs-fuzz fuzz-after fuzz-unload" ;;
cycles) expect="load-unload-50 cycles-no-leak" ;;
hotplug) expect="cpu1-offline cpu1-online commit-vs-hotplug hotplug-unload share-cpu-offline" ;;
rt) expect="bad-throttle-prio0 bad-throttle-prio99 bad-rt-prio1 bad-rt-prio100 bad-rt-exempt-garbage bad-rt-exempt-missing rt-prio-sysfs rt-idle-while-held rt-prio-held-off rt-prio-wakes rt-exempt rt-exempt-param rt-unload" ;;
master) expect="master-timer-armed master-no-tick master-throttled-ticks master-skipped-reported" ;;
*) die "unknown group '$group' (load accuracy lms reclaim fuzz cycles hotplug rt master)" ;;
esac

case $flavor in
std|rt) qemu_x86_kernel "$flavor" ;;
*) die "unknown flavor '$flavor' (std rt)" ;;
esac

mkdir -p "$build"
# Build phase under a lock: CTest may run two groups at once.
exec 9> "$build/.lock-$flavor"
flock 9
kout=$build/kmod-$flavor
# The regulator core may be mid-edit in the working tree: build against its committed version when this is a git
# checkout (MEMREG_CORE_WORKTREE=1 takes the working tree instead).
core=$src/regulator/core
if [ -z "${MEMREG_CORE_WORKTREE:-}" ] && git -C "$src" rev-parse -q --verify HEAD > /dev/null 2>&1 \
	&& git -C "$src" cat-file -e HEAD:regulator/core 2>/dev/null; then
	core=$build/core-snapshot-$flavor
	rm -rf "$core.new" && mkdir -p "$core.new"
	git -C "$src" archive HEAD regulator/core | tar -x -C "$core.new" --strip-components=2
	mkdir -p "$core"
	for f in "$core"/*; do [ -e "$core.new/${f##*/}" ] || rm -f "$f"; done
	for f in "$core.new"/*; do
		cmp -s "$f" "$core/${f##*/}" || cp "$f" "$core/"
	done
	rm -rf "$core.new"
fi
make -s -C "$src/regulator/kmod" OUT="$kout" KDIR="$kdir" CORE="$core" > "$build/kmod-$flavor.buildlog" 2>&1 \
	|| { cat "$build/kmod-$flavor.buildlog"; die "module build failed"; }
ko=$kout/kmod/memreg.ko
gdir=$build/guest-$flavor
mkdir -p "$gdir"
for p in pfload memreg_fuzz rtwake mastertick; do
	if [ ! -x "$gdir/$p" ] ||
	   [ -n "$(find "$src/tests/kernel/guest/$p.c" -newer "$gdir/$p")" ]; then
		gcc -static -O2 -Wall -Wextra -Werror -o "$gdir/$p" "$src/tests/kernel/guest/$p.c" \
			|| die "cannot build guest program $p (static libc: libc6-dev)"
	fi
done
root=$build/initramfs-$flavor
rm -rf "$root"
mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
cp /bin/busybox "$root/bin/busybox"
for a in $(/bin/busybox --list); do
	[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
done
cp "$src/tests/kernel/guest/init.sh" "$root/init"
cp "$src/tests/kernel/guest/lib.sh" "$root/lib.sh"
chmod 755 "$root/init"
# without debug info the module is ~10x smaller: insmod in the slow guest is faster
strip --strip-debug -o "$root/memreg.ko" "$ko" 2>/dev/null || cp "$ko" "$root/memreg.ko"
cp "$gdir/pfload" "$gdir/memreg_fuzz" "$gdir/rtwake" "$gdir/mastertick" "$root/"
initrd=$build/initrd-$flavor-$group.gz
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd"
flock -u 9

log=$build/$flavor-$group.log
echo "memreg-qemu: $flavor kernel $kver, group $group, log $log"
timeout -k 5 "$tmo" qemu-system-x86_64 -accel tcg -cpu max -smp 2 -m 512 \
	-nographic -no-reboot -kernel "$kimg" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 memreg_group=$group ${MEMREG_QEMU_APPEND:-}" \
	< /dev/null > "$log" 2>&1
qrc=$?
rm -f "$initrd"

fail=0
# shellcheck disable=SC2086 # $expect is a list of check names
qemu_verdict memreg-qemu "$log" "$qrc" "$tmo" $expect || fail=1
[ $fail -eq 0 ] && echo "memreg-qemu: $flavor/$group: all checks PASS" \
	|| echo "memreg-qemu: $flavor/$group: FAILED"
exit $fail
