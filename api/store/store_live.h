/* store_live.h: the connections that LISTEN for the commits' notifications
 * (store_live.c). */
#ifndef API_STORE_LIVE_H
#define API_STORE_LIVE_H

#include "store.h"

/* A connection that listens for STORE_EVENTS_CHANNEL notifications (not the thread's). */
struct store_listener;

/* Connects and LISTENs; NULL when the database is unreachable (logged). */
struct store_listener *store_listener_new(void);

/* The socket to poll for input. */
int store_listener_fd(const struct store_listener *l);

/*
 * Reads what arrived and calls fn(payload, arg) for each notification. Returns 0, or -1
 * when the connection is lost (free it and connect again).
 */
int store_listener_drain(struct store_listener *l, void (*fn)(const char *payload, void *arg),
                         void *arg) NODISCARD;

/* Checks the connection with a query (notifications that arrive meanwhile stay queued
 * for the next drain). Returns 0, or -1 when it is lost. */
int store_listener_ping(struct store_listener *l) NODISCARD;

/* A listener of STORE_JOBS_CHANNEL (the job workers'), else as store_listener_new(). */
struct store_listener *store_listener_new_jobs(void);

/* Closes the listener; NULL is fine. */
void store_listener_free(struct store_listener *l);

#endif
