/* json_tournament.c: decoding POST /v1/tournaments (json_tournament.h). */
#include "json_tournament.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "status.h"
#include "tiles.h"
#include "utf8.h"

/* An integer member `name` of obj in [lo, hi]: 1 read into *v, 0 absent, -1 refused. */
static int int_member(const cJSON *obj, const char *name, int lo, int hi, int *v,
                      struct json_err *err)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!m) return 0;
    /* The range before the integer test: a cast of a double beyond long long's is UB. */
    if (!cJSON_IsNumber(m) || !(m->valuedouble >= lo && m->valuedouble <= hi) ||
        m->valuedouble != floor(m->valuedouble))
        return json_fail(err, "invalid_body", "\"%s\" must be an integer from %d to %d.", name, lo,
                         hi);
    *v = (int)m->valuedouble;
    return 1;
}

/* The digits s[0..n) as a number, or -1 unless all are digits. */
static int digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* 1 when `s` is an RFC 3339 time in UTC: YYYY-MM-DDTHH:MM:SS, optional .fraction, Z; its
 * second since the epoch into *at. */
static int utc_time(const char *s, time_t *at)
{
    size_t len = strlen(s);
    if (len < 20 || len > 27 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' ||
        s[16] != ':' || s[len - 1] != 'Z')
        return 0;
    int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
    int h = digits(s + 11, 2), mi = digits(s + 14, 2), sec = digits(s + 17, 2);
    if (y < 1970 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 ||
        sec > 59)
        return 0;
    static const int days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (d > days[mo - 1] || (mo == 2 && d == 29 && !leap)) return 0;
    struct tm tm = {.tm_year = y - 1900,
                    .tm_mon = mo - 1,
                    .tm_mday = d,
                    .tm_hour = h,
                    .tm_min = mi,
                    .tm_sec = sec};
    *at = timegm(&tm);
    if (len == 20) return 1;
    return s[19] == '.' && len >= 22 && digits(s + 20, (int)len - 21) >= 0;
}

int json_in_tournament(const char *body, size_t len, struct json_tournament *out,
                       struct json_err *err)
{
    memset(out, 0, sizeof *out);
    cJSON *root = json_in_parse(body, len, 1000, err);
    if (!root) return -1;
    int rc = -1;
    static const char *const allowed[] = {
        "name",  "format",      "ruleset",   "options", "players_per_game", "rounds", "clock",
        "rated", "max_players", "starts_at", NULL};
    if (json_check_fields(root, allowed, "", err)) goto out;
    if (json_in_name(root, "name", out->name, err)) goto out;

    const cJSON *format = json_need(root, "format", cJSON_IsString, "a string", err);
    if (!format) goto out;
    static const char *const formats[] = {"swiss", "round_robin", "knockout"};
    for (int i = 0; i < 3; i++)
        if (strcmp(format->valuestring, formats[i]) == 0) out->format = formats[i];
    if (!out->format) {
        json_fail(err, "invalid_body",
                  "\"format\" must be \"swiss\", \"round_robin\" or \"knockout\".");
        goto out;
    }
    int swiss = strcmp(out->format, "swiss") == 0;
    int round_robin = strcmp(out->format, "round_robin") == 0;

    int ruleset = CC_RULESET_CLASSIC;
    const cJSON *rs = cJSON_GetObjectItemCaseSensitive(root, "ruleset");
    if (rs) {
        if (!cJSON_IsString(rs)) {
            json_fail(err, "invalid_body", "\"ruleset\" must be a string.");
            goto out;
        }
        if ((ruleset = cc_ruleset_parse(rs->valuestring)) < 0) {
            json_fail(err, cc_status_name(CC_ERR_BAD_RULESET),
                      "There is no ruleset \"%.*s\" (see GET /v1/rulesets).",
                      utf8_fit(rs->valuestring, 40), rs->valuestring);
            goto out;
        }
    }
    out->ruleset = cc_ruleset_name((enum cc_ruleset)ruleset);

    const cJSON *options = cJSON_GetObjectItemCaseSensitive(root, "options");
    struct cc_options checked;
    if (api_options_decode(options, (enum cc_ruleset)ruleset, &checked, err)) goto out;
    out->options_json = options ? cJSON_PrintUnformatted(options) : strdup("{}");

    out->players_per_game = 2;
    if (int_member(root, "players_per_game", 2, 4, &out->players_per_game, err) < 0) goto out;

    int got = int_member(root, "rounds", 1, JSON_TOURNEY_MAX_ROUNDS, &out->rounds, err);
    if (got < 0) goto out;
    if (swiss != (got == 1)) {
        json_fail(err, "invalid_body",
                  swiss ? "A swiss needs \"rounds\" (1 to %d)."
                        : "\"rounds\" is for a swiss only (the format decides the others').",
                  JSON_TOURNEY_MAX_ROUNDS);
        goto out;
    }

    const cJSON *clock = cJSON_GetObjectItemCaseSensitive(root, "clock");
    if (clock && cJSON_IsNull(clock)) clock = NULL;
    struct store_clock clk;
    if (json_in_clock(clock, &clk, err)) goto out;
    if (clock) out->clock_json = cJSON_PrintUnformatted(clock);

    const cJSON *rated = cJSON_GetObjectItemCaseSensitive(root, "rated");
    if (rated && !cJSON_IsBool(rated)) {
        json_fail(err, "invalid_body", "\"rated\" must be true or false.");
        goto out;
    }
    out->rated = rated && cJSON_IsTrue(rated);
    if (out->rated && !out->clock_json) {
        json_fail(err, "unrated_setup", "A rated tournament needs a clock for its games.");
        goto out;
    }

    int most = round_robin ? JSON_TOURNEY_RR_MAX_PLAYERS : JSON_TOURNEY_MAX_PLAYERS;
    out->max_players = most;
    if (int_member(root, "max_players", 2, most, &out->max_players, err) < 0) goto out;

    const cJSON *starts = cJSON_GetObjectItemCaseSensitive(root, "starts_at");
    if (starts && !cJSON_IsNull(starts)) {
        time_t at = 0;
        if (!cJSON_IsString(starts) || !utc_time(starts->valuestring, &at)) {
            json_fail(err, "invalid_body",
                      "\"starts_at\" must be null or a time in UTC (RFC 3339: "
                      "2026-12-24T18:00:00Z).");
            goto out;
        }
        /* A time gone by would start (or, alone, call off) the tournament at once: refused,
         * with a minute's grace for the client's clock. */
        if (at < time(NULL) - JSON_TOURNEY_STARTS_GRACE_S) {
            json_fail(err, "invalid_body", "\"starts_at\" must not lie in the past.");
            goto out;
        }
        memcpy(out->starts_at, starts->valuestring, strlen(starts->valuestring) + 1);
    }
    if (!out->options_json || (clock && !out->clock_json)) {
        json_fail(err, "internal_error", "Out of memory.");
        goto out;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

void json_tournament_free(struct json_tournament *t)
{
    free(t->options_json);
    free(t->clock_json);
    t->options_json = t->clock_json = NULL;
}

void json_tournament_row(const struct json_tournament *t, struct store_tournament_new *row)
{
    memset(row, 0, sizeof *row);
    row->name = t->name;
    row->format = t->format;
    row->ruleset = t->ruleset;
    row->options_json = t->options_json;
    row->players_per_game = t->players_per_game;
    row->rounds = t->rounds;
    row->clock_json = t->clock_json;
    row->rated = t->rated;
    row->max_players = t->max_players;
    row->starts_at = t->starts_at[0] ? t->starts_at : NULL;
}
