/* play.c: the game service's actions of a seat (draw, place, resign, a computer player's
 * move, the server's action for a timed-out seat) -- see service.h. */
#include <stdlib.h>
#include <string.h>

#include "batcher.h"
#include "clocks.h"
#include "game/service.h"
#include "json_game.h"
#include "spare.h"
#include "store_games.h"

/* Heap state of one action (the engine structs are large). */
struct turn {
    struct cc_events ev;                               /* the events the action caused */
    struct cc_placement placements[CC_MAX_PLACEMENTS]; /* scratch for the draw answer */
    uint8_t snapshot[CC_SNAPSHOT_MAX];                 /* the new state, encoded */
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
    char *rated;       /* a rated game's end: the answer with the ratings, malloc'd, or NULL
                          (answer stays: a remembered request's record borrows it) */
    size_t rated_len;  /* its bytes */
};

/* Frees what encode_action() wrote into `e`. */
static void encoded_free(struct encoded *e)
{
    free(e->events);
    free(e->action);
    free(e->game);
    free(e->answer);
    free(e->rated);
}

/*
 * Encodes action `p`, just applied to `ag` (its events in t->ev; `result` the game's
 * result when it ended, else NULL): the new state into t->snapshot, the texts into `e`
 * (encoded_free, also on failure). GAME_COMMITTED (meaning: encoded), GAME_CORRUPT or
 * GAME_NO_MEMORY.
 */
