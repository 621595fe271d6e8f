/* json_in.c: strict request decoding on top of cJSON. */
#include "json_in.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "clocks.h"
#include "rulesets.h"
#include "utf8.h"
#include "store_games.h"

#define MAX_NAME_CHARS 40
/* Values in a body at most: no request needs more than about 220 (a deck of 200 tiles),
 * and cJSON spends a heap allocation and, for a number, a strtod on each; a 64 KiB body
 * could otherwise hold 32,000 of them (3 ms of CPU) before its token is looked at. */
#define MAX_VALUES 1000

int json_fail(struct json_err *err, const char *code, const char *fmt, ...)
{
    snprintf(err->code, sizeof err->code, "%s", code);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->detail, sizeof err->detail, fmt, ap);
    va_end(ap);
    err->detail[utf8_fit(err->detail, sizeof err->detail - 1)] = '\0';
    return -1;
}

/* The keys of one object, sorted to find one twice. */
struct keys {
    const char **v; /* the keys (borrowed from the cJSON tree) */
    size_t cap;     /* room in v */
};

static int cmp_key(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* -1 when some object in `v` (recursively) has a key twice. Each object's keys are sorted
 * (in `k`, grown as needed): n log n. Comparing every pair instead cost 0.2 s of CPU for
 * a 64 KiB body of 8,700 keys (before MAX_VALUES), before its token was looked at. */
static int check_duplicates(const cJSON *v, struct keys *k, struct json_err *err)
{
    size_t n = 0;
    if (cJSON_IsObject(v))
        for (const cJSON *c = v->child; c; c = c->next) n++;
    if (n > 1) { /* an object of two keys or more (qsort may not be given NULL) */
        if (n > k->cap) {
            const char **nv = realloc(k->v, n * sizeof *nv);
            if (!nv)
                return json_fail(err, "invalid_json", "The body has too many keys to be read.");
            k->v = nv;
            k->cap = n;
        }
        n = 0;
        for (const cJSON *c = v->child; c; c = c->next) k->v[n++] = c->string;
        qsort(k->v, n, sizeof *k->v, cmp_key);
        for (size_t i = 1; i < n; i++)
            if (strcmp(k->v[i - 1], k->v[i]) == 0)
                return json_fail(err, "invalid_body", "The key \"%.*s\" appears twice.",
                                 utf8_fit(k->v[i], 60), k->v[i]);
    }
    for (const cJSON *c = v->child; c; c = c->next)
        if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && check_duplicates(c, k, err)) return -1;
    return 0;
}

/* 1 when s[0..n) is a number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int number_ok(const char *s, size_t n)
{
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0') {
        i++;
    } else if (i < n && s[i] >= '1' && s[i] <= '9') {
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    } else {
        return 0;
    }
    if (i < n && s[i] == '.') {
        size_t d = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t d = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == d) return 0;
    }
    return i == n;
}

/* 1 when the 4 bytes at `s` are hexadecimal digits. */
static int hex4(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strchr("0123456789abcdefABCDEF", s[i]) || !s[i]) return 0;
    return 1;
}

/*
 * What cJSON lets pass but JSON (RFC 8259) does not, in the text `s` (`len` bytes, parsed
 * by cJSON already): numbers not in JSON's grammar (007, +1, .5, 1.), which cJSON reads
 * with strtod; the escape \u0000 in a string, which cJSON would silently cut the string
 * at; and \u without four hexadecimal digits (cJSON reads \uZZZZ as \u0000). Returns a
 * sentence saying which, or NULL when the text is strict JSON. (Lone surrogate escapes,
 * \ud800 without its pair, cJSON refuses itself.)
 */
static const char *not_strict(const char *s, size_t len)
{
    int in_string = 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '"') {
                in_string = 0;
            } else if (c == '\\') {
                if (i + 1 < len && s[i + 1] == 'u' && (i + 5 >= len || !hex4(s + i + 2)))
                    return "A string of the body holds \\u without four hexadecimal digits.";
                if (i + 5 < len && s[i + 1] == 'u' && memcmp(s + i + 2, "0000", 4) == 0)
                    return "A string of the body holds a NUL character (\\u0000).";
                i++; /* the escaped character */
            }
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')) {
            size_t n = 0;
            while (i + n < len && strchr("0123456789+-.eE", s[i + n]) && s[i + n]) n++;
            if (!number_ok(s + i, n))
                return "A number of the body is not written as JSON writes numbers.";
            i += n - 1;
        }
    }
    return NULL;
}

/* An upper bound of the values in the JSON text `s` (`len` bytes): one for the top value,
 * one for each '[', '{' and ',' outside strings (exact unless a container is empty).
 * Stops counting past `max`. */
static size_t count_values(const char *s, size_t len, size_t max)
{
    size_t n = 1;
    int in_string = 0;
    for (size_t i = 0; i < len && n <= max; i++) {
        char c = s[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == ',' || c == '[' || c == '{') {
            n++;
        }
    }
    return n;
}

