/* t_play.c: turns, errors that change nothing, whole games, races, restarts, outages. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests.h"

const struct itest itest_tests[] = {
    {"ops endpoints", test_ops},
    {"ratings: profiles, histories, leaderboards, bots", test_ratings_read},
    {"404 and 405", test_not_found_and_methods},
    {"rulesets and tiles", test_rulesets},
    {"create a game", test_create},
    {"create: every setup error", test_create_errors},
    {"413 and 415", test_body_limits},
    {"tokens: 401 and 403", test_auth},
    {"turn errors change nothing", test_turn_errors},
    {"If-Match", test_if_match},
    {"If-None-Match: 304 while the game stays at that version", test_if_none_match},
    {"Idempotency-Key", test_idempotency},
    {"events", test_events},
    {"events long poll", test_long_poll},
    {"a whole game via /placements", test_whole_game},
    {"hills: a whole game with stables, hikes and harvest tokens, replayed", test_hills_game},
    {"hills: every refusal of its own, nothing changes", test_hills_refusals},
    {"discovery (pile): a whole game with withdrawals, replayed", test_discovery_pile_game},
    {"discovery (hand of two): a whole game, replayed", test_discovery_hand_game},
    {"discovery: every refusal of its own, nothing changes", test_discovery_refusals},
    {"two clients race for one turn", test_race},
    {"two servers on one database", test_two_servers},
    {"restart mid-game", test_restart},
    {"drain: two servers restarted in turn under load (SIGTERM), no request failed", test_drain},
    {"drain: step by step (refused, readyz 503, long poll, stream end, DRAIN_TIMEOUT)",
     test_drain_steps},
    {"drain: a webhook delivery in flight at SIGTERM finished and recorded", test_drain_webhook},
    {"database connection lost: 503, then reconnect", test_db_loss},
    /* Live updates, views, metrics (t_live.c) and webhooks (t_webhook.c). */
    {"event stream: events as committed, Last-Event-ID, heartbeats", test_event_stream},
    {"event stream: ends after game_finished", test_event_stream_end},
    {"long poll woken by a commit on another server (NOTIFY)", test_live_across_servers},
    {"commits notify only while the game is watched (a lease)", test_live_lease},
    {"slow requests logged as warnings (SLOW_REQUEST_MS), long polls not", test_slow_request_log},
    {"event stream fed by a commit on another server (NOTIFY)", test_stream_across_servers},
    {"event streams: the cap, a client gone, shutdown with streams open", test_stream_limits},
    {"/turn: seat, tile or hand, placements; 304", test_turn_view},
    {"board.svg: every ruleset, ETag and 304", test_board_svg},
    {"board.png: every ruleset, the width asked, ETag and 304", test_board_png},
    {"board.png: width refusals", test_board_png_refusals},
    {"board.png: one render per version and width, viewers at once included", test_board_png_cache},
    {"board.png: no render slot within BOARD_PNG_WAIT_MS: 503 render_busy, Retry-After",
     test_board_png_busy},
    /* For client authors (t_client.c). */
    {"past versions: ?version=N on the game, board.svg and board.png, as they stood",
     test_past_versions},
    {"events: pages (limit, has_more), the status; a long poll on a finished game at once",
     test_events_pages},
    {"placements: the answer says what comes next (status, turn), as GET shows it",
     test_place_answer_next},
    {"choices: spots by feature, twins by symmetry, piece features, withdrawals' scores",
     test_choices},
    {"If-Match forms as the spec has them: \"N\", N, *, W/ never, others 400", test_if_match_forms},
    {"/metrics by route and status; X-Request-Id in answers and logs",
     test_metrics_and_request_ids},
    {"webhooks: signed deliveries in order, state, replace, remove; one per seat, each "
     "seat's own only, the creator's out of their reach",
     test_webhooks},
    {"webhooks: retries with backoff, giving up, never delaying a move", test_webhook_retries},
    {"webhooks: two servers share the deliveries, each once", test_webhook_servers},
    {"webhooks: private addresses refused unless allowed", test_webhook_private},
    {"webhooks: receivers that never answer delay no other game (tarpits)", test_webhook_tarpits},
    {"webhooks: a failing host is skipped (circuit breaker), then served again",
     test_webhook_breaker},
    {"webhooks: the migration to one per owner keeps a game's deliveries (the creator's)",
     test_webhook_migration},
    /* Players across games (t_players.c). */
    {"players: create, me, token replacement (the old token refused at once)", test_players},
    {"players: every refusal with its code, nothing stored", test_players_refusals},
    {"players: Idempotency-Key repeats with the token, concurrent on two servers",
     test_players_idempotency},
    {"players: token replacements racing on two servers, exactly one wins",
     test_players_token_race},
    {"players: the creation limit counts players with games", test_players_create_limit},
    {"seatme: a \"me\" seat played by the player token to the end; not another seat or game",
     test_seatme_play},
    {"seatme: every refusal of a create with seats, its code, nothing stored",
     test_seatme_refusals},
    {"seatme: Idempotency-Key of a create scoped to the player", test_seatme_idempotency},
    /* Resign and rematch (t_resign.c). */
    {"resign: 3 seats in every ruleset, pieces leave, turns skip, the last one wins",
     test_resign_three},
    {"resign: 2 seats in every ruleset, the other seat wins at once", test_resign_two},
    {"resign: a normal end has result completed", test_resign_completed},
    {"resign: every refusal with its code, the stored game unchanged", test_resign_refusals},
    {"rematch: every seat at once on two servers, one next game, rotated, tokens once",
     test_rematch},
    {"rematch: a token claimed after the next game was cached works at once", test_rematch_cached},
    {"bots: a person against two computer players to the end", test_bots_against_person},
    {"bots: games of computer players only play to their end", test_bots_only},
    {"bots: a server killed (-9) while its bots play, another finishing each turn once",
     test_bots_server_killed},
    {"bots: a turn leased by a dead server is played once the lease runs out", test_bots_lease},
    {"bots: bad computer player specs refused, nothing stored", test_bots_refused},
    {"bots: hints for the seat to move, off with hints: false", test_hints},
    {"bots: a rematch keeps the computer players, which move by themselves", test_bots_rematch},
    /* Fair background work (t_jobs.c, issue 29). */
    {"bots: a hint whose client left is given up, the next one answered at once",
     test_hints_client_gone},
    {"bots: hints bounded (503 hints_busy), a repeat joins, computer players not behind them",
     test_hints_bounded},
    {"bots: hints pending per address bounded, another address served", test_hints_per_address},
    {"bots: a game whose people all resigned is cut short", test_bots_people_left},
    {"bots: one address's computer players take one share; deadlines not behind thinking",
     test_bots_fair_share},
    {"creation: a creation, a rematch and a replay store their owner and seed_chosen",
     test_creation_owner_seed},
    /* A player's games and webhook (t_inbox.c). */
    {"inbox: my games in order (my turn, then changed last), filters, pages, ETag, nobody else's",
     test_inbox_list},
    {"inbox: the player's webhook delivers two games' events, signed, each naming its game",
     test_inbox_webhook},
    {"inbox: the list names the seats as the game does, also after joins", test_inbox_names},
    /* Open seats, invites, joins, abort (t_lobby.c). */
    {"lobby: open seats joined by name and player token, started, played (every ruleset)",
     test_lobby_play},
    {"lobby: every refusal of a join, its code, the game unchanged", test_lobby_refusals},
    {"lobby: eight joins racing for one invite, two for two invites, one player for two seats",
     test_lobby_race},
    {"lobby: game_started wakes a long poll and goes to the webhooks", test_lobby_start_events},
    {"lobby: Idempotency-Key of a join", test_lobby_idempotency},
    {"lobby: a chosen seed or deck is shown to whoever joins (seed_chosen, custom_deck)",
     test_lobby_stacked_deck_shown},
    {"lobby: abort while waiting, before and after every seat placed (every ruleset)",
     test_lobby_abort},
    {"lobby: ?version=N while waiting shows it waiting, its open seats open",
     test_lobby_past_versions},
    {"lobby: a clock and a computer player wait for the last join, then run",
     test_lobby_clock_and_bot},
    /* Clocks (t_clocks.c). */
    {"clocks: bad clocks refused with their codes, nothing stored", test_clocks_refused},
    {"clocks: a deadline met, the next turn's deadline", test_clocks_met},
    {"clocks: autoplay at a missed deadline, the third timeout resigns the seat",
     test_clocks_autoplay},
    {"clocks: on_timeout resign at once; a rematch keeps the clock", test_clocks_resign},
    {"clocks: a bank running down with increments", test_clocks_bank},
    {"clocks: a move after the deadline refused, nothing applied", test_clocks_late},
    {"clocks: two servers, one expired deadline, exactly one acting", test_clocks_race},
    {"clocks: a server killed with a deadline due, another acting", test_clocks_killed},
    {"clocks: a deadline leased by a dead server is acted on once the lease runs out",
     test_clocks_lease},
    {"clocks: deadline_near once a turn", test_clocks_near},
    {"clocks: the player's list of games shows the deadline", test_clocks_in_my_games},
    {"clocks_bench: lateness of 250 timeouts (make bench-clocks)", test_clocks_bench},
    /* Retention (t_retention.c). */
    {"retention: old ended games deleted with every row, lobbies expired, two servers' counts "
     "exact",
     test_retention},
    {"retention: a server killed with a batch in flight; each game whole or gone, the sweep "
     "taken up once its lease ran out",
     test_retention_killed},
    /* Browsers (t_cors.c). */
    {"cors: a preflight on every route, with its methods, no token", test_cors_preflights},
    {"cors: headers on every answer (errors, 304, long poll, stream), not on ops",
     test_cors_answers},
    {"cors: CORS_ORIGINS list (listed, unlisted), preflights not rate-limited", test_cors_origins},
    {"cors: the connection guard's 408 readable by a page (CORS_ORIGINS * and a list)",
     test_cors_timeout},
    {"security headers: nosniff, no-referrer and a CSP on every answer, the page's own",
     test_security_headers},
    {"security headers: WEB_API_ORIGINS in the page's CSP and meta; bad lists refused",
     test_security_page_origins},
    /* Hardening (t_badinput.c, t_hardening.c). */
    {"bad input of every kind: 4xx problems, the game unchanged", test_bad_input},
    {"rate limit: 429 with Retry-After, off by default", test_rate_limit},
    {"connection limits, total and per address", test_connection_limits},
    {"attack: 1,100 idle connections from one address", test_attack_connection_flood},
    {"attack: slow senders (slowloris)", test_attack_slowloris},
    {"attack: oversized queries, smuggling, hidden paths", test_attack_framing},
    {"attack: a malformed Content-Length gets one 400 invalid_framing, then a close",
     test_attack_content_length},
    {"idempotency: 40 concurrent repeats of one key, two servers", test_idem_concurrent_repeats},
    {"If-Match compares strongly: W/ never matches", test_idem_if_match_strong},
    {"idempotency: a repeated create gives back its tokens, sealed in the database; short "
     "anonymous keys refused",
     test_idem_sealed_create},
    {"idempotency: a player's keys are its own; a replaced player token's keys locked",
     test_idem_player_keys},
    {"idempotency: requests compared as canonical JSON; a refused request binds no key",
     test_idem_canonical},
    {"idempotency: 16 concurrent creations with one key, two servers",
     test_idem_concurrent_creates},
    {"idempotency: the migration to sealed answers keeps the answers of before",
     test_idem_migration},
    {"playertoken: a bound seat's player token answered as its seat token, a whole game",
     test_playertoken_same_as_seat},
    {"playertoken: the same in the hand-of-two variant", test_playertoken_same_as_seat_hand},
    {"playertoken: not on another game, another seat, off its turn; nothing changed",
     test_playertoken_limits},
    {"tokens: 256 bits, stored hashed, never logged; only parameterised SQL", test_security},
    {"many clients race on many games over two servers; replays match", test_race_many},
    {"kill -9 under load: every 2xx action survives the restart", test_crash},
    {"PostgreSQL stopped under load: 503 with Retry-After, then recovery", test_outage},
    {"PostgreSQL restarted 20 times under load: no failure after /readyz 200", test_reconnect},
    {"database turned read-only (demoted primary): 503, never 2xx, then back", test_read_only},
    {"creation limit: 429 with Retry-After per address, on by default", test_create_limit},
    {"creation limit: every rematch created counts (a resign + rematch chain gets 429)",
     test_create_limit_rematch},
    {"creation limit: a replay weighs what it stores", test_create_limit_replay},
    /* Export and replay (t_export.c). */
    {"export: bot games of every ruleset and option exported, replayed equal (state, scores, "
     "events, past versions, export)",
     test_export_replay_rulesets},
    {"export: people's games with resignations and a custom deck exported, replayed equal",
     test_export_replay_people},
    {"export: refusals (unfinished, illegal or malformed action at k, format, deck, JSON); "
     "nothing stored",
     test_export_refusals},
    {"export: a game through an invite and a clocked game replayed; Idempotency-Key of a replay",
     test_export_replay_lobby_clock_idem},
};
const size_t itest_ntests = sizeof itest_tests / sizeof itest_tests[0];

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* POSTs to /v1/games/{id}/<what> as `seat` with extra header `extra` (or NULL). */
static void act(const struct server *srv, const struct game *g, const char *what, int seat,
                const char *body, const char *extra, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    const char *h[3] = {seat >= 0 ? g->auth[seat] : NULL, NULL, NULL};
    if (seat < 0) h[0] = extra, extra = NULL;
    h[1] = extra;
    http(srv, "POST", path, body, h, r);
}

