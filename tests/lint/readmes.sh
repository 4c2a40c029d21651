#!/bin/bash
# tests/lint/readmes.sh - every source file of the tree is named in the
# README of its folder, or of the nearest folder above it that has one
# (docs/design.md: each folder with more than a handful of files says what
# lives there).
#
#   tests/lint/readmes.sh SOURCE_DIR
#
# Sources: *.c, *.h, *.sh, *.py and the extension-less programs of
# scripts/.  A file is named when a `code span` or a link text of the
# README matches its name or its path from the README's folder; a span may
# be a shell pattern (`overhead*.c`, `run_phases.*`, `cmd_<name>.c` with
# <...> standing for any text) or a folder (`guest/`).  Without git (a
# tarball) there is no list of tracked files: exit 77.  Exit status: 0 all
# named, 1 a file no README names (each one listed).
set -euo pipefail
top=${1:?usage: readmes.sh SOURCE_DIR}
cd "$top"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "readmes.sh: $top is not a git checkout: no file list" >&2
	exit 77
fi

declare -A has_readme
mapfile -t files < <(git ls-files --cached --others --exclude-standard |
		     sort -u)
for f in "${files[@]}"; do
	[ "${f##*/}" = README.md ] && [ -f "$f" ] && has_readme[$(dirname "$f")]=1
done

# names_of README - the spans and link texts of a README, one per line,
# "<...>" turned into "*", commas split.
# shellcheck disable=SC2016 # the backquotes are Markdown's
names_of() {
	grep -o -E '`[^` ]+`|\[[^] ]+\]\(' "$1" |
		sed -E 's/^`//; s/`$//; s/^\[//; s/\]\($//; s/<[^>]*>/*/g' |
		tr ',' '\n'
}

declare -A names
bad=0
checked=0
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	case $f in
	*.c | *.h | *.sh | *.py) ;;
	scripts/*) [[ ${f##*/} == *.* ]] && continue ;;
	*) continue ;;
	esac
	d=$(dirname "$f")
	while [ "$d" != . ] && [ -z "${has_readme[$d]:-}" ]; do
		d=$(dirname "$d")
	done
	[ -n "${has_readme[$d]:-}" ] || continue
	if [ -z "${names[$d]+x}" ]; then
		names[$d]=$(names_of "$d/README.md")
	fi
	rel=${f#"$d"/}
	[ "$d" = . ] && rel=$f
	base=${f##*/}
	checked=$((checked + 1))
	found=0
	while IFS= read -r pat; do
		pat=${pat%/}
		[ -n "$pat" ] || continue
		# shellcheck disable=SC2053 # the README's span is a pattern
		if [[ $base == $pat || $rel == $pat || $rel == "$pat"/* ]]; then
			found=1
			break
		fi
	done <<<"${names[$d]}"
	if [ $found = 0 ]; then
		echo "$d/README.md does not name $rel"
		bad=1
	fi
done
if [ "$checked" -lt 100 ]; then
	echo "readmes.sh: only $checked source files found: the listing is" \
	     "wrong" >&2
	exit 1
fi
[ $bad = 0 ] && echo "readmes.sh: $checked source files, each named in" \
	"its folder's README"
exit $bad
