/* t_expansions.c: the expansions of classic (issue 24) through the HTTP API. Games with every
 * combination of options (inns, traders, both; 2 to 6 players; the River on and off; both
 * editions where allowed) are played to the end by a client that picks its figures from the
 * placement list's spots, each seat's supply and goods and the turn's "extra" checked at
 * every draw; the events' points must sum to the scores, and each game is exported and
 * replayed equal (state, scores, events, a past version, export; the stored log replayed
 * by the engine). Then every refusal of the expansions, each changing nothing stored, and
 * GET /v1/rulesets and the tile catalogue. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

/* The figures a deployment may name, by the API's names, in the order of the spots. */
enum { FIG_FOLLOWER, FIG_LARGE, FIG_BUILDER, FIG_PIG, FIG_COUNT };
static const char *const figure_names[FIG_COUNT] = {"follower", "large", "builder", "pig"};

/* What the games showed, over all of them. */
struct seen {
    int games, turns;
    int deployed[FIG_COUNT]; /* follower_deployed events by figure */
    int goods_taken;         /* goods_taken events */
    int extra_turns;         /* extra_turn events */
    int extra_shown;         /* draws answered with turn.extra true */
    int majorities;          /* final goods majorities (feature_scored, column goods) */
    long long ms;            /* time spent */
};

/* What a game is played with. */
struct setup {
    int inns, traders; /* the expansions */
    int original;      /* the original edition */
    int river;         /* the River */
    int players;       /* 2..6 */
    unsigned seed;
};

/* The index of figure name `s`, or -1. */
static int figure_index(const char *s)
{
    for (int k = 0; k < FIG_COUNT; k++)
        if (strcmp(s, figure_names[k]) == 0) return k;
    return -1;
}

/* Whether the array `arr` holds the string `s`. */
static int has_string(const cJSON *arr, const char *s)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
    {
        if (cJSON_IsString(e) && strcmp(e->valuestring, s) == 0) return 1;
    }
    return 0;
}

/* The create body of `s` into out. */
static void create_body(const struct setup *s, char *out, size_t cap)
{
    char players[400] = "";
    size_t o = 0;
    for (int i = 0; i < s->players; i++)
        o += (size_t)snprintf(players + o, sizeof players - o, "%s{\"name\":\"P%d\"}", i ? "," : "",
                              i);
    snprintf(out, cap,
             "{\"ruleset\":\"classic\",\"players\":[%s],\"options\":{\"edition\":\"%s\","
             "\"river\":%s,\"expansions\":[%s%s%s]%s},\"seed\":%u}",
             players, s->original ? "original" : "standard", s->river ? "true" : "false",
             s->traders ? "\"traders\"" : "", s->inns && s->traders ? "," : "",
             s->inns ? "\"inns\"" : "",
             s->inns && s->seed % 2 ? ",\"inn_cathedral_final\":\"ignore\"" : "", s->seed);
}

/*
 * The turn's placement body from the placement list `list`: by a fixed scramble of the turn
 * number, a builder, a pig or the large follower wherever a spot offers one (from a
 * scrambled entry on), else a plain follower on about half the turns (named "figure":
 * "follower" on some), else no follow-up.
 */
static void choose(int turn, const cJSON *list, char *out, size_t cap)
{
    unsigned mix = ((unsigned)turn * 2654435761u) >> 13;
    int n = cJSON_GetArraySize(list);
    int start = n ? (int)(mix % (unsigned)n) : 0;
    static const int wants[4] = {FIG_BUILDER, FIG_PIG, FIG_LARGE, FIG_BUILDER};
    int want = wants[(mix >> 5) % 4];
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < n; i++) {
            const cJSON *p = cJSON_GetArrayItem(list, (start + i) % n), *sp;
            cJSON_ArrayForEach(sp, jget(p, "spots"))
            {
                int ok = pass == 0
                             ? has_string(jget(sp, "figures"), figure_names[want])
                             : (mix >> 9) % 2 == 0 && has_string(jget(sp, "figures"), "follower");
                if (!ok) continue;
                const char *fig = pass == 0 ? figure_names[want] : "follower";
                char named[40] = "";
                if (pass == 0 || (mix >> 11) % 3 == 0)
                    snprintf(named, sizeof named, ",\"figure\":\"%s\"", fig);
                snprintf(out, cap, "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"follower\":\"%s\"%s}",
                         (int)jnum(p, "x"), (int)jnum(p, "y"), (int)jnum(p, "rotation"),
                         jstr(sp, "location"), named);
                return;
            }
            if (pass == 1) break; /* a plain follower only on the scrambled entry */
        }
    }
    const cJSON *p = cJSON_GetArrayItem(list, start);
    snprintf(out, cap, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p, "x"), (int)jnum(p, "y"),
             (int)jnum(p, "rotation"));
}

