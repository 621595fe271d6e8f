/* routes_games.c: creating a game and the public reads (game, scores, events). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "auth.h"
#include "bots.h"
#include "clocks.h"
#include "game/service.h"
#include "game_answers.h"
#include "idem.h"
#include "jobs.h"
#include "json_game.h"
#include "json_in.h"
#include "live.h"
#include "log.h"
#include "netaddr.h"
#include "problem.h"
#include "query_args.h"
#include "ratings.h"
#include "replay.h"
#include "routes.h"
#include "store.h"
#include "webhook.h"
#include "store_games.h"
#include "store_people.h"

#define EVENTS_PAGE  1000     /* events per answer at most */
#define MAX_WAIT     60       /* seconds a long poll may wait */
#define CREATE_SCOPE "create" /* Idempotency-Key scope of POST /v1/games ("create/<player id>") */

/* Heap state of a create request (the engine structs are large). */
struct create {
    struct json_new_game in;                         /* the decoded body */
    struct cc_game g;                                /* the new game */
    struct cc_events ev;                             /* its setup events */
    struct store_player players[CC_MAX_PLAYERS];     /* names and token hashes */
    char tokens[CC_MAX_PLAYERS][AUTH_TOKEN_LEN + 1]; /* the secrets, answered once */
    char invite[CC_MAX_PLAYERS][AUTH_TOKEN_LEN + 1]; /* open seats' invites, answered once */
    struct game_new n;                               /* the game as the service creates it */
};

/*
 * The open seats of a new game (c->in.open_seats, 0009): each gets an invite (256 random
 * bits, in c->invite and invites[], answered once) whose SHA-256 alone is stored, and no
 * seat token (tokens[] NULL; the one drawn is thrown away unseen, as for a bound seat).
 * Returns 0, or -1 after answering 500.
 */
static int open_seats_new(struct create *c, const char **tokens, const char **invites,
                          struct api_response *resp)
{
    for (unsigned s = 0; s < c->g.nplayers; s++) {
        invites[s] = NULL;
        if (!(c->in.open_seats & (1u << s))) continue;
        memset(c->tokens[s], 0, sizeof c->tokens[s]);
        tokens[s] = NULL;
        if (auth_token_new(c->invite[s]) ||
            auth_sha256(c->invite[s], AUTH_TOKEN_LEN, c->players[s].invite_sha)) {
            problem_reply(resp, 500, "internal_error", "No invite could be drawn.");
            return -1;
        }
        c->players[s].open = 1;
        invites[s] = c->invite[s];
    }
    return 0;
}

/*
 * The set-up rules of a rated game (api.md, "Ratings and leaderboards" and "Additions II"):
 * every seat a player's ({"player": "me"}, or open: it is then joined with a player token)
 * or a computer player, the server deals (no seed, deck or start tile), no hints (left out
 * means off), a clock. And every seat its own rating: a game rates each seat against the
 * others, so two computer players of one level and think class (one rating, "Additions
 * II") cannot sit at one rated table (one person cannot either: a join refuses a second
 * seat, 409 already_seated). Returns 0 when `in` follows them, else -1 with what is
 * missing, each named, in why[cap].
 */
static int rated_setup(const struct json_new_game *in, char *why, size_t cap)
{
    size_t o = 0;
    int missing = 0;
    o += (size_t)snprintf(why, cap, "A rated game needs");
#define MISSING(...)                                                                               \
    do {                                                                                           \
        if (o < cap) o += (size_t)snprintf(why + o, cap - o, "%s", missing++ ? ";" : ":");         \
        if (o < cap) o += (size_t)snprintf(why + o, cap - o, __VA_ARGS__);                         \
    } while (0)
    for (int s = 0; s < in->setup.nplayers; s++) {
        int bound = s == in->me_seat || (in->open_seats & (1u << s)) || in->bots[s][0];
        if (!bound) {
            MISSING(" every seat bound to a player ({\"player\": \"me\"}, or {\"open\": true} "
                    "joined with a player token) or a computer player (players[%d] is a name)",
                    s);
            break;
        }
    }
    for (int s = 0, found = 0; s < in->setup.nplayers && !found; s++)
        for (int t = s + 1; t < in->setup.nplayers && !found; t++) {
            const char *c = ratings_think_class(in->think_ms[s]);
            if (!in->bots[s][0] || strcmp(in->bots[s], in->bots[t]) != 0 ||
                strcmp(c, ratings_think_class(in->think_ms[t])) != 0)
                continue;
            MISSING(" a rating of its own at each seat (players[%d] and players[%d] are both the "
                    "%s computer player of think class %s, one rating: give one of them another "
                    "level or think_ms)",
                    s, t, in->bots[s], c);
            found = 1;
        }
    if (in->seed_given || in->setup.deck_len >= 0 || in->start[0])
        MISSING(" the server to deal (leave out%s%s%s)", in->seed_given ? " \"seed\"" : "",
                in->setup.deck_len >= 0 ? " \"deck\"" : "", in->start[0] ? " \"start\"" : "");
    if (in->hints_given && !in->hints_off) MISSING(" no hints (\"hints\": false, or leave it out)");
    if (!in->clock.kind) MISSING(" a \"clock\"");
#undef MISSING
    if (!missing) return 0;
    if (o < cap) snprintf(why + o, cap - o, ".");
    return -1;
}

