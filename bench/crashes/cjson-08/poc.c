#include <stdio.h>
#include "cJSON.h"

int main(void)
{
    cJSON *s = cJSON_CreateString("abcdef");
    /* the new value overlaps the old one: strcpy with overlapping buffers */
    char *r = cJSON_SetValuestring(s, s->valuestring + 1);
    printf("%s\n", r ? r : "(null)");
    cJSON_Delete(s);
    return 0;
}
