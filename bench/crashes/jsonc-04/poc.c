#include <stdlib.h>
#include <strerror_override.h>

int main(void)
{
	/* With the override enabled, an unknown negative errno is printed digit by digit. */
	setenv("_JSON_C_STRERROR_ENABLE", "1", 1);
	char *s = _json_c_strerror(-5);
	return s ? 0 : 1;
}
