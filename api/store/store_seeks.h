/* store_seeks.h: seeks, players' wishes to play now, and their binding to the games the
 * matchmaker creates (0027, store_seeks.c; issue 26). */
#ifndef API_STORE_SEEKS_H
#define API_STORE_SEEKS_H

#include "auth.h"
#include "store.h"

#define STORE_SEEKS_OPEN_MAX    10 /* open seeks per player (an 11th: STORE_DUPLICATE) */
#define STORE_SEEK_LAPSE_S      30 /* a live seek lapses this long after its last poll ... */
#define STORE_SEEK_LAPSE_MIN_S  3  /* ... unless SEEK_LAPSE_SECONDS says otherwise (3 to 300) */
#define STORE_SEEK_CORR_S       (7 * 24 * 3600) /* a correspondence seek waits this long */
#define STORE_SEEKS_PURGE_BATCH 500             /* ended seeks a matchmaker run deletes at most */

/* A new seek (POST /v1/seeks). */
struct store_seek_new {
    char id[AUTH_UUID_LEN + 1]; /* drawn by the caller */
    const char *person_id;      /* its owner */
    const char *ruleset;        /* the ruleset's name (the rating's pool) */
    const char *pool;           /* the canonical game: what must be equal to pair (JSON) */
    int players;                /* 2..6 */
    int live;                   /* 1: a bank clock (lapses unpolled), 0: correspondence */
    int has_range;              /* 1: rating_min / rating_max hold the range */
    double rating_min, rating_max;
    int bot_after_s; /* 5..600, or 0: no computer players */
};

/* A seek as read. */
struct store_seek {
    char id[AUTH_UUID_LEN + 1];
    char person_id[AUTH_UUID_LEN + 1];
    char person_name[STORE_NAME_MAX + 1];
    char status[12];                 /* "waiting", "matched", "cancelled", "expired" */
    char game_id[AUTH_UUID_LEN + 1]; /* matched: the game, else "" */
    int seat;                        /* matched: the seat, else -1 */
    char *pool;                      /* the canonical game (JSON), malloc'd */
    char ruleset[24];                /* its ruleset (the rating's pool) */
    int players, live, has_range, bot_after_s;
    double rating, rating_min, rating_max;
    long long age_ms;    /* how long it has waited (the database's clock) */
    char created_at[40]; /* RFC 3339 */
    char expires_at[40]; /* RFC 3339: when a correspondence seek ends at the latest */
};

/* Sets how long a live seek lapses after its last poll (SEEK_LAPSE_SECONDS, before any
 * thread starts; STORE_SEEK_LAPSE_S when never set). A poll is remembered when the last one
 * is a third of that old (10 s of 30). */
void store_seeks_set_lapse(int seconds);

/* That time in seconds: a long poll reads its seek again at least every third of it, so that
 * a seek whose owner waits on it never lapses (routes_seeks.c). */
int store_seeks_lapse(void);

/* Frees seeks[0..n) (their pool texts) and the array. */
void store_seeks_free(struct store_seek *seeks, int n);

/*
 * The idempotent answer to keep with seek `s` just written (store_seek_create()), built by
 * the caller inside the creation's transaction; NULL when it cannot be built (the seek is
 * then not written).
 */
typedef const struct store_idem *(*store_seek_answer)(void *arg, const struct store_seek *s);

/*
 * Writes seek `s` (status "waiting", the owner's rating in the pool read from ratings, 1500
 * when it has none) and reads it back into `out` (free out->pool) unless its owner has
 * STORE_SEEKS_OPEN_MAX open already: then *full is 1, STORE_OK, and nothing is written. The
 * owner's seeks are counted under a lock of the owner's row, so that two requests at once
 * cannot both take the last place (nor two repeats of one Idempotency-Key both write a seek).
 * With `answer` (a keyed request), its answer is stored in the same transaction
 * (db_idem_put): STORE_DUPLICATE, and nothing written, when the key has an answer already.
 */
enum store_status store_seek_create(const struct store_seek_new *s, store_seek_answer answer,
                                    void *arg, struct store_seek *out, int *full) NODISCARD;

/*
 * Seek `id` into `out` (free out->pool). When `owner` is its owner's id and the seek waits:
 * a live seek not polled for store_seeks_lapse() seconds, or any seek past its expiry, is
 * expired now; else the poll is remembered (polled_at, at most every third of that time
 * unless `touch`). STORE_NOT_FOUND when there is none.
 */
enum store_status store_seek_poll(const char *id, const char *owner, int touch,
                                  struct store_seek *out) NODISCARD;

/* Cancels seek `id` if it still waits (STORE_OK; else STORE_CONFLICT), then reads it into
 * `out`. STORE_NOT_FOUND when there is none. */
enum store_status store_seek_cancel(const char *id, struct store_seek *out) NODISCARD;

/* The open correspondence seeks (of `ruleset`, or all when NULL), oldest first, at most
 * `max`, into *out (*n of them; free with store_seeks_free). */
enum store_status store_seeks_lobby(const char *ruleset, int max, struct store_seek **out,
                                    int *n) NODISCARD;

/* The matchmaker (0027): expires the lapsed seeks (*expired gets how many), deletes up to
 * STORE_SEEKS_PURGE_BATCH seeks that ended more than a day ago, then reads up to `max`
 * waiting seeks, by pool and age (oldest first), into *out. */
enum store_status store_seeks_open(int max, long *expired, struct store_seek **out,
                                   int *n) NODISCARD;

#endif