static enum game_outcome encode_action(const struct api_game *ag, const struct game_play *p,
                                       const char *result, struct turn *t, struct encoded *e)
{
    e->snap_len = cc_game_encode(&ag->g, t->snapshot, sizeof t->snapshot);
    if (!e->snap_len) return GAME_CORRUPT;
    int version = ag->row.version + 1;
    struct json_out w;
    json_out_init(&w);
    json_out_begin_array(&w);
    int first = ag->row.last_seq + 1, timed_out = 0;
    if (p->by == GAME_BY_CLOCK && !ag->row.clock.timed_out) {
        /* The server acts for a seat whose time ran out (clocks.c): said first. */
        clocks_json_timed_out(&w, &ag->row.clock, p->action.kind == CC_ACTION_RESIGN, first);
        timed_out = 1;
    }
    e->nev = timed_out + json_events_ended(&w, &ag->g, &t->ev, 0, first + timed_out, result);
    json_out_end_array(&w);
    e->events = json_out_take(&w, &e->events_len);
    json_action(&w, &ag->g, &p->action);
    e->action = json_out_take(&w, NULL);
    if (!p->place) {
        /* The draw's answer holds the game as GET shows it (at its new version): kept for
         * the cache too. */
        struct json_game_meta meta;
        games_meta(ag, &meta);
        meta.version = version;
        json_game(&w, &ag->g, &meta);
        e->game = json_out_take(&w, &e->game_len);
    }
    /* A draw's answer is its game, then its placements (300 bytes each, often 50 to 70):
     * room for them at once rather than doubling the buffer five times. */
    if (e->game) json_out_reserve(&w, e->game_len + 32768);
    json_out_begin_object(&w);
    if (p->place) {
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
    if (!e->events || !e->action || (!p->place && !e->game) || !e->answer) return GAME_NO_MEMORY;
    return GAME_COMMITTED;
}

/* An action whose commit waits in a batch (game_result.pending): what its end needs. */
struct game_pending {
    struct batch_req *queued; /* the commit in the batcher, until its result is taken */
    struct store_commit c;    /* the commit (its snapshot not kept: written already) */
    struct encoded e;         /* the action's texts (c points into them) */
};

/* Frees `pd`, dropping its commit if still queued. */
static void pending_free(struct game_pending *pd)
{
    if (!pd) return;
    if (pd->queued) batcher_cancel(pd->queued);
    encoded_free(&pd->e);
    free(pd);
}

/* The answer of committed action `e` of `ag` into `out` (taken from `e`). */
static void take_answer(const struct api_game *ag, struct encoded *e, struct game_result *out)
{
    out->version = ag->row.version;
    /* A rated game's end: the answer with the ratings (answer_with_ratings). */
    char **kept = e->rated ? &e->rated : &e->answer;
    out->answer = *kept;
    out->answer_len = e->rated ? e->rated_len : e->answer_len;
    *kept = NULL;
}

/* store_commit.rated_answer of a move that ends a rated game: its answer with the ratings
 * in game_finished, in place of e->answer. */
static const char *answer_with_ratings(void *ctx, const char *ratings)
{
    struct encoded *e = ctx;
    size_t len = 0;
    char *with = json_with_ratings(e->answer, e->answer_len, ratings, &len);
    if (!with) return NULL;
    free(e->rated);
    e->rated = with;
    e->rated_len = len;
    return with;
}

/* The stored kind of action `p`. */
static const char *action_kind(const struct game_play *p)
{
    return p->action.kind == CC_ACTION_RESIGN ? "resign" : p->place ? "place" : "draw";
}

/*
 * Tries `p` on game `ag` (changed by it): preconditions, apply, encode, and commit. Sets
 * *stale when a refusal or a lost version came from a cached copy (which may only be old:
 * nothing was stored, try again on the stored game).
 */
static enum game_outcome try_play(struct api_game *ag, const struct game_play *p, struct turn *t,
                                  struct game_result *out, int *stale)
{
    enum game_outcome rc;
    struct encoded e = {0};
    struct cc_action a = p->action;
    *stale = 0;
    /* Not while waiting for open seats, nor once aborted (0009); a cached copy may only
     * be old (the game started since): the stored game decides. */
    if (ag->row.state != STORE_PLAYING) {
        out->state = ag->row.state;
        rc = GAME_NOT_ACTIVE;
        goto refused;
    }
    if (p->precondition && p->precondition(p->ctx, ag->row.version)) {
        rc = GAME_PRECONDITION_FAILED;
        goto refused;
    }
    if (p->by != GAME_BY_CLOCK && ag->row.clock.kind && a.kind != CC_ACTION_RESIGN &&
        a.seat == ag->g.seat && clocks_expired(&ag->row.clock, &ag->g)) {
        /* Past the deadline, before the server acted for the seat: refused (0011). */
        rc = GAME_TURN_TIMED_OUT;
        goto refused;
    }
    t->ev.n = 0;
    enum cc_status st = cc_game_apply(&ag->g, &a, &t->ev);
    if (st != CC_OK) {
        if (a.kind == CC_ACTION_RESIGN && st == CC_ERR_GAME_FINISHED) {
            out->state = STORE_PLAYING; /* over already */
            rc = GAME_NOT_ACTIVE;
        } else {
            out->refusal = st;
            out->figure = a.figure;
            rc = GAME_REFUSED;
        }
        goto refused;
    }
    struct store_commit c = {
        .status = json_status(&ag->g),
        .result = NULL,
        .seat = a.seat,
        .kind = action_kind(p),
    };
    if (ag->g.phase == CC_PHASE_FINISHED) {
        /* A timed-out seat's resignation ends the game by "timeout". */
        int timeout = p->by == GAME_BY_CLOCK && cc_game_result(&ag->g) == CC_RESULT_RESIGNATION;
        game_end(ag, &c, timeout ? GAME_ENDS_TIMEOUT : GAME_ENDS_PLAYED);
    }
    rc = encode_action(ag, p, c.result, t, &e);
    if (rc != GAME_COMMITTED) goto out;
    c.last_seq = ag->row.last_seq + e.nev;
    c.snapshot = t->snapshot;
    c.snapshot_len = e.snap_len;
    c.action_json = e.action;
    c.events_json = e.events;
    c.rated_answer = answer_with_ratings;
    c.rated_ctx = &e;
    if (p->answered) c.idem = p->answered(p->ctx, e.answer, e.answer_len, ag->row.version + 1);
    struct batch_req *queued = NULL;
    rc = game_commit_queue(ag, &c, p->by, p->wait, &queued, e.game, e.game_len, &out->store);
    if (rc == GAME_PENDING) {
        struct game_pending *pd = malloc(sizeof *pd);
        if (!pd) {
            /* (Its result is needed to answer: waited for here.) */
            rc = game_commit_done(ag, &c, (enum store_status)batcher_wait(queued, NULL), e.game,
                                  e.game_len, &out->store);
        } else {
            pd->queued = queued;
            pd->c = c;
            pd->c.snapshot = NULL;
            pd->c.snapshot_len = 0;
            pd->c.rated_answer = NULL; /* (never rated: not batched) */
            pd->c.rated_ctx = NULL;
            pd->e = e; /* c's texts move with it */
            memset(&e, 0, sizeof e);
            out->pending = pd;
            return GAME_PENDING;
        }
    }
    if (rc == GAME_COMMITTED) {
        take_answer(ag, &e, out);
    } else if (rc == GAME_CONFLICT && ag->cached) {
        *stale = 1;
    }
    goto out;
refused:
    *stale = ag->cached;
out:
    encoded_free(&e);
    return rc;
}

/* `p` tried once more on the game as stored (*ag replaced by it; NULL when the read
 * failed), its commit made now. */
static enum game_outcome play_stored(struct api_game **ag, const struct game_play *p,
                                     struct turn *t, struct game_result *out)
{
    char id[sizeof(*ag)->id];
    memcpy(id, (*ag)->id, sizeof id);
    games_free(*ag);
    memset(out, 0, sizeof *out);
    *ag = games_fetch(id, GAMES_DB, -1, &out->load);
    if (!*ag) return GAME_LOAD_FAILED;
    struct game_play now = *p;
    now.wait = NULL;
    int stale;
    return try_play(*ag, &now, t, out, &stale);
}

enum game_outcome game_play(struct api_game **ag, const struct game_play *p,
                            struct game_result *out)
{
    memset(out, 0, sizeof *out);
    struct turn *t = spare_take(SPARE_TURN, sizeof *t);
    if (!t) return GAME_NO_MEMORY;
    int stale = 0;
    enum game_outcome rc = try_play(*ag, p, t, out, &stale);
    if (stale) rc = play_stored(ag, p, t, out);
    spare_give(SPARE_TURN, t);
    return rc;
}

enum game_outcome game_play_resume(struct api_game **ag, const struct game_play *p,
                                   struct game_result *out, int block)
{
    struct game_pending *pd = out->pending;
    int st = block ? batcher_wait(pd->queued, NULL) : batcher_result(pd->queued, NULL);
    if (st < 0) return GAME_PENDING;
    pd->queued = NULL; /* (freed by the batcher) */
    out->pending = NULL;
    enum game_outcome rc = game_commit_done(*ag, &pd->c, (enum store_status)st, pd->e.game,
                                            pd->e.game_len, &out->store);
    if (rc == GAME_COMMITTED) {
        take_answer(*ag, &pd->e, out);
    } else if (rc == GAME_CONFLICT && (*ag)->cached) {
        /* The cached copy was old: as game_play() does, once more on the stored game. */
        struct turn *t = spare_take(SPARE_TURN, sizeof *t);
        rc = t ? play_stored(ag, p, t, out) : GAME_NO_MEMORY;
        spare_give(SPARE_TURN, t);
    }
    pending_free(pd);
    return rc;
}

void game_result_free(struct game_result *r)
{
    free(r->answer);
    pending_free(r->pending);
    memset(r, 0, sizeof *r);
}

enum game_outcome game_play_resign(struct api_game **agp, int seat)
{
    struct game_play p = {.by = GAME_BY_SEAT, .place = 1};
    p.action.kind = CC_ACTION_RESIGN;
    p.action.tile = CC_NO_TILE;
    p.action.seat = (uint8_t)seat;
    struct game_result res;
    enum game_outcome out = game_play(agp, &p, &res);
    game_result_free(&res);
    return out;
}

int game_resign_seat(const char *game, int seat)
{
    enum games_fail why;
    struct api_game *ag = games_fetch(game, GAMES_DB, -1, &why);
    if (!ag) return why == GAMES_NOT_FOUND ? 0 : -1;
    int rc = 0;
    if (ag->row.state == STORE_PLAYING && seat >= 0 && seat < ag->g.nplayers &&
        !cc_seat_resigned(&ag->g, (unsigned)seat))
        rc = game_outcome_failed(game_play_resign(&ag, seat)) ? -1 : 0;
    games_free(ag);
    return rc;
}
