#include "muParserInt.h"

int main() {
  mu::ParserInt p;
  p.SetExpr(_T("1/0"));  // integer division by zero
  try {
    p.Eval();
  } catch (mu::ParserError &) {
  }
  return 0;
}
