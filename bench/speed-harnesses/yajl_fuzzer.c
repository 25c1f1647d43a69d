/* libFuzzer entry for bench/speed (issue 24): yajl ships no harness. One
 * input through a parse handle with no callbacks (comments allowed), then
 * the end of the document. */
#include <yajl/yajl_parse.h>

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  yajl_handle h = yajl_alloc(NULL, NULL, NULL);
  if (!h) return 0;
  yajl_config(h, yajl_allow_comments, 1);
  if (yajl_parse(h, data, size) == yajl_status_ok) yajl_complete_parse(h);
  yajl_free(h);
  return 0;
}
