/* t_rulesets.c: hills and discovery (both draw modes) played to the end, and their refusals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

#define MAX_ACTIONS 512 /* draws and placements of one game */
#define BODY_MAX    224 /* bytes of one placement body */

/* What playing a game showed. */
struct seen {
    int turns;       /* placements */
    int hikes;       /* hiker_moved events */
    int stables;     /* stable_built events */
    int tokens;      /* harvest tokens handed out by feature_scored events */
    int withdrawals; /* follower_withdrawn events */
    int deployed;    /* follower_deployed events */
    int dealt;       /* hand_dealt events after the setup */
};

/* What playing a game did: its actions in order (to replay them) and what it showed. */
struct played {
    int n;                            /* actions */
    int seat[MAX_ACTIONS];            /* who acted */
    char body[MAX_ACTIONS][BODY_MAX]; /* the placement body, or "" for a draw */
    struct seen seen;                 /* what the game showed */
};

/* How a test picks its moves. */
enum policy { POLICY_HILLS, POLICY_DISCOVERY };

/* GETs /v1/games/{id}/<what>. */
static void get(const struct server *srv, const struct game *g, const char *what, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    http(srv, "GET", path, NULL, NULL, r);
}

/* The entry of `list` with x, y (and `rot` unless it is -1), or NULL. */
static const cJSON *find_placement(const cJSON *list, int x, int y, int rot)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, list)
    {
        if (jnum(p, "x") == x && jnum(p, "y") == y && (rot < 0 || jnum(p, "rotation") == rot))
            return p;
    }
    return NULL;
}

/*
 * A placement body for entry `p`: its x, y, rotation (and tile, in the hand variant), and
 * `extra` (a follow-up, `,"follower":"N"` ...) or nothing.
 */
static void body_for(const cJSON *p, const char *extra, char *out, size_t cap)
{
    char tile[24] = "";
    if (jstr(p, "tile")[0]) snprintf(tile, sizeof tile, ",\"tile\":\"%s\"", jstr(p, "tile"));
    snprintf(out, cap, "{\"x\":%d,\"y\":%d,\"rotation\":%d%s%s}", (int)jnum(p, "x"),
             (int)jnum(p, "y"), (int)jnum(p, "rotation"), tile, extra ? extra : "");
}

/* `,"hike":{...}` or `,"withdraw":{...}` for the object `o` of a placement's list. */
static void follow_at(const char *name, const cJSON *o, const char *locname, char *out, size_t cap)
{
    snprintf(out, cap, ",\"%s\":{\"x\":%d,\"y\":%d,\"%s\":\"%s\"}", name, (int)jnum(o, "x"),
             (int)jnum(o, "y"), locname, jstr(o, locname));
}

/*
 * Chooses the turn's placement from the legal ones, using the follow-ups they list:
 * hills: a hike whenever one is listed, else a stable on about a third of the turns, else
 * a follower on about half; discovery: a withdrawal on about a quarter, else a follower on
 * about half. Which turns is a fixed scramble of the turn number, so every seat gets some.
 */
static void choose(enum policy pol, int turn, const cJSON *list, char *out, size_t cap)
{
    unsigned mix = ((unsigned)turn * 2654435761u) >> 16;
    const cJSON *first = cJSON_GetArrayItem(list, 0), *p;
    char extra[96];
    if (pol == POLICY_HILLS) {
        cJSON_ArrayForEach(p, list)
        {
            const cJSON *h = cJSON_GetArrayItem(jget(p, "hike"), 0);
            if (!h) continue;
            follow_at("hike", h, "toward", extra, sizeof extra);
            body_for(p, extra, out, cap);
            return;
        }
        if (mix % 3 == 1) {
            cJSON_ArrayForEach(p, list)
            {
                if (!jstr(p, "stable.0")[0]) continue;
                snprintf(extra, sizeof extra, ",\"stable\":\"%s\"", jstr(p, "stable.0"));
                body_for(p, extra, out, cap);
                return;
            }
        }
    } else if (mix % 4 == 3 && jget(first, "withdraw.0")) {
        follow_at("withdraw", jget(first, "withdraw.0"), "location", extra, sizeof extra);
        body_for(first, extra, out, cap);
        return;
    }
    if (mix % 2 == 0 && jstr(first, "follower.0")[0]) {
        snprintf(extra, sizeof extra, ",\"follower\":\"%s\"", jstr(first, "follower.0"));
        body_for(first, extra, out, cap);
        return;
    }
    body_for(first, NULL, out, cap);
}

/* Records an action of `seat` (`body` NULL for a draw). -1 when the log is full. */
static int record(struct played *pl, int seat, const char *body)
{
    if (pl->n == MAX_ACTIONS) return -1;
    pl->seat[pl->n] = seat;
    snprintf(pl->body[pl->n], BODY_MAX, "%s", body ? body : "");
    pl->n++;
    return 0;
}

/* The player object of `seat` in game state `j`. */
static const cJSON *player(const cJSON *j, int seat)
{
    return cJSON_GetArrayItem(jget(j, "players"), seat);
}

/* The board entry at (x, y) of game state `j`, or NULL. */
static const cJSON *board_at(const cJSON *j, int x, int y)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, jget(j, "board"))
    {
        if (jnum(t, "x") == x && jnum(t, "y") == y) return t;
    }
    return NULL;
}

