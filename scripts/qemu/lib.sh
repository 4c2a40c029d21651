# shellcheck shell=dash
# lib.sh - sourced by every QEMU harness (scripts/qemu/memreg-qemu.sh,
# scripts/arm64/memreg-qemu-arm64, tests/overhead/guest/overhead-qemu.sh,
# tests/tuner/qemu_e2e.sh): finding the Debian x86-64 kernel to boot, and
# turning a guest's serial log into pass/fail.  The guests' side of the
# conventions is tests/kernel/guest/lib.sh.

# qemu_x86_kernel std|rt: set kimg (the newest /boot/vmlinuz-*-amd64, or
# -rt-amd64), kver and kdir (its headers); call the harness's skip() when
# the image, its headers, qemu-system-x86_64, busybox-static or cpio are
# missing (nothing is hard-coded: the ABI number drifts).
qemu_x86_kernel() {
	case $1 in
	std) kimg=$(for f in /boot/vmlinuz-*-amd64; do
			case $f in *-rt-amd64) continue ;; esac
			if [ -e "$f" ]; then echo "$f"; fi
		    done | sort -V | tail -1) ;;
	rt) kimg=$(for f in /boot/vmlinuz-*-rt-amd64; do
			if [ -e "$f" ]; then echo "$f"; fi
		   done | sort -V | tail -1) ;;
	esac
	[ -n "$kimg" ] || skip "no $1 kernel image in /boot (apt-get install linux-image-${1#std}amd64)"
	kver=${kimg#/boot/vmlinuz-}
	kdir=/usr/src/linux-headers-$kver
	[ -f "$kdir/Makefile" ] || skip "no headers for $kver at $kdir (apt-get install linux-headers-${1#std}amd64)"
	command -v qemu-system-x86_64 > /dev/null || skip "qemu-system-x86_64 missing (apt-get install qemu-system-x86)"
	[ -x /bin/busybox ] || skip "busybox-static missing (apt-get install busybox-static)"
	command -v cpio > /dev/null || skip "cpio missing (apt-get install cpio)"
}

# The guests print one line per check,
#   MEMREG-CHECK <name> PASS|FAIL <detail>   (MEMTUNE-CHECK for memtune's)
# and MEMREG-DONE (or MEMTUNE-DONE) when they finished.

# qemu_verdict TAG LOG QEMU_RC TIMEOUT CHECK...: print the guest's checks;
# fail (return 1) on a FAIL or missing expected CHECK, a warning, bug or
# oops in the kernel log, a timeout, or a guest that did not finish.  TAG
# names the harness in its messages.
qemu_verdict() {
	local tag="$1" log="$2" qrc="$3" tmo="$4" n line fail=0
	shift 4
	# after any console escape codes, hence -o rather than ^
	grep -a -o 'MEM\(REG\|TUNE\)-CHECK .*' "$log" | tr -d '\r'
	for n in "$@"; do
		line=$(grep -a -o "MEM\(REG\|TUNE\)-CHECK $n .*" "$log" | tail -1 | tr -d '\r')
		case $line in
		*" $n PASS"*) ;;
		*" $n FAIL"*) fail=1 ;;
		*) echo "$tag: MISSING check $n"; fail=1 ;;
		esac
	done
	if grep -a -n -E 'WARNING:|BUG:|Oops|Call Trace|Internal error|general protection|Kernel panic|soft lockup|hard LOCKUP|rcu.*stall|UBSAN|KASAN|list_(add|del) corruption' "$log" | head -20 | grep .; then
		echo "$tag: kernel log shows a warning/bug/oops (above)"
		fail=1
	fi
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		echo "$tag: TIMEOUT after ${tmo}s; tail of the log:"
		tail -30 "$log"
		fail=1
	elif ! grep -aq 'MEM\(REG\|TUNE\)-DONE' "$log"; then
		echo "$tag: the guest did not finish (qemu rc=$qrc); tail of the log:"
		tail -20 "$log"
		fail=1
	fi
	# a rerun overwrites the log: keep the failed one
	[ $fail -eq 0 ] || { cp "$log" "$log.failed"; echo "$tag: log kept as $log.failed"; }
	return $fail
}
