/* db.h: the itests' own look at PostgreSQL (libpq): a game's stored bytes, and a replay
 * of its action log with the engine (build/libcore.a) compared with its stored state. */
#ifndef ITEST_DB_H
#define ITEST_DB_H

#include <stddef.h>

/* What is stored of one game: its row and the size of its logs. */
struct db_game {
    int found;               /* 0: no such row */
    int version;             /* games.version */
    int last_seq;            /* games.last_seq */
    char status[16];         /* games.status */
    size_t snapshot_len;     /* bytes of games.snapshot */
    unsigned char *snapshot; /* games.snapshot (malloc'd) */
    long actions;            /* rows in actions for the game */
    long events;             /* rows in events for the game */
    long players;            /* rows in players for the game */
};

/*
 * Reads game `id` straight from DATABASE_URL into `out` (free with db_game_free).
 * Returns 0, or -1 with `why` filled in when the database cannot be asked.
 */
int db_game_read(const char *id, struct db_game *out, char *why, size_t cap);

/* 1 when `a` and `b` are the same, byte for byte (row, snapshot and log sizes). */
int db_game_same(const struct db_game *a, const struct db_game *b);

void db_game_free(struct db_game *g);

/*
 * Checks game `id` as stored: its action log has one row for each version 2..version and
 * nothing else; its events are seq 1..last_seq without a gap, each of a version the game
 * has reached; and replaying the action log from the game's setup (games.ruleset, options,
 * seed, start_tile, custom_deck, the players) with cc_game_new/cc_game_apply gives a state
 * whose cc_game_encode is the stored snapshot byte for byte. Returns 0, or -1 with `why`.
 */
int db_replay_check(const char *id, char *why, size_t cap);

/* db_replay_check, and no square of game `id` has two placements in its action log: 0, or
 * -1 with `why` (the id in it). */
int db_log_sound(const char *id, char *why, size_t cap);

/*
 * Runs db_replay_check on every game in the database. Returns how many failed (the first
 * failure in `why`); the number checked goes to *checked.
 */
int db_replay_all(int *checked, char *why, size_t cap);

/* 1 when version `version` of game `id` is in the action log (-1 when it cannot be asked). */
int db_action_exists(const char *id, int version);

/* Runs `sql` (no parameters) and returns the first column of its first row as a number, or -1. */
long db_scalar(const char *sql);

/* db_scalar() with `n` text parameters $1..$n. */
long db_scalar_params(const char *sql, int n, const char *const *vals);

/* db_scalar() with the one text parameter $1 = `id` (a game's, a player's, a key ...). */
long db_scalar_id(const char *sql, const char *id);

/* Leases the job of kind `kind` of game `id` for `ms` milliseconds as a server's claim
 * would (due and claimed until then, one attempt): a dead server's claim. The rows leased. */
long db_job_lease(const char *id, const char *kind, int ms);

/* The events of game `id` of type `type` ("game_started" ...), or -1. */
long db_events_of(const char *id, const char *type);

/* The webhooks of game `id` owned by seat `seat` (owner "seat:N"), or -1. */
long db_seat_webhooks(const char *id, int seat);

/* SQL: the idempotency row's key, in its own scope, is the parameter `p` ("$1"): its
 * key_hash is seal_lookup() of them (api/base/seal.c, migrations/0009). */
#define IDEM_KEY_IS(p)                                                                             \
    "key_hash = sha256(convert_to('tilehall idempotency lookup v1', 'UTF8') || '\\x00'::bytea "    \
    "|| convert_to(scope, 'UTF8') || '\\x00'::bytea || convert_to(" p ", 'UTF8') || "              \
    "'\\x00'::bytea)"

#endif