void routes_game_create(const struct api_request *req, struct api_response *resp, const char *arg)
{
    (void)arg;
    if (routes_is_replay(req->body, req->body_len)) { /* {"replay": <export>}: routes_export.c */
        routes_game_replay(req, resp);
        return;
    }
    struct create *c = calloc(1, sizeof *c);
    struct json_out w;
    json_out_init(&w);
    char *events_txt = NULL, *answer_txt = NULL;
    struct idem idem;
    if (!c) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    if (routes_creation_limited_unkeyed(req, resp)) goto out;
    struct json_err err;
    if (json_in_new_game(req->body, req->body_len, &c->in, &err)) {
        problem_reply(resp, 400, err.code, err.detail);
        goto out;
    }
    if (c->in.rated) {
        char missing[400];
        if (rated_setup(&c->in, missing, sizeof missing)) {
            problem_reply(resp, 400, "unrated_setup", missing);
            goto out;
        }
        c->in.hints_off = 1; /* a rated game has no hints */
    }
    char why[160], secret[WEBHOOK_SECRET_LEN + 1] = "";
    if (c->in.webhook_url[0] && webhook_url_check(c->in.webhook_url, why, sizeof why)) {
        problem_reply(resp, 400, "invalid_webhook_url", why);
        goto out;
    }
    /* A seat {"player": "me"} is the caller's own (its player token). A player token, when
     * the request carries one (it must then be valid), scopes the Idempotency-Key to that
     * player; without one the key is anonymous and must be long (idem_begin_anonymous). */
    struct store_person me;
    memset(&me, 0, sizeof me);
    char scope[IDEM_SCOPE_MAX] = CREATE_SCOPE;
    int by_player = c->in.me_seat >= 0 || req->authorization;
    if (by_player) {
        if (routes_player_auth(req, resp, &me)) goto out;
        if (c->in.me_seat >= 0)
            snprintf(c->in.names[c->in.me_seat], sizeof c->in.names[0], "%s", me.name);
        snprintf(scope, sizeof scope, "%s/%s", CREATE_SCOPE, me.id);
    }
    if (by_player ? idem_begin(req, scope, &idem, resp)
                  : idem_begin_anonymous(req, scope, &idem, resp))
        goto out;
    if (routes_creation_limited_keyed(req, resp)) goto out;
    if (c->in.webhook_url[0] && webhook_secret_new(secret)) {
        problem_reply(resp, 500, "internal_error", "No secret could be drawn.");
        goto out;
    }
    if (!c->in.seed_given && auth_random_u64(&c->in.setup.seed)) {
        problem_reply(resp, 500, "internal_error", "No random seed could be drawn.");
        goto out;
    }
    enum cc_status st = cc_game_new(&c->g, &c->in.setup, &c->ev);
    if (st != CC_OK) {
        problem_engine(resp, st);
        goto out;
    }
    const char *tokens[CC_MAX_PLAYERS];
    for (unsigned s = 0; s < c->g.nplayers; s++) {
        snprintf(c->players[s].name, sizeof c->players[s].name, "%s", c->in.names[s]);
        if (auth_token_new(c->tokens[s]) ||
            auth_sha256(c->tokens[s], AUTH_TOKEN_LEN, c->players[s].token_hash)) {
            problem_reply(resp, 500, "internal_error", "No token could be drawn.");
            goto out;
        }
        tokens[s] = c->tokens[s];
        if ((int)s == c->in.me_seat) {
            /* The player's own seat: its token is thrown away unseen (0008), the player
             * token acts for it (games_seat). */
            memset(c->tokens[s], 0, sizeof c->tokens[s]);
            tokens[s] = NULL;
            snprintf(c->players[s].person_id, sizeof c->players[s].person_id, "%s", me.id);
        }
    }
    bots_seats_new(&c->in, c->g.nplayers, c->players, c->tokens, tokens);
    const char *invites[CC_MAX_PLAYERS];
    if (open_seats_new(c, tokens, invites, resp)) goto out;
    const char *names[CC_MAX_PLAYERS];
    for (int s = 0; s < CC_MAX_PLAYERS; s++) names[s] = c->in.names[s];
    json_out_begin_array(&w);
    json_created_event(&w, &c->g, names);
    int nev = 1 + json_events(&w, &c->g, &c->ev, 0, 2);
    json_out_end_array(&w);
    events_txt = json_out_take(&w, NULL);

    struct game_new *n = &c->n;
    n->setup = &c->in.setup;
    n->g = &c->g;
    n->players = c->players;
    n->start = c->in.start[0] ? c->in.start : NULL;
    n->open_seats = c->in.open_seats;
    n->clock = c->in.clock;
    n->hints_off = c->in.hints_off;
    n->rated = c->in.rated;
    n->chat_public = c->in.chat_public;
    n->listed = c->in.listed;
    n->seed_chosen = c->in.seed_given; /* a seed given: chosen (0022) */
    n->events_json = events_txt;
    n->last_seq = nev;
    n->version = 1;
    n->webhook_url = secret[0] ? c->in.webhook_url : NULL;
    n->webhook_secret = secret[0] ? secret : NULL;
    n->webhook_format = secret[0] ? c->in.webhook_format : NULL;
    enum game_outcome rc = game_create_begin(n);
    if (rc != GAME_COMMITTED) {
        routes_game_outcome(resp, rc, &(struct game_result){.retry_after = n->retry_after});
        goto out;
    }
    /* An idempotent repeat gets this answer again, tokens, invites and webhook secret
     * included: idem_remember() has it sealed under the key (seal.h), so the database
     * alone shows none of them. */
    struct json_game_meta meta = {.id = n->id,
                                  .version = 1,
                                  .names = names,
                                  .seats = c->players,
                                  .hints_off = c->in.hints_off,
                                  .chat_public = c->in.chat_public,
                                  .seed_chosen = c->in.seed_given,
                                  .rated = c->in.rated,
                                  .clock = n->clock.kind ? &n->clock : NULL};
    if (c->in.open_seats) { /* waiting for them (0013); the invites only in the answer */
        meta.status = "waiting";
        meta.open = c->in.open_seats;
    }
    meta.tokens = tokens;
    meta.invite = invites;
    json_game(&w, &c->g, &meta);
    size_t answer_len = 0;
    answer_txt = json_out_take(&w, &answer_len);
    if (answer_txt && secret[0]) {
        /* The webhook's secret is shown here once, like the tokens. */
        char *with =
            routes_webhook_splice(answer_txt, answer_len, c->in.webhook_url, secret, &answer_len);
        free(answer_txt);
        answer_txt = with;
    }
    if (!answer_txt || !events_txt) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    if (!routes_game_store_new(req, scope, by_player, &idem, n, 1, &answer_txt, answer_len, resp))
        goto out;
    log_kv(LOG_INFO, "game created", "game", n->id, "ruleset",
           cc_ruleset_name((enum cc_ruleset)c->g.ruleset), NULL);
out:
    json_out_free(&w);
    free(events_txt);
    free(answer_txt);
    if (c) game_new_free(&c->n);
    free(c);
}

