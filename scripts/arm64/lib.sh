# shellcheck shell=bash
# scripts/arm64/lib.sh - shared pieces of the arm64 scripts (sourced, not run).
#
# Everything downloaded or built goes under $MEMCAL_ARM64_DIR (default
# <checkout>/build-arm64, ignored by git):
#   debs/      the .deb files, kept so that a second run downloads nothing
#   kernel/    the extracted arm64 kernel image and kbuild tree
#   sysroot/   the extracted arm64 -dev packages for user-space cross builds
#   kmod/      memreg.ko built against the arm64 headers
#   guest/     static arm64 guest programs; qemu/: initramfs and serial logs
# Packages come from Debian through apt-get's own client (multiarch arm64
# must be enabled; arm64_multiarch does that when run as root).

arm64_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
arm64_dir=${MEMCAL_ARM64_DIR:-$arm64_top/build-arm64}
arm64_debs=$arm64_dir/debs

# arm64_log MSG... - progress line on stderr, prefixed with the script name.
arm64_log() { echo "${0##*/}: $*" >&2; }

# arm64_die MSG... - print MSG and exit 1.
arm64_die() { arm64_log "ERROR: $*"; exit 1; }

# arm64_skip MSG... - print MSG and exit 77 (CTest's "skipped").
arm64_skip() { arm64_log "SKIP: $*"; exit 77; }

# arm64_multiarch - make sure dpkg knows the arm64 architecture and apt has
# its package lists; adds it (root only) when it is missing.  Returns 1 with
# a message when that is impossible.
arm64_multiarch() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		if [ "$(id -u)" -ne 0 ]; then
			arm64_log "arm64 multiarch is not enabled; run as root:" \
				"dpkg --add-architecture arm64 && apt-get update"
			return 1
		fi
		arm64_log "enabling arm64 multiarch (dpkg --add-architecture arm64)"
		dpkg --add-architecture arm64 || return 1
	fi
	if ! apt-cache show busybox-static:arm64 > /dev/null 2>&1; then
		if [ "$(id -u)" -ne 0 ]; then
			arm64_log "apt has no arm64 package lists; run apt-get update as root"
			return 1
		fi
		arm64_log "apt-get update (fetching the arm64 package lists)"
		apt-get update -q > /dev/null || return 1
	fi
}

# arm64_candidate PKG[:ARCH] - the version apt would install, or nothing.
arm64_candidate() {
	apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p' |
		grep -v '(none)' | head -1
}