/* GETs /v1/games/{id}/<what>. */
static void read_game(const struct server *srv, const struct game *g, const char *what,
                      struct resp *r)
{
    char path[192];
    snprintf(path, sizeof path, "/v1/games/%s%s%s", g->id, what[0] ? "/" : "", what);
    http(srv, "GET", path, NULL, NULL, r);
}

int play_turn(const struct server *srv, const struct game *g, int follower, char *why, size_t cap)
{
    cJSON *j = game_get(srv, g);
    if (!j) {
        snprintf(why, cap, "GET game failed");
        return -1;
    }
    int seat = (int)jnum(j, "turn.seat");
    int finished = strcmp(jstr(j, "status"), "finished") == 0;
    int draw = strcmp(jstr(j, "turn.phase"), "draw") == 0;
    cJSON_Delete(j);
    if (finished) return 1;
    struct resp r;
    if (draw) {
        act(srv, g, "draw", seat, NULL, NULL, &r);
        if (r.status != 200) {
            snprintf(why, cap, "draw: %ld %.200s", r.status, r.body);
            resp_free(&r);
            return -1;
        }
        finished = strcmp(jstr(r.json, "game.status"), "finished") == 0;
        resp_free(&r);
        if (finished) return 1;
    }
    read_game(srv, g, "placements", &r);
    const cJSON *p = jget(r.json, "placements.0");
    if (r.status != 200 || !p) {
        snprintf(why, cap, "placements: %ld %.200s", r.status, r.body);
        resp_free(&r);
        return -1;
    }
    char body[160];
    const char *loc = jstr(p, "follower.0");
    if (follower && loc[0])
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d,\"follower\":\"%s\"}",
                 (int)jnum(p, "x"), (int)jnum(p, "y"), (int)jnum(p, "rotation"), loc);
    else
        snprintf(body, sizeof body, "{\"x\":%d,\"y\":%d,\"rotation\":%d}", (int)jnum(p, "x"),
                 (int)jnum(p, "y"), (int)jnum(p, "rotation"));
    resp_free(&r);
    act(srv, g, "placements", seat, body, NULL, &r);
    if (r.status != 201) {
        snprintf(why, cap, "place %s: %ld %.200s", body, r.status, r.body);
        resp_free(&r);
        return -1;
    }
    const cJSON *evs = jget(r.json, "events");
    const cJSON *last = cJSON_GetArrayItem(evs, cJSON_GetArraySize(evs) - 1);
    finished = strcmp(jstr(last, "type"), "game_finished") == 0;
    resp_free(&r);
    return finished;
}

