#!/bin/bash
# tests/lint/return_codes.sh - no bare 'return -1;' in library code: a
# user-space library function that can fail returns an enum memcal_status
# (docs/design.md, "Status codes").  The errno boundary, where negative
# errno codes are the convention, is regulator/core (shared with
# memreg.ko), regulator/kmod and regulator/ctl; tests/ and bench/ hold
# programs, not libraries, and are not judged either.
#
#   tests/lint/return_codes.sh SRCDIR
#
# Exit status: 0 clean, 1 a 'return -1;' in library code (each listed),
# 2 usage.
set -euo pipefail
if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: return_codes.sh SRCDIR" >&2
	exit 2
fi
cd "$1"
libs=(cli calibrate tuner platform reports figures db regulator/sim)

for d in "${libs[@]}"; do
	[ -d "$d" ] || { echo "FAIL: library folder $d missing"; exit 1; }
done
files=$(find "${libs[@]}" -type f \( -name '*.c' -o -name '*.h' \) | sort)
n=$(echo "$files" | grep -c . || true)
if [ "$n" -lt 100 ]; then
	echo "FAIL: found $n library sources; the lint would check nothing"
	exit 1
fi
bad=0
while read -r f; do
	if grep -nE 'return[[:space:]]*\(?[[:space:]]*-1[[:space:]]*\)?[[:space:]]*;' \
		"$f" | sed "s|^|$f:|"; then
		bad=1
	fi
done <<< "$files"
if [ "$bad" -ne 0 ]; then
	echo "FAIL: 'return -1;' in library code; return an enum memcal_status" \
	     "(docs/design.md, \"Status codes\")"
	exit 1
fi
echo "ok: $n library sources, no 'return -1;' outside the errno boundary"