/* Checks the players of game state `j` against setup `s`: the supplies and goods shown are
 * those of its expansions, each figure 0 or 1; and turn.extra is there only with traders,
 * equal to `extra`. 0, or -1 with `why`. */
static int check_state(const cJSON *j, const struct setup *s, int extra, char *why, size_t cap)
{
    const cJSON *p;
    cJSON_ArrayForEach(p, jget(j, "players"))
    {
        const cJSON *large = jget(p, "large"), *builder = jget(p, "builder");
        const cJSON *pig = jget(p, "pig"), *goods = jget(p, "goods");
        int ok = !!large == s->inns && !!builder == s->traders && !!pig == s->traders &&
                 !!goods == s->traders;
        ok = ok && (!large || (large->valueint == 0 || large->valueint == 1)) &&
             (!builder || (builder->valueint == 0 || builder->valueint == 1)) &&
             (!pig || (pig->valueint == 0 || pig->valueint == 1));
        ok = ok && (!goods || (jnum(goods, "wine") >= 0 && jnum(goods, "grain") >= 0 &&
                               jnum(goods, "cloth") >= 0));
        if (!ok) {
            char *t = cJSON_PrintUnformatted(p);
            snprintf(why, cap, "player %.200s: supplies not those of the game's expansions", t);
            free(t);
            return -1;
        }
    }
    const cJSON *x = jget(j, "turn.extra");
    if (s->traders ? !cJSON_IsBool(x) || cJSON_IsTrue(x) != extra : x != NULL) {
        snprintf(why, cap, "turn.extra %s, expected %s",
                 x ? (cJSON_IsTrue(x) ? "true" : "false") : "absent",
                 s->traders ? (extra ? "true" : "false") : "absent");
        return -1;
    }
    return 0;
}

/* Counts the events of one answer into *seen; *extra: an extra_turn event among them (for
 * `seat`: another seat's is an error). -1 with `why` on a malformed event. */
static int count_events(const cJSON *evs, int seat, struct seen *seen, int *extra, char *why,
                        size_t cap)
{
    const cJSON *e;
    *extra = 0;
    cJSON_ArrayForEach(e, evs)
    {
        const char *type = jstr(e, "type");
        if (strcmp(type, "follower_deployed") == 0) {
            int k = figure_index(jstr(e, "figure"));
            if (k < 0) return snprintf(why, cap, "follower_deployed without a figure"), -1;
            seen->deployed[k]++;
        } else if (strcmp(type, "goods_taken") == 0) {
            if (jnum(e, "goods.wine") + jnum(e, "goods.grain") + jnum(e, "goods.cloth") < 1 ||
                !jstr(e, "location")[0])
                return snprintf(why, cap, "goods_taken without goods or city"), -1;
            seen->goods_taken++;
        } else if (strcmp(type, "extra_turn") == 0) {
            if (jnum(e, "seat") != seat || !jstr(e, "location")[0])
                return snprintf(why, cap, "extra_turn of seat %g after seat %d's turn",
                                jnum(e, "seat"), seat),
                       -1;
            seen->extra_turns++;
            *extra = 1;
        } else if (strcmp(type, "feature_scored") == 0 && strcmp(jstr(e, "column"), "goods") == 0) {
            if (jnum(e, "points") != 10 || !jstr(e, "goods_kind")[0] || jget(e, "x"))
                return snprintf(why, cap, "a goods majority not of 10 points for a kind"), -1;
            seen->majorities++;
        }
    }
    return 0;
}

/* The events `evs` of a finished game must give each seat its score in the game `j`, and the
 * scoreboard `sc` must have the goods column exactly with traders (NULL where a read
 * failed). 0, or -1 with `why`. */