#define SMALL_GAME                                                                                 \
    "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"start\":\"D\",\"deck\":[\"K\","        \
    "\"D\",\"E\",\"U\",\"V\",\"B\",\"A\",\"L\"]}"

void test_auth(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp r;
    act(srv, &g, "draw", -1, NULL, NULL, &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "missing_token") == 0 &&
              strncmp(r.www_auth, "Bearer", 6) == 0,
          "no token: %ld %s (%s)", r.status, r.body, r.www_auth);
    resp_free(&r);
    act(srv, &g, "draw", -1, NULL, "Authorization: Bearer not-a-token-of-this-game", &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "unknown_token") == 0, "bad token: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", -1, NULL, "Authorization: Basic QWxhZGRpbjpvcGVu", &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "missing_token") == 0, "basic: %ld",
          r.status);
    resp_free(&r);
    /* Another game's token is unknown here. */
    struct game other;
    NEW_GAME(&other, SMALL_GAME);
    char h[200];
    snprintf(h, sizeof h, "Authorization: Bearer %s", other.token[0]);
    act(srv, &g, "draw", -1, NULL, h, &r);
    CHECK(r.status == 401 && strcmp(problem_code(&r), "unknown_token") == 0, "other game: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 1, NULL, NULL, &r);
    CHECK(r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0, "seat 1: %ld %s",
          r.status, r.body);
    resp_free(&r);
    act(srv, &g, "placements", 1, "{\"x\":0,\"y\":1,\"rotation\":0}", NULL, &r);
    CHECK(r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0, "seat 1 place: %ld",
          r.status);
    resp_free(&r);
    CHECK(game_version(srv, &g) == 1, "a refused request changed the version");
    /* Reads are public. */
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(r.etag, "\"1\"") == 0 &&
              cJSON_GetArraySize(jget(r.json, "projected")) == 2 && !jget(r.json, "winners"),
          "scores: %ld %s", r.status, r.body);
    resp_free(&r);
}

