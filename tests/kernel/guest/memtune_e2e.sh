#!/bin/sh
# memtune_e2e.sh - /init of the memtune end-to-end QEMU guest (built by
# tests/tuner/qemu_e2e.sh): 'memtune apply' loads the real memreg.ko with
# a tuned configuration planned on the host, the values are read back
# from /sys/kernel/memreg, then 'memtune validate' runs the mix
# unregulated (monitor-only) and regulated.  One line per check:
#   MEMTUNE-CHECK <name> PASS|FAIL [detail]
# then MEMTUNE-DONE, and the guest powers off.
/bin/busybox mount -t proc proc /proc
/bin/busybox mount -t sysfs sys /sys
/bin/busybox mount -t devtmpfs dev /dev 2>/dev/null
export PATH=/bin:/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu
cd /
echo	# the console's escape sequences end up on this line, not a check
check() { # name cond-rc detail
	if [ "$2" -eq 0 ]; then echo "MEMTUNE-CHECK $1 PASS $3"
	else echo "MEMTUNE-CHECK $1 FAIL $3"; fi
}
val() { tr -d '\n' < "$1" 2>/dev/null; }

memtune --db /m.db apply --file /cfg.json --module /memreg.ko \
	--force-board > /tmp/apply.out 2>&1
rc=$?
check apply-loads $rc "$(tr '\n' ' ' < /tmp/apply.out)"

want_p=$(sed -n 's/^ *"period_us": \([0-9]*\),$/\1/p' /cfg.json | head -1)
got_p=$(val /sys/kernel/memreg/period_us)
[ -n "$want_p" ] && [ "$got_p" = "$want_p" ]
check apply-period $? "sysfs period_us=$got_p config=$want_p"
got_l=$(val /sys/kernel/memreg/lms)
[ "$got_l" = 1 ]
check apply-lms-on $? "sysfs lms=$got_l"
got_r=$(val /sys/kernel/memreg/cpu1/regulated)
[ "$got_r" = 1 ]
check apply-cpu1-regulated $? "cpu1/regulated=$got_r"
got_e=$(val /sys/kernel/memreg/error)
echo "memreg error attribute: $got_e"

# applying again with memreg loaded goes through sysfs staging + commit
memtune apply --file /cfg.json --force-board > /tmp/apply2.out 2>&1
rc=$?
grep -q "switched to configuration" /tmp/apply2.out
check apply-again-sysfs $(( rc | $? )) "$(tr '\n' ' ' < /tmp/apply2.out)"

memtune --db /m.db --json validate /mix.yaml > /tmp/val.json 2> /tmp/val.err
rc=$?
check validate-runs $rc "$(tr '\n' ' ' < /tmp/val.err)"
grep -q '"regulated": true' /tmp/val.json
check validate-regulated $? "$(tr -d '\n ' < /tmp/val.json | cut -c1-600)"
got_m=$(val /sys/kernel/memreg/monitor)
[ "$got_m" = 0 ]
check validate-leaves-regulating $? "monitor=$got_m"
p1=$(val /sys/kernel/memreg/cpu1/periods)
[ -n "$p1" ] && [ "$p1" -gt 0 ]
check memreg-periods-counted $? "cpu1/periods=$p1"

rmmod memreg
check unload $? ""
echo MEMTUNE-DONE
poweroff -f