int routes_game_store_new(const struct api_request *req, const char *scope, int by_player,
                          struct idem *idem, struct game_new *n, int version, char **answer,
                          size_t answer_len, struct api_response *resp)
{
    resp->status = 201;
    snprintf(resp->location, sizeof resp->location, "/v1/games/%s", n->id);
    games_etag(resp, version);
    if (idem->active) idem_remember(idem, req, resp, *answer);
    /* The creating address, whose games share the job workers (jobs.h, 0020). */
    char owner[NETADDR_KEY_MAX];
    n->owner = netaddr_key(req->client_addr, owner, sizeof owner);
    enum store_status ss;
    enum game_outcome rc = game_create(n, idem->active ? &idem->rec : NULL, &ss);
    n->owner = NULL; /* the buffer is gone after the return */
    if (rc == GAME_DUPLICATE && idem->active) {
        /* The same key raced us and won: answer as a repeat would. */
        resp->location[0] = resp->etag[0] = '\0';
        if (by_player ? idem_begin(req, scope, idem, resp)
                      : idem_begin_anonymous(req, scope, idem, resp))
            return 0;
    }
    if (rc != GAME_COMMITTED) {
        resp->location[0] = resp->etag[0] = '\0';
        problem_store(resp, ss);
        return 0;
    }
    api_reply_take(resp, 201, "application/json", *answer);
    resp->len = answer_len;
    *answer = NULL;
    return 1;
}