static int scores_agree(const cJSON *evs, const cJSON *j, const cJSON *sc, const struct setup *s,
                        char *why, size_t cap)
{
    if (!evs || !j || !sc) return snprintf(why, cap, "reads of the finished game failed"), -1;
    int from_events[6] = {0};
    const cJSON *e, *seat;
    cJSON_ArrayForEach(e, evs)
    {
        if (strcmp(jstr(e, "type"), "feature_scored") != 0) continue;
        cJSON_ArrayForEach(seat, jget(e, "seats")) from_events[seat->valueint] +=
            (int)jnum(e, "points");
    }
    for (int i = 0; i < s->players; i++) {
        const cJSON *p = cJSON_GetArrayItem(jget(j, "players"), i);
        const cJSON *b = jget(cJSON_GetArrayItem(jget(sc, "players"), i), "breakdown");
        if (jnum(p, "score") != from_events[i])
            return snprintf(why, cap, "seat %d: score %g, the events give %d", i, jnum(p, "score"),
                            from_events[i]),
                   -1;
        if (!!jget(b, "goods") != s->traders)
            return snprintf(why, cap, "seat %d: the goods column %s", i,
                            s->traders ? "missing" : "without traders"),
                   -1;
    }
    return 0;
}

/* scores_agree on finished game `g` as the server shows it. */
static int check_scores(const struct server *srv, const struct game *g, const struct setup *s,
                        char *why, size_t cap)
{
    cJSON *evs = game_events(srv, g->id), *j = game_get(srv, g);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/scores", g->id);
    cJSON *sc = get_json(srv, path);
    int rc = scores_agree(evs, j, sc, s, why, cap);
    cJSON_Delete(evs);
    cJSON_Delete(j);
    cJSON_Delete(sc);
    return rc;
}

/* Plays a game of setup `s` to its end through the API, checks it and replays its export.
 * 0, or -1 with `why`. */
static int play_game(const struct server *srv, const struct setup *s, struct seen *seen,
                     struct export_tally *tally, char *why, size_t cap)
{
    char body[900];
    create_body(s, body, sizeof body);
    struct game g;
    if (game_new(srv, body, &g, why, cap)) return -1;
    int seat = 0, extra = 0, finished = 0;
    for (int k = 0; k < 400 && !finished; k++) {
        struct resp r;
        game_post(srv, &g, seat, "draw", NULL, &r);
        if (r.status != 200) {
            snprintf(why, cap, "draw by %d: %ld %.200s", seat, r.status, r.body);
            resp_free(&r);
            return -1;
        }
        const cJSON *game = jget(r.json, "game");
        if (strcmp(jstr(game, "status"), "finished") == 0) {
            resp_free(&r);
            break;
        }
        if (check_state(game, s, extra, why, cap)) {
            resp_free(&r);
            return -1;
        }
        seen->extra_shown += extra;
        choose(seen->turns, jget(r.json, "placements"), body, sizeof body);
        resp_free(&r);
        game_post(srv, &g, seat, "placements", body, &r);
        if (r.status != 201) {
            snprintf(why, cap, "place %.150s by %d: %ld %.200s", body, seat, r.status, r.body);
            resp_free(&r);
            return -1;
        }
        seen->turns++;
        if (count_events(jget(r.json, "events"), seat, seen, &extra, why, cap)) {
            resp_free(&r);
            return -1;
        }
        finished = strcmp(jstr(r.json, "status"), "finished") == 0;
        int next = (int)jnum(r.json, "turn.seat");
        if (!finished && extra && next != seat) {
            snprintf(why, cap, "an extra turn for seat %d, then seat %d moves", seat, next);
            resp_free(&r);
            return -1;
        }
        seat = next;
        resp_free(&r);
    }
    cJSON *j = game_get(srv, &g);
    int done = j && strcmp(jstr(j, "status"), "finished") == 0;
    cJSON_Delete(j);
    if (!done) return snprintf(why, cap, "game %s did not finish", g.id), -1;
    seen->games++;
    if (check_scores(srv, &g, s, why, cap) || db_replay_check(g.id, why, cap)) return -1;
    return export_replay_same(srv, g.id, tally, why, cap);
}

