#!/bin/sh
# overhead-qemu.sh - the real `memcal overhead` measurement in a QEMU guest:
# memreg.ko (regulator/kmod, built against the Debian headers) loaded in
# monitor-only mode at each period, against the same pinned benchmark with
# the module unloaded (tests/overhead/guest/ovh_guest.c).
#
#   tests/overhead/guest/overhead-qemu.sh [--arch x86_64|arm64]
#        [--mode test|bench] [--build DIR] [--timeout S] [--reps N]
#        [--ms MS] [--bench compute|memory] [--icount|--no-icount]
#        [--cells PATTERNS] [--load-index N] [--guest-bin DIR]
#        [--plugin SO --profile FILE] [--ko MODULE]
#
# --mode test  (CTest): 100 us vs 5 ms, master on cpu 1 and on cpu 0;
#              checks: finite ratios, >= 0.95, 100 us costs more than 5 ms
#              for both placements, the master comparison ran, unloaded.
#              With -icount the median ratio is checked; under plain TCG
#              the best one (min C' / min C: a loaded host only adds time).
# --mode bench (bench/overhead/run.sh): one load of each cell of its
#              table (bench/overhead/ovh_cells.h: --cells PATTERNS, this
#              boot's --load-index N); prints the raw OVH-RUN/OVH-STATS
#              lines of bench/overhead/ovh_table_guest.c, judged on the
#              host.  arm64 -icount only, with sleep=off (see
#              bench/overhead/README.md).
# --mode memcal  `memcal overhead` itself in the guest, where memreg loads:
#              method "memreg" chosen, the run stored, `memcal show` lists
#              it.  Needs --memcal PROG, a static memcal (the CMake
#              target memcal_guest; x86-64 only).
# --plugin SO --profile FILE  (bench only) QEMU loads the instruction
#              profile plugin SO (bench/overhead/ovh_insn_plugin.c), which
#              writes its counts to FILE at the guest's markers; the guest
#              prints the addresses to attribute them (ovh_profile.c)
# --ko MODULE  (arm64) load this memreg.ko instead of building the tree's
#              (bench/overhead/run.sh --base: another revision's module)
# --guest-bin  the folder of the guest programs ovh_guest and
#              ovh_table_guest (the main build's guest/ARCH/ovh-bin);
#              without it they are built here with the guests' CMake
#              project (tests/kernel/guest/CMakeLists.txt).
# --icount     single-threaded TCG with -icount shift=0 (1 guest ns = one
#              instruction: deterministic).  Default on arm64; off on
#              x86-64, whose guest does not boot that way (it stops after
#              "Booting from ROM"; docs/platform-notes.md), so x86-64
#              figures are plain TCG and NOISY.
# --arch arm64 qemu-system-aarch64 -M virt -cpu max,pmu=on with the arm64
#              kernel and cross-built memreg.ko of scripts/arm64/{kernel,kmod};
#              memreg counts the real PMU event raw
#              0x11 (CPU_CYCLES) there, so its overflow/read path is costed.
# Uses the module builds of the kernel harnesses (make -C regulator/kmod OUT= KDIR=
# on x86-64, scripts/arm64/kmod on arm64) and the same boot recipes as
# scripts/qemu/memreg-qemu.sh and scripts/arm64/memreg-qemu-arm64; its own
# initramfs because those harnesses run only their fixed check groups.
# Exit: 0 all checks PASS (bench: the guest finished), 1 otherwise, 77
# (skip) when kernel, headers, qemu, busybox-static or cpio are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../../.." && pwd)
mode="test"
build=$src/build-ovh/qemu
tmo=400
reps=5
ms=40
bench=compute
icount=
arch=x86_64
memcal=
cells=all
loadidx=0
gbin=
plugin=
profile=
kofile=
while [ $# -gt 0 ]; do
	case $1 in
	--mode) mode=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	--timeout) tmo=$2; shift 2 ;;
	--reps) reps=$2; shift 2 ;;
	--ms) ms=$2; shift 2 ;;
	--bench) bench=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--no-icount) icount=0; shift ;;
	--arch) arch=$2; shift 2 ;;
	--memcal) memcal=$2; shift 2 ;;
	--cells) cells=$2; shift 2 ;;
	--load-index) loadidx=$2; shift 2 ;;
	--guest-bin) gbin=$2; shift 2 ;;
	--plugin) plugin=$2; shift 2 ;;
	--profile) profile=$2; shift 2 ;;
	--ko) kofile=$2; shift 2 ;;
	-h|--help) sed -n '2,45p' "$0"; exit 0 ;;
	*) echo "overhead-qemu: unknown argument '$1'"; exit 1 ;;
	esac
