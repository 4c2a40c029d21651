#!/bin/bash
# tests/lint/shellcheck.sh - run shellcheck over every shell script of the source tree.
#
#   tests/lint/shellcheck.sh [SOURCE_DIR]
#
# A shell script is a file named *.sh, a file whose first line starts a
# shell (#!/bin/sh, #!/bin/bash, #!/usr/bin/env bash), or a sourced library
# that names its dialect in a shellcheck "shell" directive.  Golden
# files under tests/fixtures/ are expected output, not scripts, and are
# left out.  The repository's .shellcheckrc sets how sourced files are
# found.  Exit status: 0 clean, 1 findings or shellcheck missing.
set -euo pipefail
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top"

if ! command -v shellcheck >/dev/null; then
	echo "shellcheck.sh: shellcheck is not installed (run 'sudo scripts/setup')" >&2
	exit 1
fi

# The candidate files: what git tracks in a checkout, every file otherwise
# (a source tarball), build trees and fixtures left out either way.
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git -C "$top" ls-files --cached --others \
				 --exclude-standard)
else
	mapfile -t files < <(find . -path ./build -prune -o -path ./.git -prune \
				 -o -type f -print | sed 's|^\./||')
fi

scripts=()
for f in "${files[@]}"; do
	case $f in
	build/* | tests/fixtures/*) continue ;;
	esac
	[ -f "$f" ] || continue
	if [[ $f == *.sh ]] ||
	   head -n 1 "$f" | grep -Eq '^#! ?(/usr)?/bin/(env )?(ba|da)?sh( |$)' ||
	   grep -Eq '^# shellcheck shell=' "$f"; then
		scripts+=("$f")
	fi
done

if [ ${#scripts[@]} -eq 0 ]; then
	echo "shellcheck.sh: no shell script found under $top" >&2
	exit 1
fi
echo "shellcheck.sh: checking ${#scripts[@]} scripts"
shellcheck --format=gcc "${scripts[@]}"
echo "shellcheck.sh: clean"
