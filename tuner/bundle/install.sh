#!/bin/sh
# install.sh - install this memreg deployment bundle (written by 'memtune
# export --format bundle'; README says what it holds and why memreg
# loads through the unit).
#
#   sh install.sh [--root DIR] [--kernel RELEASE] [--boot unit|modules-load]
#   sh install.sh [--root DIR] --uninstall
#
# Installs the configuration, memtune (when the bundle carries one), the
# modprobe.d file, the systemd unit (enabled) and memreg.ko: through dkms
# when it is there and --root is /, else the bundle's prebuilt module for
# the kernel (uname -r, or --kernel).  --boot modules-load installs the
# modules-load.d entry instead of enabling the unit; either way the
# modprobe.d install line sends the load through 'memtune apply', which
# checks the unit first.  What it installed is listed in
# ROOT/var/lib/memcal/bundle.manifest; --uninstall removes exactly that.
# Nothing is loaded or started here.  Exit 0 done, 1 refused or failed
# (with the reason), 2 bad usage.
set -u

die() { echo "install.sh: $*" >&2; exit 1; }
usage() { echo "install.sh: $*" >&2; echo "usage: sh install.sh [--root DIR] [--kernel RELEASE] [--boot unit|modules-load] | [--root DIR] --uninstall" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd) || die "cannot find the bundle's folder"
root=/
kernel=
boot=unit
uninstall=0
while [ $# -gt 0 ]; do
	case $1 in
	--root) [ $# -ge 2 ] || usage "--root needs a folder"; root=$2; shift 2 ;;
	--kernel) [ $# -ge 2 ] || usage "--kernel needs a release"; kernel=$2; shift 2 ;;
	--boot) [ $# -ge 2 ] || usage "--boot needs unit or modules-load"; boot=$2; shift 2 ;;
	--uninstall) uninstall=1; shift ;;
	-h|--help) sed -n '2,19p' "$0"; exit 0 ;;
	*) usage "unknown argument '$1'" ;;
	esac
done
case $boot in unit|modules-load) ;; *) usage "--boot '$boot': give unit or modules-load" ;; esac
[ -d "$root" ] || die "root '$root' is not a folder"
root=$(cd "$root" && pwd) || die "cannot enter root '$root'"
[ "$root" = / ] && root=
[ -r "$here/bundle.conf" ] || die "$here/bundle.conf is missing: run install.sh from an unpacked bundle"
MEMREG_VERSION='' MEMREG_DIR='' MEMTUNE_PATH='' CONFIG_PATH='' UNIT='' PREBUILT='' ARCH=''
# shellcheck source=/dev/null # written by memtune export: quoted sh words
. "$here/bundle.conf"
if [ -z "$MEMREG_DIR" ] || [ -z "$CONFIG_PATH" ] || [ -z "$MEMTUNE_PATH" ] || [ -z "$UNIT" ]; then
	die "$here/bundle.conf lacks a setting: the bundle is damaged, export it again"
fi
manifest=$root/var/lib/memcal/bundle.manifest

if [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
	die "installing into / needs root (or give --root DIR)"
fi

# --uninstall: the manifest's lines in reverse order
if [ $uninstall = 1 ]; then
	[ -f "$manifest" ] || die "nothing to uninstall: $manifest is missing"
	rev=$(sed '1!G;h;$!d' "$manifest") || die "cannot read $manifest"
	rm -f "$manifest" || die "cannot remove $manifest"
	fail=0
	while IFS= read -r line; do
		kind=${line%% *}; p=${line#* }
		case $kind in
		file|link) rm -f "$root$p" || fail=1 ;;
		dir) rmdir "$root$p" 2>/dev/null || echo "install.sh: kept $root$p: not empty" >&2 ;;
		dkms) dkms remove "$p" --all || fail=1 ;;
		depmod) if command -v depmod > /dev/null; then depmod ${root:+-b "$root"} "$p" || echo "install.sh: depmod failed" >&2; fi ;;
		*) echo "install.sh: unknown manifest line '$line'" >&2; fail=1 ;;
		esac
	done <<EOF
$rev
EOF
	[ $fail = 0 ] || die "some of it could not be removed (above)"
	echo "install.sh: uninstalled"
	exit 0
fi

[ ! -e "$manifest" ] || die "a bundle is installed already ($manifest): run install.sh --uninstall first"
[ -n "$kernel" ] || kernel=$(uname -r) || die "cannot read the kernel release (uname -r)"

# What is needed, all of it checked before anything is written.
[ -r "$here/tuned-config.json" ] || die "the bundle has no tuned-config.json"
memtune_src=
if [ -f "$here/bin/memtune" ]; then
	memtune_src=$here/bin/memtune
elif [ ! -x "$root$MEMTUNE_PATH" ]; then
	die "the bundle carries no memtune for $ARCH and $root$MEMTUNE_PATH is not there: install memtune first (the unit runs it)"
