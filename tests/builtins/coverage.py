#!/usr/bin/env python3
"""Every overload that Clang's opencl-c.h declares for what Weft's devices
claim is defined in the builtin library.

Clang dumps the AST of an empty OpenCL C file with the full default header,
once for OpenCL C 1.2 and once for 3.0, each with exactly the extensions and
optional features devices/cpu/CpuDriver.cpp claims; every function declared
(by mangled name) must be defined in each linked builtin bitcode (one per
x86-64 level). Optional features that are not claimed (pipes, device-side
enqueue, atomic scope all_devices) are simply not enabled, so opencl-c.h
declares none of their functions. With the generic address space claimed,
3.0's pointer builtins are the __generic ones (lib/kernel/generic.cl); 1.2's
are the named ones.

usage: coverage.py CLANG RESOURCE_DIR LLVM_NM BUILDPROGRAM_CPP BITCODE...
"""
import re
import subprocess
import sys

MANGLED = re.compile(r'^\s*"mangledName": "([^"]+)"', re.M)

# The extensions of devices/cpu/CpuDriver.cpp, as Clang's -cl-ext names them.
EXTENSIONS = ["cl_khr_fp64", "cl_khr_fp16", "cl_khr_byte_addressable_store",
              "cl_khr_global_int32_base_atomics",
              "cl_khr_global_int32_extended_atomics",
              "cl_khr_local_int32_base_atomics",
              "cl_khr_local_int32_extended_atomics",
              "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics",
              "cl_khr_3d_image_writes", "cl_khr_extended_bit_ops",
              "cl_khr_integer_dot_product", "cl_khr_subgroup_shuffle",
              "cl_khr_subgroup_shuffle_relative",
              "cl_khr_subgroup_clustered_reduce",
              "cl_khr_subgroup_extended_types",
              "cl_khr_subgroup_rotate", "cl_khr_subgroup_non_uniform_vote",
              "cl_khr_subgroup_ballot",
              "cl_khr_subgroup_non_uniform_arithmetic"]
# What clang does not know: -cl-ext drops them, so, as the front end does
# (lib/llvmopencl/FrontEnd/BuildProgram.cpp), their macros are defined explicitly.
UNKNOWN_TO_CLANG = ["cl_khr_extended_bit_ops", "cl_khr_integer_dot_product",
                    "cl_khr_subgroup_shuffle",
                    "cl_khr_subgroup_shuffle_relative",
                    "cl_khr_subgroup_clustered_reduce",
                    "cl_khr_subgroup_extended_types",
                    "cl_khr_subgroup_rotate", "cl_khr_subgroup_non_uniform_vote",
                    "cl_khr_subgroup_ballot",
                    "cl_khr_subgroup_non_uniform_arithmetic"]
# cl_khr_integer_dot_product's feature macros, which the front end defines
# in every OpenCL C version with the extension.
DOT_PRODUCT_FEATURES = ["__opencl_c_integer_dot_product_input_4x8bit",
                        "__opencl_c_integer_dot_product_input_4x8bit_packed"]
# The OpenCL C 3.0 optional features of devices/cpu/CpuDriver.cpp.
FEATURES = ["__opencl_c_int64", "__opencl_c_fp64",
            "__opencl_c_atomic_order_acq_rel",
            "__opencl_c_atomic_order_seq_cst",
            "__opencl_c_atomic_scope_device", "__opencl_c_images",
            "__opencl_c_read_write_images", "__opencl_c_3d_image_writes",
            "__opencl_c_work_group_collective_functions",
            "__opencl_c_program_scope_global_variables",
            "__opencl_c_generic_address_space", "__opencl_c_subgroups"]

# Declared but deliberately absent, each with why. Keep this list short and
# honest: an entry is a known gap, not a pass.
EXCLUDED_PATTERNS = [
    # opencl-c.h declares the depth image functions whenever images are
    # enabled (it defines cl_khr_depth_images itself), but the devices
    # claim neither cl_khr_depth_images nor any CL_DEPTH image format, so
    # no depth image can be created to pass to them.
    re.compile(r"_Z\d+\w+?\d+ocl_image2d_(array_)?depth_(ro|wo|rw)"),
]


def strings_in(source, function):
    """The string literals in the body of C++ function FUNCTION."""
    start = source.index(function + "(")
    end = source.index("\n}\n", start)
    return re.findall(r'"([^"]*)"', source[start:end])


def declared(clang, resource, std, names):
    args = [clang, "-cc1", "-triple", "x86_64-pc-linux-gnu", "-x", "cl",
            "-cl-std=" + std, "-finclude-default-header", "-internal-isystem",
            resource + "/include", "-ffake-address-space-map",
            "-cl-ext=-all," + ",".join("+" + n for n in names),
            "-fsyntax-only", "-ast-dump=json"]
    # As the front end does (lib/llvmopencl/FrontEnd/BuildProgram.cpp): opencl-c.h
    # tests some feature macros that Clang defines only for SPIR targets.
    if std == "CL3.0":
        args += ["-D%s=1" % f for f in FEATURES]
    args += ["-D%s=1" % n for n in names if n in UNKNOWN_TO_CLANG]
    if "cl_khr_integer_dot_product" in names:
        args += ["-D%s=1" % f for f in DOT_PRODUCT_FEATURES]
    args.append("/dev/null")
    dump = subprocess.run(args, check=True, capture_output=True,
                          text=True).stdout
    return set(MANGLED.findall(dump))


def symbols(nm, bitcode, kind):
    return set(subprocess.run([nm, kind, "--format=just-symbols", bitcode],
                              check=True, capture_output=True,
                              text=True).stdout.split())


def main():
    clang, resource, nm, build_program = sys.argv[1:5]
    # What the compiler resolves itself rather than the library
    # (lib/llvmopencl/FrontEnd/BuildProgram.cpp): work-item functions, barriers,
    # printf; and the host libm/SLEEF functions the JIT resolves.
    with open(build_program) as f:
        source = f.read()
    work_items = set(strings_in(source, "bool isWorkItemFunction"))
    barriers = tuple(strings_in(source, "bool isBarrier"))
    host_math = set(strings_in(source, "bool isHostMathFunction"))
    if not work_items or not barriers or not host_math:
        print("cannot read the compiler's function lists from", build_program)
        return 1
    compiler = lambda n: (n in work_items or n.startswith(barriers) or
                          n == "printf")

    wanted = (declared(clang, resource, "CL1.2", EXTENSIONS) |
              declared(clang, resource, "CL3.0", EXTENSIONS + FEATURES))
    excluded = {n for n in wanted
                if any(p.match(n) for p in EXCLUDED_PATTERNS)}
    lowered = {n for n in wanted if compiler(n)}
    failed = not wanted
    for bitcode in sys.argv[5:]:
        missing = sorted(wanted - excluded - lowered -
                         symbols(nm, bitcode, "--defined-only"))
        for name in missing:
            print("missing:", name)
        # Calls out of the library must be to something that resolves.
        unresolved = sorted(
            n for n in symbols(nm, bitcode, "--undefined-only")
            if not (compiler(n) or n in host_math or n.startswith("Sleef_")
                    or n.startswith("llvm.")))
        for name in unresolved:
            print("calls what nothing defines:", name)
        print("%s: %d overloads declared by opencl-c.h, %d resolved by the "
              "compiler, %d excluded, %d missing, %d unresolved calls" %
              (bitcode, len(wanted), len(lowered), len(excluded),
               len(missing), len(unresolved)))
        failed |= bool(missing) or bool(unresolved)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
