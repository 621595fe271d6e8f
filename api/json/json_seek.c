/* json_seek.c: seeks' bodies and pools -- see json_seek.h. */
#include "json_seek.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "clocks.h"
#include "json_game.h"
#include "json_out.h"
#include "rulesets.h"

/* The pool of the checked game `g` with clock `c`, `rated`: canonical JSON, malloc'd. */
static char *pool_text(const struct cc_game *g, const struct store_clock *c, int rated)
{
    struct json_out w;
    json_out_init(&w);
    json_out_begin_object(&w);
    json_out_kstring(&w, "ruleset", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    json_out_kint(&w, "players", g->nplayers);
    json_out_key(&w, "options");
    json_options(&w, g); /* every option, defaults applied, in the table's order */
    json_out_key(&w, "clock");
    clocks_settings_json(&w, c); /* only the settings (kind and values) */
    json_out_key(&w, "rated");
    json_out_bool(&w, rated);
    json_out_end_object(&w);
    char *text = json_out_take(&w, NULL);
    json_out_free(&w);
    return text;
}

/* "rating_range": null or [min, max], 0 <= min <= max <= JSON_SEEK_RATING_MAX. */
static int decode_range(const cJSON *r, struct json_seek *out, struct json_err *err)
{
    if (!r || cJSON_IsNull(r)) return 0;
    const cJSON *lo = cJSON_IsArray(r) ? cJSON_GetArrayItem(r, 0) : NULL;
    const cJSON *hi = lo ? cJSON_GetArrayItem(r, 1) : NULL;
    if (!lo || !hi || cJSON_GetArraySize(r) != 2 || !cJSON_IsNumber(lo) || !cJSON_IsNumber(hi) ||
        !isfinite(lo->valuedouble) || !isfinite(hi->valuedouble) || lo->valuedouble < 0 ||
        hi->valuedouble > JSON_SEEK_RATING_MAX || lo->valuedouble > hi->valuedouble)
        return json_fail(err, "invalid_rating_range",
                         "rating_range must be null or [min, max] with 0 <= min <= max <= %.0f.",
                         JSON_SEEK_RATING_MAX);
    out->has_range = 1;
    out->rating_min = lo->valuedouble;
    out->rating_max = hi->valuedouble;
    return 0;
}

int json_in_seek(const char *body, size_t len, struct json_seek *out, struct json_err *err)
{
    memset(out, 0, sizeof *out);
    cJSON *root = json_in_parse(body, len, 200, err);
    if (!root) return -1;
    int rc = -1;
    char *game_body = NULL;
    struct json_new_game *in = NULL;
    struct cc_game *g = NULL;
    if (!cJSON_IsObject(root)) {
        json_fail(err, "invalid_body", "The body must be a JSON object.");
        goto out;
    }
    static const char *const allowed_bot[] = {
        "ruleset", "options",      "players",           "clock",
        "rated",   "rating_range", "bot_after_seconds", NULL};
    if (json_check_fields(root, allowed_bot, "", err)) goto out;
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "players");
    out->players = 2;
    if (p) {
        /* The range before the cast: a double out of an int's range has no int (UB). */
        if (!cJSON_IsNumber(p) || !(p->valuedouble >= 2 && p->valuedouble <= CC_MAX_PLAYERS) ||
            p->valuedouble != floor(p->valuedouble)) {
            json_fail(err, "invalid_body", "players must be an integer from 2 to %d.",
                      CC_MAX_PLAYERS);
            goto out;
        }
        out->players = (int)p->valuedouble;
    }
    if (decode_range(cJSON_GetObjectItemCaseSensitive(root, "rating_range"), out, err)) goto out;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "bot_after_seconds");
    if (b && !cJSON_IsNull(b)) {
        if (!cJSON_IsNumber(b) ||
            !(b->valuedouble >= JSON_SEEK_BOT_AFTER_MIN &&
              b->valuedouble <= JSON_SEEK_BOT_AFTER_MAX) ||
            b->valuedouble != floor(b->valuedouble)) {
            json_fail(err, "invalid_bot_after_seconds",
                      "bot_after_seconds must be null or an integer from %d to %d.",
                      JSON_SEEK_BOT_AFTER_MIN, JSON_SEEK_BOT_AFTER_MAX);
            goto out;
        }
        out->bot_after_s = (int)b->valuedouble;
    }
    /* The rest is a new game's: decoded by that decoder, with placeholder seats. */
    cJSON_DeleteItemFromObjectCaseSensitive(root, "players");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "rating_range");
    cJSON_DeleteItemFromObjectCaseSensitive(root, "bot_after_seconds");
    cJSON *seats = cJSON_AddArrayToObject(root, "players");
    for (int s = 0; seats && s < out->players; s++) {
        cJSON *seat = cJSON_CreateObject();
        cJSON_AddStringToObject(seat, "name", "Seeker");
        cJSON_AddItemToArray(seats, seat);
    }
    game_body = cJSON_PrintUnformatted(root);
    in = calloc(1, sizeof *in);
    g = calloc(1, sizeof *g);
    if (!seats || !game_body || !in || !g) {
        json_fail(err, "internal_error", "Out of memory.");
        goto out;
    }
    if (json_in_new_game(game_body, strlen(game_body), in, err)) goto out;
    if (!in->clock.kind) {
        json_fail(err, "invalid_clock",
                  "A seek needs a clock: {\"turn_seconds\": N} for correspondence, or a bank "
                  "{\"initial_seconds\", \"increment_seconds\"} for live play.");
        goto out;
    }
    struct cc_events *ev = malloc(sizeof *ev);
    enum cc_status st = ev ? cc_game_new(g, &in->setup, ev) : CC_ERR_BAD_OPTION;
    free(ev);
    if (st != CC_OK) {
        json_fail(err, cc_status_name(st), "These options cannot be played together.");
        goto out;
    }
    snprintf(out->ruleset, sizeof out->ruleset, "%s", cc_ruleset_name((enum cc_ruleset)g->ruleset));
    out->live = in->clock.kind == STORE_CLOCK_BANK;
    out->pool = pool_text(g, &in->clock, in->rated);
    if (!out->pool) {
        json_fail(err, "internal_error", "Out of memory.");
        goto out;
    }
    rc = 0;
out:
    free(game_body);
    free(in);
    free(g);
    cJSON_Delete(root);
    return rc;
}

char *json_seek_game_body(const char *pool, const char *const *seats, int nseats)
{
    cJSON *root = cJSON_Parse(pool);
    char *text = NULL;
    if (root && cJSON_IsObject(root)) {
        cJSON_DeleteItemFromObjectCaseSensitive(root, "players");
        cJSON *arr = cJSON_AddArrayToObject(root, "players");
        int ok = arr != NULL;
        for (int i = 0; ok && i < nseats; i++) {
            cJSON *seat = cJSON_Parse(seats[i]);
            ok = seat && cJSON_AddItemToArray(arr, seat);
        }
        /* A seek's game has no hints: seekers play alone, as in a rated game. */
        if (ok) cJSON_AddFalseToObject(root, "hints");
        if (ok) text = cJSON_PrintUnformatted(root);
    }
    cJSON_Delete(root);
    return text;
}
