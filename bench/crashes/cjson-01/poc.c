#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    /* NULL item: the unpatched code reads object->type without a check */
    char *r = cJSON_SetValuestring(NULL, "test");
    printf("%p\n", (void *)r);
    return 0;
}
