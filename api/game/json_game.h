/* json_game.h: the engine's game, events, placements and scores as the API's JSON. */
#ifndef API_JSON_GAME_H
#define API_JSON_GAME_H

#include <stddef.h>

#include "game.h"
#include "json_out.h"
#include "store.h"
#include "store_games.h"

/* What the service adds to an engine game. */
struct json_game_meta {
    const char *id;            /* the game's UUID */
    int version;               /* grows by one per accepted action */
    const char *const *names;  /* player names by seat (g->nplayers) */
    const char *const *tokens; /* NULL, or the tokens by seat, NULL for none (create answer) */
    const struct store_player *seats; /* NULL, or the seats as stored: computer players shown
                                         ("bot", "think_ms"), and "hints" (0010) */
    int hints_off;                    /* with seats: 1 when the game has no hints */
    int chat_public;                  /* with seats: 1 when anyone reads the chat (0026) */
    int seed_chosen;                  /* with seats: 1 when the creator chose the seed (0022) */
    int rated;                        /* with seats: 1 for a rated game (0025) */
    int seat_ratings;                 /* with seats: 1 shows each seat's rating in the pool
                                         as read with the game (store_player.rating) */
    const char *status;        /* "waiting" or "aborted" (games_status), or NULL: as g says */
    unsigned open;             /* bit s set while seat s is open (waits for its invite) */
    const char *const *invite; /* NULL, or the invites by seat, NULL for none (create answer) */
    const struct store_clock *clock; /* NULL, or the game's clock (0011): "clock",
                                        "deadline", players' "clock_ms" when it has one */
};

/* Writes the options of `g` as a JSON object (defaults filled in): each of its ruleset's
 * rows of the options table (core/options.h), as json_option_value() writes it. */
void json_options(struct json_out *o, const struct cc_game *g);

struct cc_option_def;

/* Writes value `v` of option `d`: a boolean, the name of a choice, or the array of the
 * names of a set's members in the table's order. */
void json_option_value(struct json_out *o, const struct cc_option_def *d, unsigned v);

/*
 * Writes the public state of `g` (as GET /v1/games/{id}): never the seed or the draw
 * order while the game runs; both once it is finished.
 */
void json_game(struct json_out *o, const struct cc_game *g, const struct json_game_meta *meta);

/*
 * Writes the events ev->ev[from..ev->n) of `g` (the state after them) as elements of the
 * open array of `o`, numbered from seq `seq`; a follower_returned event is folded into the
 * feature_scored event before it as "returned". Returns the number of events written (the
 * next seq is seq + that).
 */
int json_events(struct json_out *o, const struct cc_game *g, const struct cc_events *ev,
                size_t from, int seq);

/*
 * `text` (`len` bytes of JSON made by this module: an answer or an array of events) with
 * the member "ratings": `ratings` (JSON) added last to its game_finished event, into a new
 * malloc'd string (*out_len its bytes). NULL when `text` has no game_finished event or
 * memory ran out. (A rated game's end: its ratings are known only inside the commit's
 * transaction, after the answer was made.)
 */
char *json_with_ratings(const char *text, size_t len, const char *ratings, size_t *out_len);

/* json_events() with the game_finished event's "result" given (NULL: none), for an ending
 * the engine does not know of (a timeout: game_end_result). */
int json_events_ended(struct json_out *o, const struct cc_game *g, const struct cc_events *ev,
                      size_t from, int seq, const char *result);

/*
 * Writes the legal placements of the tile(s) to place as {"tile", "placements": [...]};
 * uses `buf` (capacity `cap`) as scratch.
 */
void json_placements(struct json_out *o, const struct cc_game *g, struct cc_placement *buf,
                     size_t cap);

/* Writes only the array of json_placements(). */
void json_placement_list(struct json_out *o, const struct cc_game *g, struct cc_placement *buf,
                         size_t cap);

/* Writes the tile id `t` of the ruleset of `g`, or null for CC_NO_TILE. */
void json_tile(struct json_out *o, const struct cc_game *g, unsigned t);

/* Writes the tile to place (as "tile" of the game's turn), or null. */
void json_drawn_tile(struct json_out *o, const struct cc_game *g);

/*
 * Writes member `key`: an array of one object per seat of `g`, each {"seat", "name" (from
 * `names`, unless NULL), then what `fields` (unless NULL) adds for that seat, given `arg`}.
 */
void json_seats(struct json_out *o, const char *key, const struct cc_game *g,
                const char *const *names,
                void (*fields)(struct json_out *o, const struct cc_game *g, unsigned seat,
                               const void *arg),
                const void *arg);

/* Writes the game_created event (seq 1): ruleset, options, players (`names` by seat); a
 * creation and a replay store the same first event. */
void json_created_event(struct json_out *o, const struct cc_game *g, const char *const *names);

/* Writes the scores, breakdowns, projected final scores and winners (GET .../scores). */
void json_scores(struct json_out *o, const struct cc_game *g, const char *const *names);

/* json_scores() with "status" `status` (games_status: "waiting", "aborted") unless NULL. */
void json_scores_as(struct json_out *o, const struct cc_game *g, const char *const *names,
                    const char *status);

/* Writes the action as applied, for the action log (API names and units). */
void json_action(struct json_out *o, const struct cc_game *g, const struct cc_action *a);

/* Writes placement `a` as the body of POST /v1/games/{id}/placements takes it (x, y,
 * rotation, the hand tile, the follow-up). */
void json_placement_body(struct json_out *o, const struct cc_game *g, const struct cc_action *a);

/* The id of tile type `t` in the ruleset of `g` ("D", "RA" ...), or NULL. */
const char *json_tile_id(const struct cc_game *g, unsigned t);

/* "active" or "finished". */
const char *json_status(const struct cc_game *g);

/* How a finished game ended: "completed" or "resignation"; NULL while it runs. */
const char *json_result(const struct cc_game *g);
/* Writes the members of seat `seat`'s state that the expansions of classic add: how many of
 * each of their figures the game has are left ("large", "builder", "pig": the names of
 * api/game/rulesets.c) and, with Traders & Builders, its "goods" by kind. */
void json_supply(struct json_out *o, const struct cc_game *g, unsigned seat);

/* Writes member "extra" (whether the turn is a builder's extra turn) in a game with
 * Traders & Builders; nothing in other games. */
void json_extra_turn(struct json_out *o, const struct cc_game *g);

/* Writes the turn object of `g` as GET /v1/games/{id} has it ("turn": number, seat, phase,
 * tile): what a placement's answer says comes next. */
void json_turn(struct json_out *o, const struct cc_game *g);

/* Members "rating", "deviation" (aged from `last_rated_ms` to `now_ms`, 0: never rated, as
 * a profile shows it; both rounded), "provisional" and "games" of a rating `stored` after
 * its last rated game, into the open object `o`. */
void json_rating_members(struct json_out *o, const struct glicko2_rating *stored,
                         long long last_rated_ms, long long now_ms, int games);

#endif
