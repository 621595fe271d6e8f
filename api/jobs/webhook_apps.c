/* webhook_apps.c: deliveries as Discord's and Slack's incoming webhooks read them (see
 * webhook_apps.h for what is sent when, and each app's payload). The game is read as it
 * stands now (games_fetch: the cache, or the database), and Discord's picture drawn on the
 * delivery worker's thread under board.png's render slots (board_picture()): a few tens of
 * milliseconds, once a turn, that the worker's other transfers wait. */
#include "webhook_apps.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "auth.h"
#include "board_png.h"
#include "board_svg.h"
#include "buf.h"
#include "games.h"
#include "json_out.h"
#include "peer.h"
#include "utf8.h"

#define BODY_MAX (BOARD_PNG_MAX + 65536) /* bytes of a request at most */

static char public_url[512];

void webhook_apps_set_public_url(const char *url)
{
    snprintf(public_url, sizeof public_url, "%s", url ? url : "");
}

void webhook_app_request_free(struct webhook_app_request *r)
{
    if (!r) return;
    free(r->body);
    r->body = NULL;
    r->len = 0;
}

/* What a message says, as webhook_apps.h lists. */
struct notice {
    char text[WEBHOOK_APP_TEXT_MAX + 1]; /* plain text, UTF-8 */
    int picture; /* 1: with the board (Discord attaches it, Slack links it) */
};

/* The seats whose turns and deadlines webhook owner `owner` wants, as bits. */
static unsigned owner_seats(const char *owner, const struct api_game *ag)
{
    int n = ag->g.nplayers;
    if (strncmp(owner, "seat:", 5) == 0) {
        char *end;
        long s = strtol(owner + 5, &end, 10);
        return *end == '\0' && s >= 0 && s < n ? 1u << s : 0;
    }
    if (strncmp(owner, "person:", 7) == 0) {
        unsigned mask = 0;
        for (int s = 0; s < n && s < CC_MAX_PLAYERS; s++)
            if (strcmp(ag->row.players[s].person_id, owner + 7) == 0) mask |= 1u << s;
        return mask;
    }
    return (1u << n) - 1; /* the creator's: every seat */
}

/* Appends to `b` the seats' names and scores "Ann 34, Bob 27". */
static void scores(struct buf *b, const struct api_game *ag)
{
    for (int s = 0; s < ag->g.nplayers && s < CC_MAX_PLAYERS; s++)
        buf_putf(b, "%s%s %d", s ? ", " : "", ag->names[s], ag->g.players[s].score);
}

/* Appends "remaining" milliseconds to `b` as people say it. */
static void duration(struct buf *b, long long ms)
{
    long long min = (ms + 59999) / 60000;
    if (min < 120)
        buf_putf(b, "%lld minute%s", min, min == 1 ? "" : "s");
    else if (min < 48 * 60)
        buf_putf(b, "%lld hours", min / 60);
    else
        buf_putf(b, "%lld days", min / (24 * 60));
}

/* 1 when, after the event `type` that ended a commit, game `ag` has a seat beginning a turn. */
static int turn_begins(const struct api_game *ag, const char *type)
{
    const struct cc_game *g = &ag->g;
    if (ag->row.state != STORE_PLAYING || g->phase == CC_PHASE_FINISHED) return 0;
    if (g->seat == CC_NO_SEAT || g->seat >= CC_MAX_PLAYERS) return 0;
    if (ag->row.players[g->seat].bot[0]) return 0; /* computer players read no messages */
    if (!strcmp(type, "deadline_near") || !strcmp(type, "tile_drawn")) return 0;
    return g->phase == CC_PHASE_DRAW || g->phase == CC_PHASE_PLACE;
}

