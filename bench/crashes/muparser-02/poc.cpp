#include "muParserInt.h"

int main() {
  mu::ParserInt p;
  p.SetExpr(_T("(-2147483647-1)/-1"));  // INT_MIN / -1 does not fit in int
  try {
    p.Eval();
  } catch (mu::ParserError &) {
  }
  return 0;
}