/* Every player count (2..6) with the River off and on, for one set of expansions. */
static int play_all(const struct server *srv, int inns, int traders, int original,
                    struct seen *seen, struct export_tally *tally, char *why, size_t cap)
{
    long long t0 = hard_now_ms();
    for (int players = 2; players <= 6; players++) {
        for (int river = 0; river <= 1; river++) {
            struct setup s = {.inns = inns,
                              .traders = traders,
                              .original = original,
                              .river = river,
                              .players = players,
                              .seed = (unsigned)(1000 * inns + 100 * traders + 50 * original +
                                                 10 * players + river)};
            char w[400];
            if (play_game(srv, &s, seen, tally, w, sizeof w)) {
                snprintf(why, cap, "%s%s%s, %d players, river %d: %s", inns ? "inns " : "",
                         traders ? "traders " : "", original ? "original" : "standard", players,
                         river, w);
                return -1;
            }
        }
    }
    seen->ms += hard_now_ms() - t0;
    return 0;
}

/* Prints what the games of a test showed. */
static void report(const char *what, const struct seen *s, const struct export_tally *t)
{
    printf("  %s: %d games, %d turns in %lld ms; deployed %d followers, %d large, %d builders, "
           "%d pigs; %d goods taken, %d extra turns (%d shown), %d goods majorities; %d "
           "replays, exports up to %zu bytes\n",
           what, s->games, s->turns, s->ms, s->deployed[FIG_FOLLOWER], s->deployed[FIG_LARGE],
           s->deployed[FIG_BUILDER], s->deployed[FIG_PIG], s->goods_taken, s->extra_turns,
           s->extra_shown, s->majorities, t->games, t->bytes_max);
}

/* Plays every setup of the expansions `inns` and `traders` (2-6 players, River off/on; with
 * `editions` 2 in both editions, else the standard one: play_all), each to its end,
 * exported and replayed; prints the tallies as `what`; checks that all were played and
 * replayed. 0, or -1 with `why`. */
static int play_expansions(const struct server *srv, const char *what, int inns, int traders,
                           int editions, struct seen *seen, struct export_tally *t, char *why,
                           size_t cap)
{
    for (int first = 0; first < editions; first++)
        if (play_all(srv, inns, traders, first, seen, t, why, cap)) return -1;
    report(what, seen, t);
    if (seen->games != 10 * editions || t->games != 10 * editions) {
        snprintf(why, cap, "%d games, %d replays", seen->games, t->games);
        return -1;
    }
    return 0;
}

/* In a test: plays the games of play_expansions(`what`, `inns`, `traders`, `editions`) into
 * `s_` and `t_`, declared here, or fails the test with the reason. */
#define PLAY_EXPANSIONS(s_, t_, what, inns, traders, editions)                                     \
    struct seen s_ = {0};                                                                          \
    struct export_tally t_ = {0};                                                                  \
    do {                                                                                           \
        char why_[500];                                                                            \
        int rc_ =                                                                                  \
            play_expansions(srv, what, inns, traders, editions, &s_, &t_, why_, sizeof why_);      \
        CHECK(rc_ == 0, "%.400s", why_);                                                           \
    } while (0)

ITEST(test_expansions_inns, "expansions: inns games (2-6 players, River off/on, both editions) "
                            "played to the end, exported and replayed equal")
{
    PLAY_EXPANSIONS(seen, t, "inns", 1, 0, 2);
    CHECK(seen.deployed[FIG_LARGE] > 0 && seen.deployed[FIG_FOLLOWER] > 0 &&
              seen.deployed[FIG_BUILDER] + seen.deployed[FIG_PIG] + seen.goods_taken == 0,
          "figures: %d large, %d followers (and no traders' things)", seen.deployed[FIG_LARGE],
          seen.deployed[FIG_FOLLOWER]);
}

ITEST(test_expansions_traders, "expansions: traders games (2-6 players, River off/on) played to "
                               "the end, exported and replayed equal")
{
    PLAY_EXPANSIONS(seen, t, "traders", 0, 1, 1);
    CHECK(seen.deployed[FIG_BUILDER] > 0 && seen.deployed[FIG_PIG] > 0 && seen.goods_taken > 0 &&
              seen.majorities > 0 && seen.deployed[FIG_LARGE] == 0,
          "builders %d, pigs %d, goods %d, majorities %d, large %d", seen.deployed[FIG_BUILDER],
          seen.deployed[FIG_PIG], seen.goods_taken, seen.majorities, seen.deployed[FIG_LARGE]);
    CHECK(seen.extra_turns > 0 && seen.extra_shown > 0, "%d extra turns, %d shown",
          seen.extra_turns, seen.extra_shown);
}

