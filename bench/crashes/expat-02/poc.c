#include <expat.h>

int main(void) {
  XML_Parser parser = XML_ParserCreate(NULL);
  if (XML_GetBuffer(parser, 1024) == NULL)
    return 1;
  /* a negative length moves the buffer end before the buffer start */
  XML_ParseBuffer(parser, -1, XML_FALSE);
  /* growing the buffer now copies (end - ptr) == -1 bytes */
  XML_GetBuffer(parser, 4096);
  XML_ParserFree(parser);
  return 0;
}
