/* migrate.c: finds and reads the migration files; store_db.c applies them. */
#include "migrate.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "store.h"

#define MAX_MIGRATIONS      256
#define MAX_MIGRATION_BYTES (1024 * 1024)

/* Reads the whole file `path` into a NUL-terminated heap string, or NULL. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc(MAX_MIGRATION_BYTES + 1);
    size_t n = buf ? fread(buf, 1, MAX_MIGRATION_BYTES + 1, f) : 0;
    int bad = ferror(f) || n > MAX_MIGRATION_BYTES;
    fclose(f);
    if (!buf || bad) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static int by_version(const void *a, const void *b)
{
    const struct store_migration *x = a, *y = b;
    return (x->version > y->version) - (x->version < y->version);
}

/* The version of a file name NNNN_*.sql, or -1 for any other name. */
static int file_version(const char *name)
{
    size_t len = strlen(name);
    if (len < 9 || strcmp(name + len - 4, ".sql") != 0 || name[4] != '_') return -1;
    int v = 0;
    for (int i = 0; i < 4; i++) {
        if (!isdigit((unsigned char)name[i])) return -1;
        v = v * 10 + (name[i] - '0');
    }
    return v;
}

int migrate_run(const char *dir)
{
    struct store_migration list[MAX_MIGRATIONS];
    size_t n = 0;
    int rc = -1;
    DIR *d = opendir(dir);
    if (!d) {
        log_kv(LOG_ERROR, "cannot open the migrations folder", "dir", dir, NULL);
        return -1;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int v = file_version(e->d_name);
        if (v < 0) continue;
        if (n == MAX_MIGRATIONS) {
            log_kv(LOG_ERROR, "too many migrations", "dir", dir, NULL);
            goto out;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        list[n].version = v;
        list[n].name = strdup(e->d_name);
        list[n].sql = read_file(path);
        n++;
        if (!list[n - 1].name || !list[n - 1].sql) {
            log_kv(LOG_ERROR, "cannot read a migration", "file", path, NULL);
            goto out;
        }
    }
    qsort(list, n, sizeof list[0], by_version);
    for (size_t i = 1; i < n; i++) {
        if (list[i].version == list[i - 1].version) {
            log_kv(LOG_ERROR, "two migrations share a number", "file", list[i].name, NULL);
            goto out;
        }
    }
    if (n == 0) {
        log_kv(LOG_ERROR, "no migrations found", "dir", dir, NULL);
        goto out;
    }
    enum store_status s = store_migrate(list, n);
    if (s != STORE_OK) {
        log_kv(LOG_ERROR, "migrations failed", NULL);
        goto out;
    }
    rc = 0;
out:
    closedir(d);
    for (size_t i = 0; i < n; i++) {
        free((char *)list[i].name);
        free((char *)list[i].sql);
    }
    return rc;
}
