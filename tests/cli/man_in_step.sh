#!/bin/bash
# man_in_step.sh TOOL MANPAGE - every command and every option that the
# tool's --help lists must be documented in its man page, and the page must
# render without warnings.
set -u
tool=$1 page=$2 fail=0
[ -x "$tool" ] || { echo "FAIL: $tool not built"; exit 1; }
[ -f "$page" ] || { echo "FAIL: $page missing"; exit 1; }
warn=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
if [ -n "$warn" ]; then
	echo "FAIL: $page renders with warnings:"; echo "$warn"; fail=1
fi
cmds=$("$tool" --help | awk '/^Commands:/{on=1; next} /^$/{on=0} on && /^  [a-z]/{print $1}')
[ -n "$cmds" ] || { echo "FAIL: no commands in $tool --help"; exit 1; }
for c in $cmds; do
	grep -q "^\.B $c\$" "$page" || { echo "FAIL: command '$c' not in $page"; fail=1; }
	for o in $("$tool" "$c" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$page" || { echo "FAIL: option '$o' of '$c' not in $page"; fail=1; }
	done
done
[ $fail -eq 0 ] && echo "PASS: $page documents every command and option of $(basename "$tool")"
exit $fail
