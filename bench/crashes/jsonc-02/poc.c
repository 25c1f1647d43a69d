#include <json_tokener.h>

int main(void)
{
	/* Freeing a NULL tokener, as with free(NULL). */
	json_tokener_free(NULL);
	return 0;
}
