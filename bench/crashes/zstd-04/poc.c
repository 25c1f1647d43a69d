#define ZSTD_STATIC_LINKING_ONLY
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

static void *failing_alloc(void *opaque, size_t size) { (void)opaque; (void)size; return NULL; }
static void plain_free(void *opaque, void *p) { (void)opaque; free(p); }

int main(void)
{
	/* The dictionary's workspace allocation fails; the NULL CDict is then initialized. */
	char dict[1000];
	memset(dict, 'a', sizeof dict);
	ZSTD_customMem mem = { failing_alloc, plain_free, NULL };
	ZSTD_CCtx_params *p = ZSTD_createCCtxParams();
	ZSTD_CDict *cd = ZSTD_createCDict_advanced2(dict, sizeof dict, ZSTD_dlm_byCopy, ZSTD_dct_auto, p, mem);
	ZSTD_freeCDict(cd);
	ZSTD_freeCCtxParams(p);
	return cd == NULL ? 0 : 1;
}
