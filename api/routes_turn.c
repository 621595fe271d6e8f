/* routes_turn.c: the actions of a turn (draw, place) and the legal placements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clocks.h"
#include "games.h"
#include "idem.h"
#include "json_game.h"
#include "json_in.h"
#include "log.h"
#include "problem.h"
#include "routes.h"
#include "store.h"

/* Heap state of an action request (the engine structs are large). */
struct turn {
    struct cc_events ev;                               /* the events the action caused */
    struct cc_placement placements[CC_MAX_PLACEMENTS]; /* scratch for the draw answer */
    uint8_t snapshot[CC_SNAPSHOT_MAX];                 /* the new state, encoded */
};

/* How trying an action on one state of the game ended. */
enum tried {
    TRIED_ANSWERED, /* resp holds the answer (success, refusal or failure) */
    TRIED_STALE     /* refused or not committed on a cached state: try again from the database */
};

/* The texts of an applied action: what its commit stores, and its answer. */
struct encoded {
    size_t snap_len;   /* bytes of the snapshot (struct turn) */
    int nev;           /* events in `events` */
    char *events;      /* JSON array of the new events, malloc'd */
    size_t events_len; /* its bytes */
    char *action;      /* the action as applied (JSON), malloc'd */
    char *game;        /* draw: the game as GET shows it (kept for the cache), else NULL */
    size_t game_len;   /* its bytes */
    char *answer;      /* the answer's body, malloc'd */
    size_t answer_len; /* its bytes */
};

/* Frees what encode_action() wrote into `e`. */
static void encoded_free(struct encoded *e)
{
    free(e->events);
    free(e->action);
    free(e->game);
    free(e->answer);
}

/*
 * Encodes action `a`, just applied to `ag` (its events in t->ev): the new state into
 * t->snapshot, the texts into `e` (encoded_free, also on failure). Returns 0, or -1 after
 * answering 500 (a state that does not encode, or out of memory).
 */
static int encode_action(const struct api_game *ag, const struct cc_action *a, int place,
                         struct turn *t, struct encoded *e, struct api_response *resp)
{
    e->snap_len = cc_game_encode(&ag->g, t->snapshot, sizeof t->snapshot);
    if (!e->snap_len) {
        problem_engine(resp, CC_ERR_CORRUPT);
        return -1;
    }
    int version = ag->row.version + 1;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    int first = ag->row.last_seq + 1, timed_out = 0;
    if (ag->clock_auto && !ag->row.clock.timed_out) {
        /* The server acts for a seat whose time ran out (clocks.c): said first. */
        const struct store_clock *cl = &ag->row.clock;
        char d[32];
        clocks_rfc3339(cl->deadline_ms, d);
        json_out_begin_object(&w);
        json_out_kint(&w, "seq", first);
        json_out_kstring(&w, "type", "turn_timed_out");
        json_out_kint(&w, "seat", cl->turn_seat);
        json_out_kint(&w, "turn", cl->turn_no);
        json_out_kstring(&w, "deadline", d);
        json_out_kint(&w, "late_ms", clocks_now_ms() - cl->deadline_ms);
        json_out_kint(&w, "timeouts_in_a_row", cl->timeouts[cl->turn_seat] + 1);
        json_out_kstring(&w, "action", a->kind == CC_ACTION_RESIGN ? "resign" : "autoplay");
        json_out_end_object(&w);
        timed_out = 1;
    }
    e->nev = timed_out + json_events(&w, &ag->g, &t->ev, 0, first + timed_out);
    json_out_end_array(&w);
    e->events = json_out_take(&w, &e->events_len);
    if (ag->clock_auto && e->events && ag->g.phase == CC_PHASE_FINISHED) {
        /* A game a timeout's resignation ends ended by "timeout" (same length: in place). */
        char *r = strstr(e->events, "\"result\":\"resignation\"");
        if (r) memcpy(r + 10, "timeout\"    ", 12);
    }
    json_action(&w, &ag->g, a);
    e->action = json_out_take(&w, NULL);
    if (!place) {
        /* The draw's answer holds the game as GET shows it: kept for the cache too. */
        struct json_game_meta meta = {.id = ag->id,
                                      .version = version,
                                      .names = ag->names,
                                      .seats = ag->row.players,
                                      .hints_off = ag->row.hints_off,
                                      .seed_chosen = ag->row.seed_chosen,
                                      .clock = &ag->row.clock};
        json_game(&w, &ag->g, &meta);
        e->game = json_out_take(&w, &e->game_len);
    }
    json_out_begin_object(&w);
    if (place) {
        json_out_kint(&w, "version", version);
        /* What comes next, so that no second read is needed (the bot of the next seat
         * reads its own turn anyway). */
        json_out_kstring(&w, "status", json_status(&ag->g));
        json_out_key(&w, "turn");
        json_turn(&w, &ag->g);
    } else if (e->game) {
        json_out_key(&w, "game");
        json_out_raw(&w, e->game, e->game_len);
        json_out_key(&w, "tile");
        json_drawn_tile(&w, &ag->g);
        json_out_key(&w, "placements");
        json_placement_list(&w, &ag->g, t->placements, CC_MAX_PLACEMENTS);
    }
    json_out_key(&w, "events");
    json_out_raw(&w, e->events ? e->events : "[]", e->events ? e->events_len : 2);
    json_out_end_object(&w);
    e->answer = json_out_take(&w, &e->answer_len);
    json_out_free(&w);
    if (!e->events || !e->action || (!place && !e->game) || !e->answer) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return -1;
    }
    return 0;
}