/* 1 when the board tile at (x, y) of `j` holds a piece of `seat` and `kind`. */
static int piece_at(const cJSON *j, int x, int y, int seat, const char *kind)
{
    const cJSON *pc;
    cJSON_ArrayForEach(pc, jget(board_at(j, x, y), "pieces"))
    {
        if (jnum(pc, "seat") == seat && strcmp(jstr(pc, "kind"), kind) == 0) return 1;
    }
    return 0;
}

/* The sum of the numbers in object `o` (crop counts, a breakdown). */
static int sum_of(const cJSON *o)
{
    int sum = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, o) sum += c->valueint;
    return sum;
}

#define HILLS_TOKENS 33 /* 5 of each of the 5 crops and 8 scarecrows */

/*
 * Looks at the events of a turn and at the state after it: stables, hikers and harvest
 * tokens must show in the game as the events say. Returns 0 or -1 (with `why`).
 */
static int observe(const struct server *srv, const struct game *g, const cJSON *events,
                   struct played *pl, char *why, size_t cap)
{
    cJSON *j = NULL;
    const cJSON *e;
    int rc = -1;
    cJSON_ArrayForEach(e, events)
    {
        const char *type = jstr(e, "type");
        int seat = (int)jnum(e, "seat");
        if (strcmp(type, "follower_deployed") == 0) pl->seen.deployed++;
        if (strcmp(type, "hand_dealt") == 0) pl->seen.dealt++;
        if (strcmp(type, "follower_withdrawn") == 0) {
            pl->seen.withdrawals++;
            if (!jstr(e, "column")[0] || jnum(e, "tiles") < 1 || jnum(e, "count") < 0 ||
                jnum(e, "points") < 0 || !jstr(e, "kind")[0]) {
                snprintf(why, cap, "follower_withdrawn %g without its score", jnum(e, "seq"));
                goto out;
            }
        }
        int stable = strcmp(type, "stable_built") == 0;
        int hike = strcmp(type, "hiker_moved") == 0;
        const cJSON *tokens = jget(e, "tokens");
        if (!stable && !hike && !tokens) continue;
        if (!j && !(j = game_get(srv, g))) {
            snprintf(why, cap, "GET game after %s failed", type);
            goto out;
        }
        if (stable) {
            pl->seen.stables++;
            if (!piece_at(j, (int)jnum(e, "x"), (int)jnum(e, "y"), seat, "stable") ||
                jnum(player(j, seat), "stables") > 1) {
                snprintf(why, cap, "stable_built at (%g, %g) does not show in the game",
                         jnum(e, "x"), jnum(e, "y"));
                goto out;
            }
        }
        if (hike) {
            pl->seen.hikes++;
            if (!piece_at(j, (int)jnum(e, "to.x"), (int)jnum(e, "to.y"), seat, "follower") ||
                jnum(e, "tiles") < 1 || jnum(e, "points") != jnum(e, "tiles")) {
                snprintf(why, cap, "hiker_moved to (%g, %g) does not show in the game",
                         jnum(e, "to.x"), jnum(e, "to.y"));
                goto out;
            }
        }
        if (tokens) {
            const cJSON *t;
            cJSON_ArrayForEach(t, tokens)
            {
                pl->seen.tokens += sum_of(jget(t, "tokens"));
                int s = (int)jnum(t, "seat");
                if (sum_of(jget(player(j, s), "harvest")) < sum_of(jget(t, "tokens"))) {
                    snprintf(why, cap, "seat %d holds fewer tokens than it was given", s);
                    goto out;
                }
            }
        }
    }
    if (j && g->nplayers > 0 && jget(j, "harvest_supply")) {
        int held = sum_of(jget(j, "harvest_supply"));
        for (int s = 0; s < g->nplayers; s++) held += sum_of(jget(player(j, s), "harvest"));
        if (held != HILLS_TOKENS) {
            snprintf(why, cap, "%d harvest tokens in supply and hands, not %d", held, HILLS_TOKENS);
            goto out;
        }
    }
    rc = 0;
out:
    cJSON_Delete(j);
    return rc;
}

/*
 * Plays game `g` to the end with policy `pol`, recording every action in `pl`. In the
 * hand variant (`hand`) the turns have no draw, and the state shows each hand.
 * Returns 0 or -1 (with `why`).
 */
