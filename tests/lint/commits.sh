#!/bin/bash
# tests/lint/commits.sh - check the subjects of the commits since BASE:
# `area: summary`, at most 72 characters (merge commits are left out).
#
#   tests/lint/commits.sh [SOURCE_DIR [BASE]]
#
# BASE is the first commit the rule held for; older history is not judged.
# Exit status: 0 every subject follows the rule; 1 one does not (each is
# listed with its reason); 77 (skipped) when SOURCE_DIR is not a git
# checkout or BASE is not in its history (a tarball, a shallow clone).
set -euo pipefail
top=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
base=${2:-1f38aa7}

if ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "commits.sh: $top is not a git checkout; nothing to judge" >&2
	exit 77
fi
if ! git -C "$top" cat-file -e "$base^{commit}" 2>/dev/null; then
	echo "commits.sh: base commit $base is not in this clone's history" \
	     "(shallow?); nothing to judge" >&2
	exit 77
fi

bad=0
n=0
while IFS= read -r line; do
	hash=${line%% *}
	subject=${line#* }
	n=$((n + 1))
	if [ "${#subject}" -gt 72 ]; then
		echo "$hash: subject is ${#subject} characters (at most 72): $subject"
		bad=1
	fi
	if ! [[ $subject =~ ^[A-Za-z0-9_./,+\ -]+:\ [^\ ] ]]; then
		echo "$hash: subject is not 'area: summary': $subject"
		bad=1
	fi
done < <(git -C "$top" log --no-merges --format='%h %s' "$base..HEAD")
echo "commits.sh: $n commit subjects since $base checked"
exit "$bad"
