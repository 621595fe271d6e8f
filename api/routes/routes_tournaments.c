/* routes_tournaments.c: tournaments (issue 27; api.md, "Tournaments"): POST
 * /v1/tournaments (a player's token; the creator organises, and is an entrant only by
 * joining), POST /v1/tournaments/{id}/join (while it is open) and /leave (while it is open;
 * after the start: the running game resigned, the rest forfeited), POST .../start (the
 * organiser), GET /v1/tournaments?status=&limit=, GET /v1/tournaments/{id} (with its
 * rounds and standings) and GET .../events?after=&wait= (no token; a long poll woken across
 * servers as the chat's is, SSE at .../events/stream). The rounds are paired by a job
 * (api/jobs/tourney_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "json_out.h"
#include "json_tournament.h"
#include "game/service.h"
#include "games.h"
#include "idem.h"
#include "live.h"
#include "log.h"
#include "params.h"
#include "problem.h"
#include "query_args.h"
#include "routes.h"
#include "store.h"
#include "store_people.h"
#include "store_tournaments.h"
#include "store_tourney_rounds.h"
#include "tourney.h"

#define TOURNEY_LIST_DEFAULT 20  /* ?limit= when not given */
#define TOURNEY_LIST_MAX     100 /* ?limit= at most */
#define TOURNEY_EVENTS_PAGE  100 /* events per answer at most */
#define TOURNEY_MAX_WAIT     60  /* seconds a long poll may wait, as the game's and chat's */

/* Tournament JSON `json` (an object) with member "standings" (`standings`, NULL: []) added
 * last: malloc'd, or NULL (out of memory, or `json` no object). */
static char *with_standings(const char *json, const char *standings)
{
    size_t len = strlen(json), cap = len + (standings ? strlen(standings) : 2) + 16;
    if (len < 2 || json[len - 1] != '}') return NULL;
    char *both = malloc(cap);
    if (both) /* the object's closing brace replaced by one more member */
        snprintf(both, cap, "%.*s,\"standings\":%s}", (int)(len - 1), json,
                 standings ? standings : "[]");
    return both;
}

/* Tournament `id`'s JSON as the database builds it (json, malloc'd) with its standings
 * (computed from its tables: tourney.h) added. */
static enum store_status tournament_with_standings(const char *id, char **json)
{
    enum store_status s = store_tournament_json(id, json);
    if (s != STORE_OK) return s;
    struct store_tourney t;
    s = store_tourney_load(id, &t);
    char *standings = s == STORE_OK && t.n > 0 ? tourney_standings_json(&t) : NULL;
    if (s == STORE_OK && t.n > 0 && !standings) s = STORE_ERROR;
    store_tourney_free(&t);
    char *both = s == STORE_OK ? with_standings(*json, standings) : NULL;
    if (s == STORE_OK && !both) s = STORE_ERROR;
    free(standings);
    free(*json);
    *json = both;
    return s;
}

/* Answers the store's failure `s` (404 for no such tournament). Returns 0 for STORE_OK
 * (nothing answered), else 1. */
static int store_refused(struct api_response *resp, enum store_status s)
{
    return problem_store_missing(resp, s, "There is no tournament with this id.");
}

/* Answers tournament `id` with its standings, with `status`. */
static void reply_tournament(struct api_response *resp, const char *id, int status)
{
    char *json = NULL;
    if (store_refused(resp, tournament_with_standings(id, &json))) return;
    api_reply_take(resp, status, "application/json", json);
}

/* The scope of the player `me`'s keys on tournaments, into scope[IDEM_SCOPE_MAX]. */
static void keyed_scope(const struct store_person *me, char scope[IDEM_SCOPE_MAX])
{
    snprintf(scope, IDEM_SCOPE_MAX, "tourney/%s", me->id);
}

/* A keyed tournament creation: what its answer is made of (created_answer()). */
struct create_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    const char *id;
};

/* store_tourney_answer: the 201 of the new tournament (`json`, no entrants yet: standings
 * []) into the response, kept for repeats of its Idempotency-Key. */
static const struct store_idem *created_answer(void *arg, const char *json)
{
    struct create_ctx *x = arg;
    char *body = with_standings(json, NULL);
    if (!body) return NULL;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    snprintf(x->resp->location, sizeof x->resp->location, "/v1/tournaments/%s", x->id);
    api_reply_take(x->resp, 201, "application/json", body);
    idem_remember(x->idem, x->req, x->resp, x->resp->body);
    return &x->idem->rec;
}

