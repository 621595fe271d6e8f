/* load.h: clients that play many games at once against one or more servers, remembering
 * every action that was answered 2xx, for the race, crash and outage tests. */
#ifndef ITEST_LOAD_H
#define ITEST_LOAD_H

#include <pthread.h>
#include <stdatomic.h>

#include "tests.h"

#define LOAD_MAX_GAMES 256

/* An action answered 2xx: its game, the version it made and its events (JSON text). */
struct load_win {
    int game;     /* index into load.games */
    int version;  /* from the answer's ETag */
    char *events; /* the answer's "events" array, printed (malloc'd) */
};

/* A load: games, clients, and what they saw. */
struct load {
    const struct server *servers[4];   /* client i sends to servers[i % nservers] */
    int nservers;                      /* 1 to 4 */
    int ngames;                        /* games in games[] */
    struct game games[LOAD_MAX_GAMES]; /* created by load_games() */
    int clients;                       /* threads (at most 256) */
    int target_version;                /* a client leaves a game at this version (0: never) */
    int if_match_every;                /* send If-Match on all but every n-th action (0: always) */
    int mixed_reads;                   /* 1: also GET scores, events, placements between actions */
    int cutoffs_ok;                    /* 1: requests without an answer are expected (a kill) */
    atomic_int stop;                   /* set to end the load */
    pthread_mutex_t lock;              /* guards the fields below */
    struct load_win *wins;             /* every 2xx action */
    int nwins, capwins;
    long requests;            /* answered or not */
    long by_status[600];      /* answers by status (0: no answer) */
    long retry_after_missing; /* 503 or 429 answers without Retry-After */
    long long max_ms;         /* slowest answer */
    char first_odd[300];      /* the first answer of an unexpected status */
    long long last_2xx_ms;    /* when the last 2xx came */
    pthread_t threads[256];
    int running;    /* client threads started and not yet joined */
    int lock_ready; /* 1 once lock is initialised */
};

/* Creates `n` games of `body` (a printf format with one %d for a seed) on servers[0]. */
int load_games(struct load *l, int n, const char *body_fmt, char *why, size_t cap);

/* Starts l->clients client threads (l->lock initialised here). 0 or -1. */
int load_start(struct load *l);

/* Stops and joins the clients. */
void load_stop(struct load *l);

/* Frees what the load remembered. */
void load_free(struct load *l);

/*
 * Checks what the clients saw against the database: per game, every version answered
 * 2xx at most once and stored in the action log, the events of every 2xx answer stored
 * with the same seq and payload, and the game as stored equal to the replay of its log.
 * With `exact`, also that the action log holds nothing but the answered actions. 0 or -1.
 */
int load_verify(struct load *l, int exact, char *why, size_t cap);

#endif
