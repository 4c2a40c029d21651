#!/bin/sh
# bench/overhead/run.sh - memreg's cost table in the arm64 -icount guest
# (bench/overhead/README.md): every cell of ovh_cells.c (monitor only at
# 1000/100/32 us, regulated with the task at 50 % of its budget at
# 1000/100 us, budget exhausted every period at 1000 us; measured task on
# CPU 0 and 1, master on and off it, modes on and off), --loads guest
# boots with one fresh module load of each cell per boot, --reps C and C'
# runs per load; the table and its verdicts come from ovh_verdict.c.
#
#   bench/overhead/run.sh [--cells PATTERNS] [--loads N] [--reps N]
#                         [--ms MS] [--build DIR] [--verdict PROG]
#                         [--profile [--top N]]
#   bench/overhead/run.sh --list [--cells PATTERNS]
#
# --cells   comma-separated cell names or patterns ('monitor-32-*'),
#           default all (48 cells); --list shows them
# --loads   guest boots, each loading every cell once (default 3)
# --reps    C and C' runs per load (default 3); --ms: C's length in guest
#           ms (default 20)
# --build   work folder (default build-ovh/bench-qemu); the raw guest
#           lines are kept there in table-raw.txt
# --verdict a built ovh_verdict (CMake target); else it is compiled here
# --profile also count every instruction the guest executes (the QEMU
#           plugin ovh_insn_plugin.c; -icount time is unchanged) and print
#           per cell what memreg's own code, the rest of the kernel and the
#           task executed per period (ovh_profile.c); --top N: each cell's
#           N symbols that changed most between C and C'
# Exit: 0 when every cell has all its loads (whatever the verdicts), 1 when
# a guest run or a cell failed, 2 on bad arguments, 77 when the arm64
# guest cannot run here (no kernel tree, qemu or cross compiler).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
cells=all
loads=3
reps=3
ms=20
build=$src/build-ovh/bench-qemu
verdict=
list=0
profile=0
top=0
usage() { sed -n '2,24p' "$0"; exit "$1"; }
need() { [ $# -ge 2 ] || { echo "run.sh: $1 needs a value (--help)" >&2; exit 2; }; }
isnum() {
	case $2 in ''|*[!0-9]*) echo "run.sh: $1 '$2': a positive number" >&2; exit 2 ;; esac
	[ "$2" -ge 1 ] || { echo "run.sh: $1 '$2': a positive number" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
	case $1 in
	--cells) need "$@"; cells=$2; shift 2 ;;
	--loads) need "$@"; isnum "$1" "$2"; loads=$2; shift 2 ;;
	--reps) need "$@"; isnum "$1" "$2"; reps=$2; shift 2 ;;
	--ms) need "$@"; isnum "$1" "$2"; ms=$2; shift 2 ;;
	--build) need "$@"; build=$2; shift 2 ;;
	--verdict) need "$@"; verdict=$2; shift 2 ;;
	--list) list=1; shift ;;
	--profile) profile=1; shift ;;
	--top) need "$@"; isnum "$1" "$2"; top=$2; shift 2 ;;
	-h|--help) usage 0 ;;
	*) echo "run.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
	esac
done
[ "$loads" -le 16 ] || { echo "run.sh: --loads $loads: at most 16" >&2; exit 2; }
[ "$reps" -le 32 ] || { echo "run.sh: --reps $reps: at most 32" >&2; exit 2; }
mkdir -p "$build" || exit 1
if [ -z "$verdict" ]; then
	verdict=$build/ovh_verdict
	cc -O2 -Wall -Wextra -Werror -I"$here" -o "$verdict" \
		"$here/ovh_verdict.c" "$here/ovh_cells.c" "$here/ovh_raw.c" -lm ||
		{ echo "run.sh: cannot build ovh_verdict" >&2; exit 1; }
fi
plugin=
if [ "$profile" -eq 1 ]; then
	plugin=$build/ovh_insn_plugin.so
	if ! cc -O2 -Wall -Wextra -Werror -shared -fPIC -fvisibility=hidden \
		-o "$plugin" "$here/ovh_insn_plugin.c" ||
	   ! cc -O2 -Wall -Wextra -Werror -I"$here" -o "$build/ovh_profile" \
		"$here/ovh_profile.c" "$here/ovh_cells.c" "$here/ovh_raw.c" -lm; then
		echo "run.sh: cannot build the profile plugin or ovh_profile" >&2
		exit 1
	fi
fi
# --list, and a --cells that names nothing, answered before any boot
"$verdict" --list --cells "$cells" > "$build/cells.txt" || exit 2
if [ "$list" -eq 1 ]; then
	cat "$build/cells.txt"
	exit 0
fi
n=$(wc -l < "$build/cells.txt")
raw=$build/table-raw.txt
: > "$raw"
# a boot runs every cell once: about 1.5 s of host time per cell and rep
tmo=$((60 + n * (reps + 1) * ms / 8))
[ "$tmo" -le 590 ] || tmo=590
t0=$(date +%s)
commit=$(git -C "$src" describe --always --dirty 2>/dev/null || echo '?')
echo "bench/overhead: $n cells x $loads loads x $reps reps, C = $ms ms (guest), commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC'), host load $(cut -d' ' -f1-3 /proc/loadavg)"
fail=0
l=0
while [ "$l" -lt "$loads" ]; do
	# a boot that fails (a hung rmmod under -icount: kmod README, known
	# limitations) is tried once more; the last try's lines are kept
	for try in 1 2; do
		"$src/tests/overhead/guest/overhead-qemu.sh" --arch arm64 \
			--mode bench --cells "$cells" --load-index "$l" \
			--reps "$reps" --ms "$ms" --build "$build" \
			--timeout "$tmo" --plugin "$plugin" \
			--profile "${plugin:+$build/prof-$l.txt}" \
			> "$build/boot-$l.txt" 2>&1
		rc=$?
		[ $rc -eq 77 ] && { cat "$build/boot-$l.txt"; exit 77; }
		[ $rc -eq 0 ] && break
		echo "bench/overhead: boot $l (try $try) failed (rc $rc):"
		grep -E '^(overhead-qemu|OVH-ERROR)' "$build/boot-$l.txt" | tail -5
	done
	[ "$rc" -eq 0 ] || fail=1
	grep -a '^OVH-' "$build/boot-$l.txt" | tr -d '\r' |
		grep -v '^OVH-KSYMS ' >> "$raw"
	l=$((l + 1))
done
echo "bench/overhead: $(($(date +%s) - t0)) s, raw lines in $raw"
echo
"$verdict" --cells "$cells" --loads "$loads" "$raw"
rc=$?
if [ "$profile" -eq 1 ]; then
	echo
	# the kernel's functions, printed by the boot of load 0
	if grep -a '^OVH-KSYMS ' "$build/boot-0.txt" | tr -d '\r' |
	   cut -d' ' -f2 | base64 -d | gunzip > "$build/kallsyms.txt" &&
	   "$build/ovh_profile" --raw "$raw" --dumps "$build" \
		--kallsyms "$build/kallsyms.txt" --cells "$cells" --top "$top"; then
		:
	else
		echo "run.sh: no profile (the kallsyms of boot 0, or ovh_profile, failed)"
		rc=1
	fi
fi
[ $fail -eq 0 ] || rc=1
exit $rc
