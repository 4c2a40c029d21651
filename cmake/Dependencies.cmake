# Finds every library memcal needs and fails with the Debian package to
# install when one is missing.  scripts/setup installs all of them.
find_package(PkgConfig)
if(NOT PKG_CONFIG_FOUND)
  message(FATAL_ERROR "pkg-config not found: run scripts/setup "
                      "(or apt-get install pkg-config)")
endif()

# memcal_require_pkg(<target-suffix> <pkg-config name> <debian package>)
function(memcal_require_pkg name module debpkg)
  pkg_check_modules(${name} IMPORTED_TARGET GLOBAL ${module})
  if(NOT ${name}_FOUND)
    message(FATAL_ERROR "${module} not found: install the Debian package "
                        "'${debpkg}' (scripts/setup does this)")
  endif()
endfunction()

memcal_require_pkg(HWLOC   hwloc    libhwloc-dev)
memcal_require_pkg(NUMA    numa     libnuma-dev)
memcal_require_pkg(SQLITE  sqlite3  libsqlite3-dev)
memcal_require_pkg(JANSSON jansson  libjansson-dev)
memcal_require_pkg(CYAML   libcyaml libcyaml-dev)
memcal_require_pkg(CRITERION criterion libcriterion-dev)

# libpfm4 ships no pkg-config file.
find_path(PFM_INCLUDE_DIR perfmon/pfmlib_perf_event.h)
find_library(PFM_LIBRARY pfm)
if(NOT PFM_INCLUDE_DIR OR NOT PFM_LIBRARY)
  message(FATAL_ERROR "libpfm4 not found: install the Debian package "
                      "'libpfm4-dev' (scripts/setup does this)")
endif()
add_library(memcal::pfm UNKNOWN IMPORTED GLOBAL)
set_target_properties(memcal::pfm PROPERTIES
  IMPORTED_LOCATION ${PFM_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PFM_INCLUDE_DIR})

find_package(Threads REQUIRED)

# MEMCAL_STATIC: pkg-config's Libs name only the library itself; a static
# link also needs its Libs.private: hwloc -> libudev, sqlite3 -> libz.
# Debian ships no static libudev: tests/overhead/guest/udev_stub.c stands
# in (udev_new() returns NULL, hwloc then does without udev's optional
# block-device details; a busybox initramfs has no udev anyway).
if(MEMCAL_STATIC)
  find_library(MEMCAL_ZLIB_STATIC z)
  if(NOT MEMCAL_ZLIB_STATIC)
    message(FATAL_ERROR "MEMCAL_STATIC: libz.a not found: install the Debian "
                        "package 'zlib1g-dev'")
  endif()
  add_library(memcal_udev_stub STATIC
              ${PROJECT_SOURCE_DIR}/tests/overhead/guest/udev_stub.c)
  set_property(TARGET PkgConfig::HWLOC APPEND PROPERTY
               INTERFACE_LINK_LIBRARIES memcal_udev_stub)
  set_property(TARGET PkgConfig::SQLITE APPEND PROPERTY
               INTERFACE_LINK_LIBRARIES ${MEMCAL_ZLIB_STATIC})
endif()
