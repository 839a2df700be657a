// glibc raises its mmap threshold each time a mapped chunk is freed (up to 32 MB), and each arena then keeps up to
// twice that of freed memory: after an isolate that filled its heap limit with array buffers is disposed, about
// 64 MB per isolate-thread arena stays resident (issue 14). fixMmapThreshold(bytes) fixes the threshold, as
// GLIBC_TUNABLES=glibc.malloc.mmap_threshold=<bytes> does at start-up, and puts the trim threshold back to twice it.
// Elsewhere (musl, macOS, Windows) there is no such setting: it does nothing and returns false.
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static napi_value fix_mmap_threshold(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  uint32_t bytes = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_uint32(env, argv[0], &bytes) != napi_ok || bytes == 0 || bytes > (1u << 29)) {
    napi_throw_type_error(env, NULL, "fixMmapThreshold takes a byte count from 1 to 2^29");
    return NULL;
  }
  bool fixed = false;
#if defined(__GLIBC__)
  fixed = mallopt(M_MMAP_THRESHOLD, (int)bytes) == 1 && mallopt(M_TRIM_THRESHOLD, (int)(2 * bytes)) == 1;
#endif
  napi_value result;
  napi_get_boolean(env, fixed, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value function;
  napi_create_function(env, "fixMmapThreshold", NAPI_AUTO_LENGTH, fix_mmap_threshold, NULL, &function);
  napi_set_named_property(env, exports, "fixMmapThreshold", function);
  return exports;
}
