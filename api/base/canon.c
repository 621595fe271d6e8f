/* canon.c: canonical JSON on top of cJSON (parse, sort the keys of every object, print). */
#include "canon.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/* qsort order of object members: by key, bytewise. */
static int by_key(const void *a, const void *b)
{
    const cJSON *x = *(const cJSON *const *)a, *y = *(const cJSON *const *)b;
    return strcmp(x->string, y->string);
}

/* Sorts the members of every object under `v` (depth first). Returns 0, or -1 without memory. */
static int sort_keys(cJSON *v)
{
    size_t n = 0;
    for (cJSON *c = v->child; c; c = c->next) {
        if (sort_keys(c)) return -1;
        n++;
    }
    if (!cJSON_IsObject(v) || n < 2) return 0;
    cJSON **m = malloc(n * sizeof *m);
    if (!m) return -1;
    size_t i = 0;
    for (cJSON *c = v->child; c; c = c->next) m[i++] = c;
    qsort(m, n, sizeof *m, by_key);
    /* Relink as cJSON keeps a list: the head's prev is the last item, the last's next NULL. */
    for (i = 0; i < n; i++) {
        m[i]->prev = i ? m[i - 1] : m[n - 1];
        m[i]->next = i + 1 < n ? m[i + 1] : NULL;
    }
    v->child = m[0];
    free(m);
    return 0;
}

int canon_json(const char *body, size_t len, char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n'))
        i++;
    if (i == len) {
        *out = strdup("{}");
        if (!*out) return -1;
        *out_len = 2;
        return 0;
    }
    const char *end = NULL;
    cJSON *v = cJSON_ParseWithLengthOpts(body, len, &end, 0);
    if (!v) return -1;
    /* Only whitespace may follow the value. */
    for (const char *p = end; p && p < body + len; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            cJSON_Delete(v);
            return -1;
        }
    }
    char *text = sort_keys(v) ? NULL : cJSON_PrintUnformatted(v);
    cJSON_Delete(v);
    if (!text) return -1;
    *out = text;
    *out_len = strlen(text);
    return 0;
}