/*
 * Tries action `a` of `seat` on game `ag` (changed by it): precondition, apply, encode
 * (encode_action), answer, and store it (games_commit). A refusal or a lost race on a
 * state that came from the cache may only mean the copy was stale: then TRIED_STALE and
 * `resp` is left alone.
 */
static enum tried try_action(const struct api_request *req, struct api_response *resp,
                             struct api_game *ag, struct cc_action *a, int place, struct idem *idem,
                             const char *scope, struct turn *t)
{
    enum tried rc = TRIED_ANSWERED;
    struct encoded e = {0};
    struct api_response refused = {0};
    /* Not while waiting for open seats, nor once aborted (0009); a cached copy may only
     * be old (the game started since): the stored game decides. */
    if (games_not_active(ag, ag->cached ? &refused : resp)) {
        if (ag->cached) rc = TRIED_STALE;
        goto out;
    }
    if (idem_if_match(req, ag->row.version, ag->cached ? &refused : resp)) {
        if (ag->cached) rc = TRIED_STALE;
        goto out;
    }
    if (!ag->clock_auto && ag->row.clock.kind && a->kind != CC_ACTION_RESIGN &&
        a->seat == ag->g.seat && clocks_expired(&ag->row.clock, &ag->g)) {
        /* Past the deadline, before the server acted for the seat: refused (0011). */
        if (ag->cached)
            rc = TRIED_STALE;
        else
            problem_reply(resp, 409, "turn_timed_out",
                          "The turn's time ran out: the server plays or resigns for the seat.");
        goto out;
    }
    t->ev.n = 0;
    enum cc_status st = cc_game_apply(&ag->g, a, &t->ev);
    if (st != CC_OK) {
        if (ag->cached)
            rc = TRIED_STALE;
        else if (a->kind == CC_ACTION_RESIGN && st == CC_ERR_GAME_FINISHED)
            problem_reply(resp, 409, "game_not_active", "Only a game under way can be resigned.");
        else
            problem_engine(resp, st);
        goto out;
    }
    if (encode_action(ag, a, place, t, &e, resp)) goto out;
    api_reply_take(resp, place && a->kind == CC_ACTION_PLACE ? 201 : 200, "application/json",
                   e.answer);
    resp->len = e.answer_len;
    e.answer = NULL;
    games_etag(resp, ag->row.version + 1);
    if (idem->active) idem_remember(idem, req, resp, resp->body);
    struct store_commit c = {
        .status = json_status(&ag->g),
        .result = ag->clock_auto && cc_game_result(&ag->g) == CC_RESULT_RESIGNATION
                      ? "timeout"
                      : json_result(&ag->g),
        .last_seq = ag->row.last_seq + e.nev,
        .snapshot = t->snapshot,
        .snapshot_len = e.snap_len,
        .seat = a->seat,
        .kind = a->kind == CC_ACTION_RESIGN ? "resign"
                : place                     ? "place"
                                            : "draw",
        .action_json = e.action,
        .events_json = e.events,
        .idem = idem->active ? &idem->rec : NULL,
    };
    enum store_status ss;
    switch (games_commit(ag, &c, e.game, e.game_len, &ss)) {
    case GAMES_COMMITTED:
        break;
    case GAMES_STALE:
        free(resp->body);
        memset(resp, 0, sizeof *resp);
        rc = TRIED_STALE;
        break;
    case GAMES_FAILED:
        resp->etag[0] = '\0';
        if (ss == STORE_DUPLICATE && idem->active) {
            /* The same key raced us and won: answer as a repeat would. */
            if (idem_begin(req, scope, idem, resp)) break;
            ss = STORE_CONFLICT;
        }
        problem_store(resp, ss);
        break;
    }
out:
    free(refused.body);
    encoded_free(&e);
    return rc;
}

