/* lobby.h: what the tests of open seats (t_lobby.c) and of the lobby's lists and joins by
 * seat (t_lobby_list.c) share: a game with open seats as created, joins, the game's
 * stored state compared before and after a refusal, and a thread of a race of joins. */
#ifndef ITEST_LOBBY_H
#define ITEST_LOBBY_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

/* A game with open seats as created: its seats' tokens and invites. */
struct lobby {
    struct game g;           /* id, seat tokens ("" for open and bound seats) */
    char invite[5][64];      /* the open seats' invites, "" for the others */
    char invite_url[5][160]; /* and their invite_url */
};

/* POST /v1/games `body` (with header `h`, may be NULL) into `l`: the status. */
long lobby_new(const struct server *srv, const char *body, const char *h, struct lobby *l,
               struct resp *keep);

/* POST `path` with `body` and header lines h1, h2 (NULL for none): status, code in `code`. */
long lobby_post(const struct server *srv, const char *path, const char *body, const char *h1,
                const char *h2, char *code, size_t cap, struct resp *keep);

/* POST /v1/games/{id}/join {"invite", "name"?} (name NULL: none) with header `h`. */
long lobby_join(const struct server *srv, const struct lobby *l, const char *invite,
                const char *name, const char *h, char *code, size_t cap, struct resp *keep);

/* POST /v1/games/{id}/join {"seat", "name"?} (name NULL: none) with header `h`. */
long lobby_join_seat(const struct server *srv, const struct lobby *l, int seat, const char *name,
                     const char *h, char *code, size_t cap, struct resp *keep);

/* The game's GET body (malloc'd) and, in the database, its version, events and seats as
 * one text: what a refusal must leave as it was. */
char *lobby_snapshot(const struct server *srv, const struct lobby *l);

/* Checks that `call` (a statement) leaves the game `l` as it was: GET body, version,
 * events, seats. */
#define UNCHANGED(l, call, ...)                                                                    \
    do {                                                                                           \
        char *before_ = lobby_snapshot(srv, l);                                                    \
        call;                                                                                      \
        char *after_ = lobby_snapshot(srv, l);                                                     \
        int same_ = before_ && after_ && strcmp(before_, after_) == 0;                             \
        free(before_);                                                                             \
        free(after_);                                                                              \
        CHECK(same_, __VA_ARGS__);                                                                 \
    } while (0)

/* A thread of a race: one join (by invite, or by seat number), its status. */
struct lobby_racer {
    const struct server *srv;
    const struct lobby *l;
    const char *invite; /* the invite, or NULL: by seat */
    int seat;           /* with no invite: the seat asked for */
    char name[16];
    pthread_barrier_t *go;
    const char *auth; /* a player token's header: join as that player (no name) */
    long status;
    char code[64];
};

/* Runs the join of `arg` (a struct lobby_racer) once every racer is at the barrier. */
void *lobby_racer_run(void *arg);

#define LOBBY_RACERS_MAX 8 /* racers of one lobby_race at most */

/* Races the joins of rs[0 .. n-1] (n <= LOBBY_RACERS_MAX; each filled but for `go`): all
 * sent at once. Returns the index of the one that took the seat (200), or -1 when none or
 * several did; *lost counts those refused with `lost_status` and `lost_code`. */
int lobby_race(struct lobby_racer *rs, int n, long lost_status, const char *lost_code, int *lost);

/* 1 when game `l` (of two seats) is active with `name` at seat 1, one game_started event
 * and one join stored (version 2): the race for its open seat had one winner. */
int lobby_won_by(const struct server *srv, const struct lobby *l, const char *name);

#endif
