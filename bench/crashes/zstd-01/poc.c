#define ZSTD_STATIC_LINKING_ONLY
#include <stdlib.h>
#include <zstd.h>

int main(void)
{
	/* A 2-byte input is too short for a skippable-frame header; its magic number is read first. */
	unsigned char dst[16];
	unsigned char *src = calloc(2, 1);
	size_t r = ZSTD_readSkippableFrame(dst, sizeof dst, NULL, src, 2);
	free(src);
	return ZSTD_isError(r) ? 0 : 1;
}