done
qemu_tag="overhead-qemu"
. "$src/scripts/qemu/lib.sh"
case $mode in test|bench|memcal) ;; *) die "unknown mode '$mode' (test bench memcal)" ;; esac

case $arch in
x86_64)
	[ -n "$icount" ] || icount=0
	qemu_x86_kernel std
	qemu="qemu-system-x86_64"
	tcg=$qemu_x86_accel
	extra=
	console=ttyS0
	;;
arm64)
	[ -n "$icount" ] || icount=1
	qemu="qemu-system-aarch64"
	tcg=tcg
	command -v aarch64-linux-gnu-gcc > /dev/null ||
		skip "aarch64-linux-gnu-gcc missing (apt-get install gcc-aarch64-linux-gnu)"
	vars=$("$src/scripts/arm64/kernel"); rc=$?
	[ $rc -eq 77 ] && skip "no arm64 kernel tree"
	[ $rc -eq 0 ] || die "scripts/arm64/kernel failed"
	eval "$vars"
	# shellcheck disable=SC2153 # KIMG and KVER come from the eval above
	kimg=$KIMG
	# shellcheck disable=SC2153
	kver=$KVER
	extra="read_event=raw:0x11"
	console=ttyAMA0
	;;
*) die "unknown arch '$arch' (x86_64 arm64)" ;;
esac
[ "$mode" = bench ] && [ "$arch" != arm64 ] &&
	die "mode bench is arm64 only (plain TCG on x86-64 measures host time)"
[ -n "$plugin" ] && [ -z "$profile" ] && die "--plugin needs --profile FILE"
[ -n "$profile" ] && [ -z "$plugin" ] && die "--profile needs --plugin SO"
[ -n "$plugin" ] && [ "$mode" != bench ] && die "--plugin is for mode bench"
[ -z "$plugin" ] || [ -f "$plugin" ] || die "--plugin $plugin: no such file"
command -v "$qemu" > /dev/null || skip "$qemu missing"
command -v cpio > /dev/null || skip "cpio missing"
build=$build/$arch

mkdir -p "$build"
exec 9> "$build/.lock"
flock 9
if [ "$arch" = x86_64 ]; then
	[ -z "$kofile" ] || die "--ko is for arm64"
	[ -x /bin/busybox ] || skip "busybox-static missing"
	bb=/bin/busybox
	kout=$build/kmod
	make -s -C "$src/regulator/kmod" OUT="$kout" KDIR="$kdir" > "$build/kmod.buildlog" 2>&1 \
		|| { tail -30 "$build/kmod.buildlog"; die "module build failed"; }
	cp "$kout/kmod/memreg.ko" "$build/memreg.ko"
else
	bb=$BUSYBOX
	if [ -n "$kofile" ]; then
		[ -f "$kofile" ] || die "--ko $kofile: no such file"
		ko=$kofile
	else
		ko=$("$src/scripts/arm64/kmod"); rc=$?
		[ $rc -eq 77 ] && skip "arm64 module build unavailable"
		[ $rc -eq 0 ] || die "arm64 memreg.ko cross build failed"
	fi
	# without debug information: insmod under TCG is slow
	aarch64-linux-gnu-strip --strip-debug -o "$build/memreg.ko" "$ko" || die "cannot strip $ko"
fi
if [ -z "$gbin" ]; then
	qemu_guest_build "$arch" "$build/guest"
	gbin=$build/guest/ovh-bin
