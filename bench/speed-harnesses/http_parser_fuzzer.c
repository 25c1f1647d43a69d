/* libFuzzer entry for bench/speed (issue 24): http-parser ships no harness.
 * One input through a request-or-response parser with every callback set,
 * then through the URL parser: the library's two entry points. */
#include "http_parser.h"

#include <stddef.h>
#include <stdint.h>

static int on_event(http_parser *p) {
  (void)p;
  return 0;
}

static int on_data(http_parser *p, const char *at, size_t length) {
  (void)p, (void)at, (void)length;
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  http_parser_settings settings = {on_event, on_data, on_data, on_data, on_data,
                                   on_event, on_data, on_event, on_event, on_event};
  http_parser parser;
  struct http_parser_url url;
  http_parser_init(&parser, HTTP_BOTH);
  http_parser_execute(&parser, &settings, (const char *)data, size);
  http_parser_url_init(&url);
  http_parser_parse_url((const char *)data, size, 0, &url);
  return 0;
}