static int play(const struct server *srv, const struct game *g, enum policy pol, int hand,
                struct played *pl, char *why, size_t cap)
{
    for (int guard = 0; guard < MAX_ACTIONS / 2; guard++) {
        cJSON *j = game_get(srv, g);
        if (!j) return snprintf(why, cap, "GET game failed"), -1;
        int finished = strcmp(jstr(j, "status"), "finished") == 0;
        int seat = (int)jnum(j, "turn.seat");
        int hand_ok = !hand || (strcmp(jstr(j, "turn.phase"), "place") == 0 &&
                                cJSON_IsNull(jget(j, "turn.tile")) &&
                                cJSON_GetArraySize(jget(player(j, seat), "hand")) >= 1);
        cJSON_Delete(j);
        if (finished) return 0;
        if (!hand_ok)
            return snprintf(why, cap, "turn %d: no hand to play from", pl->seen.turns), -1;
        struct resp r;
        const cJSON *list;
        if (hand) {
            get(srv, g, "placements", &r);
            if (r.status != 200 || !cJSON_IsNull(jget(r.json, "tile")) ||
                !jstr(r.json, "placements.0.tile")[0]) {
                snprintf(why, cap, "hand placements: %ld %.200s", r.status, r.body);
                resp_free(&r);
                return -1;
            }
        } else {
            game_post(srv, g, seat, "draw", NULL, &r);
            if (r.status != 200 || record(pl, seat, NULL)) {
                snprintf(why, cap, "draw: %ld %.200s", r.status, r.body);
                resp_free(&r);
                return -1;
            }
            finished = strcmp(jstr(r.json, "game.status"), "finished") == 0;
            if (finished) {
                resp_free(&r);
                return 0;
            }
        }
        list = jget(r.json, "placements");
        if (cJSON_GetArraySize(list) < 1) {
            snprintf(why, cap, "no placement listed: %.200s", r.body);
            resp_free(&r);
            return -1;
        }
        char body[BODY_MAX];
        choose(pol, pl->seen.turns, list, body, sizeof body);
        resp_free(&r);
        game_post(srv, g, seat, "placements", body, &r);
        if (r.status != 201 || record(pl, seat, body)) {
            snprintf(why, cap, "turn %d: %.120s: %ld %.200s", pl->seen.turns, body, r.status,
                     r.body);
            resp_free(&r);
            return -1;
        }
        pl->seen.turns++;
        int rc = observe(srv, g, jget(r.json, "events"), pl, why, cap);
        resp_free(&r);
        if (rc) return -1;
    }
    return snprintf(why, cap, "the game did not end"), -1;
}

/*
 * Checks a finished game: seed and deck shown, each breakdown sums to its score, the
 * winners have the best score, the events are numbered 1, 2, ... without a gap, and the
 * points they give each seat (scorings, hikes, withdrawals) add up to its final score.
 * Returns 0 or -1 (with `why`).
 */
static int check_end(const struct server *srv, const struct game *g, char *why, size_t cap)
{
    int rc = -1;
    cJSON *j = game_get(srv, g), *evs = game_events(srv, g->id);
    struct resp r;
    get(srv, g, "scores", &r);
    if (!j || !evs || r.status != 200) {
        snprintf(why, cap, "reads failed: scores %ld", r.status);
        goto out;
    }
    if (strcmp(jstr(j, "status"), "finished") != 0 || !jstr(j, "seed")[0] ||
        !cJSON_IsArray(jget(j, "deck")) || strcmp(jstr(r.json, "status"), "finished") != 0) {
        snprintf(why, cap, "not shown as finished");
        goto out;
    }
    int score[5] = {0}, from_events[5] = {0}, best = -99999;
    unsigned winners = 0;
    for (int s = 0; s < g->nplayers; s++) {
        const cJSON *p = cJSON_GetArrayItem(jget(r.json, "players"), s);
        score[s] = (int)jnum(p, "score");
        if (sum_of(jget(p, "breakdown")) != score[s] || jnum(player(j, s), "score") != score[s]) {
            snprintf(why, cap, "seat %d: breakdown sums to %d, score %d", s,
                     sum_of(jget(p, "breakdown")), score[s]);
            goto out;
        }
        if (score[s] > best) best = score[s];
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, jget(r.json, "winners")) winners |= 1u << w->valueint;
    for (int s = 0; s < g->nplayers; s++) {
        if (((winners >> s) & 1) != (score[s] == best)) {
            snprintf(why, cap, "winners wrong for seat %d (%d, best %d)", s, score[s], best);
            goto out;
        }
    }
    int n = cJSON_GetArraySize(evs), i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs)
    {
        const char *type = jstr(e, "type");
        if (jnum(e, "seq") != ++i) {
            snprintf(why, cap, "event %d has seq %g", i, jnum(e, "seq"));
            goto out;
        }
        int points = (int)jnum(e, "points");
        if (strcmp(type, "feature_scored") == 0) {
            const cJSON *s;
            cJSON_ArrayForEach(s, jget(e, "seats")) from_events[s->valueint] += points;
        } else if (strcmp(type, "hiker_moved") == 0 || strcmp(type, "follower_withdrawn") == 0) {
            from_events[(int)jnum(e, "seat")] += points;
        } else if (strcmp(type, "final_scored") == 0) {
            for (int s = 0; s < g->nplayers; s++) {
                if (jnum(cJSON_GetArrayItem(jget(e, "scores"), s), "score") != score[s]) {
                    snprintf(why, cap, "final_scored gives seat %d another score", s);
                    goto out;
                }
            }
        }
    }
    const cJSON *last = cJSON_GetArrayItem(evs, n - 1);
    unsigned last_winners = 0;
    cJSON_ArrayForEach(w, jget(last, "winners")) last_winners |= 1u << w->valueint;
    if (strcmp(jstr(last, "type"), "game_finished") != 0 || last_winners != winners) {
        snprintf(why, cap, "the last event is not game_finished with the winners");
        goto out;
    }
    for (int s = 0; s < g->nplayers; s++) {
        if (from_events[s] != score[s]) {
            snprintf(why, cap, "the events give seat %d %d points, the score is %d", s,
                     from_events[s], score[s]);
            goto out;
        }
    }
    rc = 0;
