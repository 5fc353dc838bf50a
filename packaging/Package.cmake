# The Debian package: `cpack -G DEB` in the build directory (scripts/package.sh
# builds it and checks what it holds). It carries what `cmake --install`
# installs, under /usr: libweft.so, weftcc and /etc/OpenCL/vendors/weft.icd.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME weft)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
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
file(WRITE ${CMAKE_BINARY_DIR}/packaging/conffiles
  "/etc/OpenCL/vendors/weft.icd\n")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${CMAKE_BINARY_DIR}/packaging/conffiles)

include(CPack)
