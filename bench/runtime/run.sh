#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# run.sh - how long `memcal run --quick` and a full `memcal run` take on
# this machine, against their budgets (15 s and 90 s), with the load
# average before and after each, since a shared host stretches both.
#
#   bench/runtime/run.sh [--memcal PATH] [--repeat N]
#
# Each run writes a scratch database that is removed afterwards.
set -euo pipefail

memcal=${MEMCAL:-build/calibrate/memcal}
repeat=1
while [ $# -gt 0 ]; do
	case $1 in
	--memcal) memcal=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	-h|--help) sed -n '3,9p' "$0"; exit 0 ;;
	*) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
if [ ! -x "$memcal" ]; then
	echo "run.sh: no memcal at '$memcal': build it or give --memcal PATH" >&2
	exit 2
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# one KIND BUDGET_S ARGS... - time one run, print a line with its verdict.
one() {
	local kind=$1 budget=$2 t0 t1 ms before after verdict
	shift 2
	before=$(cut -d' ' -f1 /proc/loadavg)
	t0=$(date +%s%N)
	"$memcal" run "$@" --db "$scratch/$kind.db" -q >/dev/null
	t1=$(date +%s%N)
	after=$(cut -d' ' -f1 /proc/loadavg)
	ms=$(( (t1 - t0) / 1000000 ))
	verdict=MET
	[ "$ms" -le $((budget * 1000)) ] || verdict=MISSED
	printf '%-6s %5d.%d s  budget %3d s  %-6s  load %s -> %s\n' "$kind" \
		$((ms / 1000)) $((ms % 1000 / 100)) "$budget" "$verdict" \
		"$before" "$after"
	rm -f "$scratch/$kind.db"*
}

for _ in $(seq "$repeat"); do
	one quick 15 --quick
	one full 90
done