out:
    resp_free(&r);
    cJSON_Delete(j);
    cJSON_Delete(evs);
    return rc;
}

/*
 * 1 when `a` and `b` print the same (unformatted); else 0, with the byte where they part
 * in *at and up to 40 bytes before it (and what follows, `cap` in all) of each in `ta`/`tb`.
 */
static int same_json(const cJSON *a, const cJSON *b, size_t *at, char *ta, char *tb, size_t cap)
{
    char *pa = cJSON_PrintUnformatted(a), *pb = cJSON_PrintUnformatted(b);
    int same = pa && pb && strcmp(pa, pb) == 0;
    if (!same && pa && pb) {
        size_t k = 0;
        while (pa[k] && pa[k] == pb[k]) k++;
        *at = k;
        snprintf(ta, cap, "%s", pa + (k > 40 ? k - 40 : 0));
        snprintf(tb, cap, "%s", pb + (k > 40 ? k - 40 : 0));
    } else if (!same) {
        *at = 0;
        snprintf(ta, cap, "(none)");
        snprintf(tb, cap, "(none)");
    }
    free(pa);
    free(pb);
    return same;
}

/* The events `a`, `b` and the states `ja`, `jb` (their ids removed) of a game and of its
 * replay (NULL where a read failed) must be equal. 0, or -1 with `why`. */
static int replay_equal(cJSON *a, cJSON *b, cJSON *ja, cJSON *jb, char *why, size_t cap)
{
    if (!a || !b || !ja || !jb) return snprintf(why, cap, "replay: reads failed"), -1;
    size_t at = 0;
    char ta[96], tb[96];
    cJSON_DeleteItemFromObject(ja, "id");
    cJSON_DeleteItemFromObject(jb, "id");
    if (!same_json(a, b, &at, ta, tb, sizeof ta))
        return snprintf(why, cap, "replayed events differ at byte %zu: %.80s / %.80s", at, ta, tb),
               -1;
    if (!same_json(ja, jb, &at, ta, tb, sizeof ta))
        return snprintf(why, cap, "the replayed game ends in another state"), -1;
    return 0;
}

/*
 * Creates a game from `create` (the first game's setup, with its seed or deck) and replays
 * the actions of `pl` on it: its events and its final state must equal those of `orig`
 * (the id aside). Returns 0 or -1 (with `why`).
 */
static int replay(const struct server *srv, const struct game *orig, const char *create,
                  const struct played *pl, char *why, size_t cap)
{
    struct game g;
    if (game_new(srv, create, &g, why, cap)) return -1;
    for (int i = 0; i < pl->n; i++) {
        struct resp r;
        int draw = pl->body[i][0] == '\0';
        game_post(srv, &g, pl->seat[i], draw ? "draw" : "placements", draw ? NULL : pl->body[i],
                  &r);
        long want = draw ? 200 : 201;
        if (r.status != want) {
            snprintf(why, cap, "replay %d %s: %ld %.200s", i, pl->body[i], r.status, r.body);
            resp_free(&r);
            return -1;
        }
        resp_free(&r);
    }
    cJSON *a = game_events(srv, orig->id), *b = game_events(srv, g.id);
    cJSON *ja = game_get(srv, orig), *jb = game_get(srv, &g);
    int rc = replay_equal(a, b, ja, jb, why, cap);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(ja);
    cJSON_Delete(jb);
    return rc;
}

/*
 * Plays game `g` (created from `create`) to its end with `pol` (`hand`: the hand variant's
 * moves), checks how it ended and replays it on a new game; what it showed goes to *seen.
 * 0, or -1 with `why`.
 */
static int play_through(const struct server *srv, const struct game *g, const char *create,
                        enum policy pol, int hand, struct seen *seen, char *why, size_t cap)
{
    struct played *pl = calloc(1, sizeof *pl);
    if (!pl) {
        snprintf(why, cap, "out of memory");
        return -1;
    }
    int rc = play(srv, g, pol, hand, pl, why, cap) || check_end(srv, g, why, cap) ||
                     replay(srv, g, create, pl, why, cap)
                 ? -1
                 : 0;
    *seen = pl->seen;
    free(pl);
    return rc;
}

/* The games of the whole-game tests below: hills with three seats, discovery drawing from
 * the pile, discovery with hands of two. */
#define HILLS_GAME                                                                                 \
    "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},"                   \
    "{\"name\":\"Cy\"}],\"seed\":3}"
#define DISCOVERY_PILE_GAME                                                                        \
    "{\"ruleset\":\"discovery\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],"              \
    "\"seed\":11}"
#define DISCOVERY_HAND_GAME                                                                        \
    "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{\"name\":"           \
    "\"Ann\"},{\"name\":\"Bob\"},{\"name\":\"Cy\"}],\"seed\":12}"

/* play_through() of `g`, or the test fails with the reason. */
#define PLAY_THROUGH(g, create, pol, hand, seen)                                                   \
    do {                                                                                           \
        char why_[400] = "";                                                                       \
        CHECK(play_through(srv, g, create, pol, hand, seen, why_, sizeof why_) == 0, "%s", why_);  \
    } while (0)

