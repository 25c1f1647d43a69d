#include <string.h>
#include <zlib.h>

int main(void) {
  z_stream s;
  memset(&s, 0, sizeof s);
  if (inflateInit2(&s, -15) != Z_OK)
    return 1;
  inflatePrime(&s, 16, 0);
  inflatePrime(&s, 16, 0); /* 32 bits held now */
  inflatePrime(&s, 0, 0);  /* shifts by state->bits == 32 */
  inflateEnd(&s);
  return 0;
}
