/* json_in.h: strict decoding of request bodies (unknown fields, duplicate keys, types).
 * Every decoder first takes the body as a whole: UTF-8 (RFC 8259; else invalid_json), at
 * most 1,000 values (else invalid_json), strict JSON, one object, no key twice. Details
 * quote the body only in whole characters. */
#ifndef API_JSON_IN_H
#define API_JSON_IN_H

#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "nodiscard.h"
#include "store.h"
#include "store_games.h"
#include "store_webhooks.h"

struct cJSON;
struct cc_option_def;

#define JSON_INVITE_MAX 64 /* characters of an invite at most (they are AUTH_TOKEN_LEN) */

/* Why a body was refused: always answered 400 with `code`. */
struct json_err {
    char code[40];    /* stable snake_case code: invalid_json, invalid_body, unknown_field ... */
    char detail[256]; /* a sentence naming the field */
};

/* Fills `err` (`code`, and a detail of `fmt`) and returns -1. Text of the body in `fmt`'s
 * arguments must be cut with "%.*s" and utf8_fit() (whole characters); a detail too long
 * is cut the same way. */
int json_fail(struct json_err *err, const char *code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* -1 (unknown_field) when `obj` has a key not in the NULL-terminated `allowed`; `where`
 * prefixes the name in the detail ("players[]."). */
int json_check_fields(const struct cJSON *obj, const char *const *allowed, const char *where,
                      struct json_err *err) NODISCARD;

/* Member `name` of `obj`, which `is_type` (cJSON_IsString ...) must accept; else NULL after
 * failing invalid_body: the field is required, or must be `what` ("a string"). */
const struct cJSON *json_need(const struct cJSON *obj, const char *name,
                              int (*is_type)(const struct cJSON *), const char *what,
                              struct json_err *err) NODISCARD;

/* A decoded POST /v1/games body. */
struct json_new_game {
    struct cc_setup setup;                          /* ruleset, players, options, seed, deck */
    int seed_given;                                 /* 1 when the body named a seed */
    char start[4];                                  /* start tile id asked for, or "" */
    char names[CC_MAX_PLAYERS][STORE_NAME_MAX + 1]; /* player names by seat ("" at me_seat) */
    int me_seat;                                    /* the seat {"player": "me"}, or -1 */
    unsigned open_seats;                            /* bit s: seat s is {"open": true} */
    char webhook_url[STORE_URL_MAX + 1];            /* "webhook": {"url"}, or "" (unchecked) */
    char webhook_format[STORE_HOOK_FORMAT_MAX];     /* "webhook": {"format"} ("tilehall") */
    char bots[CC_MAX_PLAYERS][8]; /* a computer player's level by seat ("random" ...), or "" */
    int think_ms[CC_MAX_PLAYERS]; /* with bots[seat]: its time a move (ms) */
    int hints_off;                /* 1: "hints": false */
    int hints_given;              /* 1: the body named "hints" (true or false) */
    int rated;                    /* 1: "rated": true (its setup: routes_rated_setup) */
    int chat_public;              /* 1: "chat": "public" (0026), 0: "private" or absent */
    int listed;                   /* 1: "listed": true (0035), shown in the lobby's lists */
    struct store_clock clock;     /* "clock" (0011): its kind and settings; kind 0 for none */
};

#define JSON_THINK_MS_DEFAULT 250 /* a computer player's think_ms when not given */

/*
 * Decodes a POST /v1/games body into `out` (seed left 0 unless given; deck_len -1 unless
 * given; me_seat -1 unless a seat is {"player": "me"}, whose name the caller fills in).
 * Checks every field's type and range, the ruleset's options and tile ids; open seats
 * get their bit in open_seats and their placeholder name. A computer player's seat gets
 * the name "Bot (<level>)".
 * Returns 0, or -1 with `err` filled in.
 */
int json_in_new_game(const char *body, size_t len, struct json_new_game *out,
                     struct json_err *err) NODISCARD;

/*
 * Decodes a POST /v1/games/{id}/placements body for a game of `ruleset` into `a`
 * (kind, x, y, rot, tile, follow-up; the seat is left to the caller). Returns 0 or -1.
 */
int json_in_placement(const char *body, size_t len, enum cc_ruleset ruleset, struct cc_action *a,
                      struct json_err *err) NODISCARD;

/*
 * Decodes a POST /v1/games/{id}/webhook body {"url": "...", "format": "..."} into `url`
 * (not checked beyond its length: see webhook_url_check()) and `format` (one of
 * STORE_HOOK_FORMATS, "tilehall" when absent; else 400 invalid_webhook_format). Returns 0
 * or -1.
 */
int json_in_webhook(const char *body, size_t len, char url[STORE_URL_MAX + 1],
                    char format[STORE_HOOK_FORMAT_MAX], struct json_err *err) NODISCARD;

/*
 * Decodes a POST /v1/players body {"name": "..."} into `name`, which follows the rules of
 * the seats' names (PlayerName in openapi.yaml). Returns 0 or -1.
 */
int json_in_player(const char *body, size_t len, char name[STORE_NAME_MAX + 1],
                   struct json_err *err) NODISCARD;

/* A decoded POST /v1/games/{id}/join body. */
struct json_join {
    char invite[JSON_INVITE_MAX + 1]; /* "invite", or "" (then the query's ?invite=) */
    char name[STORE_NAME_MAX + 1];    /* "name", or "" (then the seat is the player's) */
    int seat;                         /* "seat" (a listed game's open seat, 0035), or -1 */
};

/*
 * Decodes a POST /v1/games/{id}/join body {"invite"?, "seat"?, "name"?} (any may be
 * missing; an empty body is {}) into `out`: "seat" an integer 0 .. CC_MAX_PLAYERS - 1, not
 * with "invite". Returns 0 or -1.
 */
int json_in_join(const char *body, size_t len, struct json_join *out,
                 struct json_err *err) NODISCARD;

#define JSON_CHAT_TEXT_CHARS 500  /* characters of a chat message at most */
#define JSON_CHAT_TEXT_BYTES 2000 /* its bytes at most (500 characters of 4 bytes) */

/*
 * Decodes a POST /v1/games/{id}/chat body {"text": "..."} (json_chat.c) into `text`: 1 to
 * 500 characters of UTF-8, at least one visible, none that names refuse (controls, format
 * and bidirectional characters: utf8_refused_in_name) but the line feed; else
 * invalid_chat_text (invalid_body for a missing or non-string "text"). Returns 0 or -1.
 */
int json_in_chat(const char *body, size_t len, char text[JSON_CHAT_TEXT_BYTES + 1],
                 struct json_err *err) NODISCARD;

struct cJSON;
struct cc_option_def;

/*
 * Parses `body` (`len` bytes and a NUL after them) as one JSON object with the checks every
 * decoder here makes (UTF-8, strict JSON, no key twice), allowing `max_values` values
 * (the decoders above allow 1,000; an export replayed, json_export.h, holds more).
 * Returns the tree (the caller deletes it with cJSON_Delete), or NULL with `err` filled in
 * (invalid_json, invalid_body for a key twice).
 */
struct cJSON *json_in_parse(const char *body, size_t len, size_t max_values,
                            struct json_err *err) NODISCARD;

/* Accepts an empty body or an empty JSON object (POST .../draw). Returns 0 or -1. */
int json_in_empty(const char *body, size_t len, struct json_err *err) NODISCARD;

/* Member "name" of `obj` as a name (PlayerName's rules: 1 to 40 characters, visible first,
 * no space last, no control or invisible characters) into `out`; `label` names it in the
 * details. Returns 0, or -1 (invalid_body). */
int json_in_name(const struct cJSON *obj, const char *label, char out[STORE_NAME_MAX + 1],
                 struct json_err *err) NODISCARD;

/* Decodes a "clock" member `c` (NULL: no clock, kind 0) as POST /v1/games does into `out`.
 * Returns 0, or -1 (invalid_clock, invalid_turn_seconds, invalid_bank_seconds). */
int json_in_clock(const struct cJSON *c, struct store_clock *out, struct json_err *err) NODISCARD;

/* Options of a new game (json_options.c): each option as a row of core/options.c. */
/*
 * Decodes the "options" member `v` (NULL: absent) of a new game of ruleset `r` into `o`,
 * every option at its default unless given: unknown_field for a name the ruleset does not
 * have, bad_option for a value outside the option's, and a refused combination's code
 * with a detail naming both. Returns 0, or -1 with `err` filled in.
 */
int api_options_decode(const struct cJSON *v, enum cc_ruleset r, struct cc_options *o,
                       struct json_err *err);

/* Decodes member `c` as a value of option `d` into *value: true or false for a boolean,
 * a value's name for a choice, an array of value names for a set (bit i for values[i];
 * order and repeats do not matter); anything else is bad_option with a detail naming the
 * values. Returns 0, or -1 with `err` filled in. */
int api_option_value_decode(const struct cJSON *c, const struct cc_option_def *d, unsigned *value,
                            struct json_err *err);

#endif