/* The notice of event `ev` for `d` about game `ag` into `n`: 1 when there is one, else 0. */
static int event_notice(const struct store_delivery *d, const cJSON *ev, const struct api_game *ag,
                        struct notice *n)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(ev, "type");
    if (!cJSON_IsString(t)) return 0;
    const char *type = t->valuestring;
    const struct cc_game *g = &ag->g;
    unsigned mine = owner_seats(d->owner, ag);
    struct buf b;
    buf_init(&b, WEBHOOK_APP_TEXT_MAX);
    int current = ag->row.version == d->version && d->last_of_version;
    int turn = current && turn_begins(ag, type) && (mine >> g->seat & 1);
    if (!strcmp(type, "game_started") ||
        (!strcmp(type, "game_created") && ag->row.state != STORE_WAITING)) {
        buf_putf(&b, "The game has started: ");
        for (int s = 0; s < g->nplayers && s < CC_MAX_PLAYERS; s++)
            buf_putf(&b, "%s%s", s ? ", " : "", ag->names[s]);
        buf_putf(&b, ".");
        if (turn) buf_putf(&b, " %s, it is your turn.", ag->names[g->seat]);
        n->picture = 1;
    } else if (!strcmp(type, "game_finished")) {
        buf_putf(&b, "The game is over: ");
        scores(&b, ag);
        buf_putf(&b, ".");
        n->picture = 1;
    } else if (!strcmp(type, "deadline_near")) {
        const cJSON *seat = cJSON_GetObjectItemCaseSensitive(ev, "seat");
        const cJSON *tn = cJSON_GetObjectItemCaseSensitive(ev, "turn");
        const cJSON *left = cJSON_GetObjectItemCaseSensitive(ev, "remaining_ms");
        if (!cJSON_IsNumber(seat) || seat->valueint < 0 || seat->valueint >= g->nplayers ||
            !(mine >> seat->valueint & 1)) {
            buf_free(&b);
            return 0;
        }
        buf_putf(&b, "%s, your time for turn %d runs out in ", ag->names[seat->valueint],
                 cJSON_IsNumber(tn) ? tn->valueint : g->turn);
        duration(&b, cJSON_IsNumber(left) ? (long long)left->valuedouble : 0);
        buf_putf(&b, ".");
    } else if (turn) {
        buf_putf(&b, "%s, it is your turn (turn %d).", ag->names[g->seat], g->turn);
        n->picture = 1;
    } else {
        buf_free(&b);
        return 0;
    }
    int ok = buf_err(&b) == BUF_OK || buf_err(&b) == BUF_TOO_BIG;
    snprintf(n->text, sizeof n->text, "%.*s", utf8_fit(buf_ptr(&b), sizeof n->text - 1),
             buf_ptr(&b));
    buf_free(&b);
    return ok && n->text[0];
}

/* The notice of chat message `m` (as GET .../chat shows it) into `n`: 1, or 0 when hidden. */
static int chat_notice(const cJSON *m, struct notice *n)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(m, "name");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(m, "text");
    if (!cJSON_IsString(name) || !cJSON_IsString(text)) return 0; /* hidden: text null */
    char who[STORE_NAME_MAX + 1];
    snprintf(who, sizeof who, "%.*s", utf8_fit(name->valuestring, STORE_NAME_MAX),
             name->valuestring);
    size_t head = strlen(who) + 2;
    snprintf(n->text, sizeof n->text, "%s: %.*s", who,
             utf8_fit(text->valuestring, sizeof n->text - 1 - head), text->valuestring);
    n->picture = 0;
    return 1;
}

/* The person a webhook owner "person:<id>" names, or "" (a game's seat or creator). */
static const char *owner_person(const char *owner)
{
    return strncmp(owner, "person:", 7) == 0 ? owner + 7 : "";
}

/* The table of round_started's data `data` at which `person` sits, or NULL. */
static const cJSON *table_of(const cJSON *data, const char *person)
{
    const cJSON *x, *p;
    cJSON_ArrayForEach(x, cJSON_GetObjectItemCaseSensitive(data, "tables"))
    {
        cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(x, "players"))
        {
            if (cJSON_IsString(p) && strcmp(p->valuestring, person) == 0) return x;
        }
    }
    return NULL;
}

/* The notice of tournament event `ev` (as GET /v1/tournaments/{id}/events shows it) of
 * delivery `d` into `n`: 1, or 0 for a type nobody reads. */
static int tourney_notice(const struct store_delivery *d, const cJSON *ev, struct notice *n)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(ev, "type");
    const cJSON *data = cJSON_GetObjectItemCaseSensitive(ev, "data");
    if (!cJSON_IsString(type)) return 0;
    struct buf b;
    buf_init(&b, sizeof n->text);
    if (strcmp(type->valuestring, "round_started") == 0) {
        const cJSON *round = cJSON_GetObjectItemCaseSensitive(data, "round");
        buf_putf(&b, "Round %d of %s has started.", cJSON_IsNumber(round) ? round->valueint : 0,
                 d->title);
        const cJSON *x = table_of(data, owner_person(d->owner));
        const cJSON *game = cJSON_GetObjectItemCaseSensitive(x, "game");
        if (x && !cJSON_IsString(game))
            buf_putf(&b, " You have a bye.");
        else if (x && public_url[0])
            buf_putf(&b, " Your game: %s/#/game/%s", public_url, game->valuestring);
    } else if (strcmp(type->valuestring, "tournament_finished") == 0) {
        buf_putf(&b, "%s is over:", d->title);
        const cJSON *s;
        int shown = 0;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(data, "standings"))
        {
            const cJSON *rank = cJSON_GetObjectItemCaseSensitive(s, "rank");
            const cJSON *name = cJSON_GetObjectItemCaseSensitive(s, "name");
            const cJSON *points = cJSON_GetObjectItemCaseSensitive(s, "points");
            if (shown++ == 3 || !cJSON_IsString(name)) break;
            buf_putf(&b, "%s %d. %s (%g)", shown > 1 ? "," : "",
                     cJSON_IsNumber(rank) ? rank->valueint : shown, name->valuestring,
                     cJSON_IsNumber(points) ? points->valuedouble : 0.0);
        }
        buf_putf(&b, ".");
    }
    int ok = buf_err(&b) == BUF_OK || buf_err(&b) == BUF_TOO_BIG;
    snprintf(n->text, sizeof n->text, "%.*s", utf8_fit(buf_ptr(&b), sizeof n->text - 1),
             buf_ptr(&b));
    buf_free(&b);
    n->picture = 0;
    return ok && n->text[0];
}

