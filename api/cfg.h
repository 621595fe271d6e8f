/* cfg.h: the server's configuration, read from the environment. */
#ifndef API_CFG_H
#define API_CFG_H

struct cfg {
    int port;                   /* PORT: TCP port to serve on (default 8080) */
    int threads;                /* THREADS: HTTP worker threads = DB connections (default 4) */
    int max_connections;        /* MAX_CONNECTIONS: open HTTP connections (default 1000) */
    int conn_timeout;           /* CONN_TIMEOUT: idle seconds before a close (default 90) */
    const char *database_url;   /* DATABASE_URL: libpq connection string (required) */
    const char *log_level;      /* LOG_LEVEL: debug, info, warn, error (default info) */
    const char *migrations_dir; /* MIGRATIONS_DIR: the numbered SQL files (default migrations) */
    const char *openapi_file;   /* OPENAPI_FILE: served at /openapi.yaml (default openapi.yaml) */
};

/*
 * Fills `c` from the environment (pointers point into the environment, which must
 * outlive `c`). Returns 0, or -1 after writing what is wrong to `err` (size `errlen`).
 */
int cfg_load(struct cfg *c, char *err, int errlen) __attribute__((warn_unused_result));

#endif
