#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateNull());
    /* NULL new item before an existing one: newitem->next is written unchecked */
    cJSON_bool ok = cJSON_InsertItemInArray(a, 0, NULL);
    printf("%d\n", ok);
    cJSON_Delete(a);
    return 0;
}