/* Appends `s` to `b` with Discord's markdown (and line-start marks) escaped by '\'. */
static void discord_escape(struct buf *b, const char *s)
{
    for (; *s; s++) {
        if (strchr("\\*_~`|>[]()#-:<@", *s)) buf_putf(b, "\\");
        buf_putf(b, "%c", *s);
    }
}

/* Appends `s` to `b` with the three characters Slack's text fallback escapes. */
static void slack_escape(struct buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '&')
            buf_putf(b, "&amp;");
        else if (*s == '<')
            buf_putf(b, "&lt;");
        else if (*s == '>')
            buf_putf(b, "&gt;");
        else
            buf_putf(b, "%c", *s);
    }
}

/* Discord's payload_json (or whole JSON body) for `n`; malloc'd, NULL without memory. */
static char *discord_json(const struct notice *n, int attach)
{
    struct buf c;
    buf_init(&c, 4 * WEBHOOK_APP_TEXT_MAX);
    discord_escape(&c, n->text);
    if (buf_err(&c) != BUF_OK) {
        buf_free(&c);
        return NULL;
    }
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    /* Escapes may lengthen it: Discord takes 2,000 characters at most. */
    char content[2001];
    snprintf(content, sizeof content, "%.*s", utf8_fit(buf_ptr(&c), 2000), buf_ptr(&c));
    buf_free(&c);
    json_out_kstring(&w, "content", content);
    json_out_key(&w, "allowed_mentions");
    json_out_begin_object(&w);
    json_out_key(&w, "parse");
    json_out_begin_array(&w);
    json_out_end_array(&w);
    json_out_end_object(&w);
    if (attach) {
        json_out_key(&w, "attachments");
        json_out_begin_array(&w);
        json_out_begin_object(&w);
        json_out_kint(&w, "id", 0);
        json_out_kstring(&w, "filename", "board.png");
        json_out_kstring(&w, "description", "The board");
        json_out_end_object(&w);
        json_out_end_array(&w);
    }
    json_out_end_object(&w);
    return json_out_take(&w, NULL);
}

/* The client address key of every delivery's picture: ff..ff, a multicast address that no
 * client has. board_png_begin() lets one address render BOARD_PNG_RENDERS_PER_ADDRESS
 * pictures at once, so all the delivery workers together take one render slot at most and
 * leave the others to board.png's clients. */
static const uint8_t deliveries_peer[PEER_KEY_LEN] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* The board of `ag` as a PNG into `png`: from board.png's cache, else drawn here in one of
 * its render slots and kept in the cache (a GET of the picture then draws it no more).
 * Returns 0, WEBHOOK_APP_UNAVAILABLE when no slot is free now (the delivery waits, put back,
 * instead of the worker), or -1. */
static int board_picture(const struct api_game *ag, struct board_png *png)
{
    int version = ag->row.version, width = WEBHOOK_APP_PNG_WIDTH;
    int begun = board_png_begin(ag->id, version, width, deliveries_peer, png);
    if (begun == 1) return 0;
    if (begun != 0) return WEBHOOK_APP_UNAVAILABLE;
    char *svg = board_svg_new(&ag->g, ag->names);
    int rc = svg ? board_png_render(svg, strlen(svg), width, png) : -1;
    free(svg);
    board_png_end(ag->id, version, width, rc == 0 ? png : NULL);
    return rc;
}

/* Discord's request for `n` (with the picture of `ag` when n->picture): 0, -1, or
 * WEBHOOK_APP_UNAVAILABLE when the picture cannot be drawn now (board_picture()). */
