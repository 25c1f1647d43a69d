#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *o = cJSON_CreateArray();
    cJSON *a = cJSON_CreateArray();
    cJSON *b = cJSON_CreateArray();
    cJSON_AddItemToArray(o, a);
    cJSON_AddItemToArray(a, b);
    cJSON_AddItemToArray(b, o); /* cycle: o -> a -> b -> o */
    cJSON *d = cJSON_Duplicate(o, 1);
    printf("%p\n", (void *)d);
    cJSON_DetachItemViaPointer(b, o); /* break the cycle before deleting */
    cJSON_Delete(o);
    return 0;
}