void routes_tournament_create(const struct api_request *req, struct api_response *resp,
                              const char *arg)
{
    (void)arg;
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    struct json_tournament t;
    struct json_err err;
    char id[AUTH_UUID_LEN + 1];
    if (json_in_tournament(req->body, req->body_len, &t, &err)) {
        routes_body_refused(resp, &err);
        json_tournament_free(&t);
        return;
    }
    /* A creation, as a game's or a player's: counted once the body is one (a refused body
     * takes no token, as with seeks). */
    if (routes_creation_limited_unkeyed(req, resp)) {
        json_tournament_free(&t);
        return;
    }
    /* An Idempotency-Key (the organiser's own): a repeat gets the first answer and creates
     * nothing more (nor takes a token); the answer is kept in the creation's transaction. */
    char scope[IDEM_SCOPE_MAX];
    keyed_scope(&me, scope);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp) || routes_creation_limited_keyed(req, resp) ||
        routes_new_id(resp, id)) {
        json_tournament_free(&t);
        return;
    }
    struct store_tournament_new row;
    json_tournament_row(&t, &row);
    row.id = id;
    row.organiser = me.id;
    struct create_ctx x = {req, resp, &idem, id};
    enum store_status s = store_tournament_create(&row, idem.active ? created_answer : NULL, &x);
    json_tournament_free(&t);
    if (s == STORE_DUPLICATE && idem.active) {
        /* The same key raced this request and won: answer as a repeat would. */
        if (idem_lost_race(req, scope, &idem, resp)) return;
        s = STORE_ERROR;
    }
    if (s != STORE_OK) {
        free(resp->body);
        memset(resp, 0, sizeof *resp);
        problem_store(resp, s);
        return;
    }
    log_kv(LOG_INFO, "tournament created", "tournament", id, "by", me.id, NULL);
    if (idem.active) return; /* its answer was made in the transaction */
    snprintf(resp->location, sizeof resp->location, "/v1/tournaments/%s", id);
    reply_tournament(resp, id, 201);
}

/* A keyed join, leave or start (Idempotency-Key, the player's own): what its answer is made
 * of, inside the store's transaction (keyed_answer()). */
enum keyed_kind { KEYED_JOIN, KEYED_LEAVE, KEYED_WITHDRAW, KEYED_START };
struct keyed_ctx {
    const struct api_request *req;
    struct api_response *resp;
    struct idem *idem;
    const char *id;
    enum keyed_kind kind;
    int answered; /* 1 once keyed_answer() made the answer in resp */
};

/* The status of the answer to keep for outcome `outcome` of a `kind` (the store's: enum
 * store_entry, was_in, started), or 0 for a refusal. */
static int keyed_status(enum keyed_kind kind, int outcome)
{
    int done = outcome == STORE_ENTRY_DONE, already = outcome == STORE_ENTRY_ALREADY;
    switch (kind) {
    case KEYED_JOIN:
        return done ? 201 : already ? 200 : 0;
    case KEYED_LEAVE:
        return done || already ? 204 : 0;
    case KEYED_WITHDRAW:
        return outcome ? 204 : 0;
    case KEYED_START:
        return outcome ? 200 : 0;
    }
    return 0;
}

/* store_tourney_keyed: the answer of a join, leave or start that did what it asked, made in
 * its transaction (the tournament read there) and kept for repeats of its key. */
static int keyed_answer(void *arg, int outcome, const struct store_idem **keep)
{
    struct keyed_ctx *x = arg;
    int status = keyed_status(x->kind, outcome);
    if (!status) return 0;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    if (status == 204) {
        x->resp->status = 204;
    } else {
        reply_tournament(x->resp, x->id, status);
    }
    if (idem_keep(x->idem, x->req, x->resp, status, keep)) return -1;
    x->answered = 1;
    return 0;
}

/* After a keyed store call that returned `s`: 0 when it went through, else 1 after
 * answering (a repeat's answer when the key's first request won a race, else the store's
 * failure: 404 for no such tournament). */
static int keyed_failed(struct keyed_ctx *x, const char *scope, enum store_status s)
{
    if (s == STORE_DUPLICATE && x->idem->active) {
        if (idem_lost_race(x->req, scope, x->idem, x->resp)) return 1;
        s = STORE_ERROR;
    }
    if (s == STORE_OK) return 0;
    free(x->resp->body);
    memset(x->resp, 0, sizeof *x->resp);
    return store_refused(x->resp, s);
}

