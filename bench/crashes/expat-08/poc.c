#include <string.h>
#include <expat.h>

/* Serves the external DTD, and an empty document for the parameter entity. */
static int XMLCALL external(XML_Parser parser, const XML_Char *context,
                            const XML_Char *base, const XML_Char *systemId,
                            const XML_Char *publicId) {
  (void)base;
  (void)publicId;
  const char *text = strcmp(systemId, "ext.dtd") == 0
                         ? "<!ENTITY % pe SYSTEM 'empty'><!ENTITY ge '%pe;'>"
                         : "";
  XML_Parser sub = XML_ExternalEntityParserCreate(parser, context, NULL);
  if (sub == NULL)
    return XML_STATUS_ERROR;
  enum XML_Status status = XML_Parse(sub, text, (int)strlen(text), XML_TRUE);
  XML_ParserFree(sub);
  return status;
}

int main(void) {
  const char *doc = "<!DOCTYPE r SYSTEM 'ext.dtd'><r/>";
  XML_Parser parser = XML_ParserCreate(NULL);
  XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_ALWAYS);
  XML_SetExternalEntityRefHandler(parser, external);
  XML_Parse(parser, doc, (int)strlen(doc), XML_TRUE);
  XML_ParserFree(parser);
  return 0;
}
