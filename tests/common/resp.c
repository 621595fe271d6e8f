/* resp.c: the answers of test requests (resp.h). */
#include "resp.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t resp_on_body(char *p, size_t size, size_t n, void *ud)
{
    struct resp *r = ud;
    size_t add = size * n;
    char *nb = realloc(r->body, r->len + add + 1);
    if (!nb) return 0;
    r->body = nb;
    memcpy(r->body + r->len, p, add);
    r->len += add;
    r->body[r->len] = '\0';
    return add;
}

/* Copies the value of header line `line` into `dst` if its name is `name`. */
static void take_header(const char *line, size_t len, const char *name, char *dst, size_t cap)
{
    size_t nl = strlen(name);
    if (len <= nl + 1 || strncasecmp(line, name, nl) != 0 || line[nl] != ':') return;
    const char *v = line + nl + 1;
    size_t vl = len - nl - 1;
    while (vl && (*v == ' ')) v++, vl--;
    while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' ')) vl--;
    if (vl >= cap) vl = cap - 1;
    memcpy(dst, v, vl);
    dst[vl] = '\0';
}

void resp_take_header(const char *p, size_t len, struct resp *r)
{
    take_header(p, len, "ETag", r->etag, sizeof r->etag);
    take_header(p, len, "Location", r->location, sizeof r->location);
    take_header(p, len, "Allow", r->allow, sizeof r->allow);
    take_header(p, len, "Content-Type", r->ctype, sizeof r->ctype);
    take_header(p, len, "Retry-After", r->retry_after, sizeof r->retry_after);
    take_header(p, len, "WWW-Authenticate", r->www_auth, sizeof r->www_auth);
    take_header(p, len, "X-Request-Id", r->request_id, sizeof r->request_id);
    take_header(p, len, "Cache-Control", r->cache, sizeof r->cache);
}

size_t resp_on_header(char *p, size_t size, size_t n, void *ud)
{
    resp_take_header(p, size * n, ud);
    return size * n;
}

struct curl_slist *resp_headers(const char *const *headers, int json_body)
{
    struct curl_slist *hl = NULL;
    int has_ct = 0;
    for (size_t i = 0; headers && headers[i]; i++) {
        hl = curl_slist_append(hl, headers[i]);
        if (strncasecmp(headers[i], "Content-Type:", 13) == 0) has_ct = 1;
    }
    if (json_body && !has_ct) hl = curl_slist_append(hl, "Content-Type: application/json");
    return curl_slist_append(hl, "Expect:");
}

void resp_request(CURL *c, const char *url, const char *method, const char *body,
                  struct curl_slist *hl)
{
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
}

void resp_capture(CURL *c, curl_write_callback on_body, curl_write_callback on_header, void *ud,
                  long timeout_ms)
{
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, ud);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, ud);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
}

CURLcode resp_perform(CURL *c, struct resp *r)
{
    CURLcode rc = curl_easy_perform(c);
    if (rc == CURLE_OK) curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
    return rc;
}

void resp_parse(struct resp *r)
{
    if (!r->body) r->body = calloc(1, 1);
    r->json = cJSON_Parse(r->body);
}

void resp_free(struct resp *r)
{
    free(r->body);
    cJSON_Delete(r->json);
    memset(r, 0, sizeof *r);
}

const char *problem_code(const struct resp *r)
{
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(r->json, "code");
    return cJSON_IsString(c) ? c->valuestring : "";
}

long resp_done(struct resp *r, char *code, size_t cap)
{
    long st = r->status;
    snprintf(code, cap, "%s", problem_code(r));
    resp_free(r);
    return st;
}

int resp_abort_when(void *stop, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                    curl_off_t ulnow)
{
    (void)dltotal;
    (void)dlnow;
    (void)ultotal;
    (void)ulnow;
    return atomic_load((atomic_int *)stop) ? 1 : 0;
}

void resp_lines(struct resp_line *b, const char *p, size_t n,
                void (*on_line)(void *ctx, const char *line), void *ctx)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') {
            b->text[b->len] = '\0';
            on_line(ctx, b->text);
            b->len = 0;
        } else if (b->len + 1 < sizeof b->text) {
            b->text[b->len++] = p[i];
        }
    }
}
