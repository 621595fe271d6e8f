/* router.c: the route table, and the lookup that answers from it. */
#include "router.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "auth.h"
#include "problem.h"
#include "routes.h"

/*
 * Every route of the service: adding an endpoint is adding its row (and its handler's
 * prototype in routes.h). The rows of one pattern give its Allow header in their order
 * here. tests/api/router_test.c stubs every handler and runs every row.
 */
static const struct api_route routes[] = {
    {"GET", "/healthz", routes_healthz},
    {"GET", "/readyz", routes_readyz},
    {"GET", "/openapi.yaml", routes_openapi},
    {"GET", "/metrics", routes_metrics},
    {"GET", "/v1/rulesets", routes_rulesets},
    {"GET", "/v1/rulesets/{ruleset}/tiles", routes_tiles},
    {"POST", "/v1/games", routes_game_create},
    {"GET", "/v1/games/{id}", routes_game_get},
    {"POST", "/v1/games/{id}/draw", routes_draw},
    {"GET", "/v1/games/{id}/placements", routes_placements_get},
    {"POST", "/v1/games/{id}/placements", routes_placements_post},
    {"GET", "/v1/games/{id}/scores", routes_scores},
    {"GET", "/v1/games/{id}/events", routes_events},
    {"GET", "/v1/games/{id}/events/stream", routes_events_stream},
    {"GET", "/v1/games/{id}/turn", routes_turn_view},
    {"GET", "/v1/games/{id}/hint", routes_hint},
    {"GET", "/v1/games/{id}/board.svg", routes_board_svg},
    {"GET", "/v1/games/{id}/board.png", routes_board_png},
    {"GET", "/v1/games/{id}/webhook", routes_webhook_get},
    {"POST", "/v1/games/{id}/webhook", routes_webhook_set},
    {"DELETE", "/v1/games/{id}/webhook", routes_webhook_delete},
    {"POST", "/v1/players", routes_player_create},
    {"GET", "/v1/players/me", routes_player_me},
    {"POST", "/v1/players/me/token", routes_player_token},
    {"POST", "/v1/games/{id}/resign", routes_resign},
    {"POST", "/v1/games/{id}/rematch", routes_rematch},
    {"GET", "/v1/players/me/games", routes_player_games},
    {"GET", "/v1/players/me/webhook", routes_player_webhook_get},
    {"POST", "/v1/players/me/webhook", routes_player_webhook_set},
    {"DELETE", "/v1/players/me/webhook", routes_player_webhook_delete},
    /* Ratings (routes_ratings.c): public profiles, histories, leaderboards, bots. */
    {"GET", "/v1/players/{id}", routes_player_public},
    {"GET", "/v1/players/{id}/ratings/{pool}", routes_player_rating_history},
    {"GET", "/v1/players/{id}/games", routes_player_games_public},
    {"GET", "/v1/leaderboards/{pool}", routes_leaderboard},
    {"GET", "/v1/bots", routes_bots},
    {"POST", "/v1/games/{id}/join", routes_game_join},
    {"POST", "/v1/games/{id}/abort", routes_game_abort},
    {"GET", "/v1/games/{id}/export", routes_game_export},
    {"GET", "/v1/games/{id}/analysis", routes_game_analysis},
    /* Talk, blocks and the operator (issue 28). */
    {"POST", "/v1/games/{id}/chat", routes_chat_post},
    {"GET", "/v1/games/{id}/chat", routes_chat_get},
    {"GET", "/v1/games/{id}/chat/stream", routes_chat_stream},
    {"POST", "/v1/games/{id}/chat/{seq}/report", routes_chat_report},
    {"GET", "/v1/players/me/blocks", routes_blocks_list},
    {"POST", "/v1/players/me/blocks/{player_id}", routes_block_add},
    {"DELETE", "/v1/players/me/blocks/{player_id}", routes_block_delete},
    /* Play now (routes_seeks.c, issue 26). */
    {"POST", "/v1/seeks", routes_seek_create},
    {"GET", "/v1/seeks", routes_seeks_lobby},
    {"GET", "/v1/seeks/{id}", routes_seek_get},
    {"DELETE", "/v1/seeks/{id}", routes_seek_delete},
    {"GET", "/v1/admin/reports", routes_admin_reports},
    {"POST", "/v1/admin/games/{id}/chat/{seq}/hide", routes_admin_hide},
    {"POST", "/v1/admin/players/{id}/suspend", routes_admin_suspend},
    {"POST", "/v1/admin/players/{id}/reinstate", routes_admin_reinstate},
    /* The lobby: open tables and games to watch (issue 30, routes_lobby_list.c). */
    {"GET", "/v1/lobby/tables", routes_lobby_tables},
    {"GET", "/v1/lobby/games", routes_lobby_games},
    /* Tournaments (issue 27, routes_tournaments.c). */
    {"POST", "/v1/tournaments", routes_tournament_create},
    {"GET", "/v1/tournaments", routes_tournaments_list},
    {"GET", "/v1/tournaments/{id}", routes_tournament_get},
    {"POST", "/v1/tournaments/{id}/join", routes_tournament_join},
    {"POST", "/v1/tournaments/{id}/leave", routes_tournament_leave},
    {"POST", "/v1/tournaments/{id}/start", routes_tournament_start},
    {"GET", "/v1/tournaments/{id}/events", routes_tournament_events},
    {"GET", "/v1/tournaments/{id}/events/stream", routes_tournament_events_stream},
    /* The reference web client (routes_web.c): its page and its files. */
    {"GET", "/", routes_web_index},
    {"GET", "/web/{file}", routes_web_file},
    {"GET", "/web/i18n/{file}", routes_web_words},
};

