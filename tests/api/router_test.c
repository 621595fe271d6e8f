/* router_test.c: the route table and its lookup. Every route, the methods a path does
 * not have (405 and its Allow), paths that no route has (404: unknown, "//", a trailing
 * slash, too many segments, too long), the 415 of a POST under /v1/games or /v1/players
 * that is not JSON, the route templates of /metrics; the table's own rules (one parameter
 * at most, no two patterns of one shape, an Allow that fits); OPTIONS on every pattern
 * (a preflight: 204, its methods, no handler) and on unknown paths (404); and, on a table of its
 * own, a literal segment winning over a parameter. The handlers and problem_reply are stubs here:
 * they note which handler ran with which parameter, or which problem was answered, so the real
 * dispatch (api_handle) runs without a database or the answer's JSON. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "problem.h"
#include "req.h"
#include "router.h"
#include "routes.h"

/* ---- Stub handlers: the route that ran and its parameter ---------------------------- */

static const char *ran;   /* the handler's name, or NULL */
static char ran_arg[600]; /* its parameter, "(null)" for none */
#define RAN_STATUS 299    /* what a stub answers */

static void note(const char *name, const char *arg, struct api_response *resp)
{
    ran = name;
    snprintf(ran_arg, sizeof ran_arg, "%s", arg ? arg : "(null)");
    resp->status = RAN_STATUS;
}

