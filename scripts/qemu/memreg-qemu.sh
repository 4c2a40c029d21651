#!/bin/sh
# memreg-qemu.sh - boot the Debian kernel under QEMU (TCG) with memreg.ko and
# run one group of guest-side checks; turn the serial log into pass/fail.
#
#   scripts/qemu/memreg-qemu.sh [--flavor std|rt] [--build DIR]
#                               [--guest-bin DIR] [--timeout SECONDS] GROUP
#   scripts/qemu/memreg-qemu.sh [--flavor std|rt] [--build DIR]
#                               [--guest-bin DIR] --prepare
#
# GROUP: one listed for the flavor in tests/kernel/groups (the guest side
# is group_GROUP in tests/kernel/guest/init.sh); --timeout defaults to the
# group's timeout there less 30 s.  The guest has two CPUs, four for a
# group with the option smp4; one with the option nohz1 boots with
# nohz_full=1 (CPU 1 tick-less).
# --flavor std boots the newest /boot/vmlinuz-*-amd64, rt the newest
# /boot/vmlinuz-*-rt-amd64; the module is built from the working tree
# (regulator/kmod and regulator/core as they are on disk, edits included)
# against the matching /usr/src/linux-headers-<version> (nothing is
# hard-coded).  The guest programs (tests/kernel/guest, static) are
# CMake's: --guest-bin names the folder a build of
# tests/kernel/guest/CMakeLists.txt put them in (the main build's
# guest/x86_64/bin, which CTest passes), and they are copied into the
# initramfs; without it this script configures and builds that project
# itself, under --build.  Outputs go under --build (default
# build-kmod/qemu): the module build, the guest programs (without
# --guest-bin), the initramfs and <flavor>-<group>.log.
# --prepare only builds the module and, without --guest-bin, the guest
# programs (what every group then finds up to date), so that scripts/test builds them for all
# kernels at once instead of inside the first group of each, one by one.
#
# MEMREG_QEMU_APPEND adds kernel command-line words (e.g. loglevel=7).
# Exit status: 0 every check the guest planned PASS; 1 any FAIL, a missing
# or unplanned check, a WARN/BUG/oops/Call Trace in the log, or a timeout;
# 77 (skip) when the kernel, its headers, qemu, busybox-static or cpio are
# missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
flavor=std
build=$src/build-kmod/qemu
gbin=
tmo=
prepare=
while [ $# -gt 0 ]; do
	case $1 in
	--flavor) flavor=$2; shift 2 ;;
	--prepare) prepare=1; shift ;;
	--build) build=$2; shift 2 ;;
	--guest-bin) gbin=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d'; exit 0 ;;
	*) break ;;
	esac
done
group=${1:-}
# kbuild runs in the module's own directory: the paths it is given must
# not be relative to here
mkdir -p "$build"
build=$(cd "$build" && pwd)
[ -z "$gbin" ] || gbin=$(cd "$gbin" && pwd) || exit 1
qemu_tag="memreg-qemu"
. "$here/lib.sh"

case $flavor in
std|rt) ;;
*) die "unknown flavor '$flavor' (std rt)" ;;
esac
if [ -n "$prepare" ]; then
	gtmo=0
else
	gtmo=$(qemu_group_timeout "$flavor" "$group") || exit 1
fi
smp=2
gopts=" $(qemu_group_options "$flavor" "$group") "
case $gopts in *" smp4 "*) smp=4 ;; esac
nohz=
case $gopts in *" nohz1 "*) nohz="nohz_full=1" ;; esac
[ -n "$tmo" ] || tmo=$((gtmo - 30))
qemu_x86_kernel "$flavor"

# Build phase under a lock: CTest may run two groups at once.
exec 9> "$build/.lock-$flavor"
flock 9
kout=$build/kmod-$flavor
ko=$kout/kmod/memreg.ko
# the decoy PMUs of the PMU-name checks (group_pmuname)
decoy=$build/pmudecoy-$flavor/pmudecoy.ko
stamp=$build/.built-$flavor
if ! { qemu_up_to_date "$stamp" "$kdir" "$ko" "$src/regulator/kmod" "$src/regulator/core" \
	"$src/tests/kernel/pmudecoy" "$kdir/Makefile" "$here/memreg-qemu.sh" && [ -f "$decoy" ]; }; then
	echo "$kdir" > "$stamp.new"
	make -s -C "$src/regulator/kmod" OUT="$kout" KDIR="$kdir" > "$build/kmod-$flavor.buildlog" 2>&1 \
		|| { cat "$build/kmod-$flavor.buildlog"; die "module build failed"; }
	make -s -C "$src/tests/kernel/pmudecoy" OUT="$build/pmudecoy-$flavor" KDIR="$kdir" \
		>> "$build/kmod-$flavor.buildlog" 2>&1 || { cat "$build/kmod-$flavor.buildlog"; die "pmudecoy build failed"; }
	mv -f "$stamp.new" "$stamp"
fi
if [ -z "$gbin" ]; then
	qemu_guest_build x86_64 "$build/guest-$flavor"
	gbin=$build/guest-$flavor/bin
fi
[ -n "$prepare" ] && exit 0
root=$build/initramfs-$flavor
qemu_initramfs "$root" /bin/busybox
cp "$qemu_guest_dir/init.sh" "$root/init"
chmod 755 "$root/init"
# without debug info the module is ~10x smaller: insmod in the slow guest is faster
strip --strip-debug -o "$root/memreg.ko" "$ko" 2>/dev/null || cp "$ko" "$root/memreg.ko" \
	|| die "no module at $ko (kbuild log: $kout.buildlog)"
cp "$decoy" "$root/" || die "no module at $decoy (kbuild log: $kout.buildlog)"
qemu_guest_copy "$gbin" "$root"
initrd=$build/initrd-$flavor-$group.gz
qemu_pack "$root" "$initrd"
flock -u 9

log=$build/$flavor-$group.log
echo "memreg-qemu: $flavor kernel $kver, group $group, log $log"
qemu_boot "$log" "$tmo" qemu-system-x86_64 -accel "$qemu_x86_accel" -cpu max -smp "$smp" -m 512 \
	-nographic -no-reboot -kernel "$kimg" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 nokaslr memreg_group=$group $nohz ${MEMREG_QEMU_APPEND:-}"
# a timeout: each vCPU's RIP is named from the guest's own /proc/kallsyms
kallsyms=$build/kallsyms-$kver
qemu_kallsyms "$kallsyms" "$log.kallsyms" qemu-system-x86_64 -accel "$qemu_x86_accel" -cpu max -smp 2 -m 512 \
	-nographic -no-reboot -kernel "$kimg" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1 nokaslr memreg_group=kallsyms"
rm -f "$initrd"

if QEMU_SYSTEM_MAP=$kallsyms qemu_verdict memreg-qemu "$log" "$qrc" "$tmo"; then
	echo "memreg-qemu: $flavor/$group: all checks PASS"
	exit 0
fi
echo "memreg-qemu: $flavor/$group: FAILED"
exit 1
