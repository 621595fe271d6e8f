/*
 * routes_web.c: the reference web client (web/): GET / answers its index.html and GET
 * /web/{file} its other files. The files of WEB_DIR (one folder, no subfolders) are read
 * once at start-up into a table; a request is answered only from that table, by exact
 * name, so no path of a request ever reaches the file system (no traversal: "..", "%2F",
 * hidden files and names of other shapes are simply not in the table). Each file has an
 * ETag (a hash of its bytes); If-None-Match with it answers 304, and Cache-Control
 * no-cache has browsers ask again each time.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "problem.h"
#include "routes.h"

#define WEB_MAX_FILES 64                /* files served at most */
#define WEB_MAX_BYTES (2 * 1024 * 1024) /* bytes of one file at most */
#define WEB_NAME_MAX  64                /* a file's name, with its NUL */

struct web_file {
    char name[WEB_NAME_MAX]; /* its name in WEB_DIR */
    const char *type;        /* its Content-Type (static) */
    char *data;              /* its bytes (malloc) */
    size_t len;              /* bytes in data */
    char etag[24];           /* a quoted hash of its bytes */
};

static struct web_file files[WEB_MAX_FILES]; /* read at start-up, never changed after */
static size_t nfiles;                        /* entries in files */

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

/* Reads the file `name` of `dir` into `f`. Returns 0, 1 to skip it (not a regular file,
 * too large), or -1 when out of memory. */
static int web_read(const char *dir, const char *name, struct web_file *f)
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
    uint64_t h = 14695981039346656037ULL; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)data[i]) * 1099511628211ULL;
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->etag, sizeof f->etag, "\"%016llx\"", (unsigned long long)h);
    f->type = web_type_of(name);
    f->data = data;
    f->len = len;
    data = NULL;
    rc = 0;
out:
    free(data);
    fclose(in);
    return rc;
}

int routes_web_init(const struct cfg *cfg)
{
    DIR *d = opendir(cfg->web_dir);
    if (!d) {
        log_kv(LOG_WARN, "cannot open the web client's folder; / answers 404", "dir", cfg->web_dir,
               NULL);
        return 0;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!web_name_ok(e->d_name) || !web_type_of(e->d_name)) continue;
        if (nfiles == WEB_MAX_FILES) {
            log_kv(LOG_WARN, "the web client's folder has too many files; some are not served",
                   "dir", cfg->web_dir, NULL);
            break;
        }
        int r = web_read(cfg->web_dir, e->d_name, &files[nfiles]);
        if (r < 0) {
            log_kv(LOG_ERROR, "out of memory reading the web client", "dir", cfg->web_dir, NULL);
            rc = -1;
            break;
        }
        if (r == 0) nfiles++;
    }
    closedir(d);
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