/* Parses `body` (`len` bytes and a NUL) as exactly one JSON object; NULL (with err)
 * otherwise. Caller deletes. */
static cJSON *parse_object(const char *body, size_t len, struct json_err *err)
{
    return json_in_parse(body, len, MAX_VALUES, err);
}

cJSON *json_in_parse(const char *body, size_t len, size_t max_values, struct json_err *err)
{
    if (len == 0) {
        json_fail(err, "invalid_json", "The body is empty; a JSON object is expected.");
        return NULL;
    }
    /* RFC 8259: JSON text is UTF-8. Checked on the whole text before anything reads it, so
     * no byte that is not UTF-8 reaches a string, a detail, or a log. */
    if (!utf8_valid(body, len)) {
        json_fail(err, "invalid_json",
                  "The body is not UTF-8 (an invalid, overlong, surrogate or cut-short sequence).");
        return NULL;
    }
    if (count_values(body, len, max_values) > max_values) {
        json_fail(err, "invalid_json",
                  "The body holds more than %zu values (objects, arrays, members, elements).",
                  max_values);
        return NULL;
    }
    /* The body is NUL-terminated by the HTTP layer; cJSON counts that NUL in the length
     * when it must check that nothing follows the value. A NUL inside is never JSON. */
    cJSON *root =
        memchr(body, '\0', len) ? NULL : cJSON_ParseWithLengthOpts(body, len + 1, NULL, 1);
    if (!root) {
        json_fail(err, "invalid_json", "The body is not valid JSON.");
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        json_fail(err, "invalid_json", "The body must be a JSON object.");
        return NULL;
    }
    const char *why = not_strict(body, len);
    if (why) {
        cJSON_Delete(root);
        json_fail(err, "invalid_json", "%s", why);
        return NULL;
    }
    struct keys k = {NULL, 0};
    int dup = check_duplicates(root, &k, err);
    free(k.v);
    if (dup) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

const cJSON *json_need(const cJSON *obj, const char *name, int (*is_type)(const cJSON *),
                       const char *what, struct json_err *err)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!m)
        json_fail(err, "invalid_body", "The field \"%s\" is required.", name);
    else if (!is_type(m))
        json_fail(err, "invalid_body", "\"%s\" must be %s.", name, what);
    else
        return m;
    return NULL;
}

int json_check_fields(const struct cJSON *obj, const char *const *allowed, const char *where,
                      struct json_err *err)
{
    for (const cJSON *c = obj->child; c; c = c->next) {
        int ok = 0;
        for (size_t i = 0; allowed[i] && !ok; i++) ok = strcmp(c->string, allowed[i]) == 0;
        if (!ok)
            return json_fail(err, "unknown_field", "Unknown field \"%s%.*s\".", where,
                             utf8_fit(c->string, 60), c->string);
    }
    return 0;
}

/* Reads integer member `name` of `obj` in [lo, hi]. Returns 1 if read, 0 if absent, -1. */
static int get_int(const cJSON *obj, const char *name, double lo, double hi, long long *out,
                   struct json_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return json_fail(err, "invalid_body", "\"%s\" must be an integer from %.0f to %.0f.", name,
                         lo, hi);
    *out = (long long)v->valuedouble;
    return 1;
}

/* An integer member `name` of the clock `c` in [lo, hi] (else `code`): 1 read, 0 absent, -1. */
static int clock_int(const cJSON *c, const char *name, long lo, long hi, const char *code,
                     long long *out, struct json_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, name);
    if (!v) return 0;
    if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble))
        return json_fail(err, "invalid_clock", "clock.%s must be an integer (seconds).", name);
    if (v->valuedouble < (double)lo || v->valuedouble > (double)hi)
        return json_fail(err, code, "clock.%s must be from %ld to %ld (seconds).", name, lo, hi);
    *out = (long long)v->valuedouble;
    return 1;
}

/*
 * Decodes "clock" (0011; absent: no clock): {"turn_seconds": N} (CLOCKS_TURN_MIN ..
 * CLOCKS_TURN_MAX) or {"initial_seconds": N, "increment_seconds": M} (a bank per seat;
 * increment 0 when absent), either with "on_timeout": "autoplay" (default) | "resign".
 * invalid_clock for a wrong shape, invalid_turn_seconds / invalid_bank_seconds out of
 * range, invalid_on_timeout. Returns 0 or -1.
 */
