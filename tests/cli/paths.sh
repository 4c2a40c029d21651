#!/bin/bash
# paths.sh MEMCAL MEMTUNE FIXTURE_DB SRCDIR - every kind of output and
# database path the two tools can be given, as a user gives it:
#   --out: /dev/null and a FIFO written through (still a device/FIFO), a
#     symlink followed (link kept), a dangling link and a directory refused,
#     "-" to stdout, a failed write leaving the old file and its mode;
#   stdout on a full device: exit 1 naming "No space left on device";
#   --db: a missing, empty or device path never created or written, read
#     commands failing with the path and 'memcal run'; a database root
#     wrote in a folder only root can write, read by 'nobody' with no
#     -wal/-shm/-journal left behind (skipped, exit 77, unless run as root).
# Prints one line per case; exits 1 if any failed.
# The helpers below run only through check (shellcheck cannot see that).
# shellcheck disable=SC2317
set -u
memcal=$1 memtune=$2 fixture=$3 src=$4
cfg=$src/tests/fixtures/export/config.json
mix=$src/tests/fixtures/mix/good_minimal.yaml
badmix=$src/tests/fixtures/mix/bad_type.yaml
tmp=$(mktemp -d /tmp/memcal-paths-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0 cases=0

ok() { cases=$((cases + 1)); echo "ok   $1"; }
bad() { cases=$((cases + 1)); echo "FAIL $1"; fail=1; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# has FILE TEXT - FILE contains TEXT
has() { grep -qF -- "$2" "$1"; }

db=$tmp/m.db
# A private null device when root can make one: a regression must not
# replace the system's /dev/null (or leave /dev/null-journal).
null=/dev/null
if [ "$(id -u)" -eq 0 ] && mknod -m 666 "$tmp/null" c 1 3 2>/dev/null; then
	null=$tmp/null
fi
"$fixture" "$db" || { echo "FAIL cannot build the fixture database"; exit 1; }

# --- --out paths ------------------------------------------------------
"$memcal" report --db "$db" --out "$null" >/dev/null 2>"$tmp/err"
check "report --out $null exits 0" [ $? -eq 0 ]
check "$null is still a character device" [ -c "$null" ]
"$memtune" export --file "$cfg" --format json --out "$null" 2>"$tmp/err"
check "export --out $null exits 0 and keeps the device" \
	[ $? -eq 0 -a -c "$null" ]

mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/from-fifo" &
"$memcal" report --db "$db" --out "$tmp/fifo" >/dev/null 2>"$tmp/err"
rc=$?
wait
check "report --out FIFO exits 0" [ $rc -eq 0 ]
check "report written through the FIFO" has "$tmp/from-fifo" "<!DOCTYPE html>"
check "the FIFO is still a FIFO" [ -p "$tmp/fifo" ]
timeout 20 cat "$tmp/fifo" >"$tmp/from-fifo" &
"$memtune" export --file "$cfg" --format json --out "$tmp/fifo" 2>"$tmp/err"
rc=$?
wait
check "export --out FIFO written through" \
	[ $rc -eq 0 -a -p "$tmp/fifo" -a -s "$tmp/from-fifo" ]

echo old >"$tmp/target.html"
ln -s target.html "$tmp/link.html"
"$memcal" report --db "$db" --out "$tmp/link.html" >/dev/null 2>"$tmp/err"
check "report --out SYMLINK exits 0" [ $? -eq 0 ]
check "the symlink is kept" [ -L "$tmp/link.html" ]
check "its target holds the report" has "$tmp/target.html" "<!DOCTYPE html>"
ln -s nowhere/x.html "$tmp/dangling"
"$memcal" report --db "$db" --out "$tmp/dangling" 2>"$tmp/err"
check "a dangling symlink is refused (exit 1)" [ $? -eq 1 ]
check "... with a message about the link" has "$tmp/err" "symbolic link"
check "... and nothing is created" [ ! -e "$tmp/nowhere" ]

mkdir "$tmp/dir"
"$memcal" report --db "$db" --out "$tmp/dir" 2>"$tmp/err"
check "--out DIRECTORY refused (exit 1)" [ $? -eq 1 ]
check "... saying it is a directory" has "$tmp/err" "is a directory"
"$memtune" export --file "$cfg" --format json --out "$tmp/dir" 2>"$tmp/err"
check "export --out DIRECTORY refused" [ $? -eq 1 -a -d "$tmp/dir" ]

"$memcal" report --db "$db" --out - >"$tmp/stdout" 2>"$tmp/err"
check "--out - writes to stdout" has "$tmp/stdout" "<!DOCTYPE html>"
"$memcal" report --db "$db" --json --format json --out - >"$tmp/stdout"
check "--json --out -: the envelope carries the document" \
	[ "$(jq -r '.ok and (.result.document | type == "object")' \
	     "$tmp/stdout")" = true ]

"$memtune" export --json --file "$cfg" --format json >"$tmp/stdout" 2>/dev/null
check "export --json: the json format is carried as an object" \
	[ "$(jq -r '.result.document.format' "$tmp/stdout")" = \
	  memcal.tuned-config ]
"$memtune" export --json --file "$cfg" --format pqos --out - \
	>"$tmp/stdout" 2>/dev/null
check "export --json --out -: a text format is carried as files" \
	[ "$(jq -r '.result.files[0].content | contains("pqos")' \
	     "$tmp/stdout")" = true ]
check "... and the exporter's warnings are in the envelope" \
	[ "$(jq '.warnings | length' "$tmp/stdout")" -gt 0 ]
echo keep >"$tmp/old.html"
chmod 600 "$tmp/old.html"
(trap '' XFSZ; ulimit -f 1; "$memcal" report --db "$db" \
	--out "$tmp/old.html") 2>"$tmp/err"
check "a write that fails exits 1" [ $? -eq 1 ]
check "... naming the real cause (File too large)" has "$tmp/err" \
	"File too large"
check "... leaving the old file untouched" [ "$(cat "$tmp/old.html")" = keep ]
check "... and no temporary file" [ -z "$(find "$tmp" -maxdepth 1 -name '.old*' -print -quit)" ]
"$memcal" report --db "$db" --out "$tmp/old.html" >/dev/null 2>"$tmp/err"
check "a replaced file keeps its mode (600)" \
	[ "$(stat -c %a "$tmp/old.html")" = 600 ]

# --- stdout on a full device --------------------------------------------
for cmd in "$memcal show --db $db" "$memcal --json show --db $db" \
	   "$memcal report --db $db --format json" "$memcal --help" \
	   "$memtune export --file $cfg --format json" \
	   "$memtune export --file $cfg --format json --json"; do
	$cmd >/dev/full 2>"$tmp/err"
	rc=$?
	check "'${cmd##*/}' >/dev/full exits 1" [ $rc -eq 1 ]
	check "... saying No space left on device" has "$tmp/err" \
		"No space left on device"
done

# --- database paths -----------------------------------------------------
for cmd in "$memcal show" "$memcal report" "$memtune report" \
	   "$memtune export --format json"; do
	$cmd --db "$tmp/typo.db" >/dev/null 2>"$tmp/err"
	rc=$?
	check "'${cmd##*/}' on a missing database exits 1" [ $rc -eq 1 ]
	check "... naming the path and 'memcal run'" \
		grep -q "$tmp/typo.db.*'memcal run'" "$tmp/err"
	check "... creating nothing" [ ! -e "$tmp/typo.db" ]
done
"$memtune" plan "$mix" --db "$tmp/new.db" >/dev/null 2>"$tmp/err"
check "plan against a new path fails (exit 1) and creates nothing" \
	[ $? -eq 1 -a ! -e "$tmp/new.db" ]
"$memtune" plan "$badmix" --db "$tmp/new.db" >/dev/null 2>&1
check "plan of a bad mix against a new path creates nothing" \
	[ ! -e "$tmp/new.db" ]
: >"$tmp/empty.db"
"$memtune" plan "$mix" --db "$tmp/empty.db" >/dev/null 2>"$tmp/err"
check "plan against an empty file fails and leaves it empty" \
	[ $? -eq 1 -a ! -s "$tmp/empty.db" ]
check "... saying it is empty" has "$tmp/err" "is empty"
"$memcal" show --db "$tmp/empty.db" >/dev/null 2>&1
check "show of an empty file fails and leaves it empty" \
	[ $? -eq 1 -a ! -s "$tmp/empty.db" ]

nulljournal_before=$([ -e "$null-journal" ] && echo yes || echo no)
"$memcal" show --db "$null" >/dev/null 2>"$tmp/err"
check "show --db $null exits 1" [ $? -eq 1 ]
check "... saying it is not a database" has "$tmp/err" "not a database"
"$memcal" run --quick --db "$null" >/dev/null 2>"$tmp/err"
check "run --db $null is refused" [ $? -eq 1 ]
check "... saying it is a character device" has "$tmp/err" \
	"character device"
"$memtune" plan "$mix" --db "$null" >/dev/null 2>&1
check "plan --db $null is refused" [ $? -eq 1 ]
check "no $null-journal was created" \
	[ "$nulljournal_before" = yes -o ! -e "$null-journal" ]
check "$null is still a character device" [ -c "$null" ]

# --- a database read by a user who cannot write it ----------------------
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP read-only user cases: need root to create the scenario"
	echo "     (a database root wrote, read by 'nobody')"
	[ $fail -eq 0 ] && exit 77
	exit $fail
fi
ro=$tmp/ro
mkdir "$ro"
chmod 755 "$tmp" "$ro"
"$fixture" "$ro/memcal.db" || bad "fixture in $ro"
chmod 644 "$ro/memcal.db"
check "the root-written database is in WAL mode, closed cleanly" \
	[ "$(od -An -tu1 -j18 -N1 "$ro/memcal.db" | tr -d ' ')" = 2 \
	  -a ! -e "$ro/memcal.db-wal" ]
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"; }
cannot_write() { ! as_nobody touch "$ro/probe" 2>/dev/null; }
check "nobody cannot write the folder (the scenario holds)" cannot_write
for cmd in "$memcal show" "$memcal report --format json" \
	   "$memcal report --out -" "$memtune report --format csv" \
	   "$memcal --json show"; do
	# shellcheck disable=SC2086 # $cmd is a command and its arguments
	as_nobody $cmd --db "$ro/memcal.db" >"$tmp/stdout" 2>"$tmp/err"
	rc=$?
	check "nobody: '${cmd##*/}' exits 0" [ $rc -eq 0 ]
	[ $rc -eq 0 ] || cat "$tmp/err"
done
"$memcal" show --db "$ro/memcal.db" >/dev/null 2>&1
check "root reads it and leaves no -wal/-shm/-journal" \
	[ -z "$(find "$ro" -mindepth 1 -maxdepth 1 ! -name memcal.db -print -quit)" ]
chmod 777 "$ro"
as_nobody "$memcal" show --db "$ro/memcal.db" >/dev/null 2>&1
check "nobody with a writable folder leaves no file of its own" \
	[ -z "$(find "$ro" -mindepth 1 -maxdepth 1 ! -name memcal.db -print -quit)" ]
echo "$cases cases"
exit $fail
