/* router.c: the path table. */
#include "router.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "problem.h"
#include "routes.h"

#define MAX_SEGMENTS 6
#define MAX_PATH     512

/* Splits `path` (copied into `buf`) at '/' into seg[]; returns the count or -1. */
static int split(const char *path, char *buf, size_t cap, char *seg[MAX_SEGMENTS])
{
    size_t len = strlen(path);
    if (len == 0 || path[0] != '/' || len >= cap) return -1;
    memcpy(buf, path + 1, len);
    int n = 0;
    char *p = buf;
    if (*p == '\0') return 0;
    for (;;) {
        if (n == MAX_SEGMENTS) return -1;
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

/* Dispatches; returns after filling `resp`. */
static void route(const struct api_request *req, struct api_response *resp)
{
    char buf[MAX_PATH];
    char *seg[MAX_SEGMENTS];
    int n = split(req->path, buf, sizeof buf, seg);
    int get = strcmp(req->method, "GET") == 0;
    int post = strcmp(req->method, "POST") == 0;
    if (post && not_json(req)) {
        /* Checked for any POST path, before its handler reads the body. */
        if (n >= 2 && strcmp(seg[0], "v1") == 0 && strcmp(seg[1], "games") == 0) {
            problem_reply(resp, 415, "unsupported_media_type",
                          "The body must be JSON (Content-Type: application/json).");
            return;
        }
    }
    if (n == 1 && strcmp(seg[0], "healthz") == 0) {
        if (get)
            routes_healthz(req, resp);
        else
            method_not_allowed(resp, "GET");
        return;
    }
    if (n == 1 && strcmp(seg[0], "readyz") == 0) {
        if (get)
            routes_readyz(req, resp);
        else
            method_not_allowed(resp, "GET");
        return;
    }
    if (n == 1 && strcmp(seg[0], "openapi.yaml") == 0) {
        if (get)
            routes_openapi(req, resp);
        else
            method_not_allowed(resp, "GET");
        return;
    }
    if (n == 1 && strcmp(seg[0], "metrics") == 0) {
        if (get)
            routes_metrics(req, resp);
        else
            method_not_allowed(resp, "GET");
        return;
    }
    if (n >= 2 && strcmp(seg[0], "v1") == 0 && strcmp(seg[1], "rulesets") == 0) {
        if (n == 2) {
            if (get)
                routes_rulesets(req, resp);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "tiles") == 0) {
            if (get)
                routes_tiles(req, resp, seg[2]);
            else
                method_not_allowed(resp, "GET");
            return;
        }
    }
    if (n >= 2 && strcmp(seg[0], "v1") == 0 && strcmp(seg[1], "games") == 0) {
        if (n == 2) {
            if (post)
                routes_game_create(req, resp);
            else
                method_not_allowed(resp, "POST");
            return;
        }
        const char *id = seg[2];
        if (n == 3) {
            if (get)
                routes_game_get(req, resp, id);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "draw") == 0) {
            if (post)
                routes_draw(req, resp, id);
            else
                method_not_allowed(resp, "POST");
            return;
        }
        if (n == 4 && strcmp(seg[3], "placements") == 0) {
            if (get)
                routes_placements_get(req, resp, id);
            else if (post)
                routes_placements_post(req, resp, id);
            else
                method_not_allowed(resp, "GET, POST");
            return;
        }
        if (n == 4 && strcmp(seg[3], "scores") == 0) {
            if (get)
                routes_scores(req, resp, id);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "events") == 0) {
            if (get)
                routes_events(req, resp, id);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "turn") == 0) {
            if (get)
                routes_turn_view(req, resp, id);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "board.svg") == 0) {
            if (get)
                routes_board_svg(req, resp, id);
            else
                method_not_allowed(resp, "GET");
            return;
        }
        if (n == 4 && strcmp(seg[3], "webhook") == 0) {
            if (get)
                routes_webhook_get(req, resp, id);
            else if (post)
                routes_webhook_set(req, resp, id);
            else if (strcmp(req->method, "DELETE") == 0)
                routes_webhook_delete(req, resp, id);
            else
                method_not_allowed(resp, "GET, POST, DELETE");
            return;
        }
    }
    problem_reply(resp, 404, "not_found", "There is nothing at this path.");
}

void api_handle(const struct api_request *req, struct api_response *resp)
{
    route(req, resp);
}

const char *api_route_template(const char *path)
{
    static const char *const games_sub[] = {"draw", "placements", "scores",  "events",
                                            "turn", "board.svg",  "webhook", NULL};
    static const char *const games_tpl[] = {"/v1/games/{id}/draw",   "/v1/games/{id}/placements",
                                            "/v1/games/{id}/scores", "/v1/games/{id}/events",
                                            "/v1/games/{id}/turn",   "/v1/games/{id}/board.svg",
                                            "/v1/games/{id}/webhook"};
    char buf[MAX_PATH];
    char *seg[MAX_SEGMENTS];
    int n = path ? split(path, buf, sizeof buf, seg) : -1;
    if (n == 1) {
        if (strcmp(seg[0], "healthz") == 0) return "/healthz";
        if (strcmp(seg[0], "readyz") == 0) return "/readyz";
        if (strcmp(seg[0], "metrics") == 0) return "/metrics";
        if (strcmp(seg[0], "openapi.yaml") == 0) return "/openapi.yaml";
    }
    if (n >= 2 && strcmp(seg[0], "v1") == 0 && strcmp(seg[1], "rulesets") == 0) {
        if (n == 2) return "/v1/rulesets";
        if (n == 4 && strcmp(seg[3], "tiles") == 0) return "/v1/rulesets/{ruleset}/tiles";
    }
    if (n >= 2 && strcmp(seg[0], "v1") == 0 && strcmp(seg[1], "games") == 0) {
        if (n == 2) return "/v1/games";
        if (n == 3) return "/v1/games/{id}";
        for (int i = 0; n == 4 && games_sub[i]; i++)
            if (strcmp(seg[3], games_sub[i]) == 0) return games_tpl[i];
    }
    return "other";
}
