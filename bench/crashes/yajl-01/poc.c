#include <yajl/yajl_tree.h>

int main(void) {
  char err[256];
  /* a high surrogate escape followed by an escaped backslash, not by \u */
  yajl_val v = yajl_tree_parse("[\"\\ud800\\\\x\"]", err, sizeof err);
  yajl_tree_free(v);
  return 0;
}
