/* json_tournament.h: the body of POST /v1/tournaments (api.md, "Tournaments"), decoded
 * strictly as json_in.h's decoders are. */
#ifndef API_JSON_TOURNAMENT_H
#define API_JSON_TOURNAMENT_H

#include <stddef.h>

#include "json_in.h"
#include "nodiscard.h"
#include "store.h"
#include "store_tournaments.h"

#define JSON_TOURNEY_MAX_PLAYERS    256 /* max_players at most (pairing.h's limit) */
#define JSON_TOURNEY_STARTS_GRACE_S 60  /* starts_at may lie this far in the past */
#define JSON_TOURNEY_RR_MAX_PLAYERS                                                                \
    24                             /* a round robin's max_players at most (the schedules           \
                                      tests/api/pairing_test.c checks) */
#define JSON_TOURNEY_MAX_ROUNDS 64 /* a swiss's rounds at most */

/* A decoded POST /v1/tournaments body. */
struct json_tournament {
    char name[STORE_NAME_MAX + 1]; /* "name" (PlayerName's rules) */
    const char *format;            /* "swiss", "round_robin" or "knockout" (static) */
    const char *ruleset;           /* the ruleset's name (static; default "classic") */
    char *options_json;            /* "options" as given (checked for the ruleset), malloc'd */
    int players_per_game;          /* 2..4 (default 2) */
    int rounds;                    /* swiss: 1..JSON_TOURNEY_MAX_ROUNDS; else 0 */
    char *clock_json;              /* "clock" as given (checked), malloc'd, or NULL */
    int rated;                     /* 1: "rated": true (a clock required) */
    int max_players;               /* 2..256 (round robin: ..24); default: the most allowed */
    char starts_at[32];            /* "starts_at" (RFC 3339, UTC: ...Z), or "" for null */
};

/*
 * Decodes a POST /v1/tournaments body into `out`. Refusals: invalid_json, unknown_field,
 * invalid_body (a field's type or range, "rounds" given or missing against the format),
 * the ruleset's and options' codes as POST /v1/games, the clock's codes, unrated_setup
 * (rated without a clock). Returns 0, or -1 with `err` filled in; free `out` with
 * json_tournament_free() either way.
 */
int json_in_tournament(const char *body, size_t len, struct json_tournament *out,
                       struct json_err *err) NODISCARD;

/* The row of decoded tournament `t` (its strings borrowed from `t`) into *row, but its id
 * and organiser (left NULL for the caller). */
void json_tournament_row(const struct json_tournament *t, struct store_tournament_new *row);

/* Frees what json_in_tournament() allocated in `t` (and zeroes it). */
void json_tournament_free(struct json_tournament *t);

#endif
