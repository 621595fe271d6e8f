/* log.c: JSON lines on stderr. */
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static enum log_level min_level = LOG_INFO;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static const char *const level_names[] = {"debug", "info", "warn", "error"};

int log_set_level(const char *name)
{
    for (int i = 0; i < 4; i++) {
        if (strcmp(name, level_names[i]) == 0) {
            min_level = (enum log_level)i;
            return 0;
        }
    }
    return -1;
}

int log_enabled(enum log_level lvl)
{
    return lvl >= min_level;
}

/* Writes `s` as a JSON string literal. */
static void put_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(f, "\\u%04x", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

void log_kv(enum log_level lvl, const char *msg, ...)
{
    if (!log_enabled(lvl)) return;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char when[40];
    size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof when - n, ".%03ldZ", ts.tv_nsec / 1000000);

    pthread_mutex_lock(&log_lock);
    fprintf(stderr, "{\"ts\":\"%s\",\"level\":\"%s\",\"msg\":", when, level_names[lvl]);
    put_json_string(stderr, msg);
    va_list ap;
    va_start(ap, msg);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k) break;
        const char *v = va_arg(ap, const char *);
        if (!v) continue;
        fputc(',', stderr);
        put_json_string(stderr, k);
        fputc(':', stderr);
        put_json_string(stderr, v);
    }
    va_end(ap);
    fputs("}\n", stderr);
    fflush(stderr);
    pthread_mutex_unlock(&log_lock);
}
