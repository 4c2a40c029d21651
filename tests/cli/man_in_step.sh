#!/bin/bash
# man_in_step.sh TOOL MANPAGE [COMMAND] - a man page in step with its
# binary:
#  - it renders without warnings;
#  - every command the tool's --help lists is documented (.B COMMAND);
#  - for each command (or only COMMAND, for a page such as memcal-report.1)
#    the options in the page's SYNOPSIS are exactly those the binary's
#    'TOOL COMMAND --help' lists (its own options; the common ones are
#    [COMMON] there), and each is documented in the page (the common
#    ones too, except in a one-command page, which refers to TOOL(1));
#  - for a tool without commands (memcal-load), the SYNOPSIS options are
#    exactly those of 'TOOL --help';
#  - every short option of a checked command is documented beside its long
#    form on one line of the page (.BR \-c ", " \-\-config);
#  - the scrape found exactly NCOMMANDS commands (0: a tool without
#    commands) and NOPTIONS options of the checked commands together, so
#    that a --help the scrape cannot read, or a command or option added
#    without its page, fails instead of checking nothing.
#
#   man_in_step.sh TOOL MANPAGE NCOMMANDS NOPTIONS [COMMAND]
set -u
tool=$1 page=$2 ncmds=$3 nopts=$4 only=${5:-} fail=0
[ -x "$tool" ] || { echo "FAIL: $tool not built"; exit 1; }
[ -f "$page" ] || { echo "FAIL: $page missing"; exit 1; }
warn=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
if [ -n "$warn" ]; then
	echo "FAIL: $page renders with warnings:"; echo "$warn"; fail=1
fi

# synopsis_opts [COMMAND] - the --options of the page's SYNOPSIS block for
# COMMAND (blocks are separated by .br; a block is COMMAND's when it has
# the line ".B COMMAND"), or of the whole SYNOPSIS without COMMAND.
synopsis_opts() {
	awk -v cmd="${1:-}" '
		/^\.SH SYNOPSIS/ { on = 1; next }
		/^\.SH / { on = 0 }
		!on { next }
		/^\.br/ { if (mine) printf "%s", buf; buf = ""; mine = 0; next }
		{ if (cmd == "" || $0 == ".B " cmd) mine = 1; buf = buf $0 "\n" }
		END { if (mine) printf "%s", buf }
	' "$page" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u
}

# compare WHAT WANT GOT - report the options in one list only.
compare() {
	local missing extra
	missing=$(comm -23 <(echo "$2") <(echo "$3") | tr '\n' ' ')
	extra=$(comm -13 <(echo "$2") <(echo "$3") | tr '\n' ' ')
	if [ -n "${missing// }" ]; then
		echo "FAIL: $1: the binary has $missing; SYNOPSIS of $page lacks it"
		fail=1
	fi
	if [ -n "${extra// }" ]; then
		echo "FAIL: $1: SYNOPSIS of $page has $extra; the binary has not"
		fail=1
	fi
}

# short_documented CMD SHORT LONG - SHORT is on a line of the page with LONG.
short_documented() {
	local s l
	s=$(printf '%s' "$2" | sed 's/-/\\\\-/g')
	l=$(printf '%s' "$3" | sed 's/-/\\\\-/g')
	grep -E -- "$s([^a-z]|\$)" "$page" | grep -q -- "$l" || {
		echo "FAIL: short option '$2' ($3) of '$1' not in $page beside $3"
		fail=1
	}
}

cmds=$("$tool" --help | awk '/^Commands:/{on=1; next} /^$/{on=0} on && /^  [a-z]/{print $1}')
found_cmds=0 found_opts=0
if [ -z "$cmds" ]; then
	want=$("$tool" --help 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u)
	[ -n "$want" ] || { echo "FAIL: no options in $tool --help"; exit 1; }
	found_opts=$(echo "$want" | wc -l)
	compare "$(basename "$tool")" "$want" "$(synopsis_opts)"
else
	for c in $cmds; do
		[ -z "$only" ] || [ "$c" = "$only" ] || continue
		[ -n "$only" ] || grep -q "^\.B $c\$" "$page" ||
			{ echo "FAIL: command '$c' not in $page"; fail=1; }
		found_cmds=$((found_cmds + 1))
		want=$("$tool" "$c" --help --json |
		       jq -r '.result.options[].long' | sort -u)
		[ -z "$want" ] || found_opts=$((found_opts + $(echo "$want" | wc -l)))
		while read -r sh lo; do
			[ -n "$sh" ] && short_documented "$c" "$sh" "$lo"
		done < <("$tool" "$c" --help --json |
			 jq -r '.result.options[] | select(.short != null) |
				"\(.short) \(.long)"')
		compare "$(basename "$tool") $c" "$want" "$(synopsis_opts "$c")"
		common=
		[ -n "$only" ] || common=$("$tool" "$c" --help --json |
					   jq -r '.result.common_options[].long')
		for o in $want $common; do
			esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
			grep -q -- "$esc" "$page" || {
				echo "FAIL: option '$o' of '$c' not in $page"
				fail=1
			}
		done
	done
fi
[ -n "$only" ] || [ "$found_cmds" -eq "$ncmds" ] || {
	echo "FAIL: found $found_cmds commands in $(basename "$tool") --help," \
	     "expected $ncmds (update the count in tests/cli/CMakeLists.txt" \
	     "with the page)"
	fail=1
}
[ "$found_opts" -eq "$nopts" ] || {
	echo "FAIL: found $found_opts options of the checked commands," \
	     "expected $nopts (update the count in tests/cli/CMakeLists.txt" \
	     "with the page)"
	fail=1
}
[ $fail -eq 0 ] && echo "PASS: $page is in step with $(basename "$tool")${only:+ $only}"
exit $fail
