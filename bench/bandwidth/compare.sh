#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# compare.sh - memcal's bandwidth kernels against the best matching
# likwid-bench kernels and STREAM, measured side by side and interleaved
# in one run (the machines are shared and drift; only ratios measured
# together mean anything).
#
# usage: bench/bandwidth/compare.sh [BUILD_DIR] [RUNS] [MiB_PER_THREAD]
#
# Rows: read, ordinary-store write, non-temporal write, copy, and the
# random-line read of the guaranteed bandwidth; one core and all cores.
# Every run measures each row with memcal (memcal-bwbench: a full run's
# repetitions, at least 100 ms each, until the median is within 2 % or
# the budget is spent), then likwid-bench, then STREAM where it has a
# matching kernel.  The table gives, per row, the median over RUNS of each
# tool's figure, the ratio of memcal to the better of likwid and STREAM,
# the run-to-run spread of each ((max - min) / median over the RUNS runs)
# and memcal's own within-run spread (half the median's 95 % interval,
# the figure `memcal run` stores), median over the runs.
#
# What the figures count: all count program-visible bytes.  memcal: bytes
# read, or bytes stored (once; ordinary stores cause about twice that DRAM
# traffic because each line is first read for ownership), copy read +
# written.  likwid-bench "MByte/s" (10^6 B/s, converted here to GB/s): its
# data volume, the bytes loaded and stored (no RFO either).  STREAM Copy:
# 16 bytes per element (read + write), from its average time (not its
# "Best Rate", which is the fastest of its repetitions); STREAM has no
# read-only, store-only or random kernel, so those rows show "-".
# likwid-bench allocates without huge-page advice; memcal uses THP where
# offered, and so does STREAM only if THP is "always".  The random-line
# row has no installed peer (Debian's likwid 5.2 has no pointer-chase
# kernel): it is printed for its spread.
#
# STREAM is built here from the unmodified public source vendored in
# stream/ (its licence: stream/LICENSE.txt) with -O3 -march=native
# -fopenmp, one binary per thread count, with arrays sized so that Copy
# moves MiB_PER_THREAD per thread like memcal's copy.
set -eu
BUILD=${1:-build}
RUNS=${2:-5}
MIB=${3:-512}
HERE=$(cd "$(dirname "$0")" && pwd)
BW=$BUILD/bench/bandwidth/memcal-bwbench
[ -x "$BW" ] || { echo "compare.sh: $BW not built" >&2; exit 1; }
command -v likwid-bench >/dev/null || {
	echo "compare.sh: likwid-bench missing: apt-get install -y --no-install-recommends likwid" >&2
	exit 77; }
CC=${CC:-cc}
NCPU=$(nproc)
ALL="0-$((NCPU - 1))"
# The best likwid kernel family for the ISA memcal picks.
VARIANT=$($BW -o read -c 0 -s 64 -r 1 -w 0 -x | awk '{print $3}')
case $VARIANT in
	avx512) SUF=_avx512 ;;
	avx2) SUF=_avx ;;
	sse2) SUF=_sse ;;
	*) SUF= ;;
esac
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# STREAM, one binary per thread count: Copy moves 16 B per element.
MODEL=
[ "$(uname -m)" = x86_64 ] && MODEL=-mcmodel=medium
for cores in 1 "$NCPU"; do
	n=$((MIB * 1048576 * cores / 16))
	$CC -O3 -march=native -fopenmp $MODEL -DSTREAM_ARRAY_SIZE=$n \
		-o "$TMP/stream.$cores" "$HERE/stream/stream.c" || {
		echo "compare.sh: cannot build STREAM with $CC" >&2; exit 1; }
done

# likwid_gbs KERNEL THREADS: GB/s of one likwid-bench run.
likwid_gbs() {
	likwid-bench -t "$1" -w "S0:$((MIB * $2))MB:$2" 2>/dev/null |
		awk '/^MByte\/s:/ {printf "%.3f\n", $2 / 1000}'
}

