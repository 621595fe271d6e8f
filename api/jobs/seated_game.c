/* seated_game.c: a game the server creates for players it seats -- see seated_game.h. */
#include "seated_game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "json_game.h"
#include "json_in.h"
#include "json_out.h"
#include "log.h"

/* What a creation needs besides its caller's. */
struct table {
    struct json_new_game in;
    struct cc_game g;
    struct cc_events ev;
    struct store_player players[CC_MAX_PLAYERS];
    char tokens[CC_MAX_PLAYERS][AUTH_TOKEN_LEN + 1];
    struct game_new n;
    char *events; /* the creation's events (JSON), malloc'd */
};

/* Prepares game `sg` in `t` (zeroed) up to game_create_begin(): GAME_COMMITTED (ready: free
 * with table_free), GAME_CORRUPT or GAME_NO_MEMORY. */
static enum game_outcome table_begin(const struct seated_game *sg, struct table *t)
{
    struct json_err err;
    if (json_in_new_game(sg->body, strlen(sg->body), &t->in, &err)) {
        /* A body that no longer decodes (it was checked when posted). */
        log_kv(LOG_ERROR, "seated game refused", "code", err.code, "detail", err.detail, NULL);
        return GAME_CORRUPT;
    }
    if (auth_random_u64(&t->in.setup.seed) || cc_game_new(&t->g, &t->in.setup, &t->ev) != CC_OK)
        return GAME_CORRUPT;
    int nseats = t->g.nplayers;
    const char *tokens[CC_MAX_PLAYERS];
    for (int s = 0; s < nseats; s++) {
        snprintf(t->players[s].name, sizeof t->players[s].name, "%s", t->in.names[s]);
        if (auth_token_new(t->tokens[s]) ||
            auth_sha256(t->tokens[s], AUTH_TOKEN_LEN, t->players[s].token_hash))
            return GAME_CORRUPT;
        memset(t->tokens[s], 0, sizeof t->tokens[s]);
        tokens[s] = NULL;
        if (sg->person_ids[s])
            snprintf(t->players[s].person_id, sizeof t->players[s].person_id, "%s",
                     sg->person_ids[s]);
    }
    bots_seats_new(&t->in, nseats, t->players, t->tokens, tokens);
    const char *names[CC_MAX_PLAYERS] = {0};
    for (int s = 0; s < nseats; s++) names[s] = t->in.names[s];
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    json_created_event(&w, &t->g, names);
    int nev = 1 + json_events(&w, &t->g, &t->ev, 0, 2);
    json_out_end_array(&w);
    t->events = json_out_take(&w, NULL);
    json_out_free(&w);
    if (!t->events) return GAME_NO_MEMORY;
    t->n = (struct game_new){.setup = &t->in.setup,
                             .g = &t->g,
                             .players = t->players,
                             .clock = t->in.clock,
                             .hints_off = t->in.hints_off,
                             .rated = t->in.rated,
                             .events_json = t->events,
                             .last_seq = nev,
                             .version = 1,
                             .nseeks = sg->nseeks,
                             .seek_ids = sg->seek_ids,
                             .seek_seats = sg->seek_seats,
                             .tourney_id = sg->tourney_id,
                             .tourney_round = sg->tourney_round,
                             .tourney_table = sg->tourney_table};
    return game_create_begin(&t->n);
}

/* Frees what table_begin() wrote into `t`. */
static void table_free(struct table *t)
{
    game_new_free(&t->n);
    free(t->events);
    t->events = NULL;
}

enum game_outcome seated_game_create(struct seated_game *sg)
{
    return seated_games_create(sg, 1);
}

enum game_outcome seated_games_create(struct seated_game *sgs, int count)
{
    struct table *t = calloc((size_t)count + 1, sizeof *t);
    struct game_new **ns = calloc((size_t)count + 1, sizeof *ns);
    enum game_outcome rc = t && ns ? GAME_COMMITTED : GAME_NO_MEMORY;
    for (int i = 0; rc == GAME_COMMITTED && i < count; i++) {
        rc = table_begin(&sgs[i], &t[i]);
        ns[i] = &t[i].n;
    }
    enum store_status ss = STORE_OK;
    if (rc == GAME_COMMITTED) rc = game_create_many(ns, count, &ss);
    for (int i = 0; rc == GAME_COMMITTED && i < count; i++)
        memcpy(sgs[i].id, t[i].n.id, sizeof sgs[i].id);
    for (int i = 0; t && i < count; i++) table_free(&t[i]);
    free(ns);
    free(t);
    return rc;
}
