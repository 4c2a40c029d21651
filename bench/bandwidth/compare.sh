#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# compare.sh - memcal's bandwidth kernels against the best matching
# likwid-bench kernels, measured side by side and interleaved in one run
# (the machines are shared and drift; only ratios measured together mean
# anything).
#
# usage: bench/bandwidth/compare.sh [BUILD_DIR] [RUNS] [MiB_PER_THREAD]
#
# Rows: read, ordinary-store write, non-temporal write; one core and all
# cores.  Every run measures each row with memcal (memcal-bwbench: median
# of 10 repetitions after 2 warm-ups) and then with likwid-bench; the
# table gives, per row, the median over RUNS of each tool's figure, the
# ratio memcal/likwid, and the run-to-run spread of memcal's median
# ((max - min) / median over the RUNS runs).
#
# What the figures count: both count program-visible bytes.  memcal: bytes
# read, or bytes stored (once; ordinary stores cause about twice that DRAM
# traffic because each line is first read for ownership).  likwid-bench
# "MByte/s" (10^6 B/s, converted here to GB/s): its data volume, which for
# load is the bytes loaded and for store/store_mem the bytes stored (no
# RFO either).  likwid-bench allocates without huge-page advice; memcal
# uses THP where offered (the TLB cost is a few per cent on streams).
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
MIB=${3:-512}
BW=$BUILD/bench/bandwidth/memcal-bwbench
[ -x "$BW" ] || { echo "compare.sh: $BW not built" >&2; exit 1; }
command -v likwid-bench >/dev/null || {
	echo "compare.sh: likwid-bench missing: apt-get install -y --no-install-recommends likwid" >&2
	exit 77; }
NCPU=$(nproc)
ALL="0-$((NCPU - 1))"
# The best likwid kernel family for the ISA memcal picks.
VARIANT=$($BW -o read -c 0 -s 64 -r 1 -w 0 | awk '{print $3}')
case $VARIANT in
	avx512) SUF=_avx512 ;;
	avx2) SUF=_avx ;;
	sse2) SUF=_sse ;;
	*) SUF= ;;
esac
TMP=$(mktemp)
trap 'rm -f "$TMP"' EXIT

# likwid_gbs KERNEL THREADS: GB/s of one likwid-bench run.
likwid_gbs() {
	likwid-bench -t "$1" -w "S0:$((MIB * $2))MB:$2" 2>/dev/null |
		awk '/^MByte\/s:/ {printf "%.3f\n", $2 / 1000}'
}

echo "memcal kernels: $VARIANT, likwid kernels: *$SUF; $MIB MiB per thread; $RUNS interleaved runs"
for run in $(seq 1 "$RUNS"); do
	for cores in 1 "$NCPU"; do
		[ "$cores" = 1 ] && list=0 || list=$ALL
		for row in "read load" "write store" "ntwrite store_mem"; do
			op=${row% *} kern=${row#* }
			m=$($BW -o "$op" -c "$list" -s "$MIB" | awk '{print $4}')
			l=$(likwid_gbs "$kern$SUF" "$cores")
			echo "$op $cores $run ${m:-0} ${l:-0}" >> "$TMP"
		done
	done
	echo "run $run of $RUNS done" >&2
done

awk -v runs="$RUNS" -v suf="$SUF" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ key = $1 " " $2; n[key]++; m[key, n[key]] = $4; l[key, n[key]] = $5
  if (!(key in seen)) { seen[key] = 1; order[++rows] = key } }
END {
	printf "%-8s %5s %-18s %10s %10s %7s %11s %11s\n", "kind", "cores",
	       "likwid kernel", "memcal", "likwid", "ratio", "memcal", "likwid"
	printf "%-8s %5s %-18s %10s %10s %7s %11s %11s\n", "", "", "",
	       "GB/s", "GB/s", "", "spread %", "spread %"
	for (r = 1; r <= rows; r++) {
		key = order[r]; split(key, kc, " "); k = n[key]
		for (i = 1; i <= k; i++) { a[i] = m[key, i]; b[i] = l[key, i] }
		mm = median(a, k); lm = median(b, k)
		ms = (a[k] - a[1]) / (mm ? mm : 1) * 100
		ls = (b[k] - b[1]) / (lm ? lm : 1) * 100
		lk = (kc[1] == "read" ? "load" : kc[1] == "write" ? "store" : "store_mem") suf
		printf "%-8s %5s %-18s %10.2f %10.2f %7.3f %11.1f %11.1f\n", kc[1],
		       kc[2], lk, mm, lm, lm ? mm / lm : 0, ms, ls
	}
}' "$TMP"