fi
use_dkms=0
ko_src=
if [ -z "$root" ] && command -v dkms > /dev/null; then
	use_dkms=1
elif [ -f "$here/prebuilt/$kernel/memreg.ko" ]; then
	ko_src=$here/prebuilt/$kernel/memreg.ko
else
	if [ -n "$root" ]; then how="dkms is not used with --root"; else how="dkms is not installed"; fi
	die "no way to install memreg.ko for kernel $kernel: $how, and the bundle's prebuilt modules are for: ${PREBUILT:-no kernel} (export the bundle with --module built for $kernel, or install dkms)"
fi
for p in "$CONFIG_PATH" /etc/modprobe.d/memreg.conf "/etc/systemd/system/$UNIT" \
	 "/lib/modules/$kernel/extra/memreg.ko"; do
	[ ! -e "$root$p" ] || die "$root$p exists already: remove it or uninstall what installed it (nothing was written)"
done
if [ $use_dkms = 1 ] && [ -e "/usr/src/$MEMREG_DIR" ]; then
	die "/usr/src/$MEMREG_DIR exists already: dkms remove memreg/$MEMREG_VERSION --all and remove it first (nothing was written)"
fi
if [ -n "$memtune_src" ] && [ -e "$root$MEMTUNE_PATH" ]; then
	die "$root$MEMTUNE_PATH exists already: remove it, or export the bundle with --bundle-memtune '' to use it (nothing was written)"
fi

# the manifest's own folders, recorded first so that they go last
made=
for d in /var /var/lib /var/lib/memcal; do
	[ -d "$root$d" ] && continue
	mkdir "$root$d" || die "cannot create $root$d"
	made="$made $d"
done
: > "$manifest" || die "cannot write $manifest"
record() { printf '%s %s\n' "$1" "$2" >> "$manifest" || die "cannot write $manifest"; }
for d in $made; do record dir "$d"; done
# mkdirs DIR: create DIR and the folders above it that are missing, each recorded
mkdirs() {
	[ -d "$root$1" ] && return 0
	mkdirs "$(dirname "$1")"
	mkdir "$root$1" || die "cannot create $root$1"
	record dir "$1"
}
# put SRC DEST MODE: copy one file, recorded
put() {
	mkdirs "$(dirname "$2")"
	cp "$1" "$root$2" || die "cannot write $root$2"
	record file "$2"
	chmod "$3" "$root$2" || die "cannot chmod $root$2"
}

put "$here/tuned-config.json" "$CONFIG_PATH" 0644
[ -z "$memtune_src" ] || put "$memtune_src" "$MEMTUNE_PATH" 0755
put "$here/modprobe.d/memreg.conf" /etc/modprobe.d/memreg.conf 0644
put "$here/memreg-tune.service" "/etc/systemd/system/$UNIT" 0644
if [ "$boot" = unit ]; then
	mkdirs /etc/systemd/system/multi-user.target.wants
	ln -s "/etc/systemd/system/$UNIT" "$root/etc/systemd/system/multi-user.target.wants/$UNIT" ||
		die "cannot enable $UNIT"
	record link "/etc/systemd/system/multi-user.target.wants/$UNIT"
else
	put "$here/modules-load.d/memreg.conf" /etc/modules-load.d/memreg.conf 0644
fi
if [ $use_dkms = 1 ]; then
	mkdirs "/usr/src/$MEMREG_DIR"
	for f in "$here/$MEMREG_DIR"/dkms.conf "$here/$MEMREG_DIR"/kmod/* \
		 "$here/$MEMREG_DIR"/core/*.[ch] "$here/$MEMREG_DIR"/core/include/*; do
		put "$f" "/usr/src/$MEMREG_DIR/${f#"$here/$MEMREG_DIR/"}" 0644
	done
	record dkms "memreg/$MEMREG_VERSION"
	if ! dkms add "memreg/$MEMREG_VERSION" || ! dkms install "memreg/$MEMREG_VERSION" -k "$kernel"; then
		die "dkms could not build memreg for $kernel (see above); run install.sh --uninstall to remove what was installed"
	fi
else
	# the kernel's module index, where it has one, is refreshed (depmod
	# recorded first: --uninstall runs it after removing the module)
	index=0
	if [ -f "$root/lib/modules/$kernel/modules.dep" ] && command -v depmod > /dev/null; then
		index=1
		record depmod "$kernel"
	fi
	put "$ko_src" "/lib/modules/$kernel/extra/memreg.ko" 0644
	if [ $index = 1 ]; then
		depmod ${root:+-b "$root"} "$kernel" ||
			echo "install.sh: depmod failed: 'memtune apply' finds memreg.ko without it" >&2
	fi
fi
echo "install.sh: installed (manifest $manifest); memreg loads at boot through $([ "$boot" = unit ] && echo "$UNIT" || echo /etc/modules-load.d/memreg.conf) once 'memtune apply' accepts this unit"
