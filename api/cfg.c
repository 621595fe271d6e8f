/* cfg.c: configuration from the environment. */
#include "cfg.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

/* Reads integer variable `name` in [lo, hi] into *out (default `def` when unset). */
static int env_int(const char *name, int def, int lo, int hi, int *out, char *err, int errlen)
{
    const char *s = getenv(name);
    if (!s || !*s) {
        *out = def;
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < lo || v > hi) {
        snprintf(err, (size_t)errlen, "%s must be an integer from %d to %d, not \"%s\"", name, lo,
                 hi, s);
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* The value of `name`, or `def` when unset or empty. */
static const char *env_str(const char *name, const char *def)
{
    const char *s = getenv(name);
    return s && *s ? s : def;
}

int cfg_load(struct cfg *c, char *err, int errlen)
{
    if (env_int("PORT", 8080, 0, 65535, &c->port, err, errlen) ||
        env_int("THREADS", 4, 1, 256, &c->threads, err, errlen) ||
        env_int("MAX_CONNECTIONS", 1000, 4, 100000, &c->max_connections, err, errlen) ||
        env_int("CONN_TIMEOUT", 90, 65, 3600, &c->conn_timeout, err, errlen))
        return -1;
    c->database_url = env_str("DATABASE_URL", NULL);
    if (!c->database_url) {
        snprintf(err, (size_t)errlen, "DATABASE_URL is not set (make run sets one up)");
        return -1;
    }
    c->log_level = env_str("LOG_LEVEL", "info");
    if (log_set_level(c->log_level)) {
        snprintf(err, (size_t)errlen, "LOG_LEVEL must be debug, info, warn or error, not \"%s\"",
                 c->log_level);
        return -1;
    }
    c->migrations_dir = env_str("MIGRATIONS_DIR", "migrations");
    c->openapi_file = env_str("OPENAPI_FILE", "openapi.yaml");
    return 0;
}
