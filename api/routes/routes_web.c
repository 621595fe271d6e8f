/*
 * routes_web.c: the reference web client (web/): GET / answers its index.html and GET
 * /web/{file} its other files. The files of WEB_DIR (one folder, no subfolders) are read
 * once at start-up into a table; a request is answered only from that table, by exact
 * name, so no path of a request ever reaches the file system (no traversal: "..", "%2F",
 * hidden files and names of other shapes are simply not in the table). Each file has an
 * ETag (a hash of its bytes); If-None-Match with it answers 304, and Cache-Control
 * no-cache has browsers ask again each time. One subfolder is read too, WEB_DIR/i18n (the
 * page's word tables, GET /web/i18n/{file}): its files are in the table as "i18n/<name>",
 * a name no request to /web/{file} can give (a segment holds no '/').
 *
 * The page (index.html) talks to its own origin's API, or to one of the origins the
 * operator lists in WEB_API_ORIGINS, never to one a link names (docs/clients.md "The web client"):
 * its answer carries a Content-Security-Policy whose connect-src is exactly those, and
 * the list is written into the page's <meta name="tilehall-api-origins"> at start-up,
 * where web/api.js reads which ?api= it may follow.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cors.h"
#include "log.h"
#include "problem.h"
#include "routes.h"

#define WEB_MAX_FILES 64                /* files served at most */
#define WEB_MAX_BYTES (2 * 1024 * 1024) /* bytes of one file at most */
#define WEB_NAME_MAX  64                /* a file's name, with its NUL */
#define WEB_SUBDIR    "i18n"            /* the one subfolder served (the word tables) */

struct web_file {
    char name[WEB_NAME_MAX +
              sizeof WEB_SUBDIR]; /* its name in WEB_DIR ("i18n/x" in the subfolder) */
    const char *type;             /* its Content-Type (static) */
    char *data;                   /* its bytes (malloc) */
    size_t len;                   /* bytes in data */
    char etag[24];                /* a quoted hash of its bytes */
};

static struct web_file files[WEB_MAX_FILES]; /* read at start-up, never changed after */
static size_t nfiles;                        /* entries in files */

/* The page's meta element that web/api.js reads the further API origins from; at start-up
 * its empty content becomes WEB_API_ORIGINS's list, separated by spaces. */
#define WEB_ORIGINS_META     "<meta name=\"tilehall-api-origins\" content=\""
#define WEB_ORIGINS_META_END "\">"

/* The page's Content-Security-Policy: its own files only, requests (fetch, EventSource) to
 * its own origin and WEB_API_ORIGINS's, images its own or data: (the empty icon), no
 * plugins, no <base>, forms to itself, framed by no page (clickjacking of Resign, Abort). */
static char page_csp[160 + CORS_MAX_ORIGINS * CORS_ORIGIN_MAX];
static char page_origins[CORS_MAX_ORIGINS * CORS_ORIGIN_MAX]; /* WEB_API_ORIGINS, by spaces */

struct web_type {
    const char *ext;  /* the name's ending */
    const char *type; /* its Content-Type */
};

static const struct web_type types[] = {
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".svg", "image/svg+xml"},
    {".png", "image/png"},
    {".json", "application/json"},
    {".ico", "image/x-icon"},
    {".txt", "text/plain; charset=utf-8"},
};

/* The Content-Type of a file named `name`, or NULL when the web client serves no such kind. */
static const char *web_type_of(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        size_t e = strlen(types[i].ext);
        if (n > e && strcmp(name + n - e, types[i].ext) == 0) return types[i].type;
    }
    return NULL;
}

/* 1 when `name` may be served: a letter or digit first, then letters, digits, '.', '-',
 * '_', shorter than WEB_NAME_MAX. */
static int web_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= WEB_NAME_MAX) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && (i == 0 || (c != '.' && c != '-' && c != '_'))) return 0;
    }
    return strstr(name, "..") == NULL;
}

