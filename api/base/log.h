/* log.h: structured logging, one JSON object per line on stderr. */
#ifndef API_LOG_H
#define API_LOG_H

enum log_level { LOG_DEBUG = 0, LOG_INFO, LOG_WARN, LOG_ERROR };

/*
 * Sets the lowest level written. Parses "debug", "info", "warn", "error"; returns 0,
 * or -1 (level unchanged) for any other name. Call before threads start.
 */
int log_set_level(const char *name);

/* True when a message of `lvl` would be written. */
int log_enabled(enum log_level lvl);

/*
 * Writes {"ts":..,"level":..,"msg":msg, k1:v1, ...} as one line on stderr. The variadic
 * part is pairs of `const char *` key and value, ended by a NULL key; values are
 * written as JSON strings (escaped; each byte that is not UTF-8 written as \ufffd, so a
 * line is valid UTF-8 JSON whatever the strings hold); a NULL value is skipped. A line is
 * at most 2 KiB: a longer value is cut short on a character's boundary. Thread-safe.
 */
void log_kv(enum log_level lvl, const char *msg, ...);

/*
 * Sets the request id that every line the calling thread writes carries (as
 * "request_id", right after "msg") until it is set again; NULL for none. The string is
 * borrowed: it must outlive its use (the HTTP layer sets it around each request's work).
 */
void log_set_request_id(const char *id);

/* The calling thread's request id (log_set_request_id), or NULL. */
const char *log_request_id(void);

#endif