ITEST(test_expansions_both, "expansions: inns and traders together (2-6 players, River off/on) "
                            "played to the end, exported and replayed equal")
{
    PLAY_EXPANSIONS(seen, t, "inns and traders", 1, 1, 1);
    CHECK(seen.deployed[FIG_BUILDER] > 0 && seen.deployed[FIG_PIG] > 0 &&
              seen.deployed[FIG_LARGE] > 0 && seen.goods_taken > 0 && seen.extra_turns > 0,
          "builders %d, pigs %d, large %d, goods %d, extra turns %d", seen.deployed[FIG_BUILDER],
          seen.deployed[FIG_PIG], seen.deployed[FIG_LARGE], seen.goods_taken, seen.extra_turns);
    CHECK(t.figures > 0, "no exported action named a figure");
}

/* Expects POST `what` with `body_` by seat `seat_` of game `g` to be refused with
 * `st_`/`code_`, the stored game unchanged byte for byte. */
#define REFUSED(g_, seat_, body_, st_, code_)                                                      \
    do {                                                                                           \
        struct db_game before_ = {0}, after_ = {0};                                                \
        char w_[300];                                                                              \
        CHECK(db_game_read((g_)->id, &before_, w_, sizeof w_) == 0, "%s", w_);                     \
        struct resp r_;                                                                            \
        game_post(srv, g_, seat_, "placements", body_, &r_);                                       \
        int ok_ = r_.status == (st_) && strcmp(problem_code(&r_), code_) == 0;                     \
        char got_[300];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.200s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        int read_ = db_game_read((g_)->id, &after_, w_, sizeof w_);                                \
        int same_ = read_ == 0 && db_game_same(&before_, &after_);                                 \
        db_game_free(&before_);                                                                    \
        if (read_ == 0) db_game_free(&after_);                                                     \
        CHECK(ok_, "%s -> %s (want %d %s)", body_, got_, st_, code_);                              \
        CHECK(same_, "%s changed the stored game", body_);                                         \
    } while (0)

/* POSTs `what` (draw or placements) by `seat_` expecting `st_`; the answer stays in *r_
 * (the caller frees it). */
#define ACT(g_, seat_, what_, body_, st_, r_)                                                      \
    do {                                                                                           \
        game_post(srv, g_, seat_, what_, body_, r_);                                               \
        CHECK((r_)->status == (st_), "%s %s: %ld %.300s", what_, body_ ? body_ : "", (r_)->status, \
              (r_)->body);                                                                         \
    } while (0)

/* Seat `seat_` of game `g_` draws (200), or the test fails. */
#define DRAW(g_, seat_)                                                                            \
    do {                                                                                           \
        struct resp d_;                                                                            \
        ACT(g_, seat_, "draw", NULL, 200, &d_);                                                    \
        resp_free(&d_);                                                                            \
    } while (0)

/* Seat `seat_` of game `g_` places `body_` (201), deploying the figure `figure_`, or the test
 * fails. */
#define DEPLOY(g_, seat_, body_, figure_)                                                          \
    do {                                                                                           \
        struct resp p_;                                                                            \
        ACT(g_, seat_, "placements", body_, 201, &p_);                                             \
        CHECK(has_event(p_.json, "follower_deployed", figure_), "%s deployed: %.300s", figure_,    \
              p_.body);                                                                            \
        resp_free(&p_);                                                                            \
    } while (0)

/* The number at `path` of seat `seat`'s player object in state `j`. */
static double seat_num(const cJSON *j, int seat, const char *path)
{
    return jnum(cJSON_GetArrayItem(jget(j, "players"), seat), path);
}

/* 1 when the answer's events hold one of `type` (with figure `figure` unless NULL). */
static int has_event(const cJSON *answer, const char *type, const char *figure)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, jget(answer, "events"))
    {
        if (strcmp(jstr(e, "type"), type) == 0 &&
            (!figure || strcmp(jstr(e, "figure"), figure) == 0))
            return 1;
    }
    return 0;
}