/* Expects a POST placement with `body` by seat 0 to be refused with `status`/`code`. */
#define EXPECT_PLACE(b_, st, code_)                                                                \
    do {                                                                                           \
        struct resp r_;                                                                            \
        act(srv, &g, "placements", 0, b_, NULL, &r_);                                              \
        int ok_ = r_.status == (st) && strcmp(problem_code(&r_), code_) == 0;                      \
        char got_[300];                                                                            \
        snprintf(got_, sizeof got_, "%ld %.200s", r_.status, r_.body);                             \
        resp_free(&r_);                                                                            \
        CHECK(ok_, "%.200s -> %s", b_, got_);                                                      \
        CHECK(game_version(srv, &g) == version, "%s changed the version", b_);                     \
    } while (0)

/* EXPECT_PLACE of the body printed from `fmt` and what follows it. */
#define EXPECT_PLACEF(st, code_, fmt, ...)                                                         \
    do {                                                                                           \
        snprintf(body, sizeof body, fmt, __VA_ARGS__);                                             \
        EXPECT_PLACE(body, st, code_);                                                             \
    } while (0)

void test_turn_errors(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    int version = 1;
    struct resp r;
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0}", 409, "wrong_phase");
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "placements: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, "{\"tile\":\"K\"}", NULL, &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "unknown_field") == 0, "draw body: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, "{}", NULL, &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "tile"), "K") == 0 &&
              strcmp(r.etag, "\"2\"") == 0 && jnum(r.json, "game.version") == 2 &&
              cJSON_GetArraySize(jget(r.json, "placements")) > 0 &&
              strcmp(jstr(r.json, "events.0.type"), "tile_drawn") == 0,
          "draw: %ld %.300s", r.status, r.body);
    resp_free(&r);
    version = 2;
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "wrong_phase") == 0, "draw twice: %ld",
          r.status);
    resp_free(&r);
    /* Which (x, y, rotation) next to the start tile are legal for K? */
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "tile"), "K") == 0, "placements: %ld", r.status);
    int legal[4][4] = {{0}};
    static const int sq[4][2] = {{0, -1}, {1, 0}, {0, 1}, {-1, 0}};
    const cJSON *p;
    cJSON_ArrayForEach(p, jget(r.json, "placements"))
    {
        for (int s = 0; s < 4; s++)
            if (jnum(p, "x") == sq[s][0] && jnum(p, "y") == sq[s][1])
                legal[s][(int)jnum(p, "rotation") / 90] = 1;
    }
    char legal_body[96] = "", bad_edges[96] = "";
    for (int s = 0; s < 4; s++)
        for (int k = 0; k < 4; k++) {
            char *dst = legal[s][k] ? legal_body : bad_edges;
            if (!dst[0])
                snprintf(dst, 96, "{\"x\":%d,\"y\":%d,\"rotation\":%d", sq[s][0], sq[s][1], k * 90);
        }
    resp_free(&r);
    CHECK(legal_body[0] && bad_edges[0], "K should fit some ways and not others");
    char body[160];
    EXPECT_PLACEF(409, "edges_do_not_match", "%s}", bad_edges);
    EXPECT_PLACE("{\"x\":0,\"y\":0,\"rotation\":0}", 409, "position_taken");
    EXPECT_PLACE("{\"x\":5,\"y\":5,\"rotation\":0}", 409, "not_adjacent");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":45}", 400, "bad_rotation");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":\"90\"}", 400, "bad_rotation");
    EXPECT_PLACE("{\"x\":0,\"y\":-1}", 400, "invalid_body");
    EXPECT_PLACE("{\"x\":0.5,\"y\":-1,\"rotation\":0}", 400, "invalid_body");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0,\"meeple\":\"N\"}", 400, "unknown_field");
    EXPECT_PLACE("{\"x\":0,\"y\":-1,\"rotation\":0,\"x\":1}", 400, "invalid_body");
    EXPECT_PLACE("not json", 400, "invalid_json");
    /* The legal placement with a follow-up that is wrong (in itself, or in this ruleset). */
    EXPECT_PLACEF(400, "bad_location", "%s,\"follower\":\"Q\"}", legal_body);
    EXPECT_PLACEF(409, "no_feature_there", "%s,\"follower\":\"C\"}", legal_body);
    EXPECT_PLACEF(400, "invalid_body", "%s,\"follower\":\"N\",\"stable\":\"S\"}", legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset", "%s,\"stable\":\"N\"}", legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset", "%s,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"E\"}}",
                  legal_body);
    EXPECT_PLACEF(400, "bad_location", "%s,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"NE\"}}",
                  legal_body);
    EXPECT_PLACEF(400, "followup_not_in_ruleset",
                  "%s,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"N\"}}", legal_body);
    EXPECT_PLACEF(400, "unknown_tile", "%s,\"tile\":\"QQ\"}", legal_body);
    snprintf(body, sizeof body, "%s}", legal_body);
    act(srv, &g, "placements", 0, body, NULL, &r);
    CHECK(r.status == 201 && jnum(r.json, "version") == 3 && strcmp(r.etag, "\"3\"") == 0 &&
              strcmp(jstr(r.json, "events.0.type"), "tile_placed") == 0,
          "legal place: %ld %s", r.status, r.body);
    resp_free(&r);
}