/* A leave of running tournament `id` by `person`: out from now on, its running game resigned
 * (api.md, Additions II). 204, or 409 when it is no entrant still in a running tournament.
 * The leave's commit planned the tournament's sweep (tourney_sweep.h), which resigns the
 * game if this server dies before it does, or its resignation fails here. */
static void withdraw(struct keyed_ctx *x, const char *scope, const char *person)
{
    int was_in = 0, seat = -1;
    char game[AUTH_UUID_LEN + 1];
    x->kind = KEYED_WITHDRAW;
    enum store_status s = store_tourney_withdraw(x->id, person, &was_in, game, &seat,
                                                 x->idem->active ? keyed_answer : NULL, x);
    if (keyed_failed(x, scope, s)) return;
    if (!was_in) {
        problem_reply(x->resp, 409, "tournament_not_open",
                      "The tournament is not running with this player in it.");
        return;
    }
    log_kv(LOG_INFO, "tournament left after the start", "tournament", x->id, "player", person,
           NULL);
    if (game[0] && game_resign_seat(game, seat))
        log_kv(LOG_WARN, "a leaving entrant's game not resigned", "game", game, NULL);
    x->resp->status = 204;
}

/* A join (`join` 1) or a leave of tournament `id` by the request's player. */
static void entry(const struct api_request *req, struct api_response *resp, const char *id,
                  int join)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    if (routes_body_not_empty(req, resp)) return;
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    /* As a game's join; a refused body or a path that names no tournament takes none. */
    if (join && routes_creation_limited_unkeyed(req, resp)) return;
    char scope[IDEM_SCOPE_MAX];
    keyed_scope(&me, scope);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) return;
    if (join && routes_creation_limited_keyed(req, resp)) return;
    struct keyed_ctx x = {req, resp, &idem, id, join ? KEYED_JOIN : KEYED_LEAVE, 0};
    enum store_entry e;
    enum store_status s =
        store_tournament_entry(id, me.id, join, &e, idem.active ? keyed_answer : NULL, &x);
    if (keyed_failed(&x, scope, s)) return;
    if (e == STORE_ENTRY_NOT_OPEN && !join) {
        withdraw(&x, scope, me.id);
        return;
    }
    switch (e) {
    case STORE_ENTRY_NOT_OPEN:
        problem_reply(resp, 409, "tournament_not_open",
                      join ? "The tournament is no longer open: nobody joins now."
                           : "The tournament is no longer open: nobody leaves it this way now.");
        return;
    case STORE_ENTRY_FULL:
        problem_reply(resp, 409, "tournament_full",
                      "The tournament has its max_players entrants already.");
        return;
    case STORE_ENTRY_DONE:
        log_kv(LOG_INFO, join ? "tournament joined" : "tournament left", "tournament", id, "player",
               me.id, NULL);
        /* fall through */
    case STORE_ENTRY_ALREADY:
        break;
    }
    if (x.answered) return; /* made in the transaction */
    /* A join answers the tournament as it is now (201 when this request made the entry); a
     * leave, that it is gone either way. */
    if (!join) {
        resp->status = 204;
        return;
    }
    reply_tournament(resp, id, e == STORE_ENTRY_DONE ? 201 : 200);
}

void routes_tournament_join(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    entry(req, resp, id, 1);
}

void routes_tournament_leave(const struct api_request *req, struct api_response *resp,
                             const char *id)
{
    entry(req, resp, id, 0);
}

void routes_tournament_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    if (!id || !auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
        return;
    }
    reply_tournament(resp, id, 200);
}

void routes_tournaments_list(const struct api_request *req, struct api_response *resp,
                             const char *arg)
{
    (void)arg;
    static const char *const statuses[] = {"open", "running", "finished", "cancelled"};
    const char *status = api_query_get(req, "status");
    const char *limit = api_query_get(req, "limit");
    const char *which = NULL;
    for (size_t i = 0; status && i < sizeof statuses / sizeof statuses[0]; i++)
        if (strcmp(status, statuses[i]) == 0) which = statuses[i];
    if (status && !which) {
        problem_reply(resp, 400, "invalid_parameter",
                      "status must be open, running, finished or cancelled.");
        return;
    }
    long l = TOURNEY_LIST_DEFAULT;
    if (limit && (params_uint(limit, TOURNEY_LIST_MAX, &l) || l < 1)) {
        problem_reply(resp, 400, "invalid_parameter", "limit must be a number from 1 to 100.");
        return;
    }
    char *json = NULL;
    enum store_status s = store_tournaments_list(which, (int)l, &json);
    (void)api_reply_raw_member(resp, s, "tournaments", json);
}

