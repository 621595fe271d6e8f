/* connguard.h: deadlines for connections while their requests arrive (slow clients). */
#ifndef API_CONNGUARD_H
#define API_CONNGUARD_H

#include <stddef.h>

#include "nodiscard.h"

/*
 * libmicrohttpd 0.9.75 bounds a connection only by its idle time, which every byte
 * resets: a client that sends one byte now and then holds a connection for ever, and it
 * cannot answer while a request still arrives. The guard keeps a deadline for each
 * connection that is receiving (or waiting for) a request, and a thread of its own that
 * answers `408 request_timeout` on the socket of every connection past its deadline while a
 * request arrives, and shuts the socket down (the HTTP layer then sees the end and closes
 * it).
 *
 * The deadlines, with REQUEST_TIMEOUT = request_s and CONN_TIMEOUT = idle_s:
 * - a new connection: its first request whole (line, headers, body) within request_s of
 *   the accept (its first byte cannot come earlier);
 * - between requests (keep-alive): the next request line within idle_s of the last answer;
 * - a later request: whole within request_s of its request line.
 * While its answer is being made or sent (a handler, a long poll, a stream) a connection
 * has no deadline here.
 *
 * Under pressure (connguard_set_limit()): once the open connections reach
 * CONNGUARD_PRESSURE_PCT % of MAX_CONNECTIONS, a request still arriving gets
 * CONNGUARD_PRESSURE_REQUEST_MS instead of request_s; once they reach CONNGUARD_SHED_PCT %,
 * connections that have no complete request (new ones still arriving, idle keep-alive
 * ones) are closed, those of the address holding the most of them first and the oldest
 * first, until CONNGUARD_PRESSURE_PCT % are left, so that there is room for newcomers
 * (libmicrohttpd closes every connection past its limit at once).
 */

#define CONNGUARD_PRESSURE_PCT        75   /* % of MAX_CONNECTIONS: pressure, shed down to */
#define CONNGUARD_SHED_PCT            90   /* % of MAX_CONNECTIONS: shed waiting ones */
#define CONNGUARD_PRESSURE_REQUEST_MS 2000 /* a request's time to arrive under pressure */

struct sockaddr;

struct connguard; /* one connection's entry */

/*
 * Starts the guard's thread with the two timeouts in seconds; `answer` (`len` bytes, a
 * whole HTTP/1.1 response, copied) is what a connection past its deadline is sent before
 * its socket is shut down. Returns 0, or -1 (out of memory, or no thread could be
 * started; nothing to stop).
 */
int connguard_start(int request_s, int idle_s, const char *answer, size_t len) NODISCARD;

/* Stops the thread (after the HTTP layer closed every connection) and frees its answer. */
void connguard_stop(void);

/* Sets the server's MAX_CONNECTIONS, from which pressure is reckoned (0, the default: no
 * pressure handling). Call it before connections come. */
void connguard_set_limit(int max_connections);

/* Registers the connection of socket `fd` from `peer` (may be NULL), accepted now. NULL
 * when out of memory. */
struct connguard *connguard_open(int fd, const struct sockaddr *peer);

/* Unregisters `g` (may be NULL) and frees it: the socket is about to be closed. */
void connguard_close(struct connguard *g);

/* Its request line has arrived: the rest of the request has request_s from now (from
 * the accept for the first request). */
void connguard_request_line(struct connguard *g);

/* Its request has arrived whole, or is answered early: no deadline until the answer is done. */
void connguard_answering(struct connguard *g);

/* Its answer is done: it may wait idle_s for the next request line. */
void connguard_idle(struct connguard *g);

/* Connections the guard has timed out since it started. */
unsigned long long connguard_timeouts(void);

/* Connections the guard has closed under pressure (before their deadline) since it started. */
unsigned long long connguard_shed(void);

#endif