static int decode_clock(const cJSON *c, struct store_clock *out, struct json_err *err)
{
    memset(out, 0, sizeof *out);
    if (!c) return 0;
    if (!cJSON_IsObject(c))
        return json_fail(err, "invalid_clock",
                         "\"clock\" must be an object: {\"turn_seconds\": N} or "
                         "{\"initial_seconds\": N, \"increment_seconds\": M}.");
    static const char *const allowed[] = {"turn_seconds", "initial_seconds", "increment_seconds",
                                          "on_timeout", NULL};
    if (json_check_fields(c, allowed, "clock.", err)) return -1;
    long long turn = 0, initial = 0, inc = 0;
    int t = clock_int(c, "turn_seconds", CLOCKS_TURN_MIN, CLOCKS_TURN_MAX, "invalid_turn_seconds",
                      &turn, err);
    if (t < 0) return -1;
    int i = clock_int(c, "initial_seconds", CLOCKS_BANK_MIN, CLOCKS_BANK_MAX,
                      "invalid_bank_seconds", &initial, err);
    if (i < 0) return -1;
    int n = clock_int(c, "increment_seconds", 0, CLOCKS_INCREMENT_MAX, "invalid_bank_seconds", &inc,
                      err);
    if (n < 0) return -1;
    if (t && (i || n))
        return json_fail(
            err, "invalid_clock",
            "clock: either turn_seconds or a bank (initial_seconds, increment_seconds).");
    if (!t && !i)
        return json_fail(err, "invalid_clock",
                         "clock needs turn_seconds, or initial_seconds (with increment_seconds).");
    const cJSON *ot = cJSON_GetObjectItemCaseSensitive(c, "on_timeout");
    if (ot && (!cJSON_IsString(ot) || (strcmp(ot->valuestring, "autoplay") != 0 &&
                                       strcmp(ot->valuestring, "resign") != 0)))
        return json_fail(err, "invalid_on_timeout",
                         "clock.on_timeout must be \"autoplay\" (the default) or \"resign\".");
    out->kind = t ? STORE_CLOCK_TURN : STORE_CLOCK_BANK;
    out->turn_seconds = (int)turn;
    out->initial_seconds = (int)initial;
    out->increment_seconds = (int)inc;
    out->resign = ot && strcmp(ot->valuestring, "resign") == 0;
    return 0;
}

/* Reads a required integer member. Returns 0 or -1. */
static int need_int(const cJSON *obj, const char *name, double lo, double hi, long long *out,
                    struct json_err *err)
{
    int r = get_int(obj, name, lo, hi, out, err);
    if (r == 0) return json_fail(err, "invalid_body", "The field \"%s\" is required.", name);
    return r < 0 ? -1 : 0;
}

/* Reads string member `name`. Returns the string, NULL if absent (*bad set on a type error). */
static const char *get_str(const cJSON *obj, const char *name, int *bad, struct json_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!v) return NULL;
    if (!cJSON_IsString(v)) {
        *bad = 1;
        json_fail(err, "invalid_body", "\"%s\" must be a string.", name);
        return NULL;
    }
    return v->valuestring;
}

/* Characters in the name `s` if it is UTF-8 without a character that names may not hold
 * (utf8_refused_in_name: controls, format and invisible characters), else -1 with the
 * first such character in *bad (0xFFFFFFFF for bytes that are not UTF-8). Its first and
 * last characters go to *first and *last (0 for an empty name). */
static int name_chars(const char *s, uint32_t *bad, uint32_t *first, uint32_t *last)
{
    size_t len = strlen(s), i = 0;
    int n = 0;
    *first = *last = 0;
    while (i < len) {
        uint32_t cp;
        size_t k = utf8_next(s + i, len - i, &cp);
        if (k == 0 || utf8_refused_in_name(cp)) {
            *bad = k ? cp : 0xFFFFFFFFu;
            return -1;
        }
        if (n == 0) *first = cp;
        *last = cp;
        i += k;
        n++;
    }
    return n;
}

/*
 * Reads member "name" of `obj` as a player name (PlayerName in openapi.yaml: 1 to 40
 * characters, none that name_chars refuses) into `out`; `label` names the member in
 * the details ("players[0].name", "name"). Returns 0 or -1.
 */
static int decode_name(const cJSON *obj, const char *label, char out[STORE_NAME_MAX + 1],
                       struct json_err *err)
{
    int bad = 0;
    const char *name = get_str(obj, "name", &bad, err);
    if (bad) return -1;
    if (!name) return json_fail(err, "invalid_body", "%s is required.", label);
    uint32_t bad_cp = 0, first, last;
    int chars = name_chars(name, &bad_cp, &first, &last);
    if (chars < 0 && bad_cp != 0xFFFFFFFFu)
        return json_fail(err, "invalid_body",
                         "%s holds U+%04X: names hold no control, format or invisible characters "
                         "(see PlayerName in openapi.yaml).",
                         label, (unsigned)bad_cp);
    if (chars < 1 || chars > MAX_NAME_CHARS || strlen(name) > STORE_NAME_MAX)
        return json_fail(err, "invalid_body", "%s must be 1 to 40 characters of UTF-8 text.",
                         label);
    /* A blank or invisible name could pass for no name, and spaces around one for another. */
    if (!utf8_visible(first) || utf8_space(last))
        return json_fail(err, "invalid_body",
                         "%s must begin with a visible character (a letter, number, punctuation "
                         "or symbol) and not end with a space (see PlayerName in openapi.yaml).",
                         label);
    snprintf(out, STORE_NAME_MAX + 1, "%s", name);
    return 0;
}

/* Decodes "options" of `ruleset` into `o` (defaults filled in): api/rulesets.c, from the
 * options table. Returns 0 or -1. */
