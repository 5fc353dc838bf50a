// A syntax error on line 4 (the missing semicolon): weftcc must exit 1 and
// print the build log, naming this file and line, on stderr.
__kernel void bad(__global int *out) {
  out[get_global_id(0)] = 1
}
