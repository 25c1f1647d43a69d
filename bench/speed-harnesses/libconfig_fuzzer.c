/* libFuzzer entry for bench/speed (issue 24): libconfig ships no harness.
 * One input, made a C string, read as a configuration and written back. */
#include "libconfig.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  config_t cfg;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  config_init(&cfg);
  if (config_read_string(&cfg, text) == CONFIG_TRUE) {
    FILE *sink = fopen("/dev/null", "w");
    if (sink) {
      config_write(&cfg, sink);
      fclose(sink);
    }
  }
  config_destroy(&cfg);
  free(text);
  return 0;
}
