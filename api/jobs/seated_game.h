/* seated_game.h: a game the server creates for players it seats (the matchmaker's tables,
 * a tournament's), through the game service (game_create_begin, game_create): the body of
 * POST /v1/games decoded, the server dealing (a random seed), every seat's token thrown away
 * unseen (a person plays with its player token, a computer player needs none), the persons
 * bound to their seats, and the caller's binding (seeks, a tournament's table) stored in the
 * creation's transaction. Not counted against the creation limit: the requests that led to
 * it were (a seek, a tournament's creation and joins). */
#ifndef API_SEATED_GAME_H
#define API_SEATED_GAME_H

#include "auth.h"
#include "game/service.h"

/* What to create. */
struct seated_game {
    const char *body;              /* a POST /v1/games body: seats {"name"} or {"bot"} */
    const char *const *person_ids; /* by seat: the person bound to it, or NULL */
    /* The binding, as struct game_new's (0 / NULL: none). */
    int nseeks;
    const char *seek_ids;
    const char *seek_seats;
    const char *tourney_id;
    int tourney_round;
    int tourney_table;
    char id[AUTH_UUID_LEN + 1]; /* written: the new game's id */
};

/* Creates game `sg`. GAME_COMMITTED, GAME_SEEKS_TAKEN (the binding was taken first:
 * nothing written), GAME_CORRUPT (a body that does not decode), or a failure. */
enum game_outcome seated_game_create(struct seated_game *sg);

/* Creates the games sgs[0..count) as seated_game_create() each, all in one transaction
 * (game_create_many): all of them, or none (GAME_SEEKS_TAKEN: a binding was taken first). */
enum game_outcome seated_games_create(struct seated_game *sgs, int count);

#endif
