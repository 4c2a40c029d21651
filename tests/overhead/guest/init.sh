#!/bin/sh
# /init of the `memcal overhead` QEMU initramfs (busybox sh), written by
# tests/overhead/guest/overhead-qemu.sh.  The kernel command line gives
#   ovh_mode=test   the CTest check: memreg in monitor-only mode at 100 us
#                   and 5 ms, benchmark on cpu 0, master on cpu 1 and on
#                   cpu 0 (the master-core comparison), C/C' interleaved
#   ovh_mode=bench  one load of each cell ovh_cells names (this boot's
#                   load index ovh_load) of bench/overhead's table, the
#                   perf sysctls set as bench/overhead/README.md says;
#                   ovh_profile=1: with the markers and addresses of the
#                   instruction profile (bench/overhead/run.sh --profile)
#   ovh_mode=memcal `memcal overhead` itself (static build): memreg must be
#                   chosen as the method, the run stored and shown
# The mode first declares its checks ("MEMREG-PLAN name..."), then every
# check prints "MEMREG-CHECK <name> PASS|FAIL <detail>"; the run ends
# with the kernel log between MEMREG-DMESG-BEGIN/END and "MEMREG-DONE".
# (helpers and conventions shared with the memreg guests: lib.sh, copied
# to /lib.sh by the harness)
# shellcheck source=../../kernel/guest/lib.sh
. /lib.sh
guest_mount
mode=${ovh_mode:-test}
reps=${ovh_reps:-5}
ms=${ovh_ms:-40}
bench=${ovh_bench:-compute}
extra=${ovh_extra:-}
stat=${ovh_stat:-median}
echo "OVH-MODE $mode reps=$reps ms=$ms bench=$bench extra=$extra stat=$stat cpus=$(grep -c ^processor /proc/cpuinfo)"
case $mode in
test)
	plan ovh-finite ovh-ge1 ovh-contrast-m1 ovh-contrast-m0 ovh-master ovh-unloaded
	/ovh_guest --ko /memreg.ko --periods 100,5000 --cpu 0 --master 1 \
		--master2 0 --reps "$reps" --ms "$ms" --bench "$bench" \
		${extra:+--extra "$extra"} --stat "$stat" --check-contrast
	echo "OVH-EXIT $?"
	;;
bench)
	plan ovh-unloaded
	# the rate first: the kernel refuses it once the lowering is off
	echo 200000 > /proc/sys/kernel/perf_event_max_sample_rate
	echo 0 > /proc/sys/kernel/perf_cpu_time_max_percent
	if [ "${ovh_profile:-0}" = 1 ]; then
		# the instruction profile's addresses: real ones in kallsyms,
		# and the kernel's functions once (gzip, base64: 3 MB of
		# text through the emulated serial line is slow)
		echo 0 > /proc/sys/kernel/kptr_restrict
		[ "${ovh_load:-0}" = 0 ] &&
			grep ' [tTwW] ' /proc/kallsyms | gzip -1 | base64 |
			sed 's/^/OVH-KSYMS /'
	fi
	/ovh_guest --ko /memreg.ko --cells "${ovh_cells:-all}" \
		--load "${ovh_load:-0}" --reps "$reps" --ms "$ms" \
		--profile "${ovh_profile:-0}"
	echo "OVH-EXIT $?"
	;;
memcal)
	plan ovh-memcal-exit ovh-memcal-method ovh-memcal-finite ovh-memcal-show ovh-unloaded
	/memcal overhead --module /memreg.ko --periods 1000,5000 --cores 0 \
		--repeat 3 --benchmarks compute --duration "$ms" --db /tmp/m.db \
		--json > /tmp/o.json; rc=$?
	sed 's/^/OVH-JSON /' /tmp/o.json
	check ovh-memcal-exit "memcal overhead exit $rc" test $rc = 0
	check ovh-memcal-method "method memreg chosen (module loadable)" grep -q '"method": "memreg"' /tmp/o.json
	n=$(grep -c '"ratio_median": [0-9]' /tmp/o.json)
	check ovh-memcal-finite "finite ratios: $n (2 periods x master placements)" test "$n" -ge 2
	/memcal show --db /tmp/m.db > /tmp/show.txt 2>&1
	sed 's/^/OVH-SHOW /' /tmp/show.txt
	check ovh-memcal-show "memcal show lists the run" grep -q 'overhead points' /tmp/show.txt
	;;
esac
check ovh-unloaded "memreg unloaded after the runs: left='$(leftover)'" test -z "$(leftover)"
guest_finish 60
