#!/bin/sh
# run_callgrind.sh - instructions per call of the regulator core's hot
# paths, counted by callgrind (inclusive Ir of each function / its calls).
#
# usage: run_callgrind.sh [PATH/TO/memreg_cost_bench] [PERIODS]
# Needs valgrind (apt-get install -y valgrind).  Exit 0 when every target
# is met, 1 when one is missed, 2 when it cannot measure.
#
# First table: the per-call targets, 4 CPUs, varying demand.  Second
# table: instructions per master tick for 1, 4, 16 and 64 CPUs (MEMCAL_
# COST_CPUS overrides the list), every mode, varying and steady demand
# (information, no target).
set -eu
bench=${1:-build/bench/regulator_cost/memreg_cost_bench}
periods=${2:-20000}
if ! command -v valgrind >/dev/null 2>&1; then
	echo "run_callgrind.sh: valgrind not installed (apt-get install -y valgrind)" >&2
	exit 2
fi
if [ ! -x "$bench" ]; then
	echo "run_callgrind.sh: $bench not built (cmake --build BUILD --target memreg_cost_bench)" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# inclusive Ir of function $2 in callgrind output $1
ir_of() {
	callgrind_annotate --inclusive=yes --threshold=100 "$1" 2>/dev/null |
		awk -v fn="$2" '$0 ~ ("[:* ]" fn "( |$|\\[|\\()") { gsub(",", "", $1); print $1; exit }'
}

# run_bench CALLGRIND_OUT STDOUT MODE PERIODS CPUS LOAD: the bench under
# callgrind; exit 2 if it fails
run_bench() {
	valgrind --tool=callgrind --callgrind-out-file="$1" \
		"$bench" "$3" "$4" "$5" "$6" >"$2" 2>"$tmp/stderr" || {
		echo "run_callgrind.sh: valgrind run failed:" >&2
		cat "$tmp/stderr" >&2
		exit 2
	}
}

# calls=VALUE from the bench's output line
calls_of() {
	sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$1"
}

printf '%-6s %-22s %12s %10s %8s %7s\n' mode function instructions per_call target result
for mode in plain lms reclaim full; do
	out="$tmp/cg.$mode"
	run_bench "$out" "$tmp/stdout.$mode" "$mode" "$periods" 4 vary
	for row in "memreg_replenish replenish 150" "memreg_overflow overflow 150" \
		   "memreg_lms_update lms_update 400" "memreg_master_tick master_tick -"; do
		read -r fn key target <<-EOF
		$row
		EOF
		calls=$(calls_of "$tmp/stdout.$mode" "$key")
		ir=$(ir_of "$out" "$fn")
		if [ -z "$ir" ] || [ -z "$calls" ] || [ "$calls" -eq 0 ]; then
						printf '%-6s %-22s %12s %10s %8s %7s\n' "$mode" "$fn" "-" "-" "$target" "NODATA"
			status=1
			continue
		fi
		per=$(awk -v a="$ir" -v b="$calls" 'BEGIN { printf "%.1f", a / b }')
		if [ "$target" = - ]; then
			result=info
		elif awk -v a="$per" -v t="$target" 'BEGIN { exit !(a <= t) }'; then
			result=PASS
		else
			result=MISS
			status=1
		fi
		printf '%-6s %-22s %12s %10s %8s %7s\n' "$mode" "$fn" "$ir" "$per" "$target" "$result"
	done
done
echo "(per_call = callgrind inclusive Ir / calls; master_tick covers 4 CPUs x 2 classes)"
echo
printf '%-6s %-7s %5s %12s %12s\n' mode load cpus tick_instr lms_update
for cpus in ${MEMCAL_COST_CPUS:-1 4 16 64}; do
	for mode in plain lms reclaim full; do
		for load in vary steady; do
			out="$tmp/cg.tick"
			n=$((periods * 4 / cpus))
			[ "$n" -ge 500 ] || n=500
			run_bench "$out" "$tmp/stdout.tick" "$mode" "$n" "$cpus" "$load"
			tick=$(awk -v a="$(ir_of "$out" memreg_master_tick)" \
				-v b="$(calls_of "$tmp/stdout.tick" master_tick)" \
				'BEGIN { printf "%.0f", b ? a / b : 0 }')
			lms=$(awk -v a="$(ir_of "$out" memreg_lms_update)" \
				-v b="$(calls_of "$tmp/stdout.tick" lms_update)" \
				'BEGIN { printf "%.1f", b && a != "" ? a / b : 0 }')
			printf '%-6s %-7s %5s %12s %12s\n' "$mode" "$load" "$cpus" "$tick" "$lms"
		done
	done
done
echo "(tick_instr = inclusive Ir of memreg_master_tick / ticks; lms_update per call)"
exit $status
