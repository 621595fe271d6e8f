/* req.c: small helpers on requests and answers. */
#include "req.h"

#include <stdlib.h>
#include <string.h>

#include "mono.h"

const char *api_query_get(const struct api_request *req, const char *name)
{
    for (size_t i = 0; i < req->nquery; i++)
        if (strcmp(req->query[i].name, name) == 0) return req->query[i].value;
    return NULL;
}

void api_reply_take(struct api_response *resp, int status, const char *content_type, char *body)
{
    free(resp->body);
    resp->status = body ? status : 500;
    resp->content_type = content_type;
    resp->body = body;
    resp->len = body ? strlen(body) : 0;
}

void api_reply_copy(struct api_response *resp, int status, const char *content_type,
                    const char *data, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy) {
        memcpy(copy, data, len);
        copy[len] = '\0';
    }
    api_reply_take(resp, status, content_type, copy);
    if (copy) resp->len = len;
}

long long api_now_ms(void)
{
    return mono_ms();
}

void *api_async_take(struct api_async *a)
{
    void *pending = a->pending;
    a->pending = NULL;
    a->cancel = NULL;
    return pending;
}