static int discord_request(const struct notice *n, const struct api_game *ag,
                           struct webhook_app_request *out)
{
    int attach = n->picture && ag;
    char *json = discord_json(n, attach);
    if (!json) return -1;
    if (!attach) {
        out->body = json;
        out->len = strlen(json);
        snprintf(out->content_type, sizeof out->content_type, "application/json");
        return 0;
    }
    struct board_png png = {0};
    int drawn = board_picture(ag, &png);
    if (drawn) {
        free(json);
        return drawn;
    }
    uint64_t r1, r2;
    char boundary[48];
    if (auth_random_u64(&r1) || auth_random_u64(&r2)) {
        free(json);
        board_png_free(&png);
        return -1;
    }
    snprintf(boundary, sizeof boundary, "tilehall-%016llx%016llx", (unsigned long long)r1,
             (unsigned long long)r2);
    struct buf b;
    buf_init(&b, BODY_MAX);
    buf_putf(&b,
             "--%s\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n"
             "Content-Type: application/json\r\n\r\n%s\r\n"
             "--%s\r\nContent-Disposition: form-data; name=\"files[0]\"; "
             "filename=\"board.png\"\r\nContent-Type: image/png\r\n\r\n",
             boundary, json, boundary);
    enum buf_status added = buf_add(&b, png.data, png.len);
    buf_putf(&b, "\r\n--%s--\r\n", boundary);
    free(json);
    board_png_free(&png);
    if (added != BUF_OK || buf_err(&b) != BUF_OK) {
        buf_free(&b);
        return -1;
    }
    out->body = buf_take(&b, &out->len);
    if (!out->body) return -1;
    snprintf(out->content_type, sizeof out->content_type, "multipart/form-data; boundary=%s",
             boundary);
    return 0;
}

/* Slack's request for `n` (with the picture's URL of game `game` at `version` when
 * n->picture and PUBLIC_URL is set). */
static int slack_request(const struct notice *n, const char *game, int version,
                         struct webhook_app_request *out)
{
    struct buf f;
    buf_init(&f, 8 * WEBHOOK_APP_TEXT_MAX);
    slack_escape(&f, n->text);
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "text", buf_err(&f) == BUF_OK ? buf_ptr(&f) : "");
    buf_free(&f);
    json_out_key(&w, "blocks");
    json_out_begin_array(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "type", "section");
    json_out_key(&w, "text");
    json_out_begin_object(&w);
    json_out_kstring(&w, "type", "plain_text");
    json_out_kstring(&w, "text", n->text);
    json_out_end_object(&w);
    json_out_end_object(&w);
    if (n->picture && public_url[0] && version > 0) {
        char url[700];
        snprintf(url, sizeof url, "%s/v1/games/%s/board.png?version=%d&width=%d", public_url, game,
                 version, WEBHOOK_APP_PNG_WIDTH);
        json_out_begin_object(&w);
        json_out_kstring(&w, "type", "image");
        json_out_kstring(&w, "image_url", url);
        json_out_kstring(&w, "alt_text", "The board");
        json_out_end_object(&w);
    }
    json_out_end_array(&w);
    json_out_end_object(&w);
    out->body = json_out_take(&w, &out->len);
    if (!out->body) return -1;
    snprintf(out->content_type, sizeof out->content_type, "application/json");
    return 0;
}

int webhook_app_request(const struct store_delivery *d, struct webhook_app_request *out)
{
    memset(out, 0, sizeof *out);
    cJSON *p = cJSON_Parse(d->payload);
    if (!p) return -1;
    struct notice *n = calloc(1, sizeof *n);
    struct api_game *ag = NULL;
    int rc = WEBHOOK_APP_NOTHING;
    if (!n) {
        rc = -1;
        goto out;
    }
    if (strcmp(d->kind, STORE_DELIVERY_CHAT) == 0) {
        if (!chat_notice(p, n)) goto out;
    } else if (strcmp(d->kind, STORE_DELIVERY_TOURNAMENT) == 0) {
        if (!tourney_notice(d, p, n)) goto out;
    } else {
        enum games_fail why;
        ag = games_fetch(d->game, GAMES_CURRENT, -1, &why);
        if (!ag) {
            rc = why == GAMES_NOT_FOUND                           ? WEBHOOK_APP_NOTHING
                 : why == GAMES_UNAVAILABLE || why == GAMES_ERROR ? WEBHOOK_APP_UNAVAILABLE
                                                                  : -1;
            goto out;
        }
        if (!event_notice(d, p, ag, n)) goto out;
    }
    if (!strcmp(d->format, "discord"))
        rc = discord_request(n, ag, out);
    else if (!strcmp(d->format, "slack"))
        rc = slack_request(n, d->game, ag ? ag->row.version : 0, out);
out:
    games_free(ag);
    free(n);
    cJSON_Delete(p);
    return rc;
}