static int decode_options(const cJSON *v, enum cc_ruleset ruleset, struct cc_options *o,
                          struct json_err *err)
{
    return api_options_decode(v, ruleset, o, err);
}

/* Decodes "seed": an integer below 2^53 or a decimal string up to 2^64-1. A JSON number
 * of 2^53 or more is refused: as a double it cannot be told from its neighbours (2^53 + 1
 * reads as 2^53), so the seed used would not be the seed sent. */
static int decode_seed(const cJSON *v, uint64_t *out, struct json_err *err)
{
    if (cJSON_IsNumber(v)) {
        double d = v->valuedouble;
        if (d == floor(d) && d >= 0 && d < 9007199254740992.0) {
            *out = (uint64_t)d;
            return 0;
        }
    } else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        uint64_t x = 0;
        size_t n = strlen(s);
        int ok = n > 0 && n <= 20;
        for (size_t i = 0; ok && i < n; i++) {
            ok = s[i] >= '0' && s[i] <= '9';
            unsigned d = (unsigned)(s[i] - '0');
            if (ok && x > (UINT64_MAX - d) / 10) ok = 0;
            if (ok) x = x * 10 + d;
        }
        if (ok) {
            *out = x;
            return 0;
        }
    }
    return json_fail(
        err, "invalid_body",
        "\"seed\" must be an integer from 0 to 2^53-1, or a decimal string up to 2^64-1.");
}

/* Reads the required string member "url" of `obj` (a webhook) into `url`. Returns 0 or -1. */
static int webhook_url(const cJSON *obj, char url[STORE_URL_MAX + 1], struct json_err *err)
{
    int bad = 0;
    const char *u = get_str(obj, "url", &bad, err);
    if (bad) return -1;
    if (!u) return json_fail(err, "invalid_body", "The field \"url\" is required.");
    if (strlen(u) > STORE_URL_MAX)
        return json_fail(err, "invalid_webhook_url", "The URL is longer than %d bytes.",
                         STORE_URL_MAX);
    memcpy(url, u, strlen(u) + 1);
    return 0;
}

/* Reads the optional member "format" of `obj` (a webhook) into `format`: one of
 * STORE_HOOK_FORMATS, "tilehall" when absent. Returns 0 or -1. */
static int webhook_format(const cJSON *obj, char format[STORE_HOOK_FORMAT_MAX],
                          struct json_err *err)
{
    static const char *const formats[] = STORE_HOOK_FORMATS;
    int bad = 0;
    const char *f = get_str(obj, "format", &bad, err);
    if (bad) return -1;
    if (!f) f = formats[0];
    for (int i = 0; formats[i]; i++) {
        if (strcmp(f, formats[i]) == 0) {
            snprintf(format, STORE_HOOK_FORMAT_MAX, "%s", f);
            return 0;
        }
    }
    return json_fail(err, "invalid_webhook_format",
                     "\"format\" must be \"tilehall\" (the signed JSON), \"discord\" or "
                     "\"slack\" (that app's incoming webhook).");
}

/*
 * Decodes the open seat players[seat] (`p`, its member "open" `open`): {"open": true} with
 * an optional "name", the placeholder shown until the seat is taken (else "Seat <n>",
 * counted from 1), into out->names[seat]; sets its bit of out->open_seats. Returns 0 or -1.
 */
static int decode_open_seat(const cJSON *p, const cJSON *open, int seat, const char *label,
                            struct json_new_game *out, struct json_err *err)
{
    if (!cJSON_IsTrue(open))
        return json_fail(err, "invalid_body", "players[%d].open must be true.", seat);
    if (cJSON_GetObjectItemCaseSensitive(p, "name")) {
        if (decode_name(p, label, out->names[seat], err)) return -1;
    } else {
        snprintf(out->names[seat], sizeof out->names[seat], "Seat %d", seat + 1);
    }
    out->open_seats |= 1u << seat;
    return 0;
}

/*
 * Decodes players[seat] (`p`) into `out`: a named seat {"name"} (out->names[seat]) or
 * {"player": "me"} (out->me_seat; at most one, its name left for the caller), an open
 * seat {"open": true, "name"?} (decode_open_seat) or a computer player {"bot",
 * "think_ms"?} (out->bots, out->think_ms; unknown_bot_level, invalid_think_ms). Returns 0
 * or -1.
 */