#define STUB(name)                                                                                 \
    void name(const struct api_request *req, struct api_response *resp, const char *arg)           \
    {                                                                                              \
        (void)req;                                                                                 \
        note(#name, arg, resp);                                                                    \
    }

STUB(routes_healthz)
STUB(routes_readyz)
STUB(routes_openapi)
STUB(routes_metrics)
STUB(routes_rulesets)
STUB(routes_tiles)
STUB(routes_game_create)
STUB(routes_game_get)
STUB(routes_scores)
STUB(routes_events)
STUB(routes_events_stream)
STUB(routes_draw)
STUB(routes_placements_get)
STUB(routes_placements_post)
STUB(routes_turn_view)
STUB(routes_hint)
STUB(routes_board_svg)
STUB(routes_board_png)
STUB(routes_webhook_get)
STUB(routes_webhook_set)
STUB(routes_webhook_delete)
STUB(routes_player_create)
STUB(routes_player_me)
STUB(routes_player_token)
STUB(routes_resign)
STUB(routes_rematch)
STUB(routes_player_games)
STUB(routes_player_webhook_get)
STUB(routes_player_webhook_set)
STUB(routes_player_webhook_delete)
STUB(routes_game_join)
STUB(routes_game_abort)
STUB(routes_game_export)
STUB(routes_game_analysis)
STUB(routes_web_index)
STUB(routes_web_file)
STUB(routes_player_public)
STUB(routes_player_games_public)
STUB(routes_player_rating_history)
STUB(routes_leaderboard)
STUB(routes_bots)
STUB(routes_chat_post)
STUB(routes_chat_get)
STUB(routes_chat_stream)
STUB(routes_chat_report)
STUB(routes_blocks_list)
STUB(routes_block_add)
STUB(routes_block_delete)
STUB(routes_admin_reports)
STUB(routes_admin_hide)
STUB(routes_admin_suspend)
STUB(routes_admin_reinstate)
STUB(routes_seek_create)
STUB(routes_seeks_lobby)
STUB(routes_seek_get)
STUB(routes_seek_delete)
STUB(routes_tournament_create)
STUB(routes_tournaments_list)
STUB(routes_tournament_get)
STUB(routes_tournament_join)
STUB(routes_tournament_leave)
STUB(routes_tournament_start)
STUB(routes_tournament_events)
STUB(routes_tournament_events_stream)
STUB(routes_web_words)
STUB(routes_lobby_tables)
STUB(routes_lobby_games)

static char problem[40]; /* the code of the last problem answered */

void problem_reply(struct api_response *resp, int status, const char *code, const char *detail)
{
    cr_expect(detail && detail[0], "%s: no detail", code);
    snprintf(problem, sizeof problem, "%s", code);
    resp->status = status;
    resp->content_type = "application/problem+json";
}

/* ---- The service's table through api_handle ----------------------------------------- */

#define G   "/v1/games/0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f"
#define GID "0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f"
#define JS  "application/json"

struct route_case {
    const char *method;
    const char *path;
    const char *ctype;   /* Content-Type, or NULL */
    const char *body;    /* NULL: none */
    int status;          /* RAN_STATUS when a handler runs */
    const char *handler; /* the handler that runs, or NULL */
    const char *arg;     /* its parameter ("(null)": none); for 405 the Allow header */
    const char *tpl;     /* api_route_template(path) */
};

static const struct route_case cases[] = {
    /* Every route. */
    {"GET", "/healthz", NULL, NULL, RAN_STATUS, "routes_healthz", "(null)", "/healthz"},
    {"GET", "/readyz", NULL, NULL, RAN_STATUS, "routes_readyz", "(null)", "/readyz"},
    {"GET", "/openapi.yaml", NULL, NULL, RAN_STATUS, "routes_openapi", "(null)", "/openapi.yaml"},
    {"GET", "/metrics", NULL, NULL, RAN_STATUS, "routes_metrics", "(null)", "/metrics"},
    {"GET", "/", NULL, NULL, RAN_STATUS, "routes_web_index", "(null)", "/"},
    {"GET", "/web/app.js", NULL, NULL, RAN_STATUS, "routes_web_file", "app.js", "/web/{file}"},
    {"GET", "/web/..", NULL, NULL, RAN_STATUS, "routes_web_file", "..", "/web/{file}"},
    {"GET", "/web/i18n/de.json", NULL, NULL, RAN_STATUS, "routes_web_words", "de.json",
     "/web/i18n/{file}"},
    {"GET", "/web/../openapi.yaml", NULL, NULL, 404, NULL, NULL, "other"},
    {"GET", "/web", NULL, NULL, 404, NULL, NULL, "other"},
    {"GET", "/v1/rulesets", NULL, NULL, RAN_STATUS, "routes_rulesets", "(null)", "/v1/rulesets"},
    {"GET", "/v1/rulesets/classic/tiles", NULL, NULL, RAN_STATUS, "routes_tiles", "classic",
     "/v1/rulesets/{ruleset}/tiles"},
    {"GET", "/v1/rulesets/nope/tiles", NULL, NULL, RAN_STATUS, "routes_tiles", "nope",
     "/v1/rulesets/{ruleset}/tiles"},
    {"POST", "/v1/games", JS, "{}", RAN_STATUS, "routes_game_create", "(null)", "/v1/games"},
    {"GET", G, NULL, NULL, RAN_STATUS, "routes_game_get", GID, "/v1/games/{id}"},
    {"GET", "/v1/games/x", NULL, NULL, RAN_STATUS, "routes_game_get", "x", "/v1/games/{id}"},
    /* A UUID in upper or mixed case comes lower-cased (GameId's pattern); anything else as is. */
    {"GET", "/v1/games/45E0C36F-24F3-4074-84BB-892A6371DBD6", NULL, NULL, RAN_STATUS,
     "routes_game_get", "45e0c36f-24f3-4074-84bb-892a6371dbd6", "/v1/games/{id}"},
    {"POST", "/v1/games/45e0C36F-24f3-4074-84BB-892a6371DbD6/draw", NULL, NULL, RAN_STATUS,
     "routes_draw", "45e0c36f-24f3-4074-84bb-892a6371dbd6", "/v1/games/{id}/draw"},
    {"GET", "/v1/games/X", NULL, NULL, RAN_STATUS, "routes_game_get", "X", "/v1/games/{id}"},
    {"GET", "/v1/rulesets/Classic/tiles", NULL, NULL, RAN_STATUS, "routes_tiles", "Classic",
     "/v1/rulesets/{ruleset}/tiles"},
    {"POST", G "/draw", JS, "{}", RAN_STATUS, "routes_draw", GID, "/v1/games/{id}/draw"},
    {"POST", G "/draw", NULL, NULL, RAN_STATUS, "routes_draw", GID, "/v1/games/{id}/draw"},
    {"GET", G "/placements", NULL, NULL, RAN_STATUS, "routes_placements_get", GID,
     "/v1/games/{id}/placements"},
    {"POST", G "/placements", JS, "{}", RAN_STATUS, "routes_placements_post", GID,
     "/v1/games/{id}/placements"},
    {"GET", G "/scores", NULL, NULL, RAN_STATUS, "routes_scores", GID, "/v1/games/{id}/scores"},
    {"GET", G "/events", NULL, NULL, RAN_STATUS, "routes_events", GID, "/v1/games/{id}/events"},
    {"GET", G "/events/stream", NULL, NULL, RAN_STATUS, "routes_events_stream", GID,
     "/v1/games/{id}/events/stream"},
    {"GET", G "/turn", NULL, NULL, RAN_STATUS, "routes_turn_view", GID, "/v1/games/{id}/turn"},
    {"GET", G "/hint", NULL, NULL, RAN_STATUS, "routes_hint", GID, "/v1/games/{id}/hint"},
    /* Ratings: a player's id is a parameter, "me" stays the literal route. */
    {"GET", "/v1/players/" GID, NULL, NULL, RAN_STATUS, "routes_player_public", GID,
     "/v1/players/{id}"},
    {"GET", "/v1/players/me", NULL, NULL, RAN_STATUS, "routes_player_me", "(null)",
     "/v1/players/me"},
    {"GET", "/v1/players/" GID "/ratings/classic", NULL, NULL, RAN_STATUS,
     "routes_player_rating_history", "classic", "/v1/players/{id}/ratings/{pool}"},
    {"GET", "/v1/players/" GID "/games", NULL, NULL, RAN_STATUS, "routes_player_games_public", GID,
     "/v1/players/{id}/games"},
    {"GET", "/v1/leaderboards/hills", NULL, NULL, RAN_STATUS, "routes_leaderboard", "hills",
     "/v1/leaderboards/{pool}"},
    {"GET", "/v1/bots", NULL, NULL, RAN_STATUS, "routes_bots", "(null)", "/v1/bots"},
    /* Talk, blocks and the operator (issue 28): two parameters hand over the last. */
    {"POST", G "/chat", JS, "{}", RAN_STATUS, "routes_chat_post", GID, "/v1/games/{id}/chat"},
    {"GET", G "/chat", NULL, NULL, RAN_STATUS, "routes_chat_get", GID, "/v1/games/{id}/chat"},
    {"GET", G "/chat/stream", NULL, NULL, RAN_STATUS, "routes_chat_stream", GID,
     "/v1/games/{id}/chat/stream"},
    {"POST", G "/chat/7/report", NULL, NULL, RAN_STATUS, "routes_chat_report", "7",
     "/v1/games/{id}/chat/{seq}/report"},
    {"GET", "/v1/players/me/blocks", NULL, NULL, RAN_STATUS, "routes_blocks_list", "(null)",
     "/v1/players/me/blocks"},
    {"POST", "/v1/players/me/blocks/" GID, NULL, NULL, RAN_STATUS, "routes_block_add", GID,
     "/v1/players/me/blocks/{player_id}"},
    {"DELETE", "/v1/players/me/blocks/" GID, NULL, NULL, RAN_STATUS, "routes_block_delete", GID,
     "/v1/players/me/blocks/{player_id}"},
    {"POST", "/v1/seeks", JS, "{}", RAN_STATUS, "routes_seek_create", "(null)", "/v1/seeks"},
    {"GET", "/v1/seeks", NULL, NULL, RAN_STATUS, "routes_seeks_lobby", "(null)", "/v1/seeks"},
    {"GET", "/v1/seeks/" GID, NULL, NULL, RAN_STATUS, "routes_seek_get", GID, "/v1/seeks/{id}"},
    {"DELETE", "/v1/seeks/" GID, NULL, NULL, RAN_STATUS, "routes_seek_delete", GID,
     "/v1/seeks/{id}"},
    {"GET", "/v1/admin/reports", NULL, NULL, RAN_STATUS, "routes_admin_reports", "(null)",
     "/v1/admin/reports"},
    {"POST", "/v1/admin/games/" GID "/chat/3/hide", NULL, NULL, RAN_STATUS, "routes_admin_hide",
     "3", "/v1/admin/games/{id}/chat/{seq}/hide"},
    {"POST", "/v1/admin/players/" GID "/suspend", JS, "{}", RAN_STATUS, "routes_admin_suspend", GID,
     "/v1/admin/players/{id}/suspend"},
    {"POST", "/v1/admin/players/" GID "/reinstate", NULL, NULL, RAN_STATUS,
     "routes_admin_reinstate", GID, "/v1/admin/players/{id}/reinstate"},
    {"POST", "/v1/admin/players/" GID "/reinstate", "text/plain", "x", 415, NULL, NULL,
     "/v1/admin/players/{id}/reinstate"},
    /* The lobby (issue 30). */
    {"GET", "/v1/lobby/tables", NULL, NULL, RAN_STATUS, "routes_lobby_tables", "(null)",
     "/v1/lobby/tables"},
    {"GET", "/v1/lobby/games", NULL, NULL, RAN_STATUS, "routes_lobby_games", "(null)",
     "/v1/lobby/games"},
    {"POST", "/v1/lobby/games", NULL, NULL, 405, NULL, "GET", "/v1/lobby/games"},
    /* Tournaments (issue 27). */
    {"POST", "/v1/tournaments", NULL, NULL, RAN_STATUS, "routes_tournament_create", "(null)",
     "/v1/tournaments"},
    {"GET", "/v1/tournaments", NULL, NULL, RAN_STATUS, "routes_tournaments_list", "(null)",
     "/v1/tournaments"},
    {"GET", "/v1/tournaments/" GID, NULL, NULL, RAN_STATUS, "routes_tournament_get", GID,
     "/v1/tournaments/{id}"},
    {"POST", "/v1/tournaments/" GID "/join", NULL, NULL, RAN_STATUS, "routes_tournament_join", GID,
     "/v1/tournaments/{id}/join"},
    {"POST", "/v1/tournaments/" GID "/leave", NULL, NULL, RAN_STATUS, "routes_tournament_leave",
     GID, "/v1/tournaments/{id}/leave"},
    {"POST", "/v1/tournaments/" GID "/start", NULL, NULL, RAN_STATUS, "routes_tournament_start",
     GID, "/v1/tournaments/{id}/start"},
    {"GET", "/v1/tournaments/" GID "/events", NULL, NULL, RAN_STATUS, "routes_tournament_events",
     GID, "/v1/tournaments/{id}/events"},
    {"GET", "/v1/tournaments/" GID "/events/stream", NULL, NULL, RAN_STATUS,
     "routes_tournament_events_stream", GID, "/v1/tournaments/{id}/events/stream"},
    {"POST", "/v1/tournaments/" GID "/events/stream", NULL, NULL, 405, NULL, "GET",
     "/v1/tournaments/{id}/events/stream"},
    {"GET", G "/board.svg", NULL, NULL, RAN_STATUS, "routes_board_svg", GID,
     "/v1/games/{id}/board.svg"},
    {"GET", G "/board.png", NULL, NULL, RAN_STATUS, "routes_board_png", GID,
     "/v1/games/{id}/board.png"},
    {"GET", G "/webhook", NULL, NULL, RAN_STATUS, "routes_webhook_get", GID,
     "/v1/games/{id}/webhook"},
    {"POST", G "/webhook", JS, "{\"url\":\"https://a.example/\"}", RAN_STATUS, "routes_webhook_set",
     GID, "/v1/games/{id}/webhook"},
    {"DELETE", G "/webhook", NULL, NULL, RAN_STATUS, "routes_webhook_delete", GID,
     "/v1/games/{id}/webhook"},
    {"POST", "/v1/players", JS, "{\"name\":\"Ann\"}", RAN_STATUS, "routes_player_create", "(null)",
     "/v1/players"},
    {"GET", "/v1/players/me", NULL, NULL, RAN_STATUS, "routes_player_me", "(null)",
     "/v1/players/me"},
    {"POST", "/v1/players/me/token", NULL, NULL, RAN_STATUS, "routes_player_token", "(null)",
     "/v1/players/me/token"},
    {"POST", "/v1/players/me/token", JS, "{}", RAN_STATUS, "routes_player_token", "(null)",
     "/v1/players/me/token"},
    {"POST", G "/resign", NULL, NULL, RAN_STATUS, "routes_resign", GID, "/v1/games/{id}/resign"},
    {"POST", G "/rematch", NULL, NULL, RAN_STATUS, "routes_rematch", GID, "/v1/games/{id}/rematch"},
    {"GET", G "/resign", NULL, NULL, 405, NULL, "POST", "/v1/games/{id}/resign"},
    {"GET", "/v1/players/me/games", NULL, NULL, RAN_STATUS, "routes_player_games", "(null)",
     "/v1/players/me/games"},
    {"GET", "/v1/players/me/webhook", NULL, NULL, RAN_STATUS, "routes_player_webhook_get", "(null)",
     "/v1/players/me/webhook"},
    {"POST", "/v1/players/me/webhook", JS, "{\"url\":\"https://a.example/\"}", RAN_STATUS,
     "routes_player_webhook_set", "(null)", "/v1/players/me/webhook"},
    {"DELETE", "/v1/players/me/webhook", NULL, NULL, RAN_STATUS, "routes_player_webhook_delete",
     "(null)", "/v1/players/me/webhook"},
    {"POST", G "/join", JS, "{\"invite\":\"x\",\"name\":\"Bob\"}", RAN_STATUS, "routes_game_join",
     GID, "/v1/games/{id}/join"},
    {"POST", G "/join", NULL, NULL, RAN_STATUS, "routes_game_join", GID, "/v1/games/{id}/join"},
    {"POST", G "/abort", NULL, NULL, RAN_STATUS, "routes_game_abort", GID, "/v1/games/{id}/abort"},
    {"GET", G "/join", NULL, NULL, 405, NULL, "POST", "/v1/games/{id}/join"},
    {"GET", G "/abort", NULL, NULL, 405, NULL, "POST", "/v1/games/{id}/abort"},
    {"GET", G "/export", NULL, NULL, RAN_STATUS, "routes_game_export", GID,
     "/v1/games/{id}/export"},
    {"POST", G "/export", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/export"},
    {"GET", G "/analysis", NULL, NULL, RAN_STATUS, "routes_game_analysis", GID,
     "/v1/games/{id}/analysis"},
    {"DELETE", G "/analysis", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/analysis"},
    /* The methods a path does not have: 405, Allow in the table's order. */
    {"POST", "/healthz", NULL, NULL, 405, NULL, "GET", "/healthz"},
    {"HEAD", "/healthz", NULL, NULL, 405, NULL, "GET", "/healthz"},
    {"get", "/healthz", NULL, NULL, 405, NULL, "GET", "/healthz"},
    {"DELETE", "/readyz", NULL, NULL, 405, NULL, "GET", "/readyz"},
    {"HEAD", "/openapi.yaml", NULL, NULL, 405, NULL, "GET", "/openapi.yaml"},
    {"PUT", "/metrics", NULL, NULL, 405, NULL, "GET", "/metrics"},
    {"POST", "/v1/rulesets", "text/plain", "x", 405, NULL, "GET", "/v1/rulesets"},
    {"DELETE", "/v1/rulesets/classic/tiles", NULL, NULL, 405, NULL, "GET",
     "/v1/rulesets/{ruleset}/tiles"},
    {"GET", "/v1/games", NULL, NULL, 405, NULL, "POST", "/v1/games"},
    {"HEAD", "/v1/games", NULL, NULL, 405, NULL, "POST", "/v1/games"},
    {"DELETE", "/v1/games", NULL, NULL, 405, NULL, "POST", "/v1/games"},
    {"PUT", G, JS, "{}", 405, NULL, "GET", "/v1/games/{id}"},
    {"DELETE", G, NULL, NULL, 405, NULL, "GET", "/v1/games/{id}"},
    {"POST", G, JS, "{}", 405, NULL, "GET", "/v1/games/{id}"},
    {"GET", G "/draw", NULL, NULL, 405, NULL, "POST", "/v1/games/{id}/draw"},
    {"PUT", G "/placements", JS, "{}", 405, NULL, "GET, POST", "/v1/games/{id}/placements"},
    {"DELETE", G "/placements", NULL, NULL, 405, NULL, "GET, POST", "/v1/games/{id}/placements"},
    {"POST", G "/scores", JS, "{}", 405, NULL, "GET", "/v1/games/{id}/scores"},
    {"POST", G "/events", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/events"},
    {"POST", G "/turn", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/turn"},
    {"POST", G "/hint", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/hint"},
    {"HEAD", G "/board.svg", NULL, NULL, 405, NULL, "GET", "/v1/games/{id}/board.svg"},
    {"POST", G "/board.png", JS, "{}", 405, NULL, "GET", "/v1/games/{id}/board.png"},
    {"PUT", G "/webhook", JS, "{}", 405, NULL, "GET, POST, DELETE", "/v1/games/{id}/webhook"},
    {"PATCH", G "/webhook", NULL, NULL, 405, NULL, "GET, POST, DELETE", "/v1/games/{id}/webhook"},
    {"GET", "/v1/players", NULL, NULL, 405, NULL, "POST", "/v1/players"},
    {"DELETE", "/v1/players/me", NULL, NULL, 405, NULL, "GET", "/v1/players/me"},
    {"POST", "/v1/players/me", JS, "{}", 405, NULL, "GET", "/v1/players/me"},
    {"GET", "/v1/players/me/token", NULL, NULL, 405, NULL, "POST", "/v1/players/me/token"},
    /* Paths that no route has (more in unknown_paths[]). */
    {"HEAD", "/v1/nope", NULL, NULL, 404, NULL, NULL, "other"},
    {"POST", "/v1/games/", JS, "{}", 404, NULL, NULL, "other"},
    {"GET", "/v1/games/{id}", NULL, NULL, RAN_STATUS, "routes_game_get", "{id}", "/v1/games/{id}"},
    /* A POST under /v1/games whose body is not JSON: 415, before the route is known. */
    {"POST", "/v1/games", "text/plain", "{}", 415, NULL, NULL, "/v1/games"},
    {"POST", "/v1/games", NULL, "{}", 415, NULL, NULL, "/v1/games"},
    {"POST", "/v1/games", "application/jsonx", "{}", 415, NULL, NULL, "/v1/games"},
    {"POST", "/v1/games", "application/x-www-form-urlencoded", "a=1", 415, NULL, NULL, "/v1/games"},
    {"POST", G "/placements", "text/json", "{}", 415, NULL, NULL, "/v1/games/{id}/placements"},
    {"POST", G "/webhook", "", "{}", 415, NULL, NULL, "/v1/games/{id}/webhook"},
    {"POST", G, "text/plain", "x", 415, NULL, NULL, "/v1/games/{id}"},          /* not 405 */
    {"POST", G "/nope", "text/plain", "x", 415, NULL, NULL, "other"},           /* not 404 */
    {"POST", G "/placements/1/2", "text/plain", "x", 415, NULL, NULL, "other"}, /* 6 segments */
    {"POST", "/v1/players", "text/plain", "{\"name\":\"Ann\"}", 415, NULL, NULL, "/v1/players"},
    {"POST", "/v1/players", NULL, "{}", 415, NULL, NULL, "/v1/players"},
    {"POST", "/v1/players/me/token", "text/plain", "x", 415, NULL, NULL, "/v1/players/me/token"},
    {"POST", "/v1/players/me", "text/plain", "x", 415, NULL, NULL, "/v1/players/me"}, /* not 405 */
    {"POST", "/v1/players/you", "text/plain", "x", 415, NULL, NULL,
     "/v1/players/{id}"}, /* not 405 */
    /* ... but JSON in any spelling, an empty body, or another path or method is routed. */
    {"POST", "/v1/games", "application/json; charset=utf-8", "{}", RAN_STATUS, "routes_game_create",
     "(null)", "/v1/games"},
    {"POST", "/v1/games", "Application/JSON", "{}", RAN_STATUS, "routes_game_create", "(null)",
     "/v1/games"},
    {"POST", "/v1/games", "application/json ", "{}", RAN_STATUS, "routes_game_create", "(null)",
     "/v1/games"},
    {"POST", "/v1/games", "text/plain", "", RAN_STATUS, "routes_game_create", "(null)",
     "/v1/games"},
    {"POST", G "/draw", "text/plain", NULL, RAN_STATUS, "routes_draw", GID, "/v1/games/{id}/draw"},
    {"PUT", "/v1/games", "text/plain", "x", 405, NULL, "POST", "/v1/games"},
    {"POST", "/healthz", "text/plain", "x", 405, NULL, "GET", "/healthz"},
    {"POST", "/v1/gamesx", "text/plain", "x", 404, NULL, NULL, "other"},
    {"POST", "/v1/playersx", "text/plain", "x", 404, NULL, NULL, "other"},
    {"POST", "/v1/players/me/token", "text/plain", "", RAN_STATUS, "routes_player_token", "(null)",
     "/v1/players/me/token"},
    /* Since ratings, /v1/players/{id} is a route: its handler answers 404 for "you". */
    {"GET", "/v1/players/you", NULL, NULL, RAN_STATUS, "routes_player_public", "you",
     "/v1/players/{id}"},
    {"POST", "/v1/games/", "text/plain", "x", 404, NULL, NULL, "other"},
    {"POST", G "/placements/1/2/3/4/5", "text/plain", "x", 404, NULL, NULL, "other"},
};

/* Paths that no route has, asked with GET: 404, the label "other". G "/placements/1/2/3" has 7
 * segments, G "/placements/1/2/3/4/5" 9: too many (8 at most: the operator's hide). */
static const char *const unknown_paths[] = {"",
                                            "healthz",
                                            "/HEALTHZ",
                                            "/healthz/",
                                            "//healthz",
                                            "/healthz/x",
                                            "/v1",
                                            "/v1/",
                                            "/v1/nope",
                                            "/v1//games",
                                            "/v1/games//scores",
                                            G "/",
                                            G "/scores/",
                                            G "/nope",
                                            G "/placements/1",
                                            G "/placements/1/2",
                                            G "/placements/1/2/3",
                                            G "/placements/1/2/3/4/5",
                                            "/a/b/c/d/e/f/g/h/i/j/k/l",
                                            "/v1/rulesets/classic",
                                            "/v1/rulesets/classic/tile",
                                            "/v1/gamesx",
                                            "/v1/games/G/../scores"};

/* Runs one case through api_handle and api_route_template. */
static void run_case(const struct route_case *c)
{
    struct api_request req;
    struct api_response resp;
    memset(&req, 0, sizeof req);
    memset(&resp, 0, sizeof resp);
    req.method = c->method;
    req.path = c->path;
    req.content_type = c->ctype;
    req.body = c->body ? c->body : "";
    req.body_len = strlen(req.body);
    ran = NULL;
    ran_arg[0] = '\0';
    problem[0] = '\0';
    api_handle(&req, &resp);
    const char *what = c->path;
    cr_expect_eq(resp.status, c->status, "%s %s: status %d, not %d", c->method, what, resp.status,
                 c->status);
    if (c->handler) {
        cr_expect(ran && strcmp(ran, c->handler) == 0, "%s %s: ran %s, not %s", c->method, what,
                  ran ? ran : "nothing", c->handler);
        cr_expect_str_eq(ran_arg, c->arg, "%s %s: parameter %s, not %s", c->method, what, ran_arg,
                         c->arg);
    } else {
        static const char *const codes[] = {
            [404] = "not_found", [405] = "method_not_allowed", [415] = "unsupported_media_type"};
        cr_expect(ran == NULL, "%s %s: ran %s", c->method, what, ran);
        cr_assert(c->status == 404 || c->status == 405 || c->status == 415, "%s", what);
        cr_expect_str_eq(problem, codes[c->status], "%s %s: code %s", c->method, what, problem);
        cr_expect_str_eq(resp.content_type, "application/problem+json", "%s", what);
        cr_expect_str_eq(resp.allow, c->status == 405 ? c->arg : "", "%s %s: Allow \"%s\"",
                         c->method, what, resp.allow);
    }
    cr_expect_str_eq(api_route_template(c->path), c->tpl, "%s: template %s, not %s", what,
                     api_route_template(c->path), c->tpl);
}

Test(router, every_case_of_the_table)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
    for (size_t i = 0; i < sizeof unknown_paths / sizeof unknown_paths[0]; i++) {
        struct route_case c = {"GET", unknown_paths[i], NULL, NULL, 404, NULL, NULL, "other"};
        run_case(&c);
    }
}

/* A path of API_ROUTE_MAX_PATH bytes or more has no route; one byte less has. */
Test(router, the_longest_path)
{
    char path[API_ROUTE_MAX_PATH + 2];
    size_t prefix = strlen("/v1/games/");
    for (size_t len = API_ROUTE_MAX_PATH - 2; len <= API_ROUTE_MAX_PATH + 1; len++) {
        memcpy(path, "/v1/games/", prefix);
        memset(path + prefix, 'a', len - prefix);
        path[len] = '\0';
        struct api_route_match m;
        enum api_route_status st = api_route_find("GET", path, &m);
        if (len < API_ROUTE_MAX_PATH) {
            cr_expect_eq(st, API_ROUTE_FOUND, "length %zu", len);
            cr_expect_eq(strlen(m.arg), len - prefix, "length %zu", len);
            cr_expect_str_eq(api_route_template(path), "/v1/games/{id}");
        } else {
            cr_expect_eq(st, API_ROUTE_NOT_FOUND, "length %zu", len);
            cr_expect_str_eq(api_route_template(path), "other");
        }
    }
    struct api_route_match m;
    cr_expect_eq(api_route_find("GET", NULL, &m), API_ROUTE_NOT_FOUND);
    cr_expect_str_eq(api_route_template(NULL), "other");
}

/* ---- The table's own rules ---------------------------------------------------------- */

/* The shape of `pattern`: its literal segments, each parameter as "{}". */
static void shape(const char *pattern, char *out, size_t cap)
{
    size_t o = 0;
    for (const char *p = pattern; *p && o + 3 < cap;) {
        if (*p == '{') {
            out[o++] = '{';
            out[o++] = '}';
            p = strchr(p, '}') + 1;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
}

Test(router, the_table_keeps_its_rules)
{
    size_t n;
    const struct api_route *t = api_routes(&n);
    cr_assert_gt(n, 0);
    for (size_t i = 0; i < n; i++) {
        const char *p = t[i].pattern;
        cr_expect(t[i].handler != NULL, "%s %s: no handler", t[i].method, p);
        cr_expect(strcmp(t[i].method, "GET") == 0 || strcmp(t[i].method, "POST") == 0 ||
                      strcmp(t[i].method, "PUT") == 0 || strcmp(t[i].method, "PATCH") == 0 ||
                      strcmp(t[i].method, "DELETE") == 0,
                  "%s %s: method", t[i].method, p);
        /* "/" and segments; a segment is literal (no braces, no '/') or one "{name}"; or "/"
         * alone (the web client's page). */
        cr_expect(strcmp(p, "/") == 0 ||
                      (p[0] == '/' && p[1] != '\0' && p[strlen(p) - 1] != '/' && !strstr(p, "//")),
                  "%s: not a path", p);
        int segs = 0, params = 0;
        for (const char *s = p; *s == '/'; segs++) {
            s++;
            size_t len = strcspn(s, "/");
            int open = memchr(s, '{', len) != NULL, close = memchr(s, '}', len) != NULL;
            if (open || close) {
                params++;
                cr_expect(len >= 3 && s[0] == '{' && s[len - 1] == '}' &&
                              !memchr(s + 1, '{', len - 2) && !memchr(s + 1, '}', len - 2),
                          "%s: a parameter is \"{name}\"", p);
            }
            s += len;
        }
        cr_expect(segs <= API_ROUTE_MAX_SEGMENTS, "%s: too many segments", p);
        /* A handler is given one parameter, the last; the routes with two read the first
         * from the path itself (routes_ratings.c, routes_path_segment). */
        cr_expect(params <= 1 || strcmp(p, "/v1/players/{id}/ratings/{pool}") == 0 ||
                      strcmp(p, "/v1/games/{id}/chat/{seq}/report") == 0 ||
                      strcmp(p, "/v1/admin/games/{id}/chat/{seq}/hide") == 0,
                  "%s: handlers take one parameter at most", p);
        /* The pattern is a path that routes to itself (a parameter matches its own name). */
        struct api_route_match m;
        cr_expect_eq(api_route_find(t[i].method, p, &m), API_ROUTE_FOUND, "%s", p);
        cr_expect(m.route == &t[i] || (m.route && strcmp(m.route->pattern, p) == 0 &&
                                       strcmp(m.route->method, t[i].method) == 0),
                  "%s %s: found another row", t[i].method, p);
        cr_expect_str_eq(api_route_template(p), p);
        /* Its Allow header fits the answer's field, uncut. */
        size_t want = 0;
        for (size_t j = 0; j < n; j++)
            if (strcmp(t[j].pattern, p) == 0) want += strlen(t[j].method) + (want ? 2 : 0);
        cr_expect_eq(strlen(m.allow), want, "%s: Allow \"%s\" cut", p, m.allow);
        struct api_response resp;
        cr_expect_lt(want, sizeof resp.allow, "%s: Allow too long", p);
        for (size_t j = i + 1; j < n; j++) {
            char a[API_ROUTE_MAX_PATH], b[API_ROUTE_MAX_PATH];
            cr_expect(strcmp(t[i].method, t[j].method) != 0 || strcmp(p, t[j].pattern) != 0,
                      "%s %s: twice", t[i].method, p);
            shape(p, a, sizeof a);
            shape(t[j].pattern, b, sizeof b);
            cr_expect(strcmp(a, b) != 0 || strcmp(p, t[j].pattern) == 0,
                      "%s and %s: one shape, two names", p, t[j].pattern);
        }
    }
}

/* Every row of the table has a case above that runs it. */
Test(router, every_row_has_a_case)
{
    size_t n;
    const struct api_route *t = api_routes(&n);
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t c = 0; c < sizeof cases / sizeof cases[0] && !seen; c++)
            seen = cases[c].status == RAN_STATUS && strcmp(cases[c].method, t[i].method) == 0 &&
                   strcmp(cases[c].tpl, t[i].pattern) == 0;
        cr_expect(seen, "%s %s: no case", t[i].method, t[i].pattern);
    }
}

/* OPTIONS on every pattern of the table: 204, a preflight naming the pattern's methods in
 * the table's order, without running a handler (so without a token or a body); on a path
 * that no route has: 404. */
Test(router, options_answers_every_pattern)
{
    size_t n;
    const struct api_route *t = api_routes(&n);
    for (size_t i = 0; i < n; i++) {
        char path[API_ROUTE_MAX_PATH], allow[64] = "";
        size_t o = 0;
        for (const char *p = t[i].pattern; *p && o + 2 < sizeof path; p++) {
            if (*p == '{') { /* a parameter: any segment */
                path[o++] = 'x';
                p = strchr(p, '}');
            } else {
                path[o++] = *p;
            }
        }
        path[o] = '\0';
        for (size_t j = 0; j < n; j++)
            if (strcmp(t[j].pattern, t[i].pattern) == 0)
                snprintf(allow + strlen(allow), sizeof allow - strlen(allow), "%s%s",
                         allow[0] ? ", " : "", t[j].method);
        struct api_request req;
        struct api_response resp;
        memset(&req, 0, sizeof req);
        memset(&resp, 0, sizeof resp);
        req.method = "OPTIONS";
        req.path = path;
        req.body = "";
        ran = NULL;
        api_handle(&req, &resp);
        cr_expect_eq(resp.status, 204, "OPTIONS %s: %d", path, resp.status);
        cr_expect_eq(resp.preflight, 1, "OPTIONS %s: not a preflight", path);
        cr_expect_str_eq(resp.allow, allow, "OPTIONS %s: \"%s\", not \"%s\"", path, resp.allow,
                         allow);
        cr_expect(ran == NULL, "OPTIONS %s ran %s", path, ran);
        cr_expect(resp.body == NULL && resp.content_type == NULL, "OPTIONS %s: a body", path);
    }
    for (size_t i = 0; i < sizeof unknown_paths / sizeof unknown_paths[0]; i++) {
        struct route_case c = {"OPTIONS", unknown_paths[i], NULL, NULL, 404, NULL, NULL, "other"};
        run_case(&c);
    }
}

/* ---- Literal segments before parameters, on a table of its own ---------------------- */

static const char *hit;
#define ROW(name)                                                                                  \
    static void name(const struct api_request *req, struct api_response *resp, const char *arg)    \
    {                                                                                              \
        (void)req, (void)resp, (void)arg;                                                          \
        hit = #name;                                                                               \
    }
ROW(me_get)
ROW(me_token)
ROW(player_get)
ROW(player_delete)
ROW(players_post)
ROW(x_first)
ROW(x_second)

static const struct api_route players[] = {
    {"POST", "/v1/players", players_post},
    {"GET", "/v1/players/{id}", player_get},
    {"GET", "/v1/players/me", me_get},
    {"DELETE", "/v1/players/{id}", player_delete},
    {"POST", "/v1/players/me/token", me_token},
    {"GET", "/x/{a}/c", x_first},
    {"GET", "/x/b/{a}", x_second},
};

struct literal_case {
    const char *method;
    const char *path;
    enum api_route_status status;
    const char *row;     /* the row found, or NULL */
    const char *arg;     /* its parameter ("(null)": none) */
    const char *pattern; /* the path's pattern, or NULL */
    const char *allow;
};

static const struct literal_case literal_cases[] = {
    {"GET", "/v1/players/me", API_ROUTE_FOUND, "me_get", "(null)", "/v1/players/me", "GET"},
    /* The literal pattern's methods alone: DELETE of {id} is not DELETE of "me". */
    {"DELETE", "/v1/players/me", API_ROUTE_NO_METHOD, NULL, "(null)", "/v1/players/me", "GET"},
    {"GET", "/v1/players/ann", API_ROUTE_FOUND, "player_get", "ann", "/v1/players/{id}",
     "GET, DELETE"},
    {"DELETE", "/v1/players/ann", API_ROUTE_FOUND, "player_delete", "ann", "/v1/players/{id}",
     "GET, DELETE"},
    {"POST", "/v1/players/ann", API_ROUTE_NO_METHOD, NULL, "ann", "/v1/players/{id}",
     "GET, DELETE"},
    {"GET", "/v1/players/mee", API_ROUTE_FOUND, "player_get", "mee", "/v1/players/{id}",
     "GET, DELETE"},
    {"GET", "/v1/players/m", API_ROUTE_FOUND, "player_get", "m", "/v1/players/{id}", "GET, DELETE"},
    {"POST", "/v1/players/me/token", API_ROUTE_FOUND, "me_token", "(null)", "/v1/players/me/token",
     "POST"},
    {"POST", "/v1/players/ann/token", API_ROUTE_NOT_FOUND, NULL, "(null)", NULL, ""},
    {"POST", "/v1/players", API_ROUTE_FOUND, "players_post", "(null)", "/v1/players", "POST"},
    {"GET", "/v1/players/", API_ROUTE_NOT_FOUND, NULL, "(null)", NULL, ""},
    /* Two patterns that both match: the one literal earlier wins. */
    {"GET", "/x/b/c", API_ROUTE_FOUND, "x_second", "c", "/x/b/{a}", "GET"},
    {"GET", "/x/q/c", API_ROUTE_FOUND, "x_first", "q", "/x/{a}/c", "GET"},
    {"GET", "/x/b/q", API_ROUTE_FOUND, "x_second", "q", "/x/b/{a}", "GET"},
    {"GET", "/x/q/q", API_ROUTE_NOT_FOUND, NULL, "(null)", NULL, ""},
};

Test(router, literal_segments_win)
{
    size_t n = sizeof players / sizeof players[0];
    for (size_t i = 0; i < sizeof literal_cases / sizeof literal_cases[0]; i++) {
        const struct literal_case *c = &literal_cases[i];
        struct api_route_match m;
        enum api_route_status st = api_route_find_in(players, n, c->method, c->path, &m);
        cr_expect_eq(st, c->status, "%s %s: %d", c->method, c->path, st);
        hit = NULL;
        if (m.route) m.route->handler(NULL, NULL, m.arg);
        cr_expect((hit == NULL && c->row == NULL) || (hit && c->row && !strcmp(hit, c->row)),
                  "%s %s: row %s", c->method, c->path, hit ? hit : "none");
        cr_expect_str_eq(m.arg ? m.arg : "(null)", c->arg, "%s %s", c->method, c->path);
        cr_expect((m.pattern == NULL && c->pattern == NULL) ||
                      (m.pattern && c->pattern && !strcmp(m.pattern, c->pattern)),
                  "%s %s: pattern %s", c->method, c->path, m.pattern ? m.pattern : "none");
        cr_expect_str_eq(m.allow, c->allow, "%s %s", c->method, c->path);
    }
}

/* Issue 29, item 14: a query parameter given twice is refused before any handler runs, on
 * every path of the table (limit=5&limit=6, my_turn=true&my_turn=false); one of each name,
 * and unknown names, still reach the handler. */
Test(router, repeated_query_parameters_refused)
{
    static const struct {
        const char *method, *path;
        const char *names[4];
        int status;
    } twice[] = {
        {"GET", "/v1/players/me/games", {"limit", "limit"}, 400},
        {"GET", "/v1/players/me/games", {"my_turn", "status", "my_turn"}, 400},
        {"GET", "/v1/players/me/games", {"my_turn", "status", "limit", "cursor"}, RAN_STATUS},
        {"GET", "/v1/games/G/events", {"after", "after"}, 400},
        {"GET", "/v1/games/G/events", {"after", "limit", "wait"}, RAN_STATUS},
        {"GET", "/v1/games/G/hint", {"think_ms", "think_ms"}, 400},
        {"GET", "/v1/games/G/board.png", {"width", "x", "width"}, 400},
        {"GET", "/healthz", {"a", "a"}, 400},
        {"GET", "/healthz", {"a", "b"}, RAN_STATUS},
        {"GET", "/v1/nothing", {"a", "a"}, 404},
    };
    for (size_t i = 0; i < sizeof twice / sizeof twice[0]; i++) {
        struct api_request req;
        struct api_response resp;
        memset(&req, 0, sizeof req);
        memset(&resp, 0, sizeof resp);
        req.method = twice[i].method;
        req.path = twice[i].path;
        req.body = "";
        for (size_t k = 0; k < 4 && twice[i].names[k]; k++) {
            req.query[k].name = twice[i].names[k];
            req.query[k].value = "1";
            req.nquery = k + 1;
        }
        ran = NULL;
        problem[0] = '\0';
        api_handle(&req, &resp);
        cr_expect_eq(resp.status, twice[i].status, "%s %s (case %zu): %d", twice[i].method,
                     twice[i].path, i, resp.status);
        if (twice[i].status == 400) {
            cr_expect(ran == NULL, "%s: ran %s", twice[i].path, ran);
            cr_expect_str_eq(problem, "invalid_parameter", "%s", twice[i].path);
        }
    }
}