void test_if_match(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp r;
    act(srv, &g, "draw", 0, NULL, "If-Match: \"7\"", &r);
    CHECK(r.status == 412 && strcmp(problem_code(&r), "version_mismatch") == 0, "stale: %ld %s",
          r.status, r.body);
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, "If-Match: seven", &r);
    CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "bad: %ld",
          r.status);
    resp_free(&r);
    CHECK(game_version(srv, &g) == 1, "refused If-Match changed the game");
    act(srv, &g, "draw", 0, NULL, "If-Match: \"1\"", &r);
    CHECK(r.status == 200 && strcmp(r.etag, "\"2\"") == 0, "fresh: %ld %s", r.status, r.body);
    resp_free(&r);
}

/* GETs the game with `If-None-Match: <inm>` and expects `status`. */
static int get_inm(const struct server *srv, const struct game *g, const char *inm, long status,
                   char *why, size_t cap)
{
    char path[128], h[160];
    snprintf(path, sizeof path, "/v1/games/%s", g->id);
    snprintf(h, sizeof h, "If-None-Match: %s", inm);
    const char *hs[] = {h, NULL};
    struct resp r;
    http(srv, "GET", path, NULL, hs, &r);
    int ok = r.status == status && strcmp(r.cache, "no-cache") == 0 && r.etag[0] &&
             (status != 304 || r.len == 0);
    if (!ok)
        snprintf(why, cap, "If-None-Match %s: %ld (want %ld), %zu bytes, ETag %s, Cache-Control %s",
                 inm, r.status, status, r.len, r.etag, r.cache);
    resp_free(&r);
    return ok ? 0 : -1;
}

