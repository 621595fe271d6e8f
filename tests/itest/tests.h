/* tests.h: the list of integration tests and helpers shared by the test files. */
#ifndef ITEST_TESTS_H
#define ITEST_TESTS_H

#include "itest.h"

struct itest {
    const char *name;               /* printed with its result */
    void (*fn)(struct server *srv); /* records a failure through CHECK */
    int solo;                       /* 1: ITEST_SOLO, runs with no other test beside it */
};

/*
 * An integration test is one edit: a function defined with ITEST in any tests/itest/t_*.c,
 *
 *     ITEST(test_thing, "thing: what it proves")
 *     {
 *         ... CHECK(...) ...
 *     }
 *
 * tests/itest/list.awk finds every ITEST line (a new t_*.c file included) and writes the
 * table of tests (build/gen/itest_list.c): files in name order, tests in file order; the
 * runner runs them in that order, `make test-itest ITEST_FILTER=word` those whose title
 * holds the word. The title is one string literal on the ITEST line.
 */
#define ITEST(fn, title) void fn(struct server *srv)

/*
 * A test that touches what every test shares (it stops or restarts the test PostgreSQL),
 * or whose bounds are latencies under a load it makes itself (which another test beside it
 * would stretch), is defined with ITEST_SOLO instead: the runner runs the solo tests one by one
 * before the others, which it may run in parallel workers (ITEST_JOBS, see itest.c).
 */
#define ITEST_SOLO(fn, title) void fn(struct server *srv)

/* A webhook URL that must never be answered points at 127.0.9.9:9 (nothing listens there),
 * never at 127.0.0.1, where the tests' receivers listen: the server's circuit breaker and
 * transfer limits hold per host and per address, so failures piling up there would have
 * the receivers of every later test skipped. */

extern const struct itest itest_tests[]; /* every ITEST, in order (build/gen/itest_list.c) */
extern const size_t itest_ntests;        /* how many */

/* A game created for a test. */
struct game {
    char id[64];        /* its id */
    int nplayers;       /* seats */
    char token[6][128]; /* the tokens by seat */
    char auth[6][160];  /* "Authorization: Bearer <token>" by seat */
};

/* What the replays of export_replay_same() played, over all games: actions by kind and
 * follow-up. */
struct export_tally {
    int games, actions, resigns, joins, followers, stables, hikes, withdrawals, hand_tiles;
    int figures;             /* placements that named a figure (the expansions') */
    size_t bytes_max;        /* the largest export */
    long long replay_ms_max; /* the slowest replay (POST to its answer) */
};

/* Exports finished game `id`, replays it (POST /v1/games {"replay"}), and compares: the new
 * game's state, scores, events, a past version and export equal the original's but for the
 * game's id (t_export.c). Counts into *t; 0, or -1 with `why`. */
int export_replay_same(const struct server *srv, const char *id, struct export_tally *t, char *why,
                       size_t cap);

/* Waits up to `limit_ms` for game `id` to be finished. 1 when it is (t_export.c). */
int game_wait_finished(const struct server *srv, const char *id, long limit_ms);

/* Creates a game from `body`; returns 0 or -1 (then `why` says what went wrong). */
int game_new(const struct server *srv, const char *body, struct game *g, char *why, size_t cap);
/* game_new with the NULL-terminated header lines `headers` (a player's token: the seats
 * bound to the player have no token of their own in `g`). */
int game_new_as(const struct server *srv, const char *body, const char *const *headers,
                struct game *g, char *why, size_t cap);

/* The create bodies of the picture tests (board.svg, board.png) after their first game:
 * hills with three seats, discovery with a name that must be escaped, classic with the River. */
#define PICTURE_GAMES                                                                              \
    "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"}],"     \
    "\"seed\":7}",                                                                                 \
        "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"A\"},{\"name\":\"<B&>\"}],\"seed\":"  \
        "8}",                                                                                      \
        "{\"ruleset\":\"classic\",\"options\":{\"river\":true},\"players\":[{\"name\":\"A\"},{"    \
        "\"name\":\"B\"}],\"seed\":9}"

/* Creates a game from `body` into `g` (a struct game *) for the test whose server is `srv`,
 * or fails the test (CHECK) with the reason. */
#define NEW_GAME(g, body)                                                                          \
    do {                                                                                           \
        char why_[300];                                                                            \
        CHECK(game_new(srv, body, g, why_, sizeof why_) == 0, "%s", why_);                         \
    } while (0)

