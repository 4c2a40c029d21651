#!/bin/sh
# qemu_e2e.sh BUILD_DIR - memtune apply and validate end to end with the
# real memreg.ko in a QEMU (TCG) guest running the Debian kernel.
#
# On the host: a quick calibration (memcal run), a profile and a plan of a
# small mix of memcal-load workloads (overhead assumed: plain TCG timing
# means nothing), the JSON export; then an initramfs with busybox, memtune
# and memcal-load with their shared libraries, memreg.ko built against the
# matching headers (regulator/kmod's Makefile), the database, the mix and
# tests/kernel/guest/memtune_e2e.sh as /init.  A second mix, the same
# workloads with rt_exempt: true, is planned first (so that the plain mix's
# configuration is the newest) for the guest's real-time exemption checks.
# For the headroom checks (tests/kernel/guest/headroom.c) the plain mix's
# export is rewritten by hand into /cfg-headroom.json, budgets in page
# faults per 200 ms period (a memcal-load hog faulted 110-1,700 pages a
# second under TCG, with the host's load; the platform rule binds only
# when both hogs want more than the platform ceiling): real-time
# guarantee hr_grt, best-effort guarantee hr_gbe, platform ceiling
# hr_ceil 2.5x their sum, each CPU's ceiling the platform ceiling less
# the other's guarantee (the real-time one too, so that the platform
# rule binds when both are busy).  Guarantees of at least 10: the slack
# scheme refuses one below slack_div (8), and LMS's 10 % headroom adds
# nothing to a budget below 10 whose CPU uses exactly its budget.  The
# planner's own export cannot serve: its budgets assume 64 bytes per
# event of the stand-in counter, hundreds of thousands per period, which
# page faults never reach in the guest.
# memreg.ko is built from the DKMS tree of a deployment bundle (memtune
# export --format bundle), which the guest's bundle checks
# (tests/kernel/guest/bundle_e2e.sh) get as /bundle-src, with memcal and
# the export tests' configuration as another board's (/cfg-other.json)
# and the plan without this host's machine record (/cfg-unit.json).
# Pass/fail from the guest's MEMTUNE-PLAN and MEMTUNE-CHECK lines
# (scripts/qemu/lib.sh).  Exit 0 all PASS, 1 a failure, 77 a missing tool.
set -u
bdir=$(cd "${1:?usage: qemu_e2e.sh BUILD_DIR}" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmo=${MEMTUNE_QEMU_TIMEOUT:-400}
qemu_tag="memtune-qemu"
. "$src/scripts/qemu/lib.sh"

qemu_x86_kernel std
memtune=$bdir/tuner/memtune
load=$bdir/tuner/memcal-load
memcal=$bdir/calibrate/memcal
for b in "$memtune" "$load" "$memcal"; do [ -x "$b" ] || die "$b not built"; done

work=$bdir/qemu-memtune
rm -rf "$work" && mkdir -p "$work"
# memreg.ko from a deployment bundle's DKMS tree, built as dkms would
# (in place, against the guest kernel's headers): the bundle carries
# what the module needs; the guest's bundle checks reuse that tree
"$memtune" export --format bundle --file "$src/tests/fixtures/export/config.json" \
	--bundle-memtune '' --out "$work/bundle" > "$work/bundle.log" 2>&1 \
	|| { cat "$work/bundle.log"; die "bundle export failed"; }
mdir=$(cd "$work/bundle" && echo memreg-[0-9]*)
make -s -C "$work/bundle/$mdir/kmod" KDIR="$kdir" > "$work/kmod.log" 2>&1 \
	|| { cat "$work/kmod.log"; die "module build from the bundle's DKMS tree failed"; }
ko=$work/bundle/$mdir/kmod/memreg.ko

cat > "$work/mix.yaml" <<'MIX'
name: qemu-e2e
runs: 1
percentile: 99
margin_pct: 20
workloads:
  - name: control
    argv: [memcal-load, read, --mb, "1", --size, "1048576", --period-us,
           "20000", --jobs, "10"]
    criticality: rt
    period_us: 20000
    cpu: 1
  - name: stream
    command: memcal-load read --mb 64 --size 4194304
    criticality: be
MIX
sed -e 's/^name: qemu-e2e$/name: qemu-e2e-exempt/' \
    -e 's/^margin_pct: 20$/margin_pct: 20\nrt_exempt: true/' \
	"$work/mix.yaml" > "$work/mix-exempt.yaml"
db=$work/m.db
"$memcal" --db "$db" -q run --quick --size 16777216 > "$work/memcal.log" 2>&1 \
	|| { cat "$work/memcal.log"; die "memcal run failed"; }
"$memtune" --db "$db" -q profile "$work/mix-exempt.yaml" > "$work/profile-x.log" 2>&1 \
	|| { cat "$work/profile-x.log"; die "memtune profile (exempt) failed"; }
"$memtune" --db "$db" --json plan "$work/mix-exempt.yaml" --periods 1000,2000,5000 \
	--assume-overhead-ns 50000 > "$work/plan-x.json" 2> "$work/plan-x.log" \
	|| { cat "$work/plan-x.log"; die "memtune plan (exempt) failed"; }
xid=$(jq -er '.result.config_id' "$work/plan-x.json")
[ -n "$xid" ] || die "no config_id in the exempt plan's output"
"$memtune" --db "$db" export --config "$xid" --format json \
	--out "$work/cfg-exempt.json" > "$work/export-x.log" 2>&1 \
	|| { cat "$work/export-x.log"; die "export (exempt) failed"; }
"$memtune" --db "$db" -q profile "$work/mix.yaml" > "$work/profile.log" 2>&1 \
	|| { cat "$work/profile.log"; die "memtune profile failed"; }
"$memtune" --db "$db" plan "$work/mix.yaml" --periods 1000,2000,5000 \
	--assume-overhead-ns 50000 > "$work/plan.log" 2>&1 \
	|| { cat "$work/plan.log"; die "memtune plan failed"; }
"$memtune" --db "$db" export --format json --out "$work/cfg.json" \
	> "$work/export.log" 2>&1 || { cat "$work/export.log"; die "export failed"; }
hr_grt=16 hr_gbe=10 hr_ceil=64
jq --argjson grt $hr_grt --argjson gbe $hr_gbe --argjson c $hr_ceil '
	.period_us = 200000 | .reclaim_quantum_events = 1 |
	.modes.lms = true | .modes.share = true | .modes.share_mode = "grant" |
	.modes.reclaim = false |
	.platform_ceiling.read_events = $c |
	.cpus |= map(if .role == "rt" then
		.read.guaranteed_events = $grt | .read.floor_events = $grt |
		.read.ceiling_events = ($c - $gbe)
	else .read.guaranteed_events = $gbe | .read.ceiling_events = ($c - $grt) end)' \
	"$work/cfg.json" > "$work/cfg-headroom.json" || die "jq could not rewrite cfg.json"
hr_cpus=$(jq -er '[(.cpus[] | select(.role == "rt") | .cpu),
	(.cpus[] | select(.role == "be") | .cpu)] | map(tostring) | join(" ")' \
	"$work/cfg-headroom.json") || die "no rt and be cpu in cfg.json"
# the headroom checker, built by the main build with the other guest
# programs (tests/kernel/CMakeLists.txt)
headroom=$bdir/guest/x86_64/bin/headroom
[ -x "$headroom" ] || die "$headroom not built"

root=$work/initramfs
qemu_initramfs "$root" /bin/busybox
mkdir -p "$root/lib/x86_64-linux-gnu" "$root/lib64"
cp "$memtune" "$load" "$root/bin/"
cp "$memcal" "$root/bin/"
for lib in $(ldd "$memtune" "$load" "$memcal" | awk '/=>/ {print $3} /ld-linux/ {print $1}' | sort -u); do
	case $lib in
	*ld-linux*) cp -L "$lib" "$root/lib64/" ;;
	/*) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
	esac
done
strip --strip-debug -o "$root/memreg.ko" "$ko" 2>/dev/null || cp "$ko" "$root/memreg.ko"
cp "$db" "$root/m.db"
cp "$work/cfg.json" "$root/cfg.json"
cp "$work/mix.yaml" "$root/mix.yaml"
cp "$work/mix-exempt.yaml" "$root/mix-exempt.yaml"
cp "$work/cfg-exempt.json" "$root/cfg-exempt.json"
echo "$xid" > "$root/exempt-config-id"
cp "$work/cfg-headroom.json" "$root/cfg-headroom.json"
echo "$hr_cpus" > "$root/headroom-cpus"
cp "$headroom" "$root/headroom"
mkdir -p "$root/bundle-src"
for d in kmod core core/include; do
	mkdir -p "$root/bundle-src/$d"
	find "$work/bundle/$mdir/$d" -maxdepth 1 -type f \( -name '*.[ch]' -o -name Kbuild \
		-o -name Makefile -o -name dkms.conf \) -exec cp {} "$root/bundle-src/$d/" \;
done
cp "$src/tests/fixtures/export/config.json" "$root/cfg-other.json"
# the bundle's unit: the plan without this host's machine record
jq 'del(.provenance.machine, .provenance.bandwidth)' "$work/cfg.json" > "$root/cfg-unit.json" ||
	die "jq could not rewrite cfg.json"
cp "$src/tests/kernel/guest/bundle_e2e.sh" "$root/bundle_e2e.sh"
cp "$src/tests/kernel/guest/memtune_e2e.sh" "$root/init"
chmod 755 "$root/init"
initrd=$work/initrd.gz
qemu_pack "$root" "$initrd"

log=$work/guest.log
echo "memtune-qemu: kernel $kver, log $log"
qemu_boot "$log" "$tmo" qemu-system-x86_64 -accel "$qemu_x86_accel" -cpu max -smp 2 -m 512 \
	-nographic -no-reboot -kernel "$kimg" -initrd "$initrd" \
	-append "console=ttyS0 quiet panic=-1"
fail=0
qemu_verdict memtune-qemu "$log" "$qrc" "$tmo" || fail=1
[ $fail -eq 0 ] && echo "memtune-qemu: all checks PASS" || echo "memtune-qemu: FAILED"
exit $fail
