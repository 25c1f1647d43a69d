#include "muParserInt.h"

int main() {
  mu::ParserInt p;
  p.SetExpr(_T("8<<-1"));  // negative shift count
  try {
    p.Eval();
  } catch (mu::ParserError &) {
  }
  return 0;
}