/* Sets f->etag: a hash (FNV-1a) of the file's bytes, quoted. */
static void web_etag(struct web_file *f)
{
    uint64_t h = 14695981039346656037ULL; /* FNV-1a */
    for (size_t i = 0; i < f->len; i++) h = (h ^ (unsigned char)f->data[i]) * 1099511628211ULL;
    snprintf(f->etag, sizeof f->etag, "\"%016llx\"", (unsigned long long)h);
}

/* Reads the file `name` of `dir` into `f`, named `prefix` `name` in the table. Returns 0, 1 to skip
 * it (not a regular file, too large), or -1 when out of memory. */
static int web_read(const char *dir, const char *name, const char *prefix, struct web_file *f)
{
    char path[4096];
    int w = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (w < 0 || (size_t)w >= sizeof path) return 1;
    int rc = 1;
    FILE *in = fopen(path, "rb");
    if (!in) return 1;
    char *data = malloc(WEB_MAX_BYTES + 1);
    if (!data) {
        rc = -1;
        goto out;
    }
    size_t len = fread(data, 1, WEB_MAX_BYTES + 1, in);
    if (ferror(in) || len > WEB_MAX_BYTES) {
        log_kv(LOG_WARN, "web client file not served (unreadable or over 2 MiB)", "file", path,
               NULL);
        goto out;
    }
    snprintf(f->name, sizeof f->name, "%s%s", prefix, name);
    f->type = web_type_of(name);
    f->data = data;
    f->len = len;
    web_etag(f);
    data = NULL;
    rc = 0;
out:
    free(data);
    fclose(in);
    return rc;
}

/* Builds page_csp and page_origins from WEB_API_ORIGINS (checked by cfg_load). 0 or -1. */
static int web_policy(const char *spec)
{
    struct cors_config list = {0};
    char err[256];
    if (spec && *spec && (cors_parse(spec, &list, err, sizeof err) || list.any)) return -1;
    size_t o = 0;
    page_origins[0] = '\0';
    for (size_t i = 0; i < list.n; i++) {
        int w = snprintf(page_origins + o, sizeof page_origins - o, "%s%s", i ? " " : "",
                         list.origins[i]);
        if (w < 0 || (size_t)w >= sizeof page_origins - o) return -1;
        o += (size_t)w;
    }
    int w = snprintf(page_csp, sizeof page_csp,
                     "default-src 'self'; connect-src 'self'%s%s; img-src 'self' data:; "
                     "object-src 'none'; base-uri 'none'; form-action 'self'; "
                     "frame-ancestors 'none'",
                     o ? " " : "", page_origins);
    return w < 0 || (size_t)w >= sizeof page_csp ? -1 : 0;
}

/* Writes page_origins into the page `f`'s WEB_ORIGINS_META (its content is empty in the
 * file). 0, or -1 when out of memory; a page without the element is left as it is (and
 * logged: the page then follows no ?api= but its own origin's). */
static int web_fill_origins(struct web_file *f)
{
    if (!page_origins[0]) return 0;
    const char *at = NULL;
    size_t ml = strlen(WEB_ORIGINS_META WEB_ORIGINS_META_END);
    for (size_t i = 0; !at && i + ml <= f->len; i++)
        if (memcmp(f->data + i, WEB_ORIGINS_META WEB_ORIGINS_META_END, ml) == 0) at = f->data + i;
    if (!at) {
        log_kv(LOG_WARN, "index.html has no tilehall-api-origins meta; WEB_API_ORIGINS unused",
               NULL);
        return 0;
    }
    size_t head = (size_t)(at - f->data) + strlen(WEB_ORIGINS_META), ol = strlen(page_origins);
    char *data = malloc(f->len + ol + 1);
    if (!data) return -1;
    memcpy(data, f->data, head);
    memcpy(data + head, page_origins, ol);
    memcpy(data + head + ol, f->data + head, f->len - head);
    free(f->data);
    f->data = data;
    f->len += ol;
    web_etag(f);
    return 0;
}