void test_if_none_match(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    char why[300];
    static const char *const same[] = {"\"1\"", "W/\"1\"", "\"0\", \"1\"", "*"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++)
        CHECK(get_inm(srv, &g, same[i], 304, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "\"2\"", 200, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "garbage", 200, why, sizeof why) == 0, "%s", why);
    struct resp r;
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK(r.status == 200, "draw: %ld", r.status);
    resp_free(&r);
    /* The game moved on: the old version gets the game, the new one a 304. */
    CHECK(get_inm(srv, &g, "\"1\"", 200, why, sizeof why) == 0, "%s", why);
    CHECK(get_inm(srv, &g, "\"2\"", 304, why, sizeof why) == 0, "%s", why);
    /* Other answers are not to be stored at all. */
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(r.cache, "no-store") == 0, "scores: %ld %s", r.status, r.cache);
    resp_free(&r);
}

void test_idempotency(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct resp a, b;
    act(srv, &g, "draw", 0, NULL, "Idempotency-Key: draw-1", &a);
    CHECK(a.status == 200, "first: %ld", a.status);
    act(srv, &g, "draw", 0, NULL, "Idempotency-Key: draw-1", &b);
    int same = b.status == 200 && strcmp(a.body, b.body) == 0 && strcmp(a.etag, b.etag) == 0;
    resp_free(&a);
    resp_free(&b);
    CHECK(same, "a repeat did not get the first answer");
    CHECK(game_version(srv, &g) == 2, "a repeat changed the game");
    act(srv, &g, "placements", 0, "{\"x\":0,\"y\":-1,\"rotation\":180}", "Idempotency-Key: draw-1",
        &a);
    CHECK(a.status == 409 && strcmp(problem_code(&a), "idempotency_key_reused") == 0,
          "reused: %ld %s", a.status, a.body);
    resp_free(&a);
    char longkey[100] = "Idempotency-Key: ";
    memset(longkey + strlen(longkey), 'k', 65);
    act(srv, &g, "draw", 0, NULL, longkey, &a);
    CHECK(a.status == 400 && strcmp(problem_code(&a), "invalid_parameter") == 0, "long key: %ld",
          a.status);
    resp_free(&a);
    /* Creating: the repeat is the first answer again, byte for byte, tokens included. */
    const char *h[] = {"Idempotency-Key: create-xyz-1", NULL};
    char key[128];
    snprintf(key, sizeof key, "Idempotency-Key: create-%s", g.id);
    h[0] = key;
    http(srv, "POST", "/v1/games", SMALL_GAME, h, &a);
    http(srv, "POST", "/v1/games", SMALL_GAME, h, &b);
    CHECK(a.status == 201 && b.status == 201, "create: %ld %ld", a.status, b.status);
    CHECK(strcmp(jstr(a.json, "id"), jstr(b.json, "id")) == 0 &&
              strcmp(a.location, b.location) == 0,
          "repeat created another game");
    CHECK(strlen(jstr(a.json, "players.0.token")) > 0 && strcmp(a.body, b.body) == 0,
          "tokens: first %s, repeat %s", jstr(a.json, "players.0.token"),
          jstr(b.json, "players.0.token"));
    resp_free(&a);
    resp_free(&b);
    http(srv, "POST", "/v1/games", "{\"players\":[{\"name\":\"X\"},{\"name\":\"Y\"}]}", h, &a);
    CHECK(a.status == 409 && strcmp(problem_code(&a), "idempotency_key_reused") == 0,
          "create reused: %ld", a.status);
    resp_free(&a);
}

