# shellcheck shell=sh
# bundle_e2e.sh - the deployment bundle in the guest, sourced by
# memtune_e2e.sh (its check and matches_export) when /bundle-src (the
# DKMS tree of a bundle exported on the host, which built /memreg.ko)
# is there.  The guest has no systemd and no compiler, so: memtune
# exports the bundle here as a tar (--kmod-src /bundle-src, the prebuilt
# /memreg.ko), busybox tar unpacks it, install.sh installs it into /
# (no dkms: the prebuilt module for uname -r), then what boot does: the
# installed unit's ExecStart line.
#   unit:  /cfg-unit.json, the host's plan without the host's machine
#          record (CPU kinds, memory, bandwidth: the guest is another
#          machine, and memtune check would rightly refuse it), or where
#          the guest planned its own (arm64) /cfg.json, carrying
#          this guest's fingerprint (learnt from a one-core 'memcal run
#          --quick' here, as a calibration of this board would have it):
#          the unit's apply runs check, which passes (x86: with those
#          items unknown, warnings), memreg loads, its sysfs values are the
#          configuration's, uninstall removes all.
#   other: /cfg-other.json, the export tests' board (another fingerprint,
#          CPUs and events this guest lacks): check fails, the ExecStart
#          line fails, memreg stays unloaded, and its output says why.
# Checks (MEMTUNE-CHECK lines), declared by memtune_e2e.sh's plan:
#   bundle-fingerprint bundle-export bundle-install bundle-boot-loads
#   bundle-boot-params bundle-unload bundle-uninstall bundle-other-install
#   bundle-other-refused bundle-other-unloaded bundle-other-uninstall

# bundle_files: what install.sh installs (for the before/after listing)
bundle_files() {
	for p in /etc/memcal/tuned-config.json /etc/modprobe.d/memreg.conf \
		 /etc/systemd/system/memreg-tune.service \
		 /etc/systemd/system/multi-user.target.wants/memreg-tune.service \
		 "/lib/modules/$(uname -r)/extra/memreg.ko" /var/lib/memcal/bundle.manifest; do
		[ -e "$p" ] || [ -L "$p" ] && echo "$p"
	done
}
# bundle_boot OUT: run the installed unit's ExecStart line, as systemd would
bundle_boot() {
	line=$(sed -n 's/^ExecStart=//p' /etc/systemd/system/memreg-tune.service)
	echo "ExecStart=$line" > "$1"
	[ -n "$line" ] || return 1
	eval "$line" >> "$1" 2>&1
}

unit_cfg=/cfg-unit.json
[ -f $unit_cfg ] || unit_cfg=/cfg.json
echo "bundle checks from $(cut -d' ' -f1 /proc/uptime) s"
memcal --db /tmp/fp.db -q run --quick --cores 0 --size 65536 --repeat 1 > /tmp/fp.out 2>&1
rc=$?
fp=$(memcal --db /tmp/fp.db --json show 2>/dev/null |
     sed -n 's/.*"fingerprint": *"\([0-9a-f]*\)".*/\1/p' | head -1)
sed "s/\"fingerprint\": *\"[0-9a-f]*\"/\"fingerprint\": \"$fp\"/" $unit_cfg > /tmp/cfg-unit.json
[ $rc -eq 0 ] && [ ${#fp} -eq 64 ] && grep -q "\"fingerprint\": \"$fp\"" /tmp/cfg-unit.json
check bundle-fingerprint $? "memcal run rc=$rc, this guest's fingerprint $fp"

# bundle_memtune DIR: a bundle without a static memtune (this one is
# dynamic: x86-64) needs memtune installed already, where the unit runs it
bundle_memtune() {
	[ -f "$1/bin/memtune" ] || [ -e /usr/local/bin/memtune ] && return 0
	mkdir -p /usr/local/bin && ln -s /bin/memtune /usr/local/bin/memtune
}

memtune export --format bundle --file /tmp/cfg-unit.json --kmod-src /bundle-src \
	--module /memreg.ko --out /tmp/unit.tar > /tmp/bx.out 2>&1
rc=$?
mkdir -p /tmp/u && tar -xf /tmp/unit.tar -C /tmp/u 2>> /tmp/bx.out
bundle_memtune /tmp/u/memreg-bundle
[ $rc -eq 0 ] && [ -f "/tmp/u/memreg-bundle/prebuilt/$(uname -r)/memreg.ko" ] &&
	[ -f /tmp/u/memreg-bundle/memreg-0.1.0/dkms.conf ]
check bundle-export $? "rc=$rc: $(tr '\n' ' ' < /tmp/bx.out)"

before=$(bundle_files)
sh /tmp/u/memreg-bundle/install.sh > /tmp/bi.out 2>&1
rc=$?
[ $rc -eq 0 ] && [ -L /etc/systemd/system/multi-user.target.wants/memreg-tune.service ] &&
	cmp -s /tmp/u/memreg-bundle/tuned-config.json /etc/memcal/tuned-config.json &&
	cmp -s /memreg.ko "/lib/modules/$(uname -r)/extra/memreg.ko" && [ ! -d "$M" ]
check bundle-install $? "rc=$rc: $(tr '\n' ' ' < /tmp/bi.out); installed: $(bundle_files | tr '\n' ' ')"

bundle_boot /tmp/bb.out
rc=$?
[ $rc -eq 0 ] && [ -d "$M" ] && ! grep -q "check [a-z-]* fail:" /tmp/bb.out
check bundle-boot-loads $? "rc=$rc: $(tr '\n' ' ' < /tmp/bb.out)"
out=$(matches_export /etc/memcal/tuned-config.json)
rc=$?
want=$(sed -n 's/^options memreg //p' /etc/modprobe.d/memreg.conf)
got=$(memtune export --format modprobe --file /etc/memcal/tuned-config.json 2>/dev/null |
      sed -n 's/^options memreg //p')
[ $rc -eq 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]
check bundle-boot-params $? "sysfs against the installed modprobe.d options: $out"
rmmod memreg
check bundle-unload $? ""
sh /tmp/u/memreg-bundle/install.sh --uninstall > /tmp/bu.out 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(bundle_files)" = "$before" ]
check bundle-uninstall $? "rc=$rc: $(tr '\n' ' ' < /tmp/bu.out); left: $(bundle_files | tr '\n' ' ')"

# the other board's configuration: installed, refused at boot
memtune export --format bundle --file /cfg-other.json --kmod-src /bundle-src \
	--module /memreg.ko --out /tmp/o > /tmp/ox.out 2>&1 && bundle_memtune /tmp/o &&
	sh /tmp/o/install.sh > /tmp/oi.out 2>&1
rc=$?
check bundle-other-install $rc "$(tr '\n' ' ' < /tmp/ox.out) $(tr '\n' ' ' < /tmp/oi.out)"
bundle_boot /tmp/ob.out
rc=$?
[ $rc -ne 0 ] && grep -q "does not fit this unit: check failed (events)" /tmp/ob.out
check bundle-other-refused $? "rc=$rc: $(tr '\n' ' ' < /tmp/ob.out)"
[ ! -d "$M" ] && ! grep -q '^memreg ' /proc/modules
check bundle-other-unloaded $? "$(grep '^memreg ' /proc/modules)"
sh /tmp/o/install.sh --uninstall > /tmp/ou.out 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(bundle_files)" = "$before" ]
check bundle-other-uninstall $? "rc=$rc: $(tr '\n' ' ' < /tmp/ou.out); left: $(bundle_files | tr '\n' ' ')"
echo "bundle checks until $(cut -d' ' -f1 /proc/uptime) s"