static int decode_seat(const cJSON *p, int seat, struct json_new_game *out, struct json_err *err)
{
    static const char *const allowed[] = {"name", "player", "open", "bot", "think_ms", NULL};
    if (!cJSON_IsObject(p))
        return json_fail(err, "invalid_body", "players[%d] must be an object.", seat);
    if (json_check_fields(p, allowed, "players[].", err)) return -1;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
    const cJSON *player = cJSON_GetObjectItemCaseSensitive(p, "player");
    const cJSON *open = cJSON_GetObjectItemCaseSensitive(p, "open");
    const cJSON *bot = cJSON_GetObjectItemCaseSensitive(p, "bot");
    const cJSON *think = cJSON_GetObjectItemCaseSensitive(p, "think_ms");
    char label[32];
    snprintf(label, sizeof label, "players[%d].name", seat);
    if ((player != NULL) + (open != NULL) + (bot != NULL) > 1 || (name && (player || bot)))
        return json_fail(err, "invalid_body",
                         "players[%d] must be one of {\"name\"}, {\"player\": \"me\"}, "
                         "{\"open\": true} or {\"bot\": ...}.",
                         seat);
    if (think && !bot)
        return json_fail(err, "invalid_body", "players[%d].think_ms goes only with \"bot\".", seat);
    if (bot) {
        /* A computer player (0010): its level and time a move; its name is its level's. */
        static const char *const levels[] = {"random", "greedy", "mcts", "hard"};
        int known = -1;
        for (int i = 0; i < 4 && cJSON_IsString(bot); i++)
            if (strcmp(bot->valuestring, levels[i]) == 0) known = i;
        if (known < 0)
            return json_fail(err, "unknown_bot_level",
                             "players[%d].bot must be \"random\", \"greedy\", \"mcts\" or "
                             "\"hard\".",
                             seat);
        long long ms = JSON_THINK_MS_DEFAULT;
        if (think && (!cJSON_IsNumber(think) || think->valuedouble != floor(think->valuedouble) ||
                      think->valuedouble < 10 || think->valuedouble > 10000))
            return json_fail(err, "invalid_think_ms",
                             "players[%d].think_ms must be an integer from 10 to 10000 (ms).",
                             seat);
        if (think) ms = (long long)think->valuedouble;
        snprintf(out->bots[seat], sizeof out->bots[seat], "%s", levels[known]);
        out->think_ms[seat] = (int)ms;
        snprintf(out->names[seat], sizeof out->names[seat], "Bot (%s)", levels[known]);
        return 0;
    }
    if (open) return decode_open_seat(p, open, seat, label, out, err);
    if (player) {
        if (!cJSON_IsString(player) || strcmp(player->valuestring, "me") != 0)
            return json_fail(
                err, "invalid_body",
                "players[%d].player must be \"me\" (the player whose token the request "
                "carries): nobody can bind another player.",
                seat);
        if (out->me_seat >= 0)
            return json_fail(err, "invalid_body",
                             "players[%d]: only one seat of a game can be {\"player\": \"me\"} "
                             "(players[%d] is).",
                             seat, out->me_seat);
        out->me_seat = seat;
        return 0;
    }
    return decode_name(p, label, out->names[seat], err);
}

