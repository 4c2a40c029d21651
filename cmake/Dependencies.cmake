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
