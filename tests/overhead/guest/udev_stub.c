// SPDX-License-Identifier: GPL-2.0-only
/*
 * udev_stub.c - Debian ships no static libudev; a static memcal for the
 * QEMU guest links these instead.  udev_new() returning NULL makes hwloc
 * skip its optional udev block-device information (there is no udev in
 * the busybox initramfs anyway).
 */
#include <stddef.h>

struct udev;
struct udev_device;

struct udev *udev_new(void);
struct udev *udev_unref(struct udev *u);
struct udev_device *udev_device_new_from_subsystem_sysname(struct udev *u,
		const char *subsystem, const char *sysname);
const char *udev_device_get_property_value(struct udev_device *d,
					   const char *key);
struct udev_device *udev_device_unref(struct udev_device *d);

/* udev_new - no udev here: hwloc then does without it. */
struct udev *udev_new(void)
{
	return NULL;
}

/* udev_unref - nothing to release. */
struct udev *udev_unref(struct udev *u)
{
	(void)u;
	return NULL;
}

/* udev_device_new_from_subsystem_sysname - no devices. */
struct udev_device *udev_device_new_from_subsystem_sysname(struct udev *u,
		const char *subsystem, const char *sysname)
{
	(void)u;
	(void)subsystem;
	(void)sysname;
	return NULL;
}

/* udev_device_get_property_value - no properties. */
const char *udev_device_get_property_value(struct udev_device *d,
					   const char *key)
{
	(void)d;
	(void)key;
	return NULL;
}

/* udev_device_unref - nothing to release. */
struct udev_device *udev_device_unref(struct udev_device *d)
{
	(void)d;
	return NULL;
}