int json_in_new_game(const char *body, size_t len, struct json_new_game *out, struct json_err *err)
{
    memset(out, 0, sizeof *out);
    out->setup.start = -1;
    out->setup.deck_len = -1;
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    int rc = -1, bad = 0;
    static const char *const allowed[] = {"ruleset", "players", "options", "seed",  "start",
                                          "deck",    "webhook", "hints",   "clock", "rated",
                                          "chat",    "listed",  NULL};
    if (json_check_fields(root, allowed, "", err)) goto out;

    const char *rs = get_str(root, "ruleset", &bad, err);
    if (bad) goto out;
    int ruleset = rs ? cc_ruleset_parse(rs) : CC_RULESET_CLASSIC;
    if (ruleset < 0) {
        json_fail(err, cc_status_name(CC_ERR_BAD_RULESET),
                  "There is no ruleset \"%.*s\" (see GET /v1/rulesets).", utf8_fit(rs, 40), rs);
        goto out;
    }
    out->setup.ruleset = (uint8_t)ruleset;
    const struct cc_tileset *ts = cc_tileset_get((enum cc_ruleset)ruleset);

    const cJSON *players = json_need(root, "players", cJSON_IsArray, "an array", err);
    if (!players) goto out;
    int np = cJSON_GetArraySize(players);
    /* Up to 6 with an expansion: the options (decoded below) tell. */
    if (np < CC_MIN_PLAYERS || np > CC_MAX_PLAYERS) {
        json_fail(err, cc_status_name(CC_ERR_BAD_PLAYER_COUNT),
                  "A game has 2 to %d players (%d with an expansion of classic), not %d.",
                  CC_BASE_MAX_PLAYERS, CC_MAX_PLAYERS, np);
        goto out;
    }
    out->setup.nplayers = (uint8_t)np;
    out->me_seat = -1;
    int seat = 0;
    for (const cJSON *p = players->child; p; p = p->next, seat++)
        if (decode_seat(p, seat, out, err)) goto out;

    if (decode_options(cJSON_GetObjectItemCaseSensitive(root, "options"), (enum cc_ruleset)ruleset,
                       &out->setup.options, err))
        goto out;
    if ((unsigned)np > cc_max_players(&out->setup.options)) {
        json_fail(err, cc_status_name(CC_ERR_BAD_PLAYER_COUNT),
                  "A game has 2 to %u players with these options, not %d (6 need an expansion of "
                  "classic).",
                  cc_max_players(&out->setup.options), np);
        goto out;
    }

    const cJSON *hints = cJSON_GetObjectItemCaseSensitive(root, "hints");
    if (hints && !cJSON_IsBool(hints)) {
        json_fail(err, "invalid_body", "\"hints\" must be true or false.");
        goto out;
    }
    out->hints_off = hints && cJSON_IsFalse(hints);
    out->hints_given = hints != NULL;

    const cJSON *rated = cJSON_GetObjectItemCaseSensitive(root, "rated");
    if (rated && !cJSON_IsBool(rated)) {
        json_fail(err, "invalid_body", "\"rated\" must be true or false.");
        goto out;
    }
    out->rated = rated && cJSON_IsTrue(rated);

    /* In the lobby's lists (0035): open seats as open tables, the game played as one to
     * watch. Unlisted (the default) keeps a game to those it is shown to. */
    const cJSON *listed = cJSON_GetObjectItemCaseSensitive(root, "listed");
    if (listed && !cJSON_IsBool(listed)) {
        json_fail(err, "invalid_body", "\"listed\" must be true or false.");
        goto out;
    }
    out->listed = listed && cJSON_IsTrue(listed);

    /* Who reads the chat (0026): the seats ("private", the default) or anyone. */
    const char *chat = get_str(root, "chat", &bad, err);
    if (bad) goto out;
    if (chat && strcmp(chat, "public") != 0 && strcmp(chat, "private") != 0) {
        json_fail(err, "invalid_body", "\"chat\" must be \"public\" or \"private\".");
        goto out;
    }
    out->chat_public = chat && strcmp(chat, "public") == 0;

    if (decode_clock(cJSON_GetObjectItemCaseSensitive(root, "clock"), &out->clock, err)) goto out;

    const cJSON *seed = cJSON_GetObjectItemCaseSensitive(root, "seed");
    if (seed) {
        if (decode_seed(seed, &out->setup.seed, err)) goto out;
        out->seed_given = 1;
    }

    const char *start = get_str(root, "start", &bad, err);
    if (bad) goto out;
    if (start) {
        int t = ts ? cc_tileset_find(ts, start) : -1;
        if (t < 0) {
            json_fail(err, cc_status_name(CC_ERR_UNKNOWN_TILE),
                      "\"start\": the ruleset has no tile \"%.*s\".", utf8_fit(start, 8), start);
            goto out;
        }
        out->setup.start = (int16_t)t;
        snprintf(out->start, sizeof out->start, "%s", start);
    }

    const cJSON *deck = cJSON_GetObjectItemCaseSensitive(root, "deck");
    if (deck) {
        if (!cJSON_IsArray(deck)) {
            json_fail(err, "invalid_body", "\"deck\" must be an array of tile ids.");
            goto out;
        }
        int n = cJSON_GetArraySize(deck);
        if (n > CC_MAX_DECK) {
            json_fail(err, cc_status_name(CC_ERR_DECK_TOO_LONG),
                      "A deck holds at most %d tiles, not %d.", CC_MAX_DECK, n);
            goto out;
        }
        int i = 0;
        for (const cJSON *d = deck->child; d; d = d->next, i++) {
            int t = cJSON_IsString(d) && ts ? cc_tileset_find(ts, d->valuestring) : -1;
            if (!cJSON_IsString(d)) {
                json_fail(err, "invalid_body", "deck[%d] must be a tile id (a string).", i);
                goto out;
            }
            if (t < 0) {
                json_fail(err, cc_status_name(CC_ERR_UNKNOWN_TILE),
                          "deck[%d]: the ruleset has no tile \"%.*s\".", i,
                          utf8_fit(d->valuestring, 8), d->valuestring);
                goto out;
            }
            out->setup.deck[i] = (uint8_t)t;
        }
        out->setup.deck_len = (int16_t)n;
    }

    const cJSON *hook = cJSON_GetObjectItemCaseSensitive(root, "webhook");
    if (hook) {
        static const char *const wallowed[] = {"url", "format", NULL};
        if (!cJSON_IsObject(hook)) {
            json_fail(err, "invalid_body",
                      "\"webhook\" must be an object: {\"url\": \"https://...\"}.");
            goto out;
        }
        if (json_check_fields(hook, wallowed, "webhook.", err) ||
            webhook_url(hook, out->webhook_url, err) ||
            webhook_format(hook, out->webhook_format, err))
            goto out;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int json_in_webhook(const char *body, size_t len, char url[STORE_URL_MAX + 1],
                    char format[STORE_HOOK_FORMAT_MAX], struct json_err *err)
{
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    static const char *const allowed[] = {"url", "format", NULL};
    int rc = json_check_fields(root, allowed, "", err) || webhook_url(root, url, err) ||
                     webhook_format(root, format, err)
                 ? -1
                 : 0;
    cJSON_Delete(root);
    return rc;
}

/*
 * Decodes the "hike" or "withdraw" object: x, y and a side or location. The members a
 * placement list adds to its options (a hike's "to" and "points", a withdrawal's "kind"
 * and "points") are accepted and ignored, so that a listed option can be sent back as it
 * is: what a follow-up leads to and scores is the engine's to work out, never the
 * client's to say.
 */
static int decode_at(const cJSON *v, const char *name, const char *locname, int sides_only,
                     struct cc_action *a, struct json_err *err)
{
    if (!cJSON_IsObject(v))
        return json_fail(err, "invalid_body", "\"%s\" must be an object.", name);
    const char *const allowed_hike[] = {"x", "y", locname, "to", "points", NULL};
    const char *const allowed_withdraw[] = {"x", "y", locname, "kind", "points", NULL};
    char where[16];
    snprintf(where, sizeof where, "%s.", name);
    if (json_check_fields(v, sides_only ? allowed_hike : allowed_withdraw, where, err)) return -1;
    long long x, y;
    if (need_int(v, "x", -32768, 32767, &x, err) || need_int(v, "y", -32768, 32767, &y, err))
        return -1;
    int bad = 0;
    const char *loc = get_str(v, locname, &bad, err);
    if (bad) return -1;
    if (!loc) return json_fail(err, "invalid_body", "%s.%s is required.", name, locname);
    int l = cc_location_parse(loc);
    if (sides_only) {
        static const char *const sides[] = {"N", "E", "S", "W"};
        l = -1;
        for (int s = 0; s < 4; s++)
            if (strcmp(loc, sides[s]) == 0) l = s;
    }
    if (l < 0)
        return json_fail(err, cc_status_name(CC_ERR_BAD_LOCATION), "%s.%s: \"%.*s\" is not a %s.",
                         name, locname, utf8_fit(loc, 8), loc,
                         sides_only ? "side (N, E, S, W)" : "location");
    a->fx = (int16_t)x;
    a->fy = (int16_t)y;
    a->loc = (uint8_t)l;
    return 0;
}

/* The "figure" of a placement body (`v`, NULL or null: a plain follower) into a->figure:
 * a figure a follower's deployment may name (not a stable: "stable" is its own follow-up);
 * it goes with "follower" (`with_follower`). Whether the game has it is the engine's
 * question (figure_not_in_game, answered as unknown_figure). */
static int decode_figure(const cJSON *v, int with_follower, struct cc_action *a,
                         struct json_err *err)
{
    if (!v || cJSON_IsNull(v)) return 0;
    if (!cJSON_IsString(v))
        return json_fail(err, "invalid_body", "\"figure\" must be the name of a figure.");
    int k = api_figure_parse(v->valuestring);
    if (k < 0 || k == CC_PIECE_STABLE)
        return json_fail(err, "unknown_figure",
                         "\"figure\": \"%.*s\" is not a figure (follower, large, builder, pig).",
                         utf8_fit(v->valuestring, 12), v->valuestring);
    if (!with_follower)
        return json_fail(err, "invalid_body",
                         "\"figure\" names what goes to the \"follower\" location: give both.");
    a->figure = (uint8_t)k;
    return 0;
}

int json_in_placement(const char *body, size_t len, enum cc_ruleset ruleset, struct cc_action *a,
                      struct json_err *err)
{
    memset(a, 0, sizeof *a);
    a->kind = CC_ACTION_PLACE;
    a->tile = CC_NO_TILE;
    a->follow = CC_FOLLOW_NONE;
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    int rc = -1, bad = 0;
    static const char *const allowed[] = {"x",      "y",    "rotation", "follower", "figure",
                                          "stable", "hike", "withdraw", "tile",     NULL};
    if (json_check_fields(root, allowed, "", err)) goto out;
    long long x, y, rot;
    if (need_int(root, "x", -32768, 32767, &x, err) || need_int(root, "y", -32768, 32767, &y, err))
        goto out;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(root, "rotation");
    if (!r) {
        json_fail(err, "invalid_body", "The field \"rotation\" is required.");
        goto out;
    }
    /* The range first: a huge number (1e400 is inf) must not be converted to an integer. */
    if (!cJSON_IsNumber(r) || r->valuedouble != floor(r->valuedouble) || r->valuedouble < 0 ||
        r->valuedouble > 270 ||
        ((rot = (long long)r->valuedouble) != 0 && rot != 90 && rot != 180 && rot != 270)) {
        json_fail(err, cc_status_name(CC_ERR_BAD_ROTATION),
                  "\"rotation\" must be 0, 90, 180 or 270.");
        goto out;
    }
    a->x = (int16_t)x;
    a->y = (int16_t)y;
    a->rot = (uint8_t)(rot / 90);

    const cJSON *fol = cJSON_GetObjectItemCaseSensitive(root, "follower");
    const cJSON *stable = cJSON_GetObjectItemCaseSensitive(root, "stable");
    const cJSON *hike = cJSON_GetObjectItemCaseSensitive(root, "hike");
    const cJSON *withdraw = cJSON_GetObjectItemCaseSensitive(root, "withdraw");
    /* A follow-up given as null is no follow-up. */
    fol = cJSON_IsNull(fol) ? NULL : fol;
    stable = cJSON_IsNull(stable) ? NULL : stable;
    hike = cJSON_IsNull(hike) ? NULL : hike;
    withdraw = cJSON_IsNull(withdraw) ? NULL : withdraw;
    if ((fol != NULL) + (stable != NULL) + (hike != NULL) + (withdraw != NULL) > 1) {
        json_fail(err, "invalid_body", "A turn has at most one follow-up.");
        goto out;
    }
    if (fol || stable) {
        const cJSON *v = fol ? fol : stable;
        const char *name = fol ? "follower" : "stable";
        if (!cJSON_IsString(v)) {
            json_fail(err, "invalid_body", "\"%s\" must be a location name.", name);
            goto out;
        }
        int l = cc_location_parse(v->valuestring);
        if (l < 0) {
            json_fail(err, cc_status_name(CC_ERR_BAD_LOCATION),
                      "\"%s\": \"%.*s\" is not a location (N, NE, EN, E ..., C).", name,
                      utf8_fit(v->valuestring, 8), v->valuestring);
            goto out;
        }
        a->follow = fol ? CC_FOLLOW_FOLLOWER : CC_FOLLOW_STABLE;
        a->loc = (uint8_t)l;
    }
    if (decode_figure(cJSON_GetObjectItemCaseSensitive(root, "figure"), fol != NULL, a, err))
        goto out;
    if (hike) {
        if (decode_at(hike, "hike", "toward", 1, a, err)) goto out;
        a->follow = CC_FOLLOW_HIKE;
    }
    if (withdraw) {
        if (decode_at(withdraw, "withdraw", "location", 0, a, err)) goto out;
        a->follow = CC_FOLLOW_WITHDRAW;
    }
    const char *tile = get_str(root, "tile", &bad, err);
    if (bad) goto out;
    if (tile) {
        const struct cc_tileset *ts = cc_tileset_get(ruleset);
        int t = ts ? cc_tileset_find(ts, tile) : -1;
        if (t < 0) {
            json_fail(err, cc_status_name(CC_ERR_UNKNOWN_TILE),
                      "\"tile\": the ruleset has no tile \"%.*s\".", utf8_fit(tile, 8), tile);
            goto out;
        }
        a->tile = (uint8_t)t;
    }
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}

int json_in_name(const struct cJSON *obj, const char *label, char out[STORE_NAME_MAX + 1],
                 struct json_err *err)
{
    return decode_name(obj, label, out, err);
}

int json_in_clock(const struct cJSON *c, struct store_clock *out, struct json_err *err)
{
    return decode_clock(c, out, err);
}

int json_in_player(const char *body, size_t len, char name[STORE_NAME_MAX + 1],
                   struct json_err *err)
{
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    static const char *const allowed[] = {"name", NULL};
    int rc = json_check_fields(root, allowed, "", err) ? -1 : decode_name(root, "name", name, err);
    cJSON_Delete(root);
    return rc;
}

/* 1 when `body` is only JSON white space (or nothing): an absent body. */
static int blank(const char *body, size_t len)
{
    size_t i = 0;
    while (i < len && (body[i] == ' ' || body[i] == '\n' || body[i] == '\r' || body[i] == '\t'))
        i++;
    return i == len;
}

int json_in_empty(const char *body, size_t len, struct json_err *err)
{
    if (blank(body, len)) return 0;
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    static const char *const none[] = {NULL};
    int rc = json_check_fields(root, none, "", err);
    cJSON_Delete(root);
    return rc;
}

int json_in_join(const char *body, size_t len, struct json_join *out, struct json_err *err)
{
    memset(out, 0, sizeof *out);
    out->seat = -1;
    if (blank(body, len)) return 0;
    cJSON *root = parse_object(body, len, err);
    if (!root) return -1;
    static const char *const allowed[] = {"invite", "seat", "name", NULL};
    int rc = -1, bad = 0;
    if (json_check_fields(root, allowed, "", err)) goto out;
    long long seat = -1;
    if (get_int(root, "seat", 0, CC_MAX_PLAYERS - 1, &seat, err) < 0) goto out;
    out->seat = (int)seat;
    const char *invite = get_str(root, "invite", &bad, err);
    if (bad) goto out;
    if (invite && (invite[0] == '\0' || strlen(invite) > JSON_INVITE_MAX)) {
        json_fail(err, "invalid_body",
                  "\"invite\" must be the invite of an open seat (1 to %d "
                  "characters).",
                  JSON_INVITE_MAX);
        goto out;
    }
    if (invite && out->seat >= 0) {
        json_fail(err, "invalid_body",
                  "Send \"invite\" (an invited seat) or \"seat\" (an open table's seat), not "
                  "both.");
        goto out;
    }
    if (invite) snprintf(out->invite, sizeof out->invite, "%s", invite);
    if (cJSON_GetObjectItemCaseSensitive(root, "name") && decode_name(root, "name", out->name, err))
        goto out;
    rc = 0;
out:
    cJSON_Delete(root);
    return rc;
}