void test_events(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    char why[300];
    for (int i = 0; i < 2; i++) CHECK(play_turn(srv, &g, 1, why, sizeof why) >= 0, "%s", why);
    struct resp r;
    read_game(srv, &g, "events", &r);
    CHECK(r.status == 200, "events: %ld", r.status);
    const cJSON *evs = jget(r.json, "events");
    int n = cJSON_GetArraySize(evs);
    CHECK(n >= 5 && strcmp(jstr(evs, "0.type"), "game_created") == 0 && jnum(evs, "0.seq") == 1 &&
              strcmp(jstr(evs, "0.players.1.name"), "Bob") == 0,
          "first events: %.300s", r.body);
    for (int i = 0; i < n; i++)
        CHECK(jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1, "seq gap at %d", i);
    CHECK(!strstr(r.body, "token") && !strstr(r.body, "seed"), "events leak secrets");
    resp_free(&r);
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d", g.id, n - 2);
    http(srv, "GET", path, NULL, NULL, &r);
    CHECK(r.status == 200 && cJSON_GetArraySize(jget(r.json, "events")) == 2 &&
              jnum(r.json, "events.0.seq") == n - 1,
          "after: %.200s", r.body);
    resp_free(&r);
    static const char *const bad[] = {"after=-1", "after=x", "wait=61",
                                      "wait=-2",  "after=",  "wait=1.5"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(path, sizeof path, "/v1/games/%s/events?%s", g.id, bad[i]);
        http(srv, "GET", path, NULL, NULL, &r);
        CHECK(r.status == 400 && strcmp(problem_code(&r), "invalid_parameter") == 0, "%s: %ld",
              bad[i], r.status);
        resp_free(&r);
    }
    /* wait with nothing new: answers an empty list after about that long. */
    snprintf(path, sizeof path, "/v1/games/%s/events?after=%d&wait=1", g.id, n);
    long long t0 = now_ms();
    http(srv, "GET", path, NULL, NULL, &r);
    long long ms = now_ms() - t0;
    CHECK(r.status == 200 && cJSON_GetArraySize(jget(r.json, "events")) == 0 && ms >= 900 &&
              ms < 3000,
          "empty wait: %ld in %lld ms", r.status, ms);
    resp_free(&r);
}

struct poll_arg {
    const struct server *srv;
    char path[256];
    struct resp r;
    long long ms;
};

static void *poll_thread(void *p)
{
    struct poll_arg *a = p;
    long long t0 = now_ms();
    http(a->srv, "GET", a->path, NULL, NULL, &a->r);
    a->ms = now_ms() - t0;
    return NULL;
}