ITEST(
    test_expansions_refusals,
    "expansions-refusals: every refusal (figures, supplies, rules, seats, tiles), nothing changes; "
    "the builder's one extra turn")
{
    struct resp r;
    /* Creation: a 7th player, incompatible options, another game's tiles. */
    static const char *const refused[][2] = {
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":\"D\"},"
         "{\"name\":\"E\"},{\"name\":\"F\"},{\"name\":\"G\"}],\"options\":{\"expansions\":["
         "\"inns\",\"traders\"]}}",
         "bad_player_count"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":\"D\"},"
         "{\"name\":\"E\"},{\"name\":\"F\"}]}",
         "bad_player_count"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"options\":{\"edition\":"
         "\"original\",\"expansions\":[\"traders\"]}}",
         "incompatible_options"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"options\":{"
         "\"inn_cathedral_final\":\"ignore\"}}",
         "incompatible_options"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"options\":{\"expansions\":["
         "\"traders\"]},\"deck\":[\"U\",\"IK\"]}",
         "unknown_tile"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"deck\":[\"TA\"]}", "unknown_tile"},
        {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"options\":{\"expansions\":\"inns\"}}",
         "bad_option"},
    };
    long games_before = db_scalar("SELECT count(*) FROM games");
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        http(srv, "POST", "/v1/games", refused[i][0], NULL, &r);
        int ok = r.status == 400 && strcmp(problem_code(&r), refused[i][1]) == 0;
        int names_both = strcmp(refused[i][1], "incompatible_options") != 0 ||
                         (strstr(jstr(r.json, "detail"), "options.expansions") &&
                          strstr(jstr(r.json, "detail"), "options.edition")) ||
                         (strstr(jstr(r.json, "detail"), "options.inn_cathedral_final") &&
                          strstr(jstr(r.json, "detail"), "options.expansions"));
        char got[300];
        snprintf(got, sizeof got, "%ld %.200s", r.status, r.body);
        resp_free(&r);
        CHECK(ok && names_both, "create %zu: %s (want 400 %s, naming both options)", i, got,
              refused[i][1]);
    }
    CHECK(db_scalar("SELECT count(*) FROM games") == games_before, "a refused creation stored");

    /* Six seats with an expansion, each with its supply. */
    struct game six;
    NEW_GAME(&six, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":"
                   "\"D\"},{\"name\":\"E\"},{\"name\":\"F\"}],\"options\":{\"expansions\":["
                   "\"traders\",\"inns\",\"traders\"]},\"seed\":4}");
    cJSON *j = game_get(srv, &six);
    CHECK(j && cJSON_GetArraySize(jget(j, "players")) == 6 && seat_num(j, 5, "large") == 1 &&
              seat_num(j, 5, "builder") == 1 && seat_num(j, 5, "pig") == 1 &&
              seat_num(j, 5, "goods.cloth") == 0 && seat_num(j, 5, "followers") == 7 &&
              cJSON_IsFalse(jget(j, "turn.extra")) &&
              cJSON_GetArraySize(jget(j, "options.expansions")) == 2 &&
              strcmp(jstr(j, "options.expansions.0"), "inns") == 0 &&
              strcmp(jstr(j, "options.inn_cathedral_final"), "zero") == 0,
          "six seats: %.300s", j ? "state wrong" : "no state");
    cJSON_Delete(j);

    /* A game without expansions: their figures are unknown to it. */
    struct game plain;
    NEW_GAME(&plain, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"deck\":[\"U\",\"U\"]}");
    ACT(&plain, 0, "draw", NULL, 200, &r);
    int plain_has_extra = jget(r.json, "game.turn.extra") != NULL ||
                          jget(r.json, "game.players.0.large") != NULL ||
                          !has_string(jget(r.json, "placements.0.spots.0.figures"), "follower") ||
                          cJSON_GetArraySize(jget(r.json, "placements.0.spots.0.figures")) != 1;
    resp_free(&r);
    CHECK(!plain_has_extra, "a game without expansions shows their supplies or figures");
    REFUSED(&plain, 0, "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"E\",\"figure\":\"large\"}",
            400, "unknown_figure");
    REFUSED(&plain, 0, "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"builder\"}",
            400, "unknown_figure");
    REFUSED(&plain, 0, "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"pig\"}",
            400, "unknown_figure");

    /* Both expansions, six straight roads east of the start tile D (road W-E, the field
     * north of it one farm along the row). */
    struct game g;
    NEW_GAME(&g, "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}],\"options\":{\"expansions\":["
                 "\"inns\",\"traders\"]},\"deck\":[\"U\",\"U\",\"U\",\"U\",\"U\",\"U\"]}");
    DRAW(&g, 0);
    /* Seat 0 has no follower anywhere yet: its builder and pig may go nowhere. */
    REFUSED(&g, 0, "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"E\",\"figure\":\"builder\"}",
            409, "figure_not_allowed");
    REFUSED(&g, 0, "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"pig\"}", 409,
            "figure_not_allowed");
    ACT(&g, 0, "placements", "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"E\"}", 201, &r);
    CHECK(has_event(r.json, "follower_deployed", "follower"), "follower_deployed: %.300s", r.body);
    resp_free(&r);

    ACT(&g, 1, "draw", NULL, 200, &r);
    /* Seat 1 on (2, 0): the road holds seat 0's follower; the spots say what may go where. */
    const cJSON *p, *road = NULL, *field = NULL;
    cJSON_ArrayForEach(p, jget(r.json, "placements"))
    {
        if (jnum(p, "x") != 2 || jnum(p, "y") != 0 || jnum(p, "rotation") != 0) continue;
        const cJSON *sp;
        cJSON_ArrayForEach(sp, jget(p, "spots"))
        {
            if (strcmp(jstr(sp, "kind"), "road") == 0) road = sp;
            if (strcmp(jstr(sp, "kind"), "field") == 0 && !field) field = sp;
        }
    }
    int spots_ok = !road && field && has_string(jget(field, "figures"), "follower") &&
                   has_string(jget(field, "figures"), "large") &&
                   !has_string(jget(field, "figures"), "pig");
    resp_free(&r);
    CHECK(spots_ok, "(2, 0): the occupied road offered, or the field's figures wrong");
    REFUSED(&g, 1, "{\"x\":2,\"y\":0,\"rotation\":0,\"follower\":\"E\",\"figure\":\"large\"}", 409,
            "feature_occupied");
    REFUSED(&g, 1, "{\"x\":2,\"y\":0,\"rotation\":0,\"follower\":\"E\",\"figure\":\"builder\"}",
            409, "figure_not_allowed");
    REFUSED(&g, 1, "{\"x\":2,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"builder\"}",
            409, "figure_not_allowed");
    REFUSED(&g, 1, "{\"x\":2,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"pig\"}", 409,
            "figure_not_allowed");
    DEPLOY(&g, 1, "{\"x\":2,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"large\"}",
           "large");

    DRAW(&g, 0);
    DEPLOY(&g, 0, "{\"x\":3,\"y\":0,\"rotation\":0,\"follower\":\"E\",\"figure\":\"builder\"}",
           "builder");

    DRAW(&g, 1);
    REFUSED(&g, 1, "{\"x\":-1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"large\"}", 409,
            "no_followers_left");
    DEPLOY(&g, 1, "{\"x\":-1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"figure\":\"pig\"}", "pig");
    j = game_get(srv, &g);
    int pieces_ok = j && seat_num(j, 0, "builder") == 0 && seat_num(j, 0, "large") == 1 &&
                    seat_num(j, 1, "large") == 0 && seat_num(j, 1, "pig") == 0 &&
                    seat_num(j, 1, "builder") == 1 && seat_num(j, 0, "followers") == 6;
    int figures = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, jget(j, "board"))
    {
        cJSON_ArrayForEach(p, jget(t, "pieces")) figures |= 1 << figure_index(jstr(p, "figure"));
    }
    cJSON_Delete(j);
    CHECK(pieces_ok && figures == 0xF, "supplies or pieces' figures wrong (figures 0x%x)", figures);

    /* Seat 0 extends its builder's road: an extra turn, and never a third. */
    DRAW(&g, 0);
    ACT(&g, 0, "placements", "{\"x\":4,\"y\":0,\"rotation\":0}", 201, &r);
    int extra = has_event(r.json, "extra_turn", NULL) && jnum(r.json, "turn.seat") == 0 &&
                cJSON_IsTrue(jget(r.json, "turn.extra"));
    resp_free(&r);
    CHECK(extra, "no extra turn after extending the builder's road");
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/turn", g.id);
    j = get_json(srv, path);
    CHECK(j && cJSON_IsTrue(jget(j, "extra")) && jnum(j, "supply.builder") == 0 &&
              jnum(j, "supply.goods.wine") == 0,
          "/turn: extra or supply wrong");
    cJSON_Delete(j);
    ACT(&g, 0, "draw", NULL, 200, &r);
    int shown = cJSON_IsTrue(jget(r.json, "game.turn.extra"));
    resp_free(&r);
    CHECK(shown, "the extra turn's draw does not show turn.extra");
    ACT(&g, 0, "placements", "{\"x\":5,\"y\":0,\"rotation\":0}", 201, &r);
    int third = has_event(r.json, "extra_turn", NULL);
    int over = strcmp(jstr(r.json, "status"), "finished") == 0;
    resp_free(&r);
    CHECK(!third && over, "a third turn (%d), or the game did not end with the pile (%d)", third,
          over);
    struct export_tally tally = {0};
    char why[400];
    CHECK(export_replay_same(srv, g.id, &tally, why, sizeof why) == 0, "%s", why);
    CHECK(tally.figures == 3, "%d exported actions name a figure, not 3 (large, builder, pig)",
          tally.figures);
}

