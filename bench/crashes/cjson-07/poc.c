#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *a = cJSON_CreateArray();
    cJSON *item = cJSON_CreateNull();
    /* item is not a child of a and has no prev: item->prev->next */
    cJSON *d = cJSON_DetachItemViaPointer(a, item);
    printf("%p\n", (void *)d);
    cJSON_Delete(item);
    cJSON_Delete(a);
    return 0;
}
