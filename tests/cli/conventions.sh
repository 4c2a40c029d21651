#!/bin/bash
# conventions.sh TOOL... - the conventions every command of the tools
# shares (docs/design.md, cli/include/cli.h):
#  - --help lines are at most 80 columns;
#  - a long option has the same short option on every command that has it
#    (or none on all);
#  - with --json, --help, --version, results and usage errors are each one
#    JSON document in the envelope {tool, command, version, ok,
#    result|error, warnings}.
#  - the scrape found exactly the commands expected, and on each command
#    as many options in --help as its --help --json lists, so that a help
#    text the scrape cannot read fails instead of checking nothing.
#
#   conventions.sh TOOL:NCOMMANDS...
# Needs jq.  Exits 1 if any check failed.
# "CHECK && ok || bad": ok only counts and never fails, so bad runs
# exactly when the check fails.
# shellcheck disable=SC2015
set -u
fail=0 cases=0
ok() { cases=$((cases + 1)); }
bad() { cases=$((cases + 1)); echo "FAIL $1"; fail=1; }
declare -A short_of where_of

# envelope FILE TOOL COMMAND OK - FILE is one envelope with these fields.
envelope() {
	jq -e -s --arg t "$2" --arg c "$3" --argjson ok "$4" '
		length == 1 and (.[0] | .tool == $t and
		(.command == (if $c == "" then null else $c end)) and
		(.version | type == "string") and .ok == $ok and
		(.warnings | type == "array") and
		(if $ok then has("result") else
		 (.error | has("code") and has("kind") and has("message")) end))
	' "$1" >/dev/null
}

for spec in "$@"; do
	tool=${spec%:*} ncmds=${spec##*:}
	name=$(basename "$tool")
	out=$(mktemp)
	"$tool" --json --help >"$out" && envelope "$out" "$name" "" true &&
		ok || bad "$name --help --json"
	"$tool" --version --json >"$out" && envelope "$out" "$name" "" true &&
		ok || bad "$name --version --json"
	"$tool" --json frobnicate >"$out"
	[ $? -eq 2 ] && envelope "$out" "$name" "" false && ok ||
		bad "$name --json frobnicate: one error envelope, exit 2"
	cmds=$("$tool" --help | awk '/^Commands:/{on=1; next} /^$/{on=0}
				     on && /^  [a-z]/{print $1}')
	n=$(echo "$cmds" | grep -c .)
	[ "$n" -eq "$ncmds" ] && ok ||
		bad "$name --help lists $n commands, expected $ncmds (update tests/cli/CMakeLists.txt)"
	for c in $cmds; do
		"$tool" "$c" --help >"$out"
		scraped=$(sed -nE 's/^  (-[a-zA-Z]), (--[a-z-]+).*/x/p; s/^      (--[a-z-]+).*/x/p' "$out" | wc -l)
		listed=$("$tool" "$c" --help --json |
			 jq '(.result.options | length) + (.result.common_options | length)')
		[ "$scraped" -eq "$listed" ] && ok ||
			bad "$name $c --help: $scraped options scraped, $listed in --help --json"
		long=$(awk 'length > 80' "$out")
		[ -z "$long" ] && ok || bad "$name $c --help: lines over 80 columns: $long"
		while read -r s l; do
			key=$l
			if [ -n "${short_of[$key]+x}" ] &&
			   [ "${short_of[$key]}" != "$s" ]; then
				bad "$l is '$s' in '$name $c' but '${short_of[$key]}' in ${where_of[$key]}"
			else
				ok
				short_of[$key]=$s where_of[$key]="'$name $c'"
			fi
		done < <(sed -nE 's/^  (-[a-zA-Z]), (--[a-z-]+).*/\1 \2/p; s/^      (--[a-z-]+).*/none \1/p' "$out")
		"$tool" "$c" --help --json >"$out" &&
			envelope "$out" "$name" "$c" true &&
			jq -e '.result.synopsis | startswith("'"$name $c"'")' \
				"$out" >/dev/null && ok ||
			bad "$name $c --help --json"
		"$tool" "$c" --json --no-such-option >"$out"
		[ $? -eq 2 ] && envelope "$out" "$name" "$c" false && ok ||
			bad "$name $c --json --no-such-option: one error envelope"
	done
	rm -f "$out"
done
"${1%:*}" --help | awk 'length > 80 {exit 1}' && ok || bad "tool --help over 80 columns"
[ $fail -eq 0 ] && echo "PASS: $cases checks of help width, short options and JSON envelopes"
exit $fail