ITEST(test_hills_game, "hills: a whole game with stables, hikes and harvest tokens, replayed")
{
    struct game g;
    NEW_GAME(&g, HILLS_GAME);
    cJSON *j = game_get(srv, &g);
    int fresh = j && jnum(player(j, 0), "stables") == 2 &&
                sum_of(jget(j, "harvest_supply")) == HILLS_TOKENS &&
                cJSON_IsObject(jget(player(j, 0), "harvest"));
    cJSON_Delete(j);
    CHECK(fresh, "a new hills game shows no stables or harvest supply");
    struct seen seen;
    PLAY_THROUGH(&g, HILLS_GAME, POLICY_HILLS, 0, &seen);
    CHECK(seen.turns > 60, "only %d turns", seen.turns);
    CHECK(seen.hikes > 0 && seen.stables > 0 && seen.tokens > 0 && seen.deployed > 0,
          "hikes %d, stables %d, tokens %d, followers %d: the game should show each", seen.hikes,
          seen.stables, seen.tokens, seen.deployed);
    /* The end scores stables and the harvest, each in its column. */
    cJSON *evs = game_events(srv, g.id);
    int stable_scored = 0, harvest_scored = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs)
    {
        if (strcmp(jstr(e, "type"), "feature_scored") != 0) continue;
        stable_scored |= strcmp(jstr(e, "column"), "stable") == 0;
        if (strcmp(jstr(e, "column"), "harvest") == 0)
            harvest_scored |= !jget(e, "x") && !jget(e, "location") && jget(e, "tokens");
    }
    cJSON_Delete(evs);
    CHECK(stable_scored && harvest_scored, "final stable %d / harvest %d scorings", stable_scored,
          harvest_scored);
}

ITEST(test_discovery_pile_game, "discovery (pile): a whole game with withdrawals, replayed")
{
    struct game g;
    NEW_GAME(&g, DISCOVERY_PILE_GAME);
    struct seen seen;
    PLAY_THROUGH(&g, DISCOVERY_PILE_GAME, POLICY_DISCOVERY, 0, &seen);
    CHECK(seen.turns > 60 && seen.withdrawals > 2 && seen.deployed > seen.withdrawals,
          "%d turns, %d withdrawals, %d followers", seen.turns, seen.withdrawals, seen.deployed);
}

ITEST(test_discovery_hand_game, "discovery (hand of two): a whole game, replayed")
{
    struct game g;
    NEW_GAME(&g, DISCOVERY_HAND_GAME);
    /* The setup: 2 tiles removed face up (3 players), two in each hand, no draw step. */
    cJSON *j = game_get(srv, &g);
    CHECK(j, "get");
    int removed = cJSON_GetArraySize(jget(j, "removed"));
    int hands = 0;
    for (int s = 0; s < 3; s++) hands += cJSON_GetArraySize(jget(player(j, s), "hand"));
    int remaining = (int)jnum(j, "deck_remaining");
    int ok = strcmp(jstr(j, "turn.phase"), "place") == 0 && cJSON_IsNull(jget(j, "turn.tile"));
    cJSON_Delete(j);
    CHECK(removed == 2 && hands == 6 && ok, "removed %d, %d in hands, phase ok %d", removed, hands,
          ok);
    CHECK(remaining == 83 - 2, "deck_remaining %d (hands included)", remaining);
    cJSON *evs = game_events(srv, g.id);
    int setup_removed = 0, setup_dealt = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, evs)
    {
        setup_removed += strcmp(jstr(e, "type"), "tiles_removed") == 0;
        setup_dealt += strcmp(jstr(e, "type"), "hand_dealt") == 0;
    }
    cJSON_Delete(evs);
    CHECK(setup_removed == 2 && setup_dealt == 6, "setup events: %d removed, %d dealt",
          setup_removed, setup_dealt);
    struct resp r;
    game_post(srv, &g, 0, "draw", NULL, &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "draw: %ld %s", r.status,
          r.body);
    resp_free(&r);

    struct seen seen;
    PLAY_THROUGH(&g, DISCOVERY_HAND_GAME, POLICY_DISCOVERY, 1, &seen);
    CHECK(seen.withdrawals > 2 && seen.dealt > 60, "%d withdrawals, %d tiles dealt",
          seen.withdrawals, seen.dealt);
    j = game_get(srv, &g);
    CHECK(j, "get");
    hands = 0;
    for (int s = 0; s < 3; s++) hands += cJSON_GetArraySize(jget(player(j, s), "hand"));
    remaining = (int)jnum(j, "deck_remaining");
    int discarded = cJSON_GetArraySize(jget(j, "discarded"));
    cJSON_Delete(j);
    CHECK(hands == 0 && remaining == 0, "finished with %d in hands, %d remaining", hands,
          remaining);
    CHECK(seen.turns + discarded == 81, "%d turns and %d set aside, not 81 tiles", seen.turns,
          discarded);
}

/* Expects a placement `b_` by `seat_` to be refused with `st`/`code_`, changing nothing. */
#define EXPECT_REFUSED(seat_, b_, st, code_)                                                       \
    do {                                                                                           \
        struct resp r_;                                                                            \
        game_post(srv, &g, seat_, "placements", b_, &r_);                                          \
        int ok_ = r_.status == (st) && strcmp(problem_code(&r_), code_) == 0;                      \
        char got_[300];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.200s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        CHECK(ok_, "%.150s -> %.220s (want %d %s)", b_, got_, st, code_);                          \
        CHECK(game_version(srv, &g) == version, "%.200s changed the version", b_);                 \
    } while (0)