/* GET /v1/games/{id}: 304 to a matching If-None-Match, else the game (from the cache). */
static void game_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    int version;
    if (games_current_version(id, req, resp, &version)) return;
    if (version >= 0 && idem_if_none_match(req, version, resp)) return;
    if (games_answer_cached(id, version, resp)) return;
    struct api_game *ag = games_load_at(id, GAMES_CURRENT, version, resp);
    if (!ag) return;
    if (version < 0 && idem_if_none_match(req, ag->row.version, resp)) {
        games_free(ag);
        return;
    }
    struct json_game_meta meta;
    games_meta(ag, &meta);
    struct json_out w;
    json_out_init(&w);
    json_game(&w, &ag->g, &meta);
    api_reply_out(resp, 200, &w);
    if (resp->status == 200) {
        games_etag(resp, ag->row.version);
        games_remember(ag, resp->body, resp->len);
    }
    games_free(ag);
}

/* GET /v1/games/{id}?version=N: the game after version N (replay.h), which never changes. */
static void game_get_past(const struct api_request *req, struct api_response *resp, const char *id,
                          int want)
{
    int version;
    if (games_current_version(id, req, resp, &version)) return;
    if (version >= 0 && want > version) {
        problem_reply(resp, 404, "version_not_found",
                      "The game has not reached this version (yet): see its version.");
        return;
    }
    if (version >= 0 && idem_if_none_match(req, want, resp)) return;
    struct api_game *ag = replay_load(id, want, resp);
    if (!ag) return;
    if (idem_if_none_match(req, want, resp)) {
        games_free(ag);
        return;
    }
    /* The state as it was, the lobby's too (replay_load: waiting with its open seats open
     * and their placeholder names, or aborted); the seats' computer players as they are. */
    struct json_game_meta meta;
    games_meta(ag, &meta);
    meta.version = want;
    meta.seat_ratings = 0; /* as it was: neither the ratings of now nor the clock */
    meta.clock = NULL;
    struct json_out w;
    json_out_init(&w);
    json_game(&w, &ag->g, &meta);
    api_reply_out(resp, 200, &w);
    if (resp->status == 200) games_etag(resp, want);
    games_free(ag);
}

void routes_game_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    int want;
    if (replay_version_param(req, resp, &want)) return;
    if (want >= 0) {
        game_get_past(req, resp, id, want);
        if (resp->status == 200 || resp->status == 304) replay_cache_forever(resp);
        return;
    }
    game_get(req, resp, id);
    /* Caches may keep the game, asking again each time (If-None-Match: a 304 is cheap). */
    if (resp->status == 200 || resp->status == 304) resp->cache_control = "no-cache";
}

void routes_scores(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    struct json_out w;
    json_out_init(&w);
    json_scores_as(&w, &ag->g, ag->names, games_status(ag));
    api_reply_out(resp, 200, &w);
    games_etag(resp, ag->row.version);
    games_free(ag);
}

void routes_events_stream(const struct api_request *req, struct api_response *resp, const char *id)
{
    long after;
    if (query_after_wait(req, resp, &after, NULL, 0)) return;
    if (query_game_id(resp, id)) return;
    routes_event_stream(req, resp, id, (int)after);
}

void routes_events(const struct api_request *req, struct api_response *resp, const char *id)
{
    long after, wait, limit;
    if (query_after_wait(req, resp, &after, &wait, MAX_WAIT)) return;
    if (query_uint(req, "limit", EVENTS_PAGE, &limit) ||
        (api_query_get(req, "limit") && limit < 1)) {
        problem_reply(resp, 400, "invalid_parameter",
                      "limit must be one integer from 1 to 1000 (and 16 parameters at most).");
        return;
    }
    if (!api_query_get(req, "limit")) limit = EVENTS_PAGE;
    if (query_game_id(resp, id)) return;
    if (routes_wants_event_stream(req)) {
        routes_event_stream(req, resp, id, (int)after);
        return;
    }
    /* A long poll waits on the live hub (live.h). */
    int suspend = routes_long_poll_arm(req, id, (int)after, wait, live_wait_arm);
    struct store_events_page page;
    enum store_status s = store_events_page(id, (int)after, (int)limit, &page);
    if (s != STORE_OK) {
        live_wait_end(req->async);
        problem_store(resp, s); /* 404 for no such game */
        return;
    }
    /* A finished game has no event to wait for: its long poll answers at once. */
    if (page.count == 0 && suspend && !page.finished) {
        free(page.json);
        /* Woken by the hub; without it, run again at the HTTP layer's next tick. */
        resp->suspend = suspend;
        return;
    }
    live_wait_end(req->async);
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_key(&w, "events");
    json_out_raw(&w, page.json, strlen(page.json));
    json_out_key(&w, "has_more");
    json_out_bool(&w, page.count > 0 && page.last_seq < page.game_last_seq);
    json_out_kint(&w, "last_seq", page.game_last_seq);
    json_out_kstring(&w, "status", page.status);
    json_out_end_object(&w);
    free(page.json);
    api_reply_out(resp, 200, &w);
}
