#include <tommath.h>

int main(void)
{
	/* 2**-60: b / MP_DIGIT_BIT is -1, so the bit is stored at a.dp[-1]. */
	mp_int a;
	if (mp_init(&a) != MP_OKAY)
		return 1;
	mp_err err = mp_2expt(&a, -MP_DIGIT_BIT);
	mp_clear(&a);
	return err == MP_OKAY || err == MP_VAL ? 0 : 1;
}
