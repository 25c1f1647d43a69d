#include <stdint.h>
#include <json_object.h>

int main(void)
{
	/* Adding INT64_MIN to an unsigned 64-bit integer object negates INT64_MIN. */
	struct json_object *o = json_object_new_uint64(100);
	json_object_int_inc(o, INT64_MIN);
	json_object_put(o);
	return 0;
}
