# The Debian package: `cpack -G DEB` in a build directory configured with
# -DCMAKE_INSTALL_PREFIX=/usr (scripts/package.sh configures, builds it and
# checks what it holds). It carries what `cmake --install` installs, under
# /usr: libweft.so in the multiarch library directory
# (lib/x86_64-linux-gnu), weftcc, the accelerator simulator's machine models,
# /etc/OpenCL/vendors/weft.icd naming the library, and the package's
# documents below.
#
# The configured prefix must be the package's: GNUInstallDirs gives the
# multiarch directory, as Debian's own CMake packages get it, only for /usr,
# and libweft has the machine models' installed directory compiled in
# (devices/accelsim). cpack stops when it is not (PackageCheck.cmake).

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_WEFT_CONFIGURED_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_WEFT_CHANGELOG "${CMAKE_CURRENT_LIST_DIR}/changelog.in")
set(CPACK_PROJECT_CONFIG_FILE "${CMAKE_CURRENT_LIST_DIR}/PackageCheck.cmake")
set(WEFT_PACKAGE_MAINTAINER "Weft maintainers <weft@invalid>" CACHE STRING
  "Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT "${WEFT_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "portable OpenCL 3.0 implementation for CPUs (ICD)")
# The synopsis is the summary above; cpack indents these lines.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "Weft runs OpenCL programs on the host CPU: a multi-threaded device and a
single-threaded one, OpenCL C kernels compiled by an LLVM 19 kernel
compiler. Applications reach it through the OpenCL ICD loader as the
platform named Weft. Includes weftcc, an offline compiler that writes
program binaries for clCreateProgramWithBinary.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_STRIP_FILES ON)

# dpkg-shlibdeps adds what libweft and weftcc link: libllvm19,
# libclang-cpp19, libhwloc15, libstdc++6, libgcc-s1, libc6, and through
# weftcc the ICD loader applications need (ocl-icd-libopencl1). Listed
# here is what it cannot see: libsleef.so.3, which the kernel JIT loads at
# run time for the vectorized math calls, and clang's OpenCL headers
# (opencl-c-base.h in /usr/lib/llvm-19/lib/clang/19/include), which every
# kernel build reads.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libsleef3, libclang-common-19-dev")
# SPIR-V programs go through llvm-spirv-15, run as a separate process;
# without it the devices simply offer no IL.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "llvm-spirv-15")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clinfo")
# The virtual packages of Debian's OpenCL implementations (pocl-opencl-icd
# provides the same), so that ocl-icd-libopencl1's "opencl-icd" is met.
set(CPACK_DEBIAN_PACKAGE_PROVIDES
  "opencl-icd, opencl-icd-1.1-1, opencl-icd-1.2-1, opencl-icd-3.0-1")
# The ICD file is configuration: dpkg keeps a changed one on upgrade.
# libweft.so sits in a directory ld.so searches, so ldconfig's cache is
# remade by libc-bin's trigger (Debian policy 8.1.1). cpack still adds its
# own postinst and postrm calling ldconfig for such a library and has no
# switch to leave them out; they are redundant, not wrong.
file(WRITE ${CMAKE_BINARY_DIR}/packaging/conffiles
  "/etc/OpenCL/vendors/weft.icd\n")
file(WRITE ${CMAKE_BINARY_DIR}/packaging/triggers
  "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  ${CMAKE_BINARY_DIR}/packaging/conffiles
  ${CMAKE_BINARY_DIR}/packaging/triggers)

# What every Debian package carries in /usr/share/doc/<package>: the
# copyright file and the changelog, compressed as dpkg-dev would (gzip -9n:
# no name, no time stamp, so the same input gives the same bytes). The
# changelog's top entry must be the package's version (PackageCheck.cmake);
# its trailer names the maintainer set above. weftcc's manual page too.
configure_file(${CMAKE_CURRENT_LIST_DIR}/changelog.in
  ${CMAKE_BINARY_DIR}/packaging/changelog @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/weftcc.1.in
  ${CMAKE_BINARY_DIR}/packaging/weftcc.1 @ONLY)
foreach(Document changelog weftcc.1)
  execute_process(COMMAND gzip -9n -c
    INPUT_FILE ${CMAKE_BINARY_DIR}/packaging/${Document}
    OUTPUT_FILE ${CMAKE_BINARY_DIR}/packaging/${Document}.gz
    RESULT_VARIABLE GzipStatus)
  if(NOT GzipStatus EQUAL 0)
    message(FATAL_ERROR "gzip -9n of packaging/${Document} failed: ${GzipStatus}")
  endif()
endforeach()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/copyright
  ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/weft)
install(FILES ${CMAKE_BINARY_DIR}/packaging/weftcc.1.gz
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

include(CPack)
