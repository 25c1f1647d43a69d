#include <json_tokener.h>

int main(void)
{
	/* A tokener with a maximum depth of 0 has an empty stack, yet it is reset at level 0. */
	struct json_tokener *tok = json_tokener_new_ex(0);
	if (tok)
		json_tokener_free(tok);
	return 0;
}
