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
add_library(memcal::pfm INTERFACE IMPORTED GLOBAL)
set_target_properties(memcal::pfm PROPERTIES
  INTERFACE_LINK_LIBRARIES ${PFM_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${PFM_INCLUDE_DIR})

find_package(Threads REQUIRED)

# MEMCAL_STATIC: pkg-config's Libs name only the library itself; a static
# link also needs its Libs.private: hwloc -> libudev, sqlite3 -> libz.
# Debian ships no static libudev: tests/overhead/guest/udev_stub.c stands
# in (udev_new() returns NULL, hwloc then does without udev's optional
# block-device details; a busybox initramfs has no udev anyway).
if(MEMCAL_STATIC OR NOT MEMCAL_SANITIZE)
  add_library(memcal_udev_stub STATIC
              ${PROJECT_SOURCE_DIR}/tests/overhead/guest/udev_stub.c)
endif()
if(MEMCAL_STATIC)
  find_library(MEMCAL_ZLIB_STATIC z)
  if(NOT MEMCAL_ZLIB_STATIC)
    message(FATAL_ERROR "MEMCAL_STATIC: libz.a not found: install the Debian "
                        "package 'zlib1g-dev'")
  endif()
  set_property(TARGET PkgConfig::HWLOC APPEND PROPERTY
               INTERFACE_LINK_LIBRARIES memcal_udev_stub)
  set_property(TARGET PkgConfig::SQLITE APPEND PROPERTY
               INTERFACE_LINK_LIBRARIES ${MEMCAL_ZLIB_STATIC})
endif()

# One static program in a dynamic build: a program whose MEMCAL_LINK_STATIC
# property is on (memcal_link_static()) links every library's .a instead
# of its shared object.  Each link item chooses by the property of the
# program being linked, so the libraries are compiled once for both.
# MEMCAL_LINK_STATIC_FOUND is off when an archive is missing.
set(MEMCAL_LINK_STATIC_FOUND OFF)
if(NOT MEMCAL_STATIC AND NOT MEMCAL_SANITIZE)
  set(MEMCAL_LINK_STATIC_FOUND ON)
  set(static "$<BOOL:$<TARGET_PROPERTY:MEMCAL_LINK_STATIC>>")
  # target archives...: the target's link items for a dynamic link, the
  # archives (and targets) for a static one
  function(memcal_static_alternative target)
    get_target_property(dynamic ${target} INTERFACE_LINK_LIBRARIES)
    set(items "")
    foreach(item IN LISTS dynamic)
      list(APPEND items "$<$<NOT:${static}>:${item}>")
    endforeach()
    foreach(archive IN LISTS ARGN)
      list(APPEND items "$<${static}:${archive}>")
    endforeach()
    set_property(TARGET ${target} PROPERTY INTERFACE_LINK_LIBRARIES "${items}")
  endfunction()
  foreach(lib hwloc numa pfm sqlite3 jansson z)
    find_library(MEMCAL_${lib}_ARCHIVE lib${lib}.a)
    if(NOT MEMCAL_${lib}_ARCHIVE)
      set(MEMCAL_LINK_STATIC_FOUND OFF)
    endif()
  endforeach()
  if(MEMCAL_LINK_STATIC_FOUND)
    memcal_static_alternative(PkgConfig::HWLOC ${MEMCAL_hwloc_ARCHIVE}
                              memcal_udev_stub)
    memcal_static_alternative(PkgConfig::NUMA ${MEMCAL_numa_ARCHIVE})
    memcal_static_alternative(memcal::pfm ${MEMCAL_pfm_ARCHIVE})
    memcal_static_alternative(PkgConfig::SQLITE ${MEMCAL_sqlite3_ARCHIVE}
                              ${MEMCAL_z_ARCHIVE})
    memcal_static_alternative(PkgConfig::JANSSON ${MEMCAL_jansson_ARCHIVE})
  endif()
endif()

# memcal_link_static(<program>): link <program> fully static
# (MEMCAL_LINK_STATIC_FOUND must be on).
function(memcal_link_static target)
  set_target_properties(${target} PROPERTIES MEMCAL_LINK_STATIC ON
    RULE_LAUNCH_LINK ${PROJECT_SOURCE_DIR}/cmake/static-link)
  target_link_options(${target} PRIVATE -static)
endfunction()
