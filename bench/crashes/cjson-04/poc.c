#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cJSON.h"

int main(void)
{
    /* exact-size heap buffer, no NUL: the object ends right after a comma */
    char *b = malloc(7);
    memcpy(b, "{\"1\":1,", 7);
    cJSON *j = cJSON_ParseWithLength(b, 7);
    printf("%p\n", (void *)j);
    cJSON_Delete(j);
    free(b);
    return 0;
}