/* Draws for `seat` (the answer in *r, kept for its placements); bumps `version`. */
#define DRAW(seat_, r_)                                                                            \
    do {                                                                                           \
        game_post(srv, &g, seat_, "draw", NULL, r_);                                               \
        CHECK((r_)->status == 200, "draw: %ld %s", (r_)->status, (r_)->body);                      \
        version++;                                                                                 \
    } while (0)

/* Places with `b_` as `seat_`, expecting 201 and (if not NULL) an event of type `ev_`. */
#define PLACE(seat_, b_, ev_)                                                                      \
    do {                                                                                           \
        struct resp r_;                                                                            \
        game_post(srv, &g, seat_, "placements", b_, &r_);                                          \
        int ok_ = r_.status == 201 && (!(ev_)[0] || strstr(r_.body, "\"type\":\"" ev_ "\""));      \
        char got_[400];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.300s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        CHECK(ok_, "%.150s -> %.300s", b_, got_);                                                  \
        version++;                                                                                 \
    } while (0)

ITEST(test_hills_refusals, "hills: every refusal of its own, nothing changes")
{
    struct game g;
    NEW_GAME(&g, "{\"ruleset\":\"hills\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],"
                 "\"start\":\"J\",\"deck\":[\"C\",\"C\",\"C\",\"C\",\"C\",\"C\",\"C\",\"C\"]}");
    int version = 1;
    struct resp r;
    char body[BODY_MAX], extra[96];

    /* Turn 1, Ann: C (a straight trail between meadows) east of the start tile. */
    DRAW(0, &r);
    const cJSON *p = find_placement(jget(r.json, "placements"), 1, 0, -1);
    CHECK(p && jstr(p, "follower.0")[0] && jstr(p, "stable.0")[0], "C at (1, 0): %.300s", r.body);
    int rot = (int)jnum(p, "rotation");
    char trail[4], meadow[4];
    snprintf(trail, sizeof trail, "%s", jstr(p, "follower.0"));
    snprintf(meadow, sizeof meadow, "%s", jstr(p, "stable.0"));
    CHECK(cJSON_GetArraySize(jget(p, "hike")) == 0 && !jget(p, "withdraw"), "follow-ups %.200s",
          r.body);
    resp_free(&r);
    snprintf(extra, sizeof extra, ",\"stable\":\"%s\"", trail);
    snprintf(body, sizeof body, "{\"x\":1,\"y\":0,\"rotation\":%d%s}", rot, extra);
    EXPECT_REFUSED(0, body, 409, "not_allowed_here"); /* a stable on the trail */
    snprintf(body, sizeof body, "{\"x\":1,\"y\":0,\"rotation\":%d,\"follower\":\"%s\"}", rot,
             meadow);
    EXPECT_REFUSED(0, body, 409, "not_allowed_here"); /* a follower on a meadow */
    snprintf(body, sizeof body,
             "{\"x\":1,\"y\":0,\"rotation\":%d,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"E\"}}",
             rot);
    EXPECT_REFUSED(0, body, 400, "followup_not_in_ruleset");
    snprintf(body, sizeof body,
             "{\"x\":1,\"y\":0,\"rotation\":%d,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"E\"}}", rot);
    EXPECT_REFUSED(0, body, 409, "no_follower_there");
    snprintf(body, sizeof body,
             "{\"x\":1,\"y\":0,\"rotation\":%d,\"hike\":{\"x\":9,\"y\":9,\"toward\":\"E\"}}", rot);
    EXPECT_REFUSED(0, body, 409, "no_follower_there");
    snprintf(body, sizeof body, "{\"x\":1,\"y\":0,\"rotation\":%d,\"follower\":\"%s\"}", rot,
             trail);
    PLACE(0, body, "follower_deployed"); /* Ann's hiker */

    /* Turn 2, Bob: not his hiker; a stable next to it. */
    DRAW(1, &r);
    p = find_placement(jget(r.json, "placements"), 2, 0, rot);
    CHECK(p && jstr(p, "stable.0")[0], "C at (2, 0): %.300s", r.body);
    snprintf(extra, sizeof extra, ",\"stable\":\"%s\"", jstr(p, "stable.0"));
    resp_free(&r);
    snprintf(body, sizeof body,
             "{\"x\":2,\"y\":0,\"rotation\":%d,\"hike\":{\"x\":1,\"y\":0,\"toward\":\"E\"}}", rot);
    EXPECT_REFUSED(1, body, 409, "not_your_follower");
    snprintf(body, sizeof body, "{\"x\":2,\"y\":0,\"rotation\":%d%s}", rot, extra);
    PLACE(1, body, "stable_built");
    cJSON *j = game_get(srv, &g);
    int shown = j && piece_at(j, 2, 0, 1, "stable") && jnum(player(j, 1), "stables") == 1;
    cJSON_Delete(j);
    CHECK(shown, "Bob's stable does not show");

    /* Turn 3, Ann: too close to Bob's stable; a hike the placement does not allow; then
     * the hike it lists: from (1, 0) east over two tiles. */
    DRAW(0, &r);
    const cJSON *list = jget(r.json, "placements");
    p = find_placement(list, 3, 0, rot);
    CHECK(p && cJSON_GetArraySize(jget(p, "stable")) == 0, "C at (3, 0): %.300s", r.body);
    const cJSON *h, *east = NULL;
    cJSON_ArrayForEach(h, jget(p, "hike"))
    {
        if (jnum(h, "x") == 1 && jnum(h, "y") == 0 && strcmp(jstr(h, "toward"), "E") == 0) east = h;
    }
    CHECK(east, "no hike east from (1, 0) listed at (3, 0): %.300s", r.body);
    const cJSON *elsewhere = NULL;
    cJSON_ArrayForEach(h, list)
    {
        if (!elsewhere && cJSON_GetArraySize(jget(h, "hike")) == 0) elsewhere = h;
    }
    CHECK(elsewhere, "every placement allows a hike: %.300s", r.body);
    char far[BODY_MAX];
    body_for(elsewhere, ",\"hike\":{\"x\":1,\"y\":0,\"toward\":\"E\"}", far, sizeof far);
    resp_free(&r);
    snprintf(body, sizeof body, "{\"x\":3,\"y\":0,\"rotation\":%d,\"stable\":\"%s\"}", rot, meadow);
    EXPECT_REFUSED(0, body, 409, "stable_too_close");
    EXPECT_REFUSED(0, far, 409, "no_hike_possible");
    snprintf(body, sizeof body,
             "{\"x\":3,\"y\":0,\"rotation\":%d,\"hike\":{\"x\":1,\"y\":0,\"toward\":\"E\"}}", rot);
    PLACE(0, body, "hiker_moved");
    j = game_get(srv, &g);
    shown = j && piece_at(j, 3, 0, 0, "follower") && !piece_at(j, 1, 0, 0, "follower");
    cJSON_Delete(j);
    CHECK(shown, "Ann's hiker is not on (3, 0)");
    get(srv, &g, "scores", &r);
    CHECK(jnum(r.json, "players.0.breakdown.hike") == 2 && jnum(r.json, "players.0.score") == 2,
          "the hike scored: %.300s", r.body);
    resp_free(&r);

    /* Turn 4, Bob: his second stable, far enough away. */
    DRAW(1, &r);
    p = find_placement(jget(r.json, "placements"), -1, 0, rot);
    CHECK(p && jstr(p, "stable.0")[0], "C at (-1, 0): %.300s", r.body);
    snprintf(extra, sizeof extra, ",\"stable\":\"%s\"", jstr(p, "stable.0"));
    resp_free(&r);
    snprintf(body, sizeof body, "{\"x\":-1,\"y\":0,\"rotation\":%d%s}", rot, extra);
    PLACE(1, body, "stable_built");

    /* Turn 5, Ann: anywhere. Turn 6, Bob: no stable left. */
    DRAW(0, &r);
    body_for(cJSON_GetArrayItem(jget(r.json, "placements"), 0), NULL, body, sizeof body);
    resp_free(&r);
    PLACE(0, body, "");
    DRAW(1, &r);
    p = NULL;
    cJSON_ArrayForEach(h, jget(r.json, "placements"))
    {
        if (!p && (int)jnum(h, "rotation") % 180 == rot % 180 && jnum(h, "y") == 0) p = h;
    }
    CHECK(p && cJSON_GetArraySize(jget(p, "stable")) == 0, "a row placement for Bob: %.300s",
          r.body);
    snprintf(extra, sizeof extra, ",\"stable\":\"%s\"", meadow);
    body_for(p, extra, body, sizeof body);
    body_for(p, NULL, far, sizeof far);
    resp_free(&r);
    EXPECT_REFUSED(1, body, 409, "no_stables_left");
    PLACE(1, far, "");

    /* To the end: the stables score the animals around them. */
    char why[300];
    int rc;
    while ((rc = play_turn(srv, &g, 0, why, sizeof why)) == 0) {
    }
    CHECK(rc == 1, "%s", why);
    CHECK(check_end(srv, &g, why, sizeof why) == 0, "%s", why);
    get(srv, &g, "scores", &r);
    CHECK(jnum(r.json, "players.1.breakdown.stable") == 1, "Bob's stables: %.300s", r.body);
    resp_free(&r);
}

