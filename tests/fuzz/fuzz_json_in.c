/* fuzz_json_in.c: libFuzzer harness for the request body decoders (api/json/json_in.c). The
 * first byte picks the decoder: POST /v1/games, POST .../placements of each ruleset, the
 * empty body of POST .../draw, the body of POST .../webhook or of POST .../join (by the byte
 * modulo 7), or from 0xFC on a chat message (POST .../chat, api/json/json_chat.c); the rest is
 * the body, NUL-terminated as the HTTP layer hands it over. A refusal must name a code of the
 * one list the server and openapi.yaml use (api_code_known(), api/base/codes.c) and a detail
 * (valid UTF-8); a body accepted must be a setup the engine takes (or refuses with a setup
 * status) and an action the engine judges without breaking a game. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "json_in.h"
#include "utf8.h"

static void check_err(const struct json_err *err)
{
    if (!api_code_known(err->code) || !memchr(err->detail, '\0', sizeof err->detail) ||
        err->detail[0] == '\0')
        abort();
    if (!utf8_valid(err->detail, strlen(err->detail))) abort(); /* never half a character */
}

/* A game of `ruleset` in its place phase (seed 1), built once. */
static const struct cc_game *placing(enum cc_ruleset ruleset)
{
    static struct cc_game games[CC_RULESET_COUNT];
    static int made[CC_RULESET_COUNT];
    if (!made[ruleset]) {
        struct cc_setup s = {
            .ruleset = (uint8_t)ruleset, .nplayers = 2, .seed = 1, .start = -1, .deck_len = -1};
        struct cc_action draw = {.kind = CC_ACTION_DRAW, .seat = 0, .tile = CC_NO_TILE};
        if (cc_game_new(&games[ruleset], &s, NULL) != CC_OK) abort();
        if (games[ruleset].phase == CC_PHASE_DRAW &&
            cc_game_apply(&games[ruleset], &draw, NULL) != CC_OK)
            abort();
        made[ruleset] = 1;
    }
    return &games[ruleset];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct json_new_game ng;
    static struct cc_game g;
    if (size < 1) return 0;
    /* 0xFC and above: a chat message (added after the corpus, whose first bytes keep their
     * decoder below that). */
    int which = data[0] >= 0xFC ? 7 : data[0] % 7;
    size_t len = size - 1;
    char *body = malloc(len + 1);
    if (!body) return 0;
    memcpy(body, data + 1, len);
    body[len] = '\0';
    struct json_err err;
    memset(&err, 0, sizeof err);
    if (which == 0) {
        if (json_in_new_game(body, len, &ng, &err)) {
            check_err(&err);
        } else {
            const struct cc_setup *s = &ng.setup;
            if (s->nplayers < CC_MIN_PLAYERS || s->nplayers > CC_MAX_PLAYERS ||
                s->ruleset >= CC_RULESET_COUNT || s->deck_len > CC_MAX_DECK || s->deck_len < -1)
                abort();
            for (int i = 0; i < s->nplayers; i++)
                if (ng.names[i][0] == '\0' || strlen(ng.names[i]) > STORE_NAME_MAX) abort();
            enum cc_status st = cc_game_new(&g, s, NULL);
            if (st == CC_OK && cc_game_check(&g) != CC_OK) abort();
        }
    } else if (which <= 3) {
        enum cc_ruleset r = (enum cc_ruleset)(which - 1);
        struct cc_action a;
        if (json_in_placement(body, len, r, &a, &err)) {
            check_err(&err);
        } else if (cc_tileset_get(r)) {
            if (a.kind != CC_ACTION_PLACE || a.rot > 3) abort();
            memcpy(&g, placing(r), sizeof g);
            a.seat = g.seat;
            struct cc_game before;
            memcpy(&before, &g, sizeof g);
            if (cc_game_apply(&g, &a, NULL) == CC_OK) {
                if (cc_game_check(&g) != CC_OK) abort();
            } else if (memcmp(&before, &g, sizeof g) != 0) {
                abort(); /* a refusal changes nothing */
            }
        }
    } else if (which == 4) {
        if (json_in_empty(body, len, &err)) check_err(&err);
    } else if (which == 7) {
        static char text[JSON_CHAT_TEXT_BYTES + 1];
        if (json_in_chat(body, len, text, &err)) {
            check_err(&err);
        } else {
            /* Accepted: 1 to 500 characters of UTF-8, no control character but '\n'. */
            size_t n = strlen(text);
            if (n == 0 || n > JSON_CHAT_TEXT_BYTES || !utf8_valid(text, n)) abort();
            for (size_t i = 0; i < n; i++)
                if (((unsigned char)text[i] < 0x20 && text[i] != '\n') || text[i] == 0x7f) abort();
        }
    } else if (which == 6) {
        static struct json_join j;
        if (json_in_join(body, len, &j, &err))
            check_err(&err);
        else if (!memchr(j.invite, '\0', sizeof j.invite) || !memchr(j.name, '\0', sizeof j.name))
            abort();
    } else {
        static char url[STORE_URL_MAX + 1], format[STORE_HOOK_FORMAT_MAX];
        if (json_in_webhook(body, len, url, format, &err))
            check_err(&err);
        else if (!memchr(url, '\0', sizeof url) || /* checked further by webhook_url_check() */
                 !memchr(format, '\0', sizeof format))
            abort();
    }
    free(body);
    return 0;
}
