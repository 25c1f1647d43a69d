#include <stdio.h>
#include <zlib.h>

int main(void) {
  /* 3 is not a zlib return code: ERR_MSG indexes z_errmsg[2 - 3] */
  const char *msg = zError(3);
  printf("%s\n", msg ? msg : "(null)");
  return 0;
}
