#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *s = cJSON_CreateString("x");
    /* NULL new value: strlen(NULL) in the unpatched code */
    char *r = cJSON_SetValuestring(s, NULL);
    printf("%p\n", (void *)r);
    cJSON_Delete(s);
    return 0;
}
