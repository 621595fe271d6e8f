/* play.c: moving a test's game on through the API, as any client would. */
#include <stdio.h>
#include <string.h>

#include "tests.h"

void game_post(const struct server *srv, const struct game *g, int seat, const char *what,
               const char *body, struct resp *r)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/%s", g->id, what);
    const char *h[2] = {g->auth[seat], NULL};
    http(srv, "POST", path, body, h, r);
}

int first_placement(const struct server *srv, const struct game *g, int follower, char *body,
                    size_t len, char *why, size_t cap)
{
    char path[160];
    snprintf(path, sizeof path, "/v1/games/%s/placements", g->id);
    struct resp r;
    http(srv, "GET", path, NULL, NULL, &r);
    const cJSON *p = jget(r.json, "placements.0");
    if (r.status != 200 || !p) {
        snprintf(why, cap, "placements: %ld %.200s", r.status, r.body);
        resp_free(&r);
        return -1;
    }
    char tile[32] = "", fol[32] = "";
    if (jstr(p, "tile")[0]) snprintf(tile, sizeof tile, ",\"tile\":\"%s\"", jstr(p, "tile"));
    if (follower && jstr(p, "follower.0")[0])
        snprintf(fol, sizeof fol, ",\"follower\":\"%s\"", jstr(p, "follower.0"));
    snprintf(body, len, "{\"x\":%d,\"y\":%d,\"rotation\":%d%s%s}", (int)jnum(p, "x"),
             (int)jnum(p, "y"), (int)jnum(p, "rotation"), tile, fol);
    resp_free(&r);
    return 0;
}

int play_move(const struct server *srv, const struct game *g, int follower, int one_action,
              char *why, size_t cap)
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
        game_post(srv, g, seat, "draw", NULL, &r);
        if (r.status != 200) {
            snprintf(why, cap, "draw: %ld %.200s", r.status, r.body);
            resp_free(&r);
            return -1;
        }
        finished = strcmp(jstr(r.json, "game.status"), "finished") == 0;
        resp_free(&r);
        if (finished || one_action) return finished;
    }
    char body[200];
    if (first_placement(srv, g, follower, body, sizeof body, why, cap)) return -1;
    game_post(srv, g, seat, "placements", body, &r);
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

int play_turn(const struct server *srv, const struct game *g, int follower, char *why, size_t cap)
{
    return play_move(srv, g, follower, 0, why, cap);
}
