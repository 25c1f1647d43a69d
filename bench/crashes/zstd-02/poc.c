#define ZSTD_STATIC_LINKING_ONLY
#include <stdlib.h>
#include <zstd.h>

int main(void)
{
	/* In magicless format the starting input length is 1, but the magic number is still read. */
	unsigned char dst[64];
	unsigned char *src = calloc(2, 1);
	ZSTD_DCtx *d = ZSTD_createDCtx();
	ZSTD_DCtx_setParameter(d, ZSTD_d_format, ZSTD_f_zstd1_magicless);
	size_t r = ZSTD_decompressDCtx(d, dst, sizeof dst, src, 2);
	ZSTD_freeDCtx(d);
	free(src);
	return ZSTD_isError(r) ? 0 : 1;
}
