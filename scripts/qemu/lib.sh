# shellcheck shell=dash
# lib.sh - sourced by every QEMU harness (scripts/qemu/memreg-qemu.sh,
# scripts/arm64/memreg-qemu-arm64, tests/overhead/guest/overhead-qemu.sh,
# tests/tuner/qemu_e2e.sh): the check groups (tests/kernel/groups), the
# Debian x86-64 kernel to boot, the initramfs, the boot itself, and the
# verdict on a guest's serial log.  The guests' side of the conventions is
# tests/kernel/guest/lib.sh (shell) and tests/kernel/guest/checklib.h (C).
#
# Each harness sets src (the top of the source tree) before sourcing it,
# and qemu_tag (its name in messages); its exit status is 0 (every planned
# check passed), 1 (a failure) or 77 (skip: a kernel image, headers, QEMU,
# busybox-static or cpio missing).

# shellcheck disable=SC2154 # src: set by the harness that sources this
qemu_groups_file=$src/tests/kernel/groups
qemu_guest_dir=$src/tests/kernel/guest

skip() { echo "${qemu_tag:-qemu}: SKIP: $*"; exit 77; }
die() { echo "${qemu_tag:-qemu}: ERROR: $*"; exit 1; }

# qemu_up_to_date STAMP KEY OUTPUT PATH...: OUTPUT exists, STAMP holds KEY
# (e.g. the kernel tree built against) and nothing under the PATHs is
# newer than STAMP.  A kbuild run with nothing to do still costs seconds,
# once per group; a builder writes KEY to STAMP.new before it builds and
# renames it after, so that sources edited meanwhile rebuild next time.
qemu_up_to_date() {
	local stamp=$1 key=$2 out=$3 newer
	shift 3
	[ -f "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ] || return 1
	newer=$(find "$@" -newer "$stamp" -print -quit) || return 1
	[ -z "$newer" ]
}

# qemu_groups FLAVOR: the lines of tests/kernel/groups for FLAVOR (std, rt
# or arm64), blanks squeezed: "group flavors timeout [options]"
qemu_groups() {
	grep -E '^[a-z]' "$qemu_groups_file" | tr -s ' \t' ' ' |
		grep -E "^[^ ]+ ([a-z0-9]+,)*$1(,[a-z0-9]+)* "
}

# qemu_group_timeout FLAVOR GROUP: print GROUP's timeout for FLAVOR; when
# GROUP is not one of FLAVOR's, say which are (stderr) and return 1
qemu_group_timeout() {
	local line
	line=$(qemu_groups "$1" | grep "^$2 ")
	if [ -z "$line" ]; then
		echo "${qemu_tag:-qemu}: ERROR: unknown group '$2' for $1; tests/kernel/groups lists:" \
			"$(qemu_groups "$1" | cut -d' ' -f1 | tr '\n' ' ')" >&2
		return 1
	fi
	echo "$line" | cut -d' ' -f3
}

# qemu_group_options FLAVOR GROUP: print GROUP's options for FLAVOR
# (empty when it has none)
qemu_group_options() {
	qemu_groups "$1" | grep "^$2 " | cut -d' ' -f4-
}

# qemu_x86_accel: QEMU's -accel for the x86-64 guests, single-threaded
# TCG (one host thread runs the vCPUs in turn).  QEMU 7.2's multi-threaded
# TCG can miss a write one vCPU makes to code another vCPU is translating:
# the other vCPU then keeps a translation of text_poke_bp()'s transient
# int3 after the patch is complete.  The guest's int3 handler finds no
# patch in progress and no int3 in memory, so it returns to the same
# address, and the CPU loops there with interrupts off while the next
# patch waits for it in smp_call_function_many_cond().  Toggling trace
# events beside regulated hogs (group tcgpatch) hung 5 boots of 6 that
# way (memory at the address held the final jmp, both vCPUs looped in
# kprobe_int3_handler()); single-threaded, 6 of 6 passed.  Such a hang
# failed two of the last four full CI runs, at boot or mid-group.
# MEMREG_QEMU_ACCEL overrides it (tcg,thread=multi reproduces the hang).
# shellcheck disable=SC2034 # used by the scripts that source this file
qemu_x86_accel=${MEMREG_QEMU_ACCEL:-tcg,thread=single}

# qemu_x86_kernel std|rt: set kimg (the newest /boot/vmlinuz-*-amd64, or
# -rt-amd64), kver and kdir (its headers); skip when the image, its
# headers, qemu-system-x86_64, busybox-static or cpio are missing (nothing
# is hard-coded: the ABI number drifts).
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

# qemu_guest_build ARCH DIR: configure (once) and build the guests'
# programs for ARCH (x86_64 or arm64) in DIR with their own CMake project,
# tests/kernel/guest/CMakeLists.txt (static, -Wall -Wextra -Werror; arm64
# with aarch64-linux-gnu-gcc); they land in DIR/bin.  For a harness run
# on its own: under CTest the main build has built them and the harness
# gets their folder (--guest-bin).  A DIR configured from another
# checkout (a shared build-arm64) is configured afresh.  Logs in
# DIR.configure.log and DIR.build.log.
qemu_guest_build() {
	local arch=$1 dir=$2 home
	command -v cmake > /dev/null || die "cmake missing: it builds the guest programs (apt-get install cmake)"
	home=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt" 2>/dev/null)
	if [ -n "$home" ] && [ "$home" != "$qemu_guest_dir" ]; then
		rm -rf "$dir"
	fi
	if [ ! -f "$dir/CMakeCache.txt" ]; then
		mkdir -p "$dir"
		cmake -S "$qemu_guest_dir" -B "$dir" -DMEMREG_GUEST_ARCH="$arch" > "$dir.configure.log" 2>&1 ||
			{ tail -20 "$dir.configure.log"; rm -f "$dir/CMakeCache.txt"
			  die "cannot configure the guest programs (log $dir.configure.log)"; }
	fi
	cmake --build "$dir" > "$dir.build.log" 2>&1 ||
		{ tail -30 "$dir.build.log"; die "cannot build the guest programs (static libc: libc6-dev; log $dir.build.log)"; }
}

# qemu_guest_copy BIN ROOT: copy every guest program of BIN (a DIR/bin of
# qemu_guest_build, or the main build's) into the initramfs ROOT
qemu_guest_copy() {
	local p n=0
	for p in "$1"/*; do
		if [ -f "$p" ] && [ -x "$p" ]; then
			cp "$p" "$2/" || die "cannot copy $p"
			n=$((n + 1))
		fi
	done
	[ $n -gt 0 ] || die "no guest programs in $1 (build them: cmake --build on the main build)"
}

# qemu_initramfs ROOT BUSYBOX: a fresh initramfs tree in ROOT with BUSYBOX
# and a link for each of its applets (an arm64 busybox lists them through
# qemu-aarch64-static), and the guests' shell library as /lib.sh
qemu_initramfs() {
	local root=$1 bb=$2 a applets
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/sbin" "$root/proc" "$root/sys" "$root/dev" "$root/tmp"
	cp "$bb" "$root/bin/busybox"
	applets=$("$bb" --list 2>/dev/null || qemu-aarch64-static "$bb" --list 2>/dev/null ||
		echo sh mount cat echo grep sed awk tr cut tail head sleep insmod rmmod dmesg poweroff uname test kill taskset ls)
	for a in $applets; do
		[ "$a" = busybox ] || ln -sf busybox "$root/bin/$a"
	done
	cp "$qemu_guest_dir/lib.sh" "$root/lib.sh"
}

# qemu_pack ROOT INITRD: ROOT as a gzip'ed newc cpio archive
qemu_pack() {
	(cd "$1" && find . | cpio -o -H newc --quiet | gzip -1) > "$2"
}

# qemu_boot LOG TIMEOUT QEMU ARGS...: run QEMU with no input and its
# console in LOG, killed after TIMEOUT seconds; sets qrc (124 or 137 on
# timeout).  QEMU's monitor listens on the FIFOs LOG.monitor.{in,out}: when
# the guest is still running 6 s before the timeout, every vCPU's
# registers go into LOG.cpus (qemu_verdict shows where each one was).
qemu_boot() {
	local log=$1 tmo=$2 mon=$1.monitor q w
	shift 2
	rm -f "$mon.in" "$mon.out" "$log.cpus"
	mkfifo "$mon.in" "$mon.out" || return 1
	timeout -k 5 "$tmo" "$@" -monitor "pipe:$mon" < /dev/null > "$log" 2>&1 &
	q=$!
	qemu_cpus_before_timeout "$q" "$((tmo - 6))" "$mon" "$log.cpus" > /dev/null 2>&1 &
	w=$!
	wait "$q"
	qrc=$?
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null
	rm -f "$mon.in" "$mon.out"
}

# qemu_kallsyms MAP LOG QEMU ARGS...: after a timeout (qrc 124 or 137)
# and only once per MAP, boot QEMU ARGS (the group's own command, its
# kernel line naming memreg_group=kallsyms and nokaslr) and keep the
# kernel's text symbols the guest prints (group_kallsyms, guest lib.sh)
# in MAP, sorted, for qemu_verdict to name where each vCPU was
# (QEMU_SYSTEM_MAP); Debian's System.map is a placeholder.  qrc is kept.
qemu_kallsyms() {
	local map=$1 log=$2 group_qrc=$qrc
	shift 2
	{ [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; } && [ ! -s "$map" ] || return 0
	echo "${qemu_tag:-qemu}: dumping the guest kernel's symbols into $map"
	qemu_boot "$log" 120 "$@" || true
	tr -d '\r' < "$log" | sed -n '/^MEMREG-KALLSYMS-BEGIN$/,/^MEMREG-KALLSYMS-END$/p' |
		sed '1d;$d' | sort > "$map.$$" && [ -s "$map.$$" ] && mv "$map.$$" "$map"
	rm -f "$log" "$log.cpus" "$map.$$"
	qrc=$group_qrc
}

# qemu_cpus_before_timeout PID SECONDS MONITOR OUT: after SECONDS, if PID
# still runs, ask its monitor for every vCPU's registers five times, half
# a second apart, into OUT (a spin and an interrupt storm look alike in one
# sample); a QEMU that does not answer leaves a line saying so.  Polls once
# a second, so it is gone a second after QEMU.
qemu_cpus_before_timeout() {
	local pid=$1 n=$2 mon=$3 out=$4 sample
	while [ "$n" -gt 0 ]; do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 1
		n=$((n - 1))
	done
	kill -0 "$pid" 2>/dev/null || return 0
	exec 3<> "$mon.out"
	for sample in 1 2 3 4 5; do
		printf 'info registers -a\n' > "$mon.in"
		echo "sample $sample" >> "$out"
		timeout 0.5 cat <&3 >> "$out"
	done
	grep -q 'PC=\|RIP=' "$out" || echo "QEMU's monitor gave no registers" >> "$out"
	exec 3<&-
}

# qemu_cpus_where CPUS [SYMBOLS]: one line per vCPU and sample from the
# registers qemu_boot saved: PC, the return address (arm64 X30, its
# pointer-authentication bits cleared) and whether interrupts were masked;
# with the guest kernel's symbols ("ADDR TYPE NAME" lines sorted by
# address, as /proc/kallsyms) the function each is in
qemu_cpus_where() {
	local cpus=$1 map=${2:-}
	tr -d '\r' < "$cpus" | grep -o -E '(^CPU#[0-9]+|\b(PC|RIP|X30|PSTATE|EFL)=[0-9a-f]+)' |
		awk -v map="$map" '
		# the text symbol at or below a (same-width lowercase hex compares
		# as strings)
		function sym(a,   best, line, f) {
			if (map == "") return ""
			best = ""
			while ((getline line < map) > 0) {
				split(line, f, " ")
				if (f[2] !~ /^[tTwW]$/ || length(f[1]) != length(a)) continue
				if (f[1] > a) break
				best = f[3]
			}
			close(map)
			return best == "" ? "" : " " best
		}
		function flush() {
			if (cpu != "") print "  " cpu " " out
			cpu = ""; out = ""
		}
		/^CPU#/ { flush(); cpu = $0; next }
		{
			split($0, kv, "="); k = kv[1]; v = tolower(kv[2])
			if (k == "X30") { v = "ffff" substr(v, 5); out = out " lr " v sym(v) }
			# arm64 PSTATE.I is bit 7, x86 EFLAGS.IF bit 9
			else if (k == "PSTATE") out = out (index("89abcdef", substr(v, length(v) - 1, 1)) ? " irqs-masked" : "")
			else if (k == "EFL") out = out (index("2367abef", substr(v, length(v) - 2, 1)) ? "" : " irqs-masked")
			else out = out " " tolower(k) " " v sym(v)
		}
		END { flush() }'
}

# qemu_verdict TAG LOG QEMU_RC TIMEOUT [--report-only NAMES]: print the
# guest's checks; fail (return 1) when the guest planned no check, a
# planned check did not PASS (a FAIL, or missing), a check ran that was not
# planned, the kernel log shows a warning, bug or oops, on a timeout, or
# when the guest did not finish.  A check among NAMES (a quoted list) is
# not judged: whatever it printed, it is listed as NOT JUDGED and neither
# fails nor counts as passed.  TAG names the harness in its messages.
qemu_verdict() {
	local tag="$1" log="$2" qrc="$3" tmo="$4" lax=" " plan ran n fail=0
	[ "${5:-}" = --report-only ] && lax=" ${6:-} "
	# after any console escape codes, hence -o rather than ^
	grep -a -o 'MEM\(REG\|TUNE\)-CHECK .*' "$log" | tr -d '\r'
	plan=$(grep -a -o 'MEM\(REG\|TUNE\)-PLAN .*' "$log" | tr -d '\r' | cut -d' ' -f2- |
		tr ' ' '\n' | grep . | sort -u)
	ran=$(grep -a -o 'MEM\(REG\|TUNE\)-CHECK [^ ]*' "$log" | tr -d '\r' | cut -d' ' -f2 | sort -u)
	[ -n "$plan" ] || { echo "$tag: the guest declared no checks (no MEMREG-PLAN line)"; fail=1; }
	for n in $plan; do
		case $lax in
		*" $n "*)
			echo "$tag: NOT JUDGED: $n (it printed $(grep -a -o "MEM\(REG\|TUNE\)-CHECK $n [A-Z]*" "$log" | head -1 | cut -d' ' -f3))"
			continue ;;
		esac
		if grep -a -q "MEM\(REG\|TUNE\)-CHECK $n FAIL" "$log"; then
			fail=1
		elif ! grep -a -q "MEM\(REG\|TUNE\)-CHECK $n PASS" "$log"; then
			echo "$tag: MISSING check $n"
			fail=1
		fi
	done
	for n in $ran; do
		# not grep -q: under pipefail, grep leaving at its match can fail
		# the pipe (printf's next write gets SIGPIPE)
		printf '%s\n' "$plan" | grep -x -- "$n" > /dev/null || { echo "$tag: check $n ran but was not planned"; fail=1; }
	done
	if grep -a -n -E 'WARNING:|BUG:|Oops|Call Trace|Internal error|general protection|Kernel panic|soft lockup|hard LOCKUP|rcu.*stall|UBSAN|KASAN|list_(add|del) corruption' "$log" | head -20 | grep .; then
		echo "$tag: kernel log shows a warning/bug/oops (above); the first report:"
		# where the CPU was: the report's registers and call trace
		grep -a -m1 -A40 -E 'WARNING:|BUG:|Oops|Internal error|general protection|soft lockup|hard LOCKUP|rcu.*stall' "$log" |
			grep -a -E '^\[ *[0-9.]+\] ( *(pc|lr|RIP|CPU:|Workqueue:|Call [Tt]race)|  ?[a-zA-Z_.0-9]+\+0x)' | head -30
		fail=1
	fi
	if [ "$qrc" -eq 124 ] || [ "$qrc" -eq 137 ]; then
		echo "$tag: TIMEOUT after ${tmo}s; where each vCPU was 6 s before:"
		[ -s "$log.cpus" ] && qemu_cpus_where "$log.cpus" "${QEMU_SYSTEM_MAP:-}"
		echo "$tag: tail of the log:"
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