# stream_copy_gbs THREADS: GB/s of STREAM Copy from its average time.
stream_copy_gbs() {
	n=$((MIB * 1048576 * $1 / 16))
	[ "$1" = 1 ] && list=0 || list=$ALL
	OMP_NUM_THREADS=$1 OMP_PROC_BIND=spread OMP_PLACES=cores \
		taskset -c "$list" "$TMP/stream.$1" |
		awk -v n="$n" '/^Copy:/ {printf "%.3f\n", 16 * n / $3 / 1e9}'
}

echo "compare.sh started $(date -u '+%Y-%m-%d %H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "memcal kernels: $VARIANT, likwid kernels: *$SUF; $MIB MiB per thread; $RUNS interleaved runs"
for run in $(seq 1 "$RUNS"); do
	for cores in 1 "$NCPU"; do
		[ "$cores" = 1 ] && list=0 || list=$ALL
		for row in "read load" "write store" "ntwrite store_mem" \
			   "copy copy" "random -"; do
			op=${row% *} kern=${row#* }
			line=$($BW -o "$op" -c "$list" -s "$MIB")
			m=$(echo "$line" | awk '{print $4}')
			ci=$(echo "$line" | awk '{print $9}')
			l=- s=-
			[ "$kern" != - ] && l=$(likwid_gbs "$kern$SUF" "$cores")
			[ "$op" = copy ] && s=$(stream_copy_gbs "$cores")
			echo "$op $cores $run ${m:-0} ${l:--} ${s:--} ${ci:--}" >> "$TMP/rows"
		done
	done
	echo "run $run of $RUNS done" >&2
done
echo "compare.sh finished $(date -u '+%H:%M') UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"

awk -v suf="$SUF" '
function median(a, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# col KEY FIELD: median (and spread into SP) of one column over the runs
function col(key, f,   i, k, v, med) {
	k = 0
	for (i = 1; i <= n[key]; i++)
		if (val[key, i, f] != "-") v[++k] = val[key, i, f]
	if (!k) { SP = "-"; return "-" }
	med = median(v, k)
	SP = sprintf("%.1f", (v[k] - v[1]) / (med ? med : 1) * 100)
	return med
}
{ key = $1 " " $2; n[key]++
  for (f = 4; f <= 7; f++) val[key, n[key], f] = $f
  if (!(key in seen)) { seen[key] = 1; order[++rows] = key } }
END {
	printf "%-8s %5s %-18s %7s %7s %7s %6s %8s %8s %8s %8s\n", "kind",
	       "cores", "likwid kernel", "memcal", "likwid", "STREAM", "ratio",
	       "memcal", "likwid", "STREAM", "memcal"
	printf "%-8s %5s %-18s %7s %7s %7s %6s %8s %8s %8s %8s\n", "", "", "",
	       "GB/s", "GB/s", "GB/s", "", "spread%", "spread%", "spread%",
	       "+-CI95%"
	for (r = 1; r <= rows; r++) {
		key = order[r]; split(key, kc, " ")
		mm = col(key, 4); msp = SP
		lm = col(key, 5); lsp = SP
		sm = col(key, 6); ssp = SP
		ci = col(key, 7)
		if (lm == "-") peer = sm
		else if (sm == "-" || lm + 0 > sm + 0) peer = lm
		else peer = sm
		ratio = "-"
		if (peer != "-" && peer + 0 > 0) ratio = sprintf("%.3f", mm / peer)
		lk = "(none)"
		if (kc[1] == "read") lk = "load" suf
		if (kc[1] == "write") lk = "store" suf
		if (kc[1] == "ntwrite") lk = "store_mem" suf
		if (kc[1] == "copy") lk = "copy" suf
		cis = "-"
		if (ci != "-") cis = sprintf("%.1f", ci)
		printf "%-8s %5s %-18s %7s %7s %7s %6s %8s %8s %8s %8s\n", kc[1],
		       kc[2], lk, fmt(mm), fmt(lm), fmt(sm), ratio, msp, lsp, ssp,
		       cis
	}
}
function fmt(x) { if (x == "-") return x; return sprintf("%.2f", x) }' "$TMP/rows"
