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
#                         [--profile [--top N]] [--base REV]
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
# --base    also boot memreg.ko of git revision REV (its regulator/ built
#           here, into BUILD/base), by turns with this tree's, and print
#           its table too; with --profile, memreg's own instructions per
#           period against it, cell by cell (exit 1 when a cell is dearer)
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
base=
usage() { sed -n '2,34p' "$0"; exit "$1"; }
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
	--base) need "$@"; base=$2; shift 2 ;;
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
# the base revision's module, built from its regulator/ alone
baseko=
if [ -n "$base" ]; then
	rm -rf "$build/base-src" && mkdir -p "$build/base-src" "$build/base" || exit 1
	git -C "$src" archive "$base" regulator | tar -x -C "$build/base-src" ||
		{ echo "run.sh: --base $base: not a revision of this repository" >&2; exit 2; }
	baseko=$("$src/scripts/arm64/kmod" --src "$build/base-src" \
		--out "$build/base-kmod") || { echo "run.sh: cannot build $base's memreg.ko" >&2; exit 1; }
fi
# a boot runs every cell once: about 1.5 s of host time per cell and rep
tmo=$((60 + n * (reps + 1) * ms / 8))
[ "$tmo" -le 590 ] || tmo=590
t0=$(date +%s)
commit=$(git -C "$src" describe --always --dirty 2>/dev/null || echo '?')
echo "bench/overhead: $n cells x $loads loads x $reps reps, C = $ms ms (guest), commit $commit${base:+ against $base}, $(date -u '+%Y-%m-%d %H:%M UTC'), host load $(cut -d' ' -f1-3 /proc/loadavg)"

# boot DIR L [MODULE]: load L's boot of every cell into DIR (boot-L.txt,
# prof-L.txt, the raw lines added to table-raw.txt), with MODULE instead
# of this tree's; a failed boot (a hung rmmod under -icount: kmod README,
# known limitations) is tried once more and its last try's lines kept.
# Returns 0, 1 when both tries failed, 77 when the guest cannot run here.
boot() {
	b_dir=$1 b_l=$2 b_ko=${3:-}
	for try in 1 2; do
		"$src/tests/overhead/guest/overhead-qemu.sh" --arch arm64 \
			--mode bench --cells "$cells" --load-index "$b_l" \
			--reps "$reps" --ms "$ms" --build "$build" \
			--timeout "$tmo" --plugin "$plugin" \
			--profile "${plugin:+$b_dir/prof-$b_l.txt}" \
			${b_ko:+--ko "$b_ko"} > "$b_dir/boot-$b_l.txt" 2>&1
		b_rc=$?
		[ "$b_rc" -eq 77 ] && { cat "$b_dir/boot-$b_l.txt"; return 77; }
		[ "$b_rc" -eq 0 ] && break
		echo "bench/overhead: ${b_ko:+base }boot $b_l (try $try) failed (rc $b_rc):"
		grep -E '^(overhead-qemu|OVH-ERROR)' "$b_dir/boot-$b_l.txt" | tail -5
	done
	grep -a '^OVH-' "$b_dir/boot-$b_l.txt" | tr -d '\r' |
		grep -v '^OVH-KSYMS ' >> "$b_dir/table-raw.txt"
	[ "$b_rc" -eq 0 ]
}

# kallsyms DIR: the kernel's functions, printed by DIR's boot of load 0
kallsyms() {
	grep -a '^OVH-KSYMS ' "$1/boot-0.txt" | tr -d '\r' | cut -d' ' -f2 |
		base64 -d | gunzip > "$1/kallsyms.txt"
}

fail=0
: > "$build/table-raw.txt"
[ -z "$base" ] || : > "$build/base/table-raw.txt"
l=0
# base and this tree boot by turns, so that both see the same host
while [ "$l" -lt "$loads" ]; do
	if [ -n "$base" ]; then
		boot "$build/base" "$l" "$baseko"; rc=$?
		[ $rc -eq 77 ] && exit 77
		[ $rc -eq 0 ] || fail=1
	fi
	boot "$build" "$l"; rc=$?
	[ $rc -eq 77 ] && exit 77
	[ $rc -eq 0 ] || fail=1
	l=$((l + 1))
done
echo "bench/overhead: $(($(date +%s) - t0)) s, raw lines in $build/table-raw.txt${base:+ and $build/base/table-raw.txt}"
if [ -n "$base" ]; then
	echo
	echo "== $base (base)"
	"$verdict" --cells "$cells" --loads "$loads" "$build/base/table-raw.txt"
	echo
	echo "== $commit"
fi
echo
"$verdict" --cells "$cells" --loads "$loads" "$build/table-raw.txt"
rc=$?
if [ "$profile" -eq 1 ]; then
	echo
	if kallsyms "$build" && { [ -z "$base" ] || kallsyms "$build/base"; } &&
	   "$build/ovh_profile" --cells "$cells" --top "$top" \
		${base:+--base "$build/base"} "$build"; then
		:
	else
		echo "run.sh: the profile failed (above), or a cell is dearer than in $base"
		rc=1
	fi
fi
[ $fail -eq 0 ] || rc=1
exit $rc
