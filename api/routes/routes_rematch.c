/* routes_rematch.c: POST /v1/games/{id}/rematch, the next game of a finished one.
 *
 * The next game has the same seats (names, bound players) with the seat order rotated by
 * one (the old seat 1 moves first: new seat i is old seat i + 1, the old seat 0 last), the
 * same ruleset and options, the same start tile and custom deck if the game was created
 * with them (a puzzle is played again; a shuffled game gets a new shuffle), and a new seed.
 *
 * Created once: games.rematch_of is unique (migrations/0009), so of several seats asking at
 * the same moment, on any servers, exactly one INSERT commits; the others find that game.
 * Tokens: a named seat's token is drawn the first time that seat asks (its hash set by one
 * UPDATE guarded by players.token_unclaimed, so exactly one ask gets it: a repeat answers
 * without it); a seat bound to a player acts by the player's token and gets none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "game/service.h"
#include "game_answers.h"
#include "json_game.h"
#include "log.h"
#include "netaddr.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_games.h"

/* Heap state of a rematch (the engine structs are large). */
struct rematch {
    struct cc_setup setup;                       /* the next game's setup */
    struct cc_game g;                            /* the next game */
    struct cc_events ev;                         /* its setup events */
    struct store_player players[CC_MAX_PLAYERS]; /* rotated seats, tokens unclaimed */
};

/* Creates the next game of `old` under the id `next` (filled in), counted against the
 * creation limit of the client at `creator` (a rematch is a creation) and owned by its
 * address (games.owner, 0020). Returns STORE_OK,
 * STORE_DUPLICATE when another request created it first (nothing written), else the
 * failure; *failed stays 1 when it failed before asking the database (no random bits,
 * the engine refused the setup, out of memory: answered 500), *retry_after is set (and
 * nothing done) when the creation limit refused it. */