ITEST(test_discovery_refusals, "discovery: every refusal of its own, nothing changes")
{
    struct game g;
    NEW_GAME(&g, "{\"ruleset\":\"discovery\",\"options\":{\"draw\":\"hand\"},\"players\":[{"
                 "\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"deck\":[\"B\",\"B\",\"B\",\"B\",\"B\","
                 "\"B\",\"B\",\"B\"]}");
    int version = 1;
    struct resp r;
    char body[BODY_MAX], extra[96];
    cJSON *j = game_get(srv, &g);
    CHECK(j, "get");
    int ok = cJSON_GetArraySize(jget(j, "removed")) == 0 &&
             strcmp(jstr(player(j, 0), "hand.1"), "B") == 0 &&
             strcmp(jstr(player(j, 1), "hand.0"), "B") == 0 && jnum(j, "deck_remaining") == 8;
    cJSON_Delete(j);
    CHECK(ok, "a custom deck removes nothing and deals two each");

    /* Turn 1, Ann. */
    game_post(srv, &g, 0, "draw", NULL, &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "draw: %ld", r.status);
    resp_free(&r);
    get(srv, &g, "placements", &r);
    const cJSON *p = jget(r.json, "placements.0");
    CHECK(r.status == 200 && cJSON_IsNull(jget(r.json, "tile")) &&
              strcmp(jstr(p, "tile"), "B") == 0 && jstr(p, "follower.0")[0] &&
              cJSON_GetArraySize(jget(p, "withdraw")) == 0 && !jget(p, "hike"),
          "placements: %ld %.300s", r.status, r.body);
    int x = (int)jnum(p, "x"), y = (int)jnum(p, "y"), rot = (int)jnum(p, "rotation");
    char loc[4];
    snprintf(loc, sizeof loc, "%s", jstr(p, "follower.0"));
    resp_free(&r);
    snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", x, y, rot);
    EXPECT_REFUSED(0, body, 400, "tile_required");
    snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"tile\":\"A\"}", x, y, rot);
    EXPECT_REFUSED(0, body, 409, "tile_not_in_hand");
    snprintf(body, sizeof body,
             "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"tile\":\"B\",\"stable\":\"N\"}", x, y, rot);
    EXPECT_REFUSED(0, body, 400, "followup_not_in_ruleset");
    snprintf(body, sizeof body,
             "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"tile\":\"B\",\"hike\":{\"x\":0,\"y\":0,"
             "\"toward\":\"E\"}}",
             x, y, rot);
    EXPECT_REFUSED(0, body, 400, "followup_not_in_ruleset");
    snprintf(body, sizeof body,
             "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"tile\":\"B\",\"withdraw\":{\"x\":0,\"y\":0,"
             "\"location\":\"E\"}}",
             x, y, rot);
    EXPECT_REFUSED(0, body, 409, "no_follower_there");
    snprintf(body, sizeof body,
             "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"tile\":\"B\",\"follower\":\"%s\"}", x, y, rot,
             loc);
    PLACE(0, body, "follower_deployed");

    /* Turn 2, Bob: not his follower. */
    get(srv, &g, "placements", &r);
    p = jget(r.json, "placements.0");
    CHECK(p && cJSON_GetArraySize(jget(p, "withdraw")) == 0, "Bob may withdraw: %.300s", r.body);
    snprintf(extra, sizeof extra, ",\"withdraw\":{\"x\":%d,\"y\":%d,\"location\":\"%s\"}", x, y,
             loc);
    body_for(p, extra, body, sizeof body);
    char plain[BODY_MAX];
    body_for(p, NULL, plain, sizeof plain);
    resp_free(&r);
    EXPECT_REFUSED(1, body, 409, "not_your_follower");
    PLACE(1, plain, "tile_placed");

    /* Turn 3, Ann withdraws her follower: it scores its grassland for her. */
    get(srv, &g, "placements", &r);
    p = jget(r.json, "placements.0");
    const cJSON *w = jget(p, "withdraw.0");
    CHECK(w && jnum(w, "x") == x && jnum(w, "y") == y && strcmp(jstr(w, "location"), loc) == 0,
          "Ann's withdrawal is not listed: %.300s", r.body);
    follow_at("withdraw", w, "location", extra, sizeof extra);
    body_for(p, extra, body, sizeof body);
    resp_free(&r);
    game_post(srv, &g, 0, "placements", body, &r);
    CHECK(r.status == 201, "withdraw: %ld %s", r.status, r.body);
    version++;
    const cJSON *e, *wd = NULL;
    cJSON_ArrayForEach(e, jget(r.json, "events"))
    {
        if (strcmp(jstr(e, "type"), "follower_withdrawn") == 0) wd = e;
    }
    int points = (int)jnum(wd, "points"), tiles = (int)jnum(wd, "tiles");
    CHECK(wd && jnum(wd, "seat") == 0 && jnum(wd, "x") == x && jnum(wd, "y") == y &&
              strcmp(jstr(wd, "kind"), "grassland") == 0 &&
              strcmp(jstr(wd, "column"), "grassland") == 0 && jnum(wd, "count") == 0 &&
              tiles >= 2 && (points == tiles || points == 2 * tiles),
          "follower_withdrawn: %.400s", r.body);
    resp_free(&r);
    get(srv, &g, "scores", &r);
    CHECK(jnum(r.json, "players.0.breakdown.grassland") == points &&
              jnum(r.json, "players.0.score") == points,
          "the withdrawal's %d points: %.300s", points, r.body);
    resp_free(&r);
    j = game_get(srv, &g);
    ok = j && jnum(player(j, 0), "followers") == 4 && !piece_at(j, x, y, 0, "follower");
    cJSON_Delete(j);
    CHECK(ok, "the withdrawn follower is still on the board");

    /* To the end. */
    struct played *pl = calloc(1, sizeof *pl);
    CHECK(pl, "out of memory");
    char why[400] = "";
    int rc = play(srv, &g, POLICY_DISCOVERY, 1, pl, why, sizeof why);
    free(pl);
    CHECK(rc == 0, "%s", why);
    CHECK(check_end(srv, &g, why, sizeof why) == 0, "%s", why);
}
