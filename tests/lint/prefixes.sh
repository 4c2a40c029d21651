#!/bin/bash
# tests/lint/prefixes.sh - every name a memcal library exports starts with
# that library's one prefix (docs/design.md).
#
#   tests/lint/prefixes.sh NM PREFIX=ARCHIVE...
#
# NM is the toolchain's nm; each PREFIX=ARCHIVE names a static library and
# the prefix its exported functions and data carry; what a sanitizer
# build adds of its own is not judged.  Exit status: 0 clean,
# 1 a name without its prefix (each one listed), 2 usage.
set -euo pipefail
if [ $# -lt 2 ]; then
	echo "usage: prefixes.sh NM PREFIX=ARCHIVE..." >&2
	exit 2
fi
nm=$1
shift
bad=0
for arg in "$@"; do
	prefix=${arg%%=*}
	lib=${arg#*=}
	if [ ! -f "$lib" ]; then
		echo "prefixes.sh: $lib is not built" >&2
		exit 1
	fi
	while read -r _ type name; do
		case $type in
		[TDRBCGSV]) ;;
		*) continue ;;
		esac
		case $name in
		"$prefix"*) ;;
		# the sanitizers' own symbols (ASan's one-definition-rule
		# indicators __odr_asan.NAME, __asan_*, __ubsan_*)
		__odr_asan.*|__asan_*|__ubsan_*|__sanitizer_*) ;;
		*)
			echo "$(basename "$lib") exports $name without its prefix $prefix" >&2
			bad=1
			;;
		esac
	done < <("$nm" -g --defined-only "$lib" | awk 'NF == 3')
done
exit "$bad"