# arm64_deb_path PKG:ARCH VERSION - where arm64_fetch keeps that .deb
# (apt-get download names files NAME_VERSION_ARCH.deb, ':' escaped as %3a).
arm64_deb_path() {
	local name=${1%%:*} arch=${1#*:}
	echo "$arm64_debs/${name}_${2//:/%3a}_$arch.deb"
}

# arm64_prefetch "PKG:ARCH VERSION"... - download every .deb not yet in
# debs/ with one apt-get call: each call reads all package lists (~2 s with
# arm64 multiarch), so fetching a sysroot's ~60 packages one by one took
# two minutes.  arm64_fetch then finds them there.
arm64_prefetch() {
	local sv missing=()
	for sv in "$@"; do
		[ -s "$(arm64_deb_path "${sv% *}" "${sv#* }")" ] || missing+=("${sv% *}=${sv#* }")
	done
	[ ${#missing[@]} -gt 0 ] || return 0
	mkdir -p "$arm64_debs"
	arm64_log "downloading ${#missing[@]} packages"
	(cd "$arm64_debs" && apt-get download -q "${missing[@]}" > /dev/null 2>&1) ||
		{ arm64_log "apt-get download of ${missing[*]} failed"; return 1; }
}

# arm64_fetch PKG:ARCH [VERSION] - download the .deb into debs/ unless a
# file of that package and version is already there; prints its path.
arm64_fetch() {
	local spec=$1 ver=${2:-} name arch f
	name=${spec%%:*}
	arch=${spec#*:}
	[ "$arch" = "$spec" ] && arch=$(dpkg --print-architecture)
	[ -n "$ver" ] || ver=$(arm64_candidate "$name:$arch")
	[ -n "$ver" ] || { arm64_log "no Debian package $name:$arch"; return 1; }
	mkdir -p "$arm64_debs"
	f=$(arm64_deb_path "$name:$arch" "$ver")
	if [ ! -s "$f" ]; then
		arm64_log "downloading $name:$arch $ver"
		(cd "$arm64_debs" && apt-get download -q "$name:$arch=$ver" > /dev/null 2>&1) ||
			{ arm64_log "apt-get download $name:$arch=$ver failed"; return 1; }
	fi
	[ -s "$f" ] || { arm64_log "download of $name left no $f"; return 1; }
	echo "$f"
}

# arm64_extract DEB DIR - dpkg -x DEB into DIR once (a stamp file remembers).
arm64_extract() {
	local deb=$1 dir=$2 stamp
	stamp=$dir/.stamps/$(basename "$deb")
	[ -e "$stamp" ] && return 0
	mkdir -p "$dir/.stamps"
	dpkg -x "$deb" "$dir" || return 1
	touch "$stamp"
}

# arm64_kver - "ABI VERSION" of Debian's current arm64 kernel (e.g.
# "6.1.0-NN 6.1.x-y"), discovered from the linux-headers-arm64 metapackage
# that apt would install, never hard-coded.
arm64_kver() {
	local ver abi
	ver=$(arm64_candidate linux-headers-arm64:arm64)
	[ -n "$ver" ] || return 1
	abi=$(apt-cache show "linux-headers-arm64:arm64=$ver" 2>/dev/null |
	      sed -n 's/^Depends: .*linux-headers-\([0-9][^ ,]*\)-arm64.*/\1/p' | head -1)
	[ -n "$abi" ] || return 1
	echo "$abi $ver"
}

# arm64_user_build DIR STATIC - configure (once) and build memcal, memtune
# and memcal-load for arm64 in DIR with cmake/toolchain-aarch64.cmake
# against the extracted sysroot (scripts/arm64/sysroot), warnings as
# errors; STATIC=1 links them fully static (-DMEMCAL_STATIC=ON: no shared
# library needed, as in a busybox initramfs).  A DIR configured the other
# way is configured afresh (the libraries found differ).  Logs in
# DIR/cross-configure.log and DIR/cross-build.log.  Returns 0, 1 (failed:
# the tail of the log printed) or 77 (no sysroot to be had).
arm64_user_build() {
	local bdir=$1 static=$2 want=OFF rc
	[ "$static" = 1 ] && want=ON
	"$arm64_top/scripts/arm64/sysroot" > /dev/null; rc=$?
	[ $rc -eq 77 ] && return 77
	[ $rc -eq 0 ] || { arm64_log "no arm64 sysroot"; return 1; }
	if [ -f "$bdir/CMakeCache.txt" ] &&
	   ! grep -qx "MEMCAL_STATIC:BOOL=$want" "$bdir/CMakeCache.txt"; then
		arm64_log "$bdir was configured with another MEMCAL_STATIC: configuring afresh"
		rm -rf "$bdir"
	fi
	mkdir -p "$bdir"
	if [ ! -f "$bdir/CMakeCache.txt" ]; then
		cmake -S "$arm64_top" -B "$bdir" -DCMAKE_TOOLCHAIN_FILE="$arm64_top/cmake/toolchain-aarch64.cmake" \
		      -DMEMCAL_BUILD_KMOD=OFF -DMEMCAL_KERNEL_TESTS=OFF -DMEMCAL_WERROR=ON \
		      -DMEMCAL_STATIC=$want > "$bdir/cross-configure.log" 2>&1 ||
			{ tail -30 "$bdir/cross-configure.log"; rm -f "$bdir/CMakeCache.txt"
			  arm64_log "cmake configure failed (log $bdir/cross-configure.log)"; return 1; }
	fi
	cmake --build "$bdir" -j2 --target memcal memtune memcal-load > "$bdir/cross-build.log" 2>&1 ||
		{ tail -30 "$bdir/cross-build.log"; arm64_log "cross build failed (log $bdir/cross-build.log)"; return 1; }
}
