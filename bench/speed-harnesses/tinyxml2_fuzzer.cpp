// libFuzzer entry for bench/speed (issue 24): tinyxml2 ships no harness.
// One input parsed as a document and printed back.
#include "tinyxml2.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tinyxml2::XMLDocument doc;
  doc.Parse(reinterpret_cast<const char *>(data), size);
  tinyxml2::XMLPrinter printer;
  doc.Print(&printer);
  return 0;
}
