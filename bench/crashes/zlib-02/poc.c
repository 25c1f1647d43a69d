#include <zlib.h>

int main(void) {
  /* "T": transparent write, so deflateInit2 is never run on the stream */
  gzFile f = gzopen("/dev/null", "wT");
  if (f == NULL)
    return 1;
  gzwrite(f, "abc", 3);
  gzsetparams(f, 9, Z_DEFAULT_STRATEGY);
  gzclose(f);
  return 0;
}