/* The kinds of action act() runs. */
enum act_kind { ACT_DRAW = 0, ACT_PLACE = 1, ACT_RESIGN = 2 };

/*
 * Runs an action for `id`: decode, authenticate, replay, then try it (try_action) on the
 * game as the cache holds it, and once more on the game as stored if that copy was stale.
 * `kind` selects placement (body decoded for the game's ruleset), draw or resignation
 * (both with an empty body; a resignation answers like a placement, with 200).
 */
static void act(const struct api_request *req, struct api_response *resp, const char *id,
                enum act_kind kind)
{
    int place = kind != ACT_DRAW; /* answered with version and events, not the game */
    struct turn *t = NULL;
    struct api_game *ag = games_load(id, GAMES_ANY, resp);
    if (!ag) return;
    int seat = games_seat(req, ag, resp);
    if (seat < 0) goto out;
    struct cc_action a;
    struct json_err err;
    if (kind == ACT_PLACE) {
        if (json_in_placement(req->body, req->body_len, (enum cc_ruleset)ag->g.ruleset, &a, &err)) {
            problem_reply(resp, 400, err.code, err.detail);
            goto out;
        }
    } else {
        if (json_in_empty(req->body, req->body_len, &err)) {
            problem_reply(resp, 400, err.code, err.detail);
            goto out;
        }
        memset(&a, 0, sizeof a);
        a.kind = kind == ACT_RESIGN ? CC_ACTION_RESIGN : CC_ACTION_DRAW;
        a.tile = CC_NO_TILE;
    }
    a.seat = (uint8_t)seat;
    char scope[IDEM_SCOPE_MAX];
    snprintf(scope, sizeof scope, "%s/%d", ag->id, seat);
    struct idem idem;
    if (idem_begin(req, scope, &idem, resp)) goto out;
    t = malloc(sizeof *t);
    if (!t) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        goto out;
    }
    if (try_action(req, resp, ag, &a, place, &idem, scope, t) == TRIED_STALE) {
        games_free(ag);
        ag = games_load(id, GAMES_DB, resp);
        if (ag) (void)try_action(req, resp, ag, &a, place, &idem, scope, t);
    }
    /* A repeat of a key whose first request was in flight loses the race or finds the game
     * moved on by it: it gets the first answer instead of the refusal. */
    if (idem.active && resp->status >= 400 && resp->status < 500)
        (void)idem_replay_if_done(req, scope, resp);
out:
    free(t);
    games_free(ag);
}

void routes_draw(const struct api_request *req, struct api_response *resp, const char *id)
{
    act(req, resp, id, ACT_DRAW);
}

void routes_placements_post(const struct api_request *req, struct api_response *resp,
                            const char *id)
{
    act(req, resp, id, ACT_PLACE);
}

void routes_resign(const struct api_request *req, struct api_response *resp, const char *id)
{
    act(req, resp, id, ACT_RESIGN);
}

void routes_placements_get(const struct api_request *req, struct api_response *resp, const char *id)
{
    (void)req;
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return;
    int hand = cc_game_uses_hand(&ag->g);
    if (ag->g.phase == CC_PHASE_FINISHED) {
        problem_engine(resp, CC_ERR_GAME_FINISHED);
    } else if (ag->g.phase != CC_PHASE_PLACE && !hand) {
        problem_engine(resp, CC_ERR_WRONG_PHASE);
    } else {
        struct cc_placement *buf = malloc(CC_MAX_PLACEMENTS * sizeof *buf);
        if (!buf) {
            problem_reply(resp, 500, "internal_error", "Out of memory.");
        } else {
            struct json_out w;
            json_out_init(&w);
            json_placements(&w, &ag->g, buf, CC_MAX_PLACEMENTS);
            api_reply_out(resp, 200, &w);
        }
        free(buf);
        games_etag(resp, ag->row.version);
    }
    games_free(ag);
}

void routes_turn_play(struct api_game *ag, struct cc_action *a, struct api_response *resp)
{
    /* As a request carrying the seat's token would, without If-Match or Idempotency-Key. */
    struct api_request req = {.method = "POST", .path = "", .body = ""};
    struct idem idem;
    memset(&idem, 0, sizeof idem);
    struct turn *t = malloc(sizeof *t);
    if (!t) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    if (try_action(&req, resp, ag, a, a->kind != CC_ACTION_DRAW, &idem, "", t) == TRIED_STALE)
        problem_store(resp, STORE_CONFLICT); /* 412: the game moved on */
    free(t);
}
