# cmake/toolchain-aarch64.cmake - cross-compile memcal's user-space tools
# for arm64 (aarch64) Linux with Debian's aarch64-linux-gnu-gcc and a
# sysroot of Debian's arm64 -dev packages made by scripts/arm64/sysroot.
#
#   scripts/arm64/sysroot
#   cmake -S . -B build-arm64/cmake \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
#         -DMEMCAL_BUILD_KMOD=OFF -DMEMCAL_KERNEL_TESTS=OFF
#   cmake --build build-arm64/cmake -j2
#   (cd build-arm64/cmake && ctest)      # runs the tests under qemu-aarch64
#
# MEMCAL_ARM64_SYSROOT overrides the sysroot (default
# <checkout>/build-arm64/sysroot).  The kernel module is cross-built
# separately (scripts/arm64/kmod): kbuild, not CMake, knows the target
# kernel.  With qemu-user-static installed, CTest runs every test program
# through qemu-aarch64-static -L <sysroot>
# (CMAKE_CROSSCOMPILING_EMULATOR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(MEMCAL_ARM64_TRIPLE aarch64-linux-gnu)
if(NOT MEMCAL_ARM64_SYSROOT)
  if(DEFINED ENV{MEMCAL_ARM64_SYSROOT})
    set(MEMCAL_ARM64_SYSROOT $ENV{MEMCAL_ARM64_SYSROOT})
  else()
    get_filename_component(MEMCAL_ARM64_SYSROOT
      "${CMAKE_CURRENT_LIST_DIR}/../build-arm64/sysroot" ABSOLUTE)
  endif()
endif()
# try_compile projects re-read this file: hand them the sysroot.
set(CMAKE_TRY_COMPILE_PLATFORM_VARIABLES MEMCAL_ARM64_SYSROOT)
if(NOT EXISTS "${MEMCAL_ARM64_SYSROOT}/usr/lib/${MEMCAL_ARM64_TRIPLE}/libc.so")
  message(FATAL_ERROR "no arm64 sysroot at ${MEMCAL_ARM64_SYSROOT}: run "
                      "scripts/arm64/sysroot (or set MEMCAL_ARM64_SYSROOT)")
endif()

find_program(MEMCAL_ARM64_CC ${MEMCAL_ARM64_TRIPLE}-gcc)
if(NOT MEMCAL_ARM64_CC)
  message(FATAL_ERROR "${MEMCAL_ARM64_TRIPLE}-gcc not found: install the "
                      "Debian package 'gcc-aarch64-linux-gnu'")
endif()
set(CMAKE_C_COMPILER ${MEMCAL_ARM64_CC})
set(CMAKE_SYSROOT ${MEMCAL_ARM64_SYSROOT})

# Libraries, headers and packages only from the sysroot; programs (the
# host's tools) only from the host.
set(CMAKE_FIND_ROOT_PATH ${MEMCAL_ARM64_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config: the sysroot's .pc files, paths prefixed with the sysroot.
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${MEMCAL_ARM64_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR}
    "${MEMCAL_ARM64_SYSROOT}/usr/lib/${MEMCAL_ARM64_TRIPLE}/pkgconfig:${MEMCAL_ARM64_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# The dynamic linker resolves libraries' own dependencies (libhwloc ->
# libudev, libcriterion -> libgit2 ...) inside the sysroot too.
set(CMAKE_EXE_LINKER_FLAGS_INIT
    "-Wl,-rpath-link,${MEMCAL_ARM64_SYSROOT}/usr/lib/${MEMCAL_ARM64_TRIPLE}:${MEMCAL_ARM64_SYSROOT}/lib/${MEMCAL_ARM64_TRIPLE}")

find_program(MEMCAL_QEMU_AARCH64 NAMES qemu-aarch64-static qemu-aarch64)
if(MEMCAL_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${MEMCAL_QEMU_AARCH64} -L ${MEMCAL_ARM64_SYSROOT})
endif()