/* A short classic deck of twelve tiles, a member of a create body (the start tile is D as
 * always): a game that ends soon. */
#define SHORT_DECK                                                                                 \
    "\"deck\":[\"A\",\"B\",\"C\",\"E\",\"F\",\"U\",\"V\",\"K\",\"L\",\"W\",\"X\",\"J\"]"

/* A player created for a test. */
struct person {
    char id[64];    /* its id */
    char auth[160]; /* "Authorization: Bearer <token>" */
};

/* Creates the player `name` on `srv` (POST /v1/players, its token of the documented shape)
 * into `p`; 0, or -1 with what went wrong in `why`. */
int person_new(const struct server *srv, const char *name, struct person *p, char *why, size_t cap);

/* The JSON body of GET `path` (caller deletes), or NULL unless it answered 200. */
cJSON *get_json(const struct server *srv, const char *path);
/* get_json with the NULL-terminated header lines `headers` (may be NULL), the status into
 * *status unless `status` is NULL. */
cJSON *get_json_as(const struct server *srv, const char *path, const char *const *headers,
                   long *status);

/* The value of the counter line `name` (with its labels and the space after them) in the
 * server's /metrics, or -1. */
long metric_count(const struct server *srv, const char *name);

/* board.png's counters in /metrics: pictures drawn, and answers from the cache. */
#define METRIC_PNG_RENDERED "tilehall_board_png_total{source=\"rendered\"} "
#define METRIC_PNG_CACHED   "tilehall_board_png_total{source=\"cache\"} "

/* The game's current JSON (caller deletes), or NULL. */
cJSON *game_get(const struct server *srv, const struct game *g);

/* Checks that GET `path` answers 404 not_found (records a failure otherwise). */
void expect_not_found(const struct server *srv, const char *path);

/* A create body and the code of the 400 it must get. */
struct create_refusal {
    const char *body; /* the body, or what `frame` puts into it */
    const char *code; /* the problem's code */
};

/* Checks that POST /v1/games answers each of the `n` `cases` 400 with its code, the body
 * being the case's put into the printf format `frame` (one %s; NULL: the case's as it is),
 * and that no game was stored (records a failure otherwise). */
void expect_create_refusals(const struct server *srv, const char *frame,
                            const struct create_refusal *cases, size_t n);

/* The game's version, or -1. */
int game_version(const struct server *srv, const struct game *g);

/* POSTs `body` (NULL: none) to /v1/games/{id}/`what` of `g` as seat `seat` (play.c). */
void game_post(const struct server *srv, const struct game *g, int seat, const char *what,
               const char *body, struct resp *r);

/* The first placement listed for game `g` (the place phase) as a request body into `body`
 * (`len` bytes): its hand tile when it names one, a follower at its first location when
 * `follower` and there is one (play.c). 0, or -1 with what went wrong in `why`. */
int first_placement(const struct server *srv, const struct game *g, int follower, char *body,
                    size_t len, char *why, size_t cap);

/*
 * Moves game `g` on for the seat to move (play.c): draws in the draw phase, then (unless
 * `one_action` and it drew) places the first placement listed, naming the hand tile it
 * names (the hand variant) and deploying a follower at its first location when `follower`.
 * Returns 1 when the game is finished (before, or by the move), 0 when it goes on, -1 on an
 * unexpected answer (described in `why`).
 */
int play_move(const struct server *srv, const struct game *g, int follower, int one_action,
              char *why, size_t cap);
/* One whole turn: play_move(srv, g, follower, 0, why, cap). */
int play_turn(const struct server *srv, const struct game *g, int follower, char *why, size_t cap);

/* The wall clock now, in ms since 1970 (t_api.c). */
long long wall_ms(void);

/* RFC 3339 UTC "YYYY-MM-DDTHH:MM:SS.mmmZ" (a deadline, an event's `at`) as ms since 1970,
 * or -1 (t_api.c). */
long long rfc3339_ms(const char *s);

/* 1 when `tok` is 43 characters of base64url (256 random bits): a seat's or a player's
 * token. */
int token_shape(const char *tok);

/* Runs the psql script `sql` on database `db` in one transaction, with psql variable
 * game=`game`. 0 or -1 (t_webhook.c). */
int psql_run(const char *db, const char *game, const char *sql);

#endif
