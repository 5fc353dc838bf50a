#!/usr/bin/env python3
"""Every half overload that Clang's opencl-c.h declares is in the builtin
library.

Clang dumps the AST of an empty OpenCL C file with its default header twice,
with and without cl_khr_fp16; the functions only the first declares are the
half overloads. Each must be defined in the linked builtin bitcode. Done for
OpenCL C 1.2 and for 3.0 with the image features the CPU devices claim (the
read_write image overloads). The subgroup functions are left out: Weft
claims no subgroup extension.

usage: half_coverage.py CLANG RESOURCE_DIR LLVM_NM BITCODE
"""
import re
import subprocess
import sys

MANGLED = re.compile(r'^\s*"mangledName": "([^"]+)"', re.M)


def declared(clang, resource, std, extensions):
    args = [clang, "-cc1", "-triple", "x86_64-pc-linux-gnu", "-x", "cl",
            "-cl-std=" + std, "-finclude-default-header", "-internal-isystem",
            resource + "/include", "-ffake-address-space-map",
            "-cl-ext=" + extensions, "-fsyntax-only", "-ast-dump=json",
            "/dev/null"]
    if std == "CL3.0":
        args.insert(-1, "-D__opencl_c_read_write_images=1")
    dump = subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout
    return set(MANGLED.findall(dump))


def main():
    clang, resource, nm, bitcode = sys.argv[1:5]
    common = {
        "CL1.2": "-all,+cl_khr_fp64",
        "CL3.0": "-all,+cl_khr_fp64,+__opencl_c_fp64,+__opencl_c_int64,"
                 "+__opencl_c_images,+__opencl_c_read_write_images,"
                 "+__opencl_c_3d_image_writes,+cl_khr_3d_image_writes",
    }
    wanted = set()
    for std, ext in common.items():
        wanted |= (declared(clang, resource, std, ext + ",+cl_khr_fp16") -
                   declared(clang, resource, std, ext))
    wanted = {n for n in wanted if "sub_group" not in n}
    symbols = subprocess.run([nm, "--defined-only", "--format=just-symbols",
                              bitcode], check=True, capture_output=True,
                             text=True).stdout.split()
    missing = sorted(wanted - set(symbols))
    for name in missing:
        print("missing:", name)
    print("%d half overloads declared by opencl-c.h, %d missing" %
          (len(wanted), len(missing)))
    return 1 if missing or not wanted else 0


if __name__ == "__main__":
    sys.exit(main())
