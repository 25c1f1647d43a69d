#include <tommath.h>

int main(void)
{
	/* Shift 5 left by -1 bits: the bit count modulo MP_DIGIT_BIT becomes a huge unsigned shift. */
	mp_int a, c;
	if (mp_init_multi(&a, &c, NULL) != MP_OKAY)
		return 1;
	mp_set(&a, 5);
	mp_err err = mp_mul_2d(&a, -1, &c);
	mp_clear_multi(&a, &c, NULL);
	return err == MP_OKAY || err == MP_VAL ? 0 : 1;
}