ITEST(test_expansions_rulesets, "expansions: GET /v1/rulesets offers them, the catalogue lists "
                                "their tiles with inns, cathedrals and goods")
{
    cJSON *j = get_json(srv, "/v1/rulesets");
    CHECK(j, "rulesets");
    const cJSON *classic = cJSON_GetArrayItem(jget(j, "rulesets"), 0), *o;
    int exp_ok = 0, inn_ok = 0;
    cJSON_ArrayForEach(o, jget(classic, "options"))
    {
        if (strcmp(jstr(o, "name"), "expansions") == 0)
            exp_ok = strcmp(jstr(o, "type"), "array") == 0 &&
                     cJSON_GetArraySize(jget(o, "default")) == 0 &&
                     has_string(jget(o, "values"), "inns") &&
                     has_string(jget(o, "values"), "traders");
        if (strcmp(jstr(o, "name"), "inn_cathedral_final") == 0)
            inn_ok =
                strcmp(jstr(o, "default"), "zero") == 0 && has_string(jget(o, "values"), "ignore");
    }
    int six = jnum(classic, "players.max_with_expansions") == 6;
    cJSON_Delete(j);
    CHECK(exp_ok && inn_ok && six, "options: expansions %d, inn_cathedral_final %d, six %d", exp_ok,
          inn_ok, six);
    j = get_json(srv, "/v1/rulesets/classic/tiles");
    CHECK(j, "tiles");
    int inns = 0, traders = 0, cathedrals = 0, inn_roads = 0, goods[3] = {0};
    const cJSON *t, *f;
    cJSON_ArrayForEach(t, jget(j, "tiles"))
    {
        int n = (int)jnum(t, "count");
        inns += cJSON_IsTrue(jget(t, "inns")) ? n : 0;
        traders += cJSON_IsTrue(jget(t, "traders")) ? n : 0;
        cJSON_ArrayForEach(f, jget(t, "features"))
        {
            cathedrals += cJSON_IsTrue(jget(f, "cathedral")) ? n : 0;
            inn_roads += cJSON_IsTrue(jget(f, "inn")) ? n : 0;
            goods[0] += jget(f, "goods.wine") ? n * (int)jnum(f, "goods.wine") : 0;
            goods[1] += jget(f, "goods.grain") ? n * (int)jnum(f, "goods.grain") : 0;
            goods[2] += jget(f, "goods.cloth") ? n * (int)jnum(f, "goods.cloth") : 0;
        }
    }
    cJSON_Delete(j);
    CHECK(inns == 18 && traders == 24 && cathedrals == 2 && inn_roads == 6 && goods[0] == 9 &&
              goods[1] == 6 && goods[2] == 5,
          "inns %d, traders %d, cathedrals %d, inns on roads %d, goods %d/%d/%d", inns, traders,
          cathedrals, inn_roads, goods[0], goods[1], goods[2]);
}
