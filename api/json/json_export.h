/* json_export.h: a finished game as a file (GET /v1/games/{id}/export) and that file read
 * back for a replay (POST /v1/games {"replay": <export>}): the setup as a create body has
 * it, the draw order, and every stored action in order. Pure: no I/O, no database. */
#ifndef API_JSON_EXPORT_H
#define API_JSON_EXPORT_H

#include <stddef.h>

#include "game.h"
#include "json_in.h"
#include "json_out.h"
#include "nodiscard.h"

#define JSON_EXPORT_FORMAT      "tilehall-export" /* "format" of every export */
#define JSON_EXPORT_VERSION     1     /* "format_version" this server writes and reads */
#define JSON_EXPORT_MAX_ACTIONS 1024  /* actions of an export at most (a game has about 420) */
#define JSON_EXPORT_MAX_VALUES  32768 /* JSON values of a replay body at most (64 KiB hold less) */

/* One action of an export, decoded. */
struct json_export_action {
    int join; /* 1: {"kind": "join"} (a seat taken through its invite): no engine action */
    struct cc_action a; /* the engine's action: kind, seat, the placement */
};

/* What an export is written from. */
struct json_export_src {
    const char *id;                           /* the game's id */
    const struct json_new_game *in;           /* its setup, decoded as a create body */
    const struct cc_game *created;            /* the game as created from `in` (its draw order) */
    const struct cc_game *finished;           /* the game as it ended (its scores) */
    const char *result;                       /* how it ended ("completed", "resignation" ...) */
    const struct json_export_action *actions; /* every stored action, in order */
    int nactions;                             /* entries in actions */
    const char *chat_json; /* the chat's messages (a JSON array: store_export.chat), or NULL */
};

/*
 * Writes the export of `src` into `o` (one JSON object): format, format_version, game,
 * ruleset, options, seed (a decimal string), start (or null), hints, players (each {"name"}
 * or {"bot", "think_ms"}, as a create body has them), custom_deck, deck (the draw order:
 * created->deck), actions (each as the action log writes it: kind, seat, the placement's
 * members; a join {"kind": "join", "seat"}), result, scores (by seat), chat ("public" or
 * "private") and chat_messages (the game's messages, for the record: a replay reads past
 * them).
 */
void json_export_write(struct json_out *o, const struct json_export_src *src);

/*
 * Decodes the array `actions` of a game of `ruleset` with `nplayers` seats into out[0..*n)
 * (at most `max`). Returns 0, or -1 with `err` filled in and *index the action that fails.
 */
int json_export_read_actions(const struct cJSON *actions, enum cc_ruleset ruleset, int nplayers,
                             struct json_export_action *out, int max, int *n, struct json_err *err,
                             int *index) NODISCARD;

/* An export, decoded (large: allocate it). */
struct json_export {
    struct json_new_game in;   /* the setup as POST /v1/games decodes it (seed_given 1) */
    int custom_deck;           /* 1: the deck was given at creation (in.setup.deck is it) */
    int deck_len;              /* tiles in deck */
    uint8_t deck[CC_MAX_DECK]; /* the draw order the export states */
    int nactions;              /* entries in actions */
    struct json_export_action actions[JSON_EXPORT_MAX_ACTIONS]; /* in order */
    int has_scores;             /* 1: the export states the final scores */
    int scores[CC_MAX_PLAYERS]; /* with has_scores: by seat */
    char result[16];            /* the result the export states ("completed" ...), "" for none */
};

/*
 * Decodes the export `doc` (the value of "replay") into `out`. Returns 0, or -1 with `err`
 * filled in: invalid_body (not an object, a member of the wrong type, a member missing),
 * unknown_field, replay_unsupported_format (format or format_version not this server's),
 * or a setup code of POST /v1/games (unknown_ruleset, invalid_option ...). A failure inside
 * actions[i] sets *action_index to i (else -1): err->code is then the reason
 * (invalid_body, unknown_field, or a placement's code such as invalid_rotation).
 */
int json_export_read(const struct cJSON *doc, struct json_export *out, struct json_err *err,
                     int *action_index) NODISCARD;

#endif