void test_long_poll(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, SMALL_GAME);
    struct poll_arg a[3];
    pthread_t t[3];
    for (int i = 0; i < 3; i++) {
        a[i].srv = srv;
        snprintf(a[i].path, sizeof a[i].path, "/v1/games/%s/events?after=1&wait=20", g.id);
        pthread_create(&t[i], NULL, poll_thread, &a[i]);
    }
    usleep(500000);
    /* The server still answers other requests while the polls wait. */
    struct resp r;
    http(srv, "GET", "/healthz", NULL, NULL, &r);
    long health = r.status;
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    long drew = r.status;
    resp_free(&r);
    int ok = 1;
    char why[300] = "";
    for (int i = 0; i < 3; i++) {
        pthread_join(t[i], NULL);
        if (a[i].r.status != 200 || strcmp(jstr(a[i].r.json, "events.0.type"), "tile_drawn") != 0 ||
            a[i].ms < 400 || a[i].ms > 5000) {
            ok = 0;
            snprintf(why, sizeof why, "poll %d: %ld in %lld ms: %.200s", i, a[i].r.status, a[i].ms,
                     a[i].r.body);
        }
        resp_free(&a[i].r);
    }
    CHECK(health == 200 && drew == 200, "health %ld draw %ld", health, drew);
    CHECK(ok, "%s", why);
}

void test_whole_game(struct server *srv)
{
    struct game g;
    NEW_GAME(&g, "{\"ruleset\":\"classic\",\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"},"
                 "{\"name\":\"Cy\"}],\"seed\":20240607}");
    char why[300];
    int turns = 0, rc = 0;
    while ((rc = play_turn(srv, &g, turns % 2 == 0, why, sizeof why)) == 0 && turns < 300) turns++;
    CHECK(rc == 1, "turn %d: %s", turns, why);
    CHECK(turns > 60, "only %d turns", turns);
    cJSON *j = game_get(srv, &g);
    CHECK(j, "get");
    int ok = strcmp(jstr(j, "status"), "finished") == 0 && strlen(jstr(j, "seed")) > 0 &&
             strcmp(jstr(j, "seed"), "20240607") == 0 &&
             cJSON_GetArraySize(jget(j, "deck")) == 71 &&
             strcmp(jstr(j, "turn.phase"), "finished") == 0 && cJSON_IsNull(jget(j, "turn.seat"));
    char *text = cJSON_PrintUnformatted(j);
    snprintf(why, sizeof why, "%.280s",
             text ? text + (strlen(text) > 280 ? strlen(text) - 280 : 0) : "");
    free(text);
    cJSON_Delete(j);
    CHECK(ok, "finished game: ...%s", why);
    struct resp r;
    read_game(srv, &g, "scores", &r);
    CHECK(r.status == 200 && strcmp(jstr(r.json, "status"), "finished") == 0 &&
              cJSON_GetArraySize(jget(r.json, "winners")) >= 1,
          "scores: %.300s", r.body);
    const cJSON *p;
    int best = -1;
    cJSON_ArrayForEach(p, jget(r.json, "players"))
    {
        int sum = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, jget(p, "breakdown")) sum += c->valueint;
        CHECK(sum == (int)jnum(p, "score"), "breakdown of seat %g sums to %d, not %g",
              jnum(p, "seat"), sum, jnum(p, "score"));
        if (sum > best) best = sum;
    }
    const cJSON *w;
    cJSON_ArrayForEach(w, jget(r.json, "winners"))
    {
        const cJSON *wp = cJSON_GetArrayItem(jget(r.json, "players"), w->valueint);
        CHECK(jnum(wp, "score") == best, "winner %d has %g, best is %d", w->valueint,
              jnum(wp, "score"), best);
    }
    resp_free(&r);
    read_game(srv, &g, "events", &r);
    const cJSON *evs = jget(r.json, "events");
    int n = cJSON_GetArraySize(evs);
    for (int i = 0; i < n; i++)
        CHECK(jnum(cJSON_GetArrayItem(evs, i), "seq") == i + 1, "seq gap at %d", i);
    CHECK(strcmp(jstr(cJSON_GetArrayItem(evs, n - 1), "type"), "game_finished") == 0 &&
              strcmp(jstr(cJSON_GetArrayItem(evs, n - 2), "type"), "final_scored") == 0,
          "last events");
    resp_free(&r);
    read_game(srv, &g, "placements", &r);
    CHECK(r.status == 409 && strcmp(problem_code(&r), "game_finished") == 0, "placements: %ld",
          r.status);
    resp_free(&r);
    act(srv, &g, "draw", 0, NULL, NULL, &r);
    CHECK((r.status == 409 && strcmp(problem_code(&r), "game_finished") == 0) ||
              (r.status == 403 && strcmp(problem_code(&r), "not_your_turn") == 0),
          "draw after the end: %ld %s", r.status, r.body);
    resp_free(&r);
}
