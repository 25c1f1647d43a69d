#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *a = cJSON_CreateArray();
    cJSON *item = cJSON_CreateNull();
    /* item is not in the (empty) array: parent->child is NULL */
    cJSON_bool ok = cJSON_ReplaceItemViaPointer(a, item, cJSON_CreateNull());
    printf("%d\n", ok);
    return 0;
}