fi
g=$gbin/ovh_guest
[ "$mode" = bench ] && g=$gbin/ovh_table_guest
[ -x "$g" ] || die "no guest program $g (build it: cmake --build on the main build)"
if [ "$mode" = memcal ]; then
	[ "$arch" = x86_64 ] || skip "mode memcal is x86-64 only"
	[ -n "$memcal" ] || skip "no static memcal (--memcal; the CMake target memcal_guest, which a sanitized build or a missing .a leaves out)"
	[ -x "$memcal" ] || die "--memcal $memcal: no such program (build it: cmake --build on the main build)"
	readelf -l "$memcal" | grep -q INTERP && die "--memcal $memcal: not statically linked (the busybox guest has no shared libraries)"
fi
root=$build/initramfs-$mode
qemu_initramfs "$root" "$bb"
cp "$here/init.sh" "$root/init"
chmod 755 "$root/init"
cp "$build/memreg.ko" "$root/memreg.ko"
cp "$g" "$root/ovh_guest"
[ "$mode" = memcal ] && cp "$memcal" "$root/memcal"
initrd=$build/initrd-$mode.gz
qemu_pack "$root" "$initrd"
flock -u 9

accel="-accel $tcg"
[ "$icount" -eq 1 ] && accel="-accel tcg,thread=single -icount shift=0"
# bench: the virtual clock never waits for the host while both vCPUs
# idle (bench/overhead/README.md)
[ "$icount" -eq 1 ] && [ "$mode" = bench ] && accel="$accel,sleep=off"
accel=${OVH_QEMU_ACCEL:-$accel}	# for experiments with other TCG flags
xappend=${OVH_QEMU_APPEND:-}	# and with guest kernel options (nohz=off)
stat=median
[ "$icount" -eq 1 ] || stat=best
machine="-cpu max"
[ "$arch" = arm64 ] && machine="-M virt -cpu max,pmu=on"
prof_append=
if [ -n "$plugin" ]; then
	case $plugin$profile in *[,\ ]*) die "--plugin/--profile: a path with a comma or space (QEMU's option separator, a list here)" ;; esac
	machine="$machine -plugin $plugin,out=$profile"
	prof_append=" ovh_profile=1"
fi
log=$build/overhead-$mode.log
load0=$(cut -d' ' -f1 /proc/loadavg)
echo "overhead-qemu: $arch kernel $kver, mode $mode, $([ "$icount" -eq 1 ] && echo 'icount: deterministic' || echo 'plain TCG: NOISY'), log $log"
# shellcheck disable=SC2086 # $accel and $machine are lists of options
qemu_boot "$log" "$tmo" "$qemu" $accel $machine -smp 2 -m 512 \
	-nographic -no-reboot -kernel "$kimg" -initrd "$initrd" \
	-append "console=$console quiet panic=-1 ovh_mode=$mode ovh_reps=$reps ovh_ms=$ms ovh_bench=$bench ovh_extra=$extra ovh_stat=$stat ovh_cells=$cells ovh_load=$loadidx$prof_append${xappend:+ $xappend}"
rm -f "$initrd"
load1=$(cut -d' ' -f1 /proc/loadavg)
load0=$(awk -v a="$load0" -v b="$load1" 'BEGIN { print (a > b ? a : b) }')

fail=0
grep -a '^OVH-' "$log" | tr -d '\r'
# Plain TCG on a host busier than its cores: the guest clock is host time
# and runs are cut up at random; the ratios' level and ordering are then
# reported but not asserted (they are exact under -icount on arm64);
# finiteness, the master comparison and the unload still are.
lax=
if [ "$mode" = test ] && [ "$icount" -eq 0 ] &&
   awk -v n="$(nproc)" -v l="$load0" 'BEGIN { exit !(l > n) }'; then
	echo "overhead-qemu: host load $load0 > $(nproc) cores: plain-TCG ratios and ordering are not judged"
	lax="ovh-ge1 ovh-contrast-m1 ovh-contrast-m0"
fi
qemu_verdict overhead-qemu "$log" "$qrc" "$tmo" --report-only "$lax" || fail=1
grep -aq '^OVH-ERROR' "$log" && fail=1
if [ $fail -ne 0 ]; then
	echo "overhead-qemu: $mode: FAILED"
elif [ -n "$lax" ]; then
	echo "overhead-qemu: $mode: the judged checks PASS; NOT JUDGED: $lax (host load $load0 > $(nproc) cores)"
else
	echo "overhead-qemu: $mode: all checks PASS"
fi
exit $fail