static enum store_status create_next(const struct api_game *old, struct rematch *r, char *next,
                                     const struct sockaddr *creator, int *failed, int *retry_after)
{
    *failed = 1;
    *retry_after = 0;
    const struct cc_game *og = &old->g;
    unsigned n = og->nplayers;
    memset(&r->setup, 0, sizeof r->setup);
    r->setup.ruleset = og->ruleset;
    r->setup.nplayers = og->nplayers;
    r->setup.options = og->options;
    r->setup.start = og->start;
    r->setup.deck_len = og->custom_deck ? (int16_t)og->deck_len : -1;
    if (og->custom_deck) memcpy(r->setup.deck, og->deck, og->deck_len);
    if (auth_random_u64(&r->setup.seed)) return STORE_ERROR;
    r->ev.n = 0;
    if (cc_game_new(&r->g, &r->setup, &r->ev) != CC_OK) return STORE_ERROR;
    const char *names[CC_MAX_PLAYERS] = {0};
    for (unsigned s = 0; s < n; s++) {
        const struct store_player *from = &old->row.players[(s + 1) % n];
        struct store_player *p = &r->players[s];
        memset(p, 0, sizeof *p);
        snprintf(p->name, sizeof p->name, "%s", from->name);
        snprintf(p->person_id, sizeof p->person_id, "%s", from->person_id);
        /* A token drawn and thrown away: the seat's own is drawn when it asks. */
        char thrown[AUTH_TOKEN_LEN + 1];
        if (auth_token_new(thrown) || auth_sha256(thrown, AUTH_TOKEN_LEN, p->token_hash))
            return STORE_ERROR;
        memset(thrown, 0, sizeof thrown);
        /* A computer player stays one (level and time), with no token to hand out. */
        snprintf(p->bot, sizeof p->bot, "%s", from->bot);
        p->think_ms = from->think_ms;
        p->unclaimed = p->person_id[0] == '\0' && p->bot[0] == '\0';
        names[s] = p->name;
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    json_out_begin_object(&w);
    json_out_kint(&w, "seq", 1);
    json_out_kstring(&w, "type", "game_created");
    json_out_kstring(&w, "ruleset", cc_ruleset_name((enum cc_ruleset)r->g.ruleset));
    json_out_key(&w, "options");
    json_options(&w, &r->g);
    json_seats(&w, "players", &r->g, names, NULL, NULL);
    json_out_kstring(&w, "rematch_of", old->id);
    json_out_end_object(&w);
    int nev = 1 + json_events(&w, &r->g, &r->ev, 0, 2);
    json_out_end_array(&w);
    char *events_txt = json_out_take(&w, NULL);
    json_out_free(&w);
    enum store_status s = STORE_ERROR;
    char owner[NETADDR_KEY_MAX];
    /* The same clock (0011), started afresh: the first turn begins now. */
    struct game_new ng = {
        .setup = &r->setup,
        .g = &r->g,
        .players = r->players,
        .start = r->setup.start >= 0 ? json_tile_id(&r->g, (unsigned)r->setup.start) : NULL,
        .clock = old->row.clock,
        .hints_off = old->row.hints_off,
        .seed_chosen = 0,        /* a seed drawn afresh (0022) */
        .rated = old->row.rated, /* the same seats, bound or computer players: rated again */
        .chat_public = old->row.chat_public,
        .owner = netaddr_key(creator, owner, sizeof owner), /* the asker's share of the job
                                                              workers (0020) */
        .events_json = events_txt,
        .last_seq = nev,
        .version = 1,
        .rematch_of = old->id,
        .creator = creator,
    };
    enum game_outcome rc = events_txt ? game_create_begin(&ng) : GAME_NO_MEMORY;
    if (rc == GAME_RATE_LIMITED) *retry_after = ng.retry_after;
    if (rc != GAME_COMMITTED) goto out;
    memcpy(next, ng.id, sizeof ng.id);
    *failed = 0;
    if (game_create(&ng, NULL, &s) == GAME_COMMITTED) s = STORE_OK;
out:
    game_new_free(&ng);
    free(events_txt);
    return s;
}

void routes_rematch(const struct api_request *req, struct api_response *resp, const char *id)
{
    struct rematch *r = NULL;
    struct api_game *ag = games_load(id, GAMES_DB, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    if (routes_body_not_empty(req, resp)) goto out;
    if (ag->g.phase != CC_PHASE_FINISHED) {
        problem_reply(resp, 409, "game_not_finished", "A rematch follows a finished game.");
        goto out;
    }
    char next[AUTH_UUID_LEN + 1];
    int created = 0;
    enum store_status s = store_rematch_find(ag->id, next);
    if (s == STORE_NOT_FOUND) {
        r = malloc(sizeof *r);
        if (!r) {
            problem_reply(resp, 500, "internal_error", "Out of memory.");
            goto out;
        }
        int failed = 0;
        struct game_result limited = {0};
        s = create_next(ag, r, next, req->client_addr, &failed, &limited.retry_after);
        if (limited.retry_after) {
            routes_game_outcome(resp, GAME_RATE_LIMITED, &limited);
            goto out;
        }
        created = s == STORE_OK;
        /* Another seat's request created it first: that is the next game. */
        if (s == STORE_DUPLICATE) s = store_rematch_find(ag->id, next);
        if (s == STORE_OK && created)
            log_kv(LOG_INFO, "rematch created", "game", next, "rematch_of", ag->id, NULL);
        if (s == STORE_ERROR && failed) {
            problem_reply(resp, 500, "internal_error", "The rematch could not be set up.");
            goto out;
        }
    }
    if (s != STORE_OK) {
        problem_store(resp, s);
        goto out;
    }
    /* The caller's seat in the next game, and its token if nobody took it yet. */
    int n = ag->row.nplayers, ns = (seat + n - 1) % n;
    char token[AUTH_TOKEN_LEN + 1] = "";
    if (!ag->row.players[seat].person_id[0]) {
        uint8_t hash[AUTH_HASH_LEN];
        if (auth_token_new(token) || auth_sha256(token, AUTH_TOKEN_LEN, hash)) {
            problem_reply(resp, 500, "internal_error", "No token could be drawn.");
            goto out;
        }
        s = store_seat_claim(next, ns, hash);
        if (s == STORE_NOT_FOUND) token[0] = '\0'; /* handed out before */
        if (s != STORE_OK && s != STORE_NOT_FOUND) {
            problem_store(resp, s);
            goto out;
        }
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "id", next);
    json_out_kint(&w, "seat", ns);
    if (token[0]) json_out_kstring(&w, "token", token);
    json_out_kstring(&w, "rematch_of", ag->id);
    json_out_end_object(&w);
    api_reply_out(resp, created ? 201 : 200, &w);
    snprintf(resp->location, sizeof resp->location, "/v1/games/%s", next);
    memset(token, 0, sizeof token);
out:
    free(r);
    games_free(ag);
}
