# Read by cpack before it builds a package (CPACK_PROJECT_CONFIG_FILE of
# Package.cmake): stops a Debian package that would not work or would
# contradict itself, with the reason, rather than let it be built.

if(CPACK_GENERATOR STREQUAL "DEB")
  # Installed under /usr, a tree configured for another prefix gives a
  # library in /usr/lib instead of the multiarch directory and a libweft
  # that looks for its machine models under that other prefix.
  if(NOT CPACK_WEFT_CONFIGURED_PREFIX STREQUAL CPACK_PACKAGING_INSTALL_PREFIX)
    message(FATAL_ERROR
      "the Debian package installs under ${CPACK_PACKAGING_INSTALL_PREFIX} "
      "but this build tree is configured for "
      "CMAKE_INSTALL_PREFIX=${CPACK_WEFT_CONFIGURED_PREFIX}: reconfigure it "
      "with -DCMAKE_INSTALL_PREFIX=${CPACK_PACKAGING_INSTALL_PREFIX} "
      "(scripts/package.sh does)")
  endif()
  # dpkg and lintian take the package's version from the changelog's top
  # entry too; a version bump needs an entry there.
  file(READ "${CPACK_WEFT_CHANGELOG}" Head LIMIT 100)
  string(REGEX MATCH "^weft \\(([^)]+)\\)" Top "${Head}")
  if(NOT CMAKE_MATCH_1 STREQUAL CPACK_PACKAGE_VERSION)
    message(FATAL_ERROR
      "the top entry of ${CPACK_WEFT_CHANGELOG} is for version "
      "'${CMAKE_MATCH_1}', not ${CPACK_PACKAGE_VERSION}: add one")
  endif()
endif()