/*
 * The path prefixes under which a POST with a body must declare JSON: answered 415
 * before routing, so a wrong path or method there is 415 as well. A new family of POST
 * routes (/v1/players ...) adds its prefix here.
 */
static const char *const json_only[] = {"/v1/games", "/v1/players", "/v1/admin"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct api_route *api_routes(size_t *n)
{
    *n = COUNT(routes);
    return routes;
}

/* Splits `path` (copied into `buf`) at '/' into seg[]; returns the count or -1. */
static int split(const char *path, char *buf, size_t cap, char *seg[API_ROUTE_MAX_SEGMENTS])
{
    size_t len = strlen(path);
    if (len == 0 || path[0] != '/' || len >= cap) return -1;
    memcpy(buf, path + 1, len);
    int n = 0;
    char *p = buf;
    if (*p == '\0') return 0;
    for (;;) {
        if (n == API_ROUTE_MAX_SEGMENTS) return -1;
        seg[n++] = p;
        char *slash = strchr(p, '/');
        if (!slash) break;
        *slash = '\0';
        p = slash + 1;
    }
    for (int i = 0; i < n; i++)
        if (seg[i][0] == '\0') return -1; /* "//" or a trailing slash */
    return n;
}

/*
 * Matches the n segments of a path against `pattern` (or, with `prefix`, its first
 * segments). Returns -1, or a score that is higher the earlier the pattern's literal
 * segments come (a literal beats a parameter at the first place two patterns differ),
 * with *arg set to the segment of the pattern's parameter (NULL without one).
 */
static int match(const char *pattern, char *const seg[], int n, int prefix, const char **arg)
{
    const char *p = pattern;
    int score = 0;
    int i = 0;
    *arg = NULL;
    if (strcmp(pattern, "/") == 0) return n == 0 ? 0 : -1; /* the root: no segment */
    for (; *p == '/'; i++) {
        p++;
        size_t len = strcspn(p, "/");
        if (i == n) return -1;
        if (len >= 2 && p[0] == '{' && p[len - 1] == '}')
            *arg = seg[i];
        else if (strncmp(seg[i], p, len) != 0 || seg[i][len] != '\0')
            return -1;
        else
            score |= 1 << (API_ROUTE_MAX_SEGMENTS - 1 - i);
        p += len;
    }
    return *p == '\0' && (i == n || prefix) ? score : -1;
}

/* The segments of `pattern` ("/" has none). */
static int pattern_segments(const char *pattern)
{
    int n = 0;
    for (const char *p = pattern; *p; p++) n += *p == '/';
    return strcmp(pattern, "/") == 0 ? 0 : n;
}

/* What is known of a table's rows before any request (route_index_init): the lookup of
 * the service's table matches a path against the patterns of its own segment count only,
 * and takes a pattern's methods and Allow header from here. */
struct route_index {
    unsigned char nseg[COUNT(routes)]; /* each row's pattern's segments */
    short first[COUNT(routes)];        /* the first row of each row's pattern */
    short next[COUNT(routes)];         /* the next row of the same pattern, or -1 */
    char allow[COUNT(routes)][sizeof((struct api_route_match *)0)->allow]; /* (first rows') */
};

/* The methods of the rows of `table` (n rows) whose pattern is `pattern`, in table order, into
 * `allow` (`cap` bytes, cut to fit: see the unit test); into *route the first of them whose
 * method is `method` (NULL: none), or NULL. */
static void pattern_methods(const struct api_route *table, size_t n, const char *pattern,
                            const char *method, char *allow, size_t cap,
                            const struct api_route **route)
{
    size_t used = 0;
    allow[0] = '\0';
    *route = NULL;
    for (size_t i = 0; i < n; i++) {
        if (table[i].pattern != pattern && strcmp(table[i].pattern, pattern) != 0) continue;
        if (!*route && method && strcmp(table[i].method, method) == 0) *route = &table[i];
        int w = snprintf(allow + used, cap - used, "%s%s", used ? ", " : "", table[i].method);
        if (w > 0) used += (size_t)w;
        if (used >= cap) used = cap - 1; /* cut: see the unit test */
    }
}

/* api_route_find_in() with what `ix` (or NULL) knows of `table`. */
static enum api_route_status find(const struct api_route *table, const struct route_index *ix,
                                  size_t n, const char *method, const char *path,
                                  struct api_route_match *m)
{
    char *seg[API_ROUTE_MAX_SEGMENTS];
    m->route = NULL;
    m->pattern = NULL;
    m->arg = NULL;
    m->allow[0] = '\0';
    int nseg = path ? split(path, m->buf, sizeof m->buf, seg) : -1;
    if (nseg < 0) return API_ROUTE_NOT_FOUND;
    int best = -1;
    size_t row = 0;
    for (size_t i = 0; i < n; i++) {
        if (ix && ix->nseg[i] != nseg) continue;
        const char *arg;
        int score = match(table[i].pattern, seg, nseg, 0, &arg);
        if (score > best) {
            best = score;
            row = i;
            m->pattern = table[i].pattern;
            m->arg = arg;
        }
    }
    if (!m->pattern) return API_ROUTE_NOT_FOUND;
    for (int i = 0; i < nseg; i++) {
        /* UUIDs are case-insensitive (RFC 9562): a parameter that is one is lower-cased,
         * so handlers, stores and answers see the one spelling the spec's GameId allows. */
        if (seg[i] != m->arg || !auth_uuid_valid(seg[i])) continue;
        for (char *c = seg[i]; *c; c++) *c = (char)tolower((unsigned char)*c);
    }
    if (!ix) {
        pattern_methods(table, n, m->pattern, method, m->allow, sizeof m->allow, &m->route);
    } else {
        int first = ix->first[row];
        memcpy(m->allow, ix->allow[first], sizeof m->allow);
        for (int i = first; method && i >= 0 && !m->route; i = ix->next[i])
            if (strcmp(table[i].method, method) == 0) m->route = &table[i];
    }
    return m->route ? API_ROUTE_FOUND : API_ROUTE_NO_METHOD;
}

enum api_route_status api_route_find_in(const struct api_route *table, size_t n, const char *method,
                                        const char *path, struct api_route_match *m)
{
    return find(table, NULL, n, method, path, m);
}

static struct route_index routes_ix; /* of routes[] (route_index_init) */
static pthread_once_t routes_ix_once = PTHREAD_ONCE_INIT;

static void route_index_init(void)
{
    struct route_index *ix = &routes_ix;
    for (size_t i = 0; i < COUNT(routes); i++) {
        ix->nseg[i] = (unsigned char)pattern_segments(routes[i].pattern);
        ix->next[i] = -1;
        ix->first[i] = (short)i;
        for (size_t j = 0; j < i; j++)
            if (strcmp(routes[j].pattern, routes[i].pattern) == 0) {
                ix->first[i] = ix->first[j];
                break;
            }
        if (ix->first[i] != (short)i) {
            int last = ix->first[i];
            while (ix->next[last] >= 0) last = ix->next[last];
            ix->next[last] = (short)i;
            continue;
        }
        const struct api_route *unused;
        pattern_methods(routes, COUNT(routes), routes[i].pattern, NULL, ix->allow[i],
                        sizeof ix->allow[i], &unused);
    }
}

enum api_route_status api_route_find(const char *method, const char *path,
                                     struct api_route_match *m)
{
    pthread_once(&routes_ix_once, route_index_init);
    return find(routes, &routes_ix, COUNT(routes), method, path, m);
}

/* 1 when `path` lies under one of json_only[]. */
static int json_only_path(const char *path)
{
    char buf[API_ROUTE_MAX_PATH];
    char *seg[API_ROUTE_MAX_SEGMENTS];
    int n = split(path, buf, sizeof buf, seg);
    const char *arg;
    for (size_t i = 0; n >= 0 && i < COUNT(json_only); i++)
        if (match(json_only[i], seg, n, 1, &arg) >= 0) return 1;
    return 0;
}

/* 1 when a non-empty body is declared as something other than JSON. */
static int not_json(const struct api_request *req)
{
    if (req->body_len == 0) return 0;
    const char *ct = req->content_type;
    if (!ct) return 1;
    size_t n = strlen("application/json");
    return strncasecmp(ct, "application/json", n) != 0 ||
           (ct[n] != '\0' && ct[n] != ';' && ct[n] != ' ');
}

/* Answers 405 naming the methods the path has. */
static void method_not_allowed(struct api_response *resp, const char *allow)
{
    char detail[96];
    snprintf(detail, sizeof detail, "This path answers only %s.", allow);
    problem_reply(resp, 405, "method_not_allowed", detail);
    snprintf(resp->allow, sizeof resp->allow, "%s", allow);
}

/* The first query parameter of `req` that is given more than once, or NULL. */
static const char *repeated_parameter(const struct api_request *req)
{
    for (size_t i = 0; i < req->nquery; i++)
        for (size_t j = 0; j < i; j++)
            if (strcmp(req->query[i].name, req->query[j].name) == 0) return req->query[i].name;
    return NULL;
}

void api_handle(const struct api_request *req, struct api_response *resp)
{
    struct api_route_match m;
    if (strcmp(req->method, "POST") == 0 && not_json(req) && json_only_path(req->path)) {
        /* Checked before the handler reads the body. */
        problem_reply(resp, 415, "unsupported_media_type",
                      "The body must be JSON (Content-Type: application/json).");
        return;
    }
    enum api_route_status found = api_route_find(req->method, req->path, &m);
    /* The metrics' name of the route, so that the HTTP layer need not look again. */
    resp->route = m.pattern;
    switch (found) {
    case API_ROUTE_FOUND: {
        /* One value per name: which of two a handler read would be a guess (limit=5&limit=6). */
        const char *twice = repeated_parameter(req);
        if (twice) {
            char detail[160];
            snprintf(detail, sizeof detail,
                     "The query parameter \"%.64s\" is given more than once.", twice);
            problem_reply(resp, 400, "invalid_parameter", detail);
            return;
        }
        m.route->handler(req, resp, m.arg);
        if (!resp->route) resp->route = m.pattern; /* (a handler may start its answer over) */
        return;
    }
    case API_ROUTE_NO_METHOD:
        if (strcmp(req->method, "OPTIONS") == 0) {
            /* Every path answers OPTIONS (a CORS preflight) from its rows: no handler runs,
             * so no token is needed. */
            resp->status = 204;
            resp->preflight = 1;
            snprintf(resp->allow, sizeof resp->allow, "%s", m.allow);
            return;
        }
        method_not_allowed(resp, m.allow);
        return;
    case API_ROUTE_NOT_FOUND:
        break;
    }
    problem_reply(resp, 404, "not_found", "There is nothing at this path.");
}

const char *api_route_template(const char *path)
{
    struct api_route_match m;
    (void)api_route_find(NULL, path, &m);
    return m.pattern ? m.pattern : "other";
}
