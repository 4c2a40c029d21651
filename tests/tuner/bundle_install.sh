#!/bin/sh
# shellcheck disable=SC2015 # "test && ok || bad": ok never fails
# bundle_install.sh BUILD_DIR - the bundle's install.sh on the host, into
# a scratch root (--root), nothing loaded: a bundle of the export tests'
# configuration (tests/fixtures/export/config.json) with a stand-in
# memreg.ko (a vermagic is all install.sh reads) and paths holding a
# space and a quote.  Refuses, writing nothing, without memtune, with no
# module for the kernel, and over a file it did not install; installs the
# configuration, modprobe.d, the unit and its wants link, the module
# under extra/ (where 'memtune apply' looks) and, when the bundle carries
# it, memtune; refuses a second install; --uninstall leaves the root as
# it was; --boot modules-load installs the modules-load.d entry instead
# of the link.  Exit 0 pass, 1 fail.
set -u
bdir=$(cd "${1:?usage: bundle_install.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
memtune=$bdir/tuner/memtune
tmp=$(mktemp -d /tmp/bundle_install.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "PASS $1"; }
bad() { echo "FAIL $1: $2"; fail=1; }
# expect NAME WANT-RC PATTERN CMD...: CMD's exit status and its output
expect() {
	name=$1 want=$2 pat=$3; shift 3
	"$@" > "$tmp/out" 2>&1; rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$pat" "$tmp/out"; then ok "$name"
	else bad "$name" "rc=$rc (want $want), output: $(tr '\n' ' ' < "$tmp/out")"; fi
}
# snap: every path under the root with its contents' checksum
snap() { (cd "$tmp/root" && find . -print | sort | while IFS= read -r p; do
	if [ -f "$p" ]; then echo "$p $(cksum < "$p")"; elif [ -L "$p" ]; then echo "$p -> $(readlink "$p")"; else echo "$p/"; fi
	done); }

rel=6.1.0-99-test-amd64
printf '\177ELF\000vermagic=%s SMP preempt mod_unload \000' "$rel" > "$tmp/memreg.ko"
cfg="/etc/mem cal/it's.json"
"$memtune" export --format bundle --file "$src/tests/fixtures/export/config.json" \
	--out "$tmp/b" --module "$tmp/memreg.ko" --bundle-memtune '' \
	--config-path "$cfg" > "$tmp/export.out" 2>&1 ||
	{ cat "$tmp/export.out"; echo "FAIL export"; exit 1; }
"$memtune" export --format bundle --file "$src/tests/fixtures/export/config.json" \
	--out "$tmp/bm.tar" --module "$tmp/memreg.ko" --bundle-memtune /bin/busybox \
	> "$tmp/export2.out" 2>&1 || { cat "$tmp/export2.out"; echo "FAIL export tar"; exit 1; }
mkdir -p "$tmp/bm" && tar -xf "$tmp/bm.tar" -C "$tmp/bm" || { echo "FAIL tar -x"; exit 1; }

mkdir -p "$tmp/root/etc/modprobe.d"
echo unit-1 > "$tmp/root/etc/hostname"
echo "options other x=1" > "$tmp/root/etc/modprobe.d/other.conf"
snap > "$tmp/s0"
I="$tmp/b/install.sh"

expect refuses-without-memtune 1 "the bundle carries no memtune for x86_64" \
	sh "$I" --root "$tmp/root" --kernel "$rel"
snap > "$tmp/s1"; cmp -s "$tmp/s0" "$tmp/s1" && ok refused-wrote-nothing || bad refused-wrote-nothing "$(diff "$tmp/s0" "$tmp/s1")"

mkdir -p "$tmp/root/usr/local/bin"
printf '#!/bin/sh\n' > "$tmp/root/usr/local/bin/memtune"; chmod 755 "$tmp/root/usr/local/bin/memtune"
snap > "$tmp/s0"
expect refuses-other-kernel 1 "no way to install memreg.ko for kernel 9.9.9: dkms is not used with --root, and the bundle's prebuilt modules are for: $rel" \
	sh "$I" --root "$tmp/root" --kernel 9.9.9
expect bad-usage 2 "unknown argument '--frob'" sh "$I" --root "$tmp/root" --frob
echo mine > "$tmp/root/etc/modprobe.d/memreg.conf"
expect refuses-over-a-file 1 "etc/modprobe.d/memreg.conf exists already" \
	sh "$I" --root "$tmp/root" --kernel "$rel"
rm "$tmp/root/etc/modprobe.d/memreg.conf"
snap > "$tmp/s1"; cmp -s "$tmp/s0" "$tmp/s1" && ok refusals-wrote-nothing || bad refusals-wrote-nothing "$(diff "$tmp/s0" "$tmp/s1")"

expect installs 0 "installed" sh "$I" --root "$tmp/root" --kernel "$rel"
r=$tmp/root
cmp -s "$tmp/b/tuned-config.json" "$r$cfg" && ok config-installed || bad config-installed "$r$cfg"
cmp -s "$tmp/b/modprobe.d/memreg.conf" "$r/etc/modprobe.d/memreg.conf" &&
	grep -q "^install memreg /usr/local/bin/memtune apply --file '/etc/mem cal/it'\\\\''s.json'\$" "$r/etc/modprobe.d/memreg.conf" &&
	ok modprobe-installed || bad modprobe-installed "$(tail -1 "$r/etc/modprobe.d/memreg.conf")"
cmp -s "$tmp/b/memreg-tune.service" "$r/etc/systemd/system/memreg-tune.service" &&
	[ "$(readlink "$r/etc/systemd/system/multi-user.target.wants/memreg-tune.service")" = /etc/systemd/system/memreg-tune.service ] &&
	ok unit-enabled || bad unit-enabled "$(find "$r/etc/systemd" | tr '\n' ' ')"
cmp -s "$tmp/memreg.ko" "$r/lib/modules/$rel/extra/memreg.ko" && ok module-installed || bad module-installed "no $r/lib/modules/$rel/extra/memreg.ko"
[ ! -e "$r/etc/modules-load.d" ] && ok no-modules-load || bad no-modules-load "modules-load.d installed with --boot unit"
[ "$(cat "$r/usr/local/bin/memtune")" = '#!/bin/sh' ] && ok memtune-kept || bad memtune-kept "the root's memtune was replaced"
expect refuses-second-install 1 "a bundle is installed already" sh "$I" --root "$tmp/root" --kernel "$rel"
expect uninstalls 0 "uninstalled" sh "$I" --root "$tmp/root" --uninstall
snap > "$tmp/s1"; cmp -s "$tmp/s0" "$tmp/s1" && ok uninstall-exact || bad uninstall-exact "$(diff "$tmp/s0" "$tmp/s1" | tr '\n' ' ')"
expect uninstall-nothing 1 "nothing to uninstall" sh "$I" --root "$tmp/root" --uninstall

# the tar bundle, carrying a static program as memtune, booting by modules-load.d
rm -r "$tmp/root/usr"
snap > "$tmp/s0"
expect installs-tar-modules-load 0 "installed" sh "$tmp/bm/memreg-bundle/install.sh" --root "$tmp/root" --kernel "$rel" --boot modules-load
cmp -s /bin/busybox "$r/usr/local/bin/memtune" && [ -x "$r/usr/local/bin/memtune" ] && ok memtune-installed || bad memtune-installed "no static memtune installed"
[ "$(grep -v '^#' "$r/etc/modules-load.d/memreg.conf")" = memreg ] &&
	[ ! -e "$r/etc/systemd/system/multi-user.target.wants" ] &&
	ok modules-load-installed || bad modules-load-installed "$(find "$r/etc" | tr '\n' ' ')"
expect uninstalls-tar 0 "uninstalled" sh "$tmp/bm/memreg-bundle/install.sh" --root "$tmp/root" --uninstall
snap > "$tmp/s1"; cmp -s "$tmp/s0" "$tmp/s1" && ok uninstall-tar-exact || bad uninstall-tar-exact "$(diff "$tmp/s0" "$tmp/s1" | tr '\n' ' ')"
[ $fail = 0 ] && echo "bundle_install: all PASS" || echo "bundle_install: FAILED"
exit $fail
