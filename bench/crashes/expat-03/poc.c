#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <expat.h>

#define DEPTH 50000

int main(void) {
  /* e0 is text, e(i) refers to e(i-1); the content references the last one */
  size_t cap = (size_t)DEPTH * 40 + 128, n = 0;
  char *doc = malloc(cap);
  if (doc == NULL)
    return 1;
  n += snprintf(doc + n, cap - n, "<!DOCTYPE r [<!ENTITY e0 'x'>");
  for (int i = 1; i < DEPTH; i++)
    n += snprintf(doc + n, cap - n, "<!ENTITY e%d '&e%d;'>", i, i - 1);
  snprintf(doc + n, cap - n, "]><r>&e%d;</r>", DEPTH - 1);

  XML_Parser parser = XML_ParserCreate(NULL);
  XML_Parse(parser, doc, (int)strlen(doc), XML_TRUE);
  XML_ParserFree(parser);
  free(doc);
  return 0;
}
