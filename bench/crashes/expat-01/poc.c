#include <stdlib.h>
#include <expat.h>

/* zero-filled allocations, as a fresh heap gives without ASan's malloc fill */
static void *zero_malloc(size_t size) { return calloc(1, size); }

int main(void) {
  XML_Memory_Handling_Suite mm = {zero_malloc, realloc, free};
  XML_Parser parser = XML_ParserCreate_MM(NULL, &mm, NULL);
  /* allocate a buffer but never parse anything */
  if (XML_GetBuffer(parser, 1) == NULL)
    return 1;
  /* suspend a parser that was never started, then resume it */
  XML_StopParser(parser, XML_TRUE);
  XML_ResumeParser(parser);
  XML_ParserFree(parser);
  return 0;
}