void routes_tournament_start(const struct api_request *req, struct api_response *resp,
                             const char *id)
{
    struct store_person me;
    if (routes_player_auth(req, resp, &me)) return;
    if (routes_body_not_empty(req, resp)) return;
    struct store_tourney t;
    enum store_status s = id && auth_uuid_valid(id) ? store_tourney_load(id, &t) : STORE_NOT_FOUND;
    int mine = s == STORE_OK && strcmp(t.organiser, me.id) == 0;
    if (s == STORE_OK) store_tourney_free(&t);
    if (store_refused(resp, s)) return;
    if (!mine) {
        problem_reply(resp, 403, "not_organiser", "Only the tournament's organiser starts it.");
        return;
    }
    char scope[IDEM_SCOPE_MAX], found[16];
    keyed_scope(&me, scope);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) return;
    struct keyed_ctx x = {req, resp, &idem, id, KEYED_START, 0};
    if (keyed_failed(
            &x, scope,
            store_tourney_start(id, found, sizeof found, idem.active ? keyed_answer : NULL, &x)))
        return;
    if (strcmp(found, "too_few") == 0) {
        problem_reply(resp, 409, "tournament_too_few",
                      "A tournament starts with two entrants at least.");
        return;
    }
    if (strcmp(found, "started") != 0) {
        problem_reply(resp, 409, "tournament_not_open", "The tournament has started already.");
        return;
    }
    log_kv(LOG_INFO, "tournament started", "tournament", id, "by", me.id, NULL);
    if (!x.answered) reply_tournament(resp, id, 200);
}

/* The path's tournament id `id`: 0, or 1 after answering 404 (not a UUID: no tournament). */
static int tournament_id(struct api_response *resp, const char *id)
{
    if (id && auth_uuid_valid(id)) return 0;
    problem_reply(resp, 404, "not_found", "There is no tournament with this id.");
    return 1;
}

/* store_tourney_events_each() callback of a GET: one event into the answer's array. */
static int event_put(void *arg, int seq, const char *type, const char *json, size_t len)
{
    (void)seq, (void)type;
    json_out_raw(arg, json, len);
    return 0;
}

void routes_tournament_events(const struct api_request *req, struct api_response *resp,
                              const char *id)
{
    long after, wait;
    if (query_after_wait(req, resp, &after, &wait, TOURNEY_MAX_WAIT)) return;
    if (tournament_id(resp, id)) return;
    if (routes_wants_event_stream(req)) {
        routes_tourney_stream_open(req, resp, id, (int)after);
        return;
    }
    /* As the game's events' long poll: armed before the read, so that an event committed
     * meanwhile on any server still wakes it (0037 notifies every one). */
    int suspend = routes_long_poll_arm(req, id, (int)after, wait, live_wait_arm_tourney);
    struct json_out w;
    routes_long_poll_page_begin(&w, "events");
    int count = 0;
    struct store_tourney_progress p;
    enum store_status s =
        store_tourney_events_each(id, (int)after, TOURNEY_EVENTS_PAGE, event_put, &w, &count, &p);
    /* A finished or called-off tournament writes no more events: with none after `after`,
     * its long poll answers at once, as a finished game's does (p is zeroed on a failure). */
    int over = strcmp(p.status, "finished") == 0 || strcmp(p.status, "cancelled") == 0;
    if (routes_long_poll_page_end(req, resp, &w, s, "There is no tournament with this id.",
                                  count == 0 && !over, suspend))
        return;
    json_out_end_object(&w);
    api_reply_out(resp, 200, &w);
}

void routes_tournament_events_stream(const struct api_request *req, struct api_response *resp,
                                     const char *id)
{
    long after;
    if (query_after_wait(req, resp, &after, NULL, 0)) return;
    if (tournament_id(resp, id)) return;
    routes_tourney_stream_open(req, resp, id, (int)after);
}