/* Reads the servable files of `dir` into the table, each named `prefix` and its name.
 * Returns 0 (also when the folder cannot be opened: `missing` is then logged), or -1 when
 * out of memory. */
static int web_read_dir(const char *dir, const char *prefix, const char *missing)
{
    DIR *d = opendir(dir);
    if (!d) {
        log_kv(LOG_WARN, missing, "dir", dir, NULL);
        return 0;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!web_name_ok(e->d_name) || !web_type_of(e->d_name)) continue;
        if (nfiles == WEB_MAX_FILES) {
            log_kv(LOG_WARN, "the web client's folder has too many files; some are not served",
                   "dir", dir, NULL);
            break;
        }
        int r = web_read(dir, e->d_name, prefix, &files[nfiles]);
        if (r == 0 && !*prefix && strcmp(e->d_name, "index.html") == 0 &&
            web_fill_origins(&files[nfiles])) {
            free(files[nfiles].data);
            r = -1;
        }
        if (r < 0) {
            log_kv(LOG_ERROR, "out of memory reading the web client", "dir", dir, NULL);
            rc = -1;
            break;
        }
        if (r == 0) nfiles++;
    }
    closedir(d);
    return rc;
}

int routes_web_init(const struct cfg *cfg)
{
    if (web_policy(cfg->web_api_origins)) {
        log_kv(LOG_ERROR, "WEB_API_ORIGINS is not a list of origins", NULL);
        return -1;
    }
    char sub[4096];
    int w = snprintf(sub, sizeof sub, "%s/" WEB_SUBDIR, cfg->web_dir);
    int rc = web_read_dir(cfg->web_dir, "", "cannot open the web client's folder; / answers 404");
    if (!rc && nfiles && w > 0 && (size_t)w < sizeof sub)
        rc = web_read_dir(sub, WEB_SUBDIR "/",
                          "the web client has no word tables (i18n); the page cannot start");
    if (rc) routes_web_free();
    return rc;
}

void routes_web_free(void)
{
    for (size_t i = 0; i < nfiles; i++) free(files[i].data);
    memset(files, 0, sizeof files);
    nfiles = 0;
}

/* 1 when the If-None-Match header `inm` names `etag` (or is "*"). */
static int web_not_modified(const char *inm, const char *etag)
{
    if (!inm) return 0;
    while (*inm == ' ') inm++;
    return strcmp(inm, "*") == 0 || strstr(inm, etag) != NULL;
}

/* Answers the file `name` of the table, or 404. */
static void web_serve(const struct api_request *req, struct api_response *resp, const char *name)
{
    const struct web_file *f = NULL;
    for (size_t i = 0; name && i < nfiles; i++)
        if (strcmp(files[i].name, name) == 0) f = &files[i];
    if (!f) {
        problem_reply(resp, 404, "not_found", "The web client has no such file.");
        return;
    }
    snprintf(resp->etag, sizeof resp->etag, "%s", f->etag);
    resp->cache_control = "no-cache";
    if (strcmp(f->name, "index.html") == 0) resp->csp = page_csp;
    if (web_not_modified(req->if_none_match, f->etag)) {
        resp->status = 304;
        return;
    }
    api_reply_copy(resp, 200, f->type, f->data, f->len);
}

void routes_web_index(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    web_serve(req, resp, "index.html");
}

void routes_web_file(const struct api_request *req, struct api_response *resp, const char *file)
{
    web_serve(req, resp, file);
}

void routes_web_words(const struct api_request *req, struct api_response *resp, const char *file)
{
    char name[WEB_NAME_MAX + sizeof WEB_SUBDIR];
    int w = file ? snprintf(name, sizeof name, WEB_SUBDIR "/%s", file) : -1;
    web_serve(req, resp, w > 0 && (size_t)w < sizeof name ? name : NULL);
}
