/* json_in_test.c: the request body decoders (api/json/json_in.c) as tables: for each decoder
 * (POST /v1/games, a placement of each ruleset, a webhook, the empty body of a draw, a
 * player's name) the bodies it refuses with the code it gives, and the bodies it takes
 * with what they decode to. The same text goes in as the HTTP layer hands it over: `len` bytes and
 * a NUL after them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "json_in.h"

enum decoder { NEW_GAME, PLACE_CLASSIC, PLACE_HILLS, PLACE_DISCOVERY, WEBHOOK, EMPTY, PLAYER };

static const char *const decoder_names[] = {
    "new_game", "placement/classic", "placement/hills", "placement/discovery", "webhook", "empty",
    "player"};

/* Long bodies, written by build_bodies() before the tables are read. */
static char deck_200[2048], deck_201[2048], url_2048[2200], url_2049[2200], name_40[128],
    name_41[128], name_40_utf8[256], name_41_utf8[256];

static void build_bodies(void)
{
    static int built;
    if (built) return;
    built = 1;
    char *tiles = deck_200;
    for (int k = 0; k < 2; k++) {
        size_t o = (size_t)snprintf(tiles, sizeof deck_200,
                                    "{\"players\":[{\"name\":\"A\"},"
                                    "{\"name\":\"B\"}],\"deck\":[");
        for (int i = 0; i < 200 + k; i++)
            o += (size_t)snprintf(tiles + o, 8, "%s\"U\"", i ? "," : "");
        snprintf(tiles + o, 4, "]}");
        tiles = deck_201;
    }
    char *url = url_2048;
    for (int k = 0; k < 2; k++) {
        size_t o = (size_t)snprintf(url, sizeof url_2048, "{\"url\":\"https://a.example/");
        size_t want = strlen("https://a.example/");
        while (want < (size_t)2048 + k) url[o++] = 'x', want++;
        snprintf(url + o, 4, "\"}");
        url = url_2049;
    }
    memset(name_40, 'a', 40);
    memset(name_41, 'a', 41);
    /* "é" is two bytes: 40 characters of it are 80 bytes, within the 160 of the store. */
    for (int i = 0; i < 41; i++) {
        if (i < 40) memcpy(name_40_utf8 + 2 * i, "\xc3\xa9", 2);
        memcpy(name_41_utf8 + 2 * i, "\xc3\xa9", 2);
    }
}

/* A players array of two named `a` and "Bob", as a body; and {"name": `a`}. */
static char named_40[256], named_41[256], named_40_utf8[512], named_41_utf8[512];
static char player_40[256], player_41[256], player_40_utf8[512], player_41_utf8[512];

static void build_names(void)
{
    build_bodies();
    const char *names[] = {name_40, name_41, name_40_utf8, name_41_utf8};
    char *out[] = {named_40, named_41, named_40_utf8, named_41_utf8};
    size_t cap[] = {sizeof named_40, sizeof named_41, sizeof named_40_utf8, sizeof named_41_utf8};
    char *pout[] = {player_40, player_41, player_40_utf8, player_41_utf8};
    size_t pcap[] = {sizeof player_40, sizeof player_41, sizeof player_40_utf8,
                     sizeof player_41_utf8};
    for (int i = 0; i < 4; i++) {
        snprintf(out[i], cap[i], "{\"players\":[{\"name\":\"%s\"},{\"name\":\"Bob\"}]}", names[i]);
        snprintf(pout[i], pcap[i], "{\"name\":\"%s\"}", names[i]);
    }
}

#define TWO "\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]"

/* ---- Refusals ------------------------------------------------------------------------ */

struct refusal {
    enum decoder d;
    const char *body;
    size_t len; /* 0: strlen(body) */
    const char *code;
};

static const struct refusal refusals[] = {
    /* Not one strict JSON object: every decoder alike. */
    {NEW_GAME, "", 0, "invalid_json"},
    {NEW_GAME, " ", 0, "invalid_json"},
    {NEW_GAME, "{", 0, "invalid_json"},
    {NEW_GAME, "{" TWO "", 0, "invalid_json"},
    {NEW_GAME, "[]", 0, "invalid_json"},
    {NEW_GAME, "null", 0, "invalid_json"},
    {NEW_GAME, "\"text\"", 0, "invalid_json"},
    {NEW_GAME, "{} {}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO "} x", 0, "invalid_json"},
    {NEW_GAME, "{" TWO "}\0 ", sizeof("{" TWO "}\0 ") - 1, "invalid_json"}, /* a NUL inside */
    {NEW_GAME, "{\"players\":[{\"name\":\"A\0B\"},{\"name\":\"Bob\"}]}",
     sizeof("{\"players\":[{\"name\":\"A\0B\"},{\"name\":\"Bob\"}]}") - 1, "invalid_json"},
    {NEW_GAME, "{'players':[]}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":007}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":+1}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":.5}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":1.}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":1e}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":-}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":0x10}", 0, "invalid_json"},
    {NEW_GAME, "{\"players\":[{\"name\":\"A\\u0000B\"},{\"name\":\"Bob\"}]}", 0, "invalid_json"},
    {NEW_GAME, "{" TWO ",\"seed\":NaN}", 0, "invalid_json"},
    /* Keys twice, at the top or inside. */
    {NEW_GAME, "{" TWO "," TWO "}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":1,\"seed\":2}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"A\",\"name\":\"B\"},{\"name\":\"C\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{" TWO ",\"options\":{\"river\":true,\"river\":false}}", 0, "invalid_body"},
    /* POST /v1/games: fields and their types. */
    {NEW_GAME, "{}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"colour\":\"red\"}", 0, "unknown_field"},
    {NEW_GAME, "{" TWO ",\"Seed\":1}", 0, "unknown_field"},
    {NEW_GAME, "{\"ruleset\":1," TWO "}", 0, "invalid_body"},
    {NEW_GAME, "{\"ruleset\":\"chess\"," TWO "}", 0, "unknown_ruleset"},
    {NEW_GAME, "{\"ruleset\":\"Classic\"," TWO "}", 0, "unknown_ruleset"},
    {NEW_GAME, "{\"players\":2}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":{\"name\":\"Ann\"}}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[]}", 0, "bad_player_count"},
    {NEW_GAME, "{\"players\":[{\"name\":\"Ann\"}]}", 0, "bad_player_count"},
    {NEW_GAME,
     "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":\"D\"},"
     "{\"name\":\"E\"},{\"name\":\"F\"}]}",
     0, "bad_player_count"},
    {NEW_GAME, "{\"players\":[\"Ann\",\"Bob\"]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"Ann\"},null]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"Ann\",\"age\":3},{\"name\":\"Bob\"}]}", 0,
     "unknown_field"},
    {NEW_GAME, "{\"players\":[{},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":7},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":null},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"\"},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"A\\tB\"},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"A\\u007fB\"},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, named_41, 0, "invalid_body"},
    {NEW_GAME, named_41_utf8, 0, "invalid_body"},
    /* Seats other than named ones: {"player": "me"} (once), open seats and bots refused
     * for now with their own codes, and every mix of kinds refused. */
    {NEW_GAME, "{\"players\":[{\"player\":\"you\"},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":\"ME\"},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":null},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME,
     "{\"players\":[{\"player\":\"3f1e0b2a-5c4d-4e6f-8a7b-9c0d1e2f3a4b\"},{\"name\":\"B\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":\"me\",\"name\":\"Ann\"},{\"name\":\"Bob\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":\"me\"},{\"player\":\"me\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":\"me\",\"open\":true},{\"name\":\"Bob\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"player\":\"me\",\"age\":1},{\"name\":\"Bob\"}]}", 0,
     "unknown_field"},
    {NEW_GAME, "{\"players\":[{\"open\":false},{\"name\":\"Bob\"}]}", 0, "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"open\":true,\"name\":\"\"},{\"name\":\"Bob\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"bot\":\"mcts\",\"think_ms\":5},{\"name\":\"Bob\"}]}", 0,
     "invalid_think_ms"},
    {NEW_GAME, "{\"players\":[{\"bot\":\"clever\"},{\"name\":\"Bob\"}]}", 0, "unknown_bot_level"},
    {NEW_GAME, "{\"players\":[{\"name\":\"Al\"},{\"name\":\"Bob\"}],\"hints\":1}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"bot\":\"random\",\"name\":\"R\"},{\"name\":\"Bob\"}]}", 0,
     "invalid_body"},
    {NEW_GAME, "{\"players\":[{\"name\":\"Ann\",\"think_ms\":250},{\"name\":\"Bob\"}]}", 0,
     "invalid_body"},
    /* POST /v1/players: one name, by the seats' rules. */
    {PLAYER, "", 0, "invalid_json"},
    {PLAYER, "[]", 0, "invalid_json"},
    {PLAYER, "\"Ann\"", 0, "invalid_json"},
    {PLAYER, "{\"name\":\"Ann\"} {}", 0, "invalid_json"},
    {PLAYER, "{\"name\":\"A\\u0000\"}", 0, "invalid_json"},
    {PLAYER, "{\"name\":\"A\xc0\xaf\"}", 0, "invalid_json"},
    {PLAYER, "{}", 0, "invalid_body"},
    {PLAYER, "{\"name\":null}", 0, "invalid_body"},
    {PLAYER, "{\"name\":1}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"\"}", 0, "invalid_body"},
    {PLAYER, player_41, 0, "invalid_body"},
    {PLAYER, player_41_utf8, 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\\u200dB\"}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\\u202eB\"}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\\u00adB\"}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\\nB\"}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\",\"name\":\"B\"}", 0, "invalid_body"},
    {PLAYER, "{\"name\":\"A\",\"seat\":0}", 0, "unknown_field"},
    {PLAYER, "{\"players\":[{\"name\":\"A\"}]}", 0, "unknown_field"},
    /* Options: an object, of the ruleset's own names and values. */
    {NEW_GAME, "{" TWO ",\"options\":[]}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"options\":\"river\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"options\":{\"draw\":\"hand\"}}", 0, "unknown_field"},
    {NEW_GAME, "{\"ruleset\":\"hills\"," TWO ",\"options\":{\"river\":true}}", 0, "unknown_field"},
    {NEW_GAME, "{\"ruleset\":\"discovery\"," TWO ",\"options\":{\"edition\":\"standard\"}}", 0,
     "unknown_field"},
    {NEW_GAME, "{" TWO ",\"options\":{\"edition\":\"first\"}}", 0, "bad_option"},
    {NEW_GAME, "{" TWO ",\"options\":{\"edition\":1}}", 0, "bad_option"},
    {NEW_GAME, "{" TWO ",\"options\":{\"river\":1}}", 0, "bad_option"},
    {NEW_GAME, "{" TWO ",\"options\":{\"river\":\"true\"}}", 0, "bad_option"},
    {NEW_GAME, "{\"ruleset\":\"discovery\"," TWO ",\"options\":{\"draw\":\"deck\"}}", 0,
     "bad_option"},
    /* The seed: an integer below 2^53, or a decimal string up to 2^64-1. */
    {NEW_GAME, "{" TWO ",\"seed\":-1}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":1.5}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":9007199254740992}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":1e300}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":true}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":null}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\"\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\"-1\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\"12a\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\" 1\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\"18446744073709551616\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"seed\":\"000000000000000000001\"}", 0, "invalid_body"},
    /* The start tile and the deck: tile ids of the ruleset. */
    {NEW_GAME, "{" TWO ",\"start\":4}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"start\":\"Z\"}", 0, "unknown_tile"},
    {NEW_GAME, "{" TWO ",\"start\":\"d\"}", 0, "unknown_tile"},
    {NEW_GAME, "{\"ruleset\":\"hills\"," TWO ",\"start\":\"RA\"}", 0, "unknown_tile"},
    {NEW_GAME, "{" TWO ",\"deck\":\"UUV\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"deck\":[\"U\",1]}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"deck\":[\"U\",\"ZZ\"]}", 0, "unknown_tile"},
    {NEW_GAME, deck_201, 0, "deck_too_long"},
    /* The webhook at creation. */
    {NEW_GAME, "{" TWO ",\"webhook\":\"https://a.example/\"}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"webhook\":{}}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"webhook\":{\"url\":1}}", 0, "invalid_body"},
    {NEW_GAME, "{" TWO ",\"webhook\":{\"url\":\"https://a.example/\",\"secret\":\"s\"}}", 0,
     "unknown_field"},
    /* A placement. */
    {PLACE_CLASSIC, "", 0, "invalid_json"},
    {PLACE_CLASSIC, "[1,0,90]", 0, "invalid_json"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"x\":2}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"meeple\":\"N\"}", 0, "unknown_field"},
    {PLACE_CLASSIC, "{\"y\":0,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":\"1\",\"y\":0,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1.5,\"y\":0,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":32768,\"y\":0,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":0,\"y\":-32769,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":null,\"y\":0,\"rotation\":90}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":45}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":360}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":-90}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":1}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90.5}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":\"90\"}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":1e400}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":null}", 0, "bad_rotation"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":3}", 0, "invalid_body"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"X\"}", 0, "bad_location"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"n\"}", 0, "bad_location"},
    {PLACE_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"N\",\"stable\":\"C\"}", 0,
     "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"stable\":\"C\",\"hike\":{}}", 0,
     "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"stable\":[]}", 0, "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":\"E\"}", 0, "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0}}", 0, "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"y\":0,\"toward\":\"E\"}}", 0,
     "invalid_body"},
    {PLACE_HILLS,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"E\",\"far\":1}}", 0,
     "unknown_field"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"NE\"}}",
     0, "bad_location"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"C\"}}", 0,
     "bad_location"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0,\"toward\":1}}", 0,
     "invalid_body"},
    {PLACE_DISCOVERY,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"Q\"}}", 0,
     "bad_location"},
    {PLACE_DISCOVERY, "{\"x\":1,\"y\":0,\"rotation\":0,\"withdraw\":{\"x\":0,\"y\":0}}", 0,
     "invalid_body"},
    /* The members a list adds to one kind of follow-up are not the other's. */
    {PLACE_DISCOVERY,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"C\",\"to\":{}}}",
     0, "unknown_field"},
    {PLACE_HILLS,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"y\":0,\"toward\":\"E\",\"kind\":\"road\"}"
     "}",
     0, "unknown_field"},
    {PLACE_DISCOVERY,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"withdraw\":{\"x\":0,\"y\":99999,\"location\":\"C\"}}", 0,
     "invalid_body"},
    {PLACE_DISCOVERY,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"C\",\"withdraw\":{\"x\":0,\"y\":0,"
     "\"location\":\"C\"}}",
     0, "invalid_body"},
    {PLACE_DISCOVERY, "{\"x\":1,\"y\":0,\"rotation\":0,\"tile\":\"ZZ\"}", 0, "unknown_tile"},
    {PLACE_DISCOVERY, "{\"x\":1,\"y\":0,\"rotation\":0,\"tile\":5}", 0, "invalid_body"},
    {PLACE_HILLS, "{\"x\":1,\"y\":0,\"rotation\":0,\"tile\":\"RA\"}", 0, "unknown_tile"},
    /* A webhook. */
    {WEBHOOK, "", 0, "invalid_json"},
    {WEBHOOK, "\"https://a.example/\"", 0, "invalid_json"},
    {WEBHOOK, "{}", 0, "invalid_body"},
    {WEBHOOK, "{\"url\":null}", 0, "invalid_body"},
    {WEBHOOK, "{\"url\":[\"https://a.example/\"]}", 0, "invalid_body"},
    {WEBHOOK, "{\"url\":\"https://a.example/\",\"events\":[]}", 0, "unknown_field"},
    {WEBHOOK, "{\"url\":\"https://a.example/\",\"url\":\"https://b.example/\"}", 0, "invalid_body"},
    {WEBHOOK, url_2049, 0, "invalid_webhook_url"},
    {WEBHOOK, "{\"url\":\"https://a.example/\",\"format\":\"teams\"}", 0, "invalid_webhook_format"},
    {WEBHOOK, "{\"url\":\"https://a.example/\",\"format\":\"Discord\"}", 0,
     "invalid_webhook_format"},
    {WEBHOOK, "{\"url\":\"https://a.example/\",\"format\":null}", 0, "invalid_body"},
    /* The empty body of a draw: nothing, or an empty object. */
    {EMPTY, "{\"x\":1}", 0, "unknown_field"},
    {EMPTY, "[]", 0, "invalid_json"},
    {EMPTY, "null", 0, "invalid_json"},
    {EMPTY, "x", 0, "invalid_json"},
    {EMPTY, "{}{}", 0, "invalid_json"},
    {EMPTY, " \0 ", 3, "invalid_json"},
};

/* Runs decoder `d` on `body` (`len` bytes, copied with a NUL after them). */
static int decode(enum decoder d, const char *body, size_t len, struct json_err *err)
{
    static struct json_new_game ng;
    static char url[STORE_URL_MAX + 1], name[STORE_NAME_MAX + 1], format[STORE_HOOK_FORMAT_MAX];
    char copy[4096];
    cr_assert_lt(len, sizeof copy);
    memcpy(copy, body, len);
    copy[len] = '\0';
    struct cc_action a;
    switch (d) {
    case NEW_GAME:
        return json_in_new_game(copy, len, &ng, err);
    case PLACE_CLASSIC:
        return json_in_placement(copy, len, CC_RULESET_CLASSIC, &a, err);
    case PLACE_HILLS:
        return json_in_placement(copy, len, CC_RULESET_HILLS, &a, err);
    case PLACE_DISCOVERY:
        return json_in_placement(copy, len, CC_RULESET_DISCOVERY, &a, err);
    case WEBHOOK:
        return json_in_webhook(copy, len, url, format, err);
    case EMPTY:
        return json_in_empty(copy, len, err);
    case PLAYER:
        return json_in_player(copy, len, name, err);
    }
    return 0;
}

Test(json_in, every_refusal_with_its_code)
{
    build_names();
    for (size_t i = 0; i < sizeof refusals / sizeof refusals[0]; i++) {
        const struct refusal *r = &refusals[i];
        size_t len = r->len ? r->len : strlen(r->body);
        struct json_err err;
        memset(&err, 0, sizeof err);
        int rc = decode(r->d, r->body, len, &err);
        cr_expect_eq(rc, -1, "%s %.80s: accepted", decoder_names[r->d], r->body);
        if (rc != -1) continue;
        cr_expect_str_eq(err.code, r->code, "%s %.80s: %s (%s), not %s", decoder_names[r->d],
                         r->body, err.code, err.detail, r->code);
        cr_expect(memchr(err.detail, '\0', sizeof err.detail) && err.detail[0] != '\0',
                  "%s %.80s: no detail", decoder_names[r->d], r->body);
    }
}

/* ---- POST /v1/games bodies taken ----------------------------------------------------- */

struct game_case {
    const char *body;
    enum cc_ruleset ruleset;
    int nplayers;
    const char *name0; /* the first seat's name */
    int seed_given;
    uint64_t seed;
    const char *start; /* "" for the default */
    int deck_len;      /* -1: the standard deck */
    const char *deck0; /* the first tile of a given deck */
    struct cc_options options;
    const char *url;
};

static const struct game_case games[] = {
    {"{" TWO "}", CC_RULESET_CLASSIC, 2, "Ann", 0, 0, "", -1, NULL, {0, 0, 0, 0, 0}, ""},
    /* Open seats (0009): a placeholder name, given or "Seat <n>". */
    {"{\"players\":[{\"open\":true},{\"name\":\"Bob\"}]}",
     CC_RULESET_CLASSIC,
     2,
     "Seat 1",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{\"players\":[{\"open\":true,\"name\":\"Cy?\"},{\"open\":true}]}",
     CC_RULESET_CLASSIC,
     2,
     "Cy?",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {" {\n\t" TWO " }\n", CC_RULESET_CLASSIC, 2, "Ann", 0, 0, "", -1, NULL, {0, 0, 0, 0, 0}, ""},
    {"{\"ruleset\":\"classic\"," TWO ",\"options\":{\"edition\":\"original\",\"river\":true},"
     "\"seed\":42,\"start\":\"D\",\"deck\":[\"U\",\"V\",\"RB\"],"
     "\"webhook\":{\"url\":\"https://a.example/hook\"}}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     42,
     "D",
     3,
     "U",
     {CC_EDITION_ORIGINAL, 1, 0, 0, 0},
     "https://a.example/hook"},
    {"{" TWO ",\"options\":{\"edition\":\"standard\",\"river\":false}}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     0,
     0,
     "",
     -1,
     NULL,
     {CC_EDITION_STANDARD, 0, 0, 0, 0},
     ""},
    {"{\"ruleset\":\"hills\"," TWO ",\"options\":{}}",
     CC_RULESET_HILLS,
     2,
     "Ann",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{\"ruleset\":\"discovery\"," TWO ",\"options\":{\"draw\":\"hand\"}}",
     CC_RULESET_DISCOVERY,
     2,
     "Ann",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, CC_DRAW_HAND, 0, 0},
     ""},
    {"{\"ruleset\":\"discovery\"," TWO ",\"options\":{\"draw\":\"pile\"},\"start\":\"S\"}",
     CC_RULESET_DISCOVERY,
     2,
     "Ann",
     0,
     0,
     "S",
     -1,
     NULL,
     {0, 0, CC_DRAW_PILE, 0, 0},
     ""},
    {"{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},{\"name\":\"D\"},"
     "{\"name\":\"E\"}]}",
     CC_RULESET_CLASSIC,
     5,
     "A",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{\"players\":[{\"name\":\"Zo\xc3\xab\"},{\"name\":\"\xe5\xa4\xaa\xe9\x83\x8e\"}]}",
     CC_RULESET_CLASSIC,
     2,
     "Zo\xc3\xab",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{\"players\":[{\"name\":\"Zo\\u00eb\"},{\"name\":\"Bob\"}]}",
     CC_RULESET_CLASSIC,
     2,
     "Zo\xc3\xab",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{\"players\":[{\"name\":\"A B\"},{\"name\":\"Bob\"}]}",
     CC_RULESET_CLASSIC,
     2,
     "A B",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {named_40, CC_RULESET_CLASSIC, 2, name_40, 0, 0, "", -1, NULL, {0, 0, 0, 0, 0}, ""},
    {named_40_utf8, CC_RULESET_CLASSIC, 2, name_40_utf8, 0, 0, "", -1, NULL, {0, 0, 0, 0, 0}, ""},
    {"{" TWO ",\"seed\":0}", CC_RULESET_CLASSIC, 2, "Ann", 1, 0, "", -1, NULL, {0, 0, 0, 0, 0}, ""},
    {"{" TWO ",\"seed\":9007199254740991}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     9007199254740991ull,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{" TWO ",\"seed\":1e3}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     1000,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{" TWO ",\"seed\":7.0}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     7,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{" TWO ",\"seed\":\"18446744073709551615\"}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     18446744073709551615ull,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{" TWO ",\"seed\":\"007\"}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     1,
     7,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     ""},
    {"{" TWO ",\"deck\":[]}", CC_RULESET_CLASSIC, 2, "Ann", 0, 0, "", 0, NULL, {0, 0, 0, 0, 0}, ""},
    {deck_200, CC_RULESET_CLASSIC, 2, "A", 0, 0, "", 200, "U", {0, 0, 0, 0, 0}, ""},
    {"{\"webhook\":{\"url\":\"not checked here\"}," TWO "}",
     CC_RULESET_CLASSIC,
     2,
     "Ann",
     0,
     0,
     "",
     -1,
     NULL,
     {0, 0, 0, 0, 0},
     "not checked here"},
};

Test(json_in, game_bodies_taken)
{
    build_names();
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const struct game_case *c = &games[i];
        static struct json_new_game ng;
        struct json_err err;
        memset(&err, 0, sizeof err);
        int rc = json_in_new_game(c->body, strlen(c->body), &ng, &err);
        cr_expect_eq(rc, 0, "%.80s: %s %s", c->body, err.code, err.detail);
        if (rc != 0) continue;
        const struct cc_setup *s = &ng.setup;
        const struct cc_tileset *ts = cc_tileset_get(c->ruleset);
        cr_expect_eq(s->ruleset, c->ruleset, "%.80s", c->body);
        cr_expect_eq(s->nplayers, c->nplayers, "%.80s", c->body);
        for (int p = 0; p < c->nplayers; p++)
            cr_expect(ng.names[p][0] != '\0', "%.80s: seat %d has no name", c->body, p);
        cr_expect_str_eq(ng.names[0], c->name0, "%.80s", c->body);
        cr_expect_eq(ng.seed_given, c->seed_given, "%.80s", c->body);
        cr_expect_eq(s->seed, c->seed, "%.80s: seed %llu", c->body, (unsigned long long)s->seed);
        cr_expect_str_eq(ng.start, c->start, "%.80s", c->body);
        cr_expect_eq(s->start, c->start[0] ? cc_tileset_find(ts, c->start) : -1, "%.80s", c->body);
        cr_expect_eq(s->deck_len, c->deck_len, "%.80s", c->body);
        if (c->deck0) cr_expect_eq(s->deck[0], cc_tileset_find(ts, c->deck0), "%.80s", c->body);
        cr_expect_eq(s->options.edition, c->options.edition, "%.80s", c->body);
        cr_expect_eq(s->options.river, c->options.river, "%.80s", c->body);
        cr_expect_eq(s->options.draw, c->options.draw, "%.80s", c->body);
        cr_expect_str_eq(ng.webhook_url, c->url, "%.80s", c->body);
    }
}

/* ---- Placements taken ---------------------------------------------------------------- */

struct placement_case {
    enum cc_ruleset ruleset;
    const char *body;
    int x, y, rot;
    const char *tile; /* NULL: none */
    int follow;       /* enum cc_followup */
    const char *loc;  /* the location or side named, or NULL */
    int fx, fy;
};

static const struct placement_case placements[] = {
    {CC_RULESET_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90}", 1, 0, 1, NULL, CC_FOLLOW_NONE, NULL,
     0, 0},
    {CC_RULESET_CLASSIC, "{\"rotation\":0,\"y\":-3,\"x\":-2}", -2, -3, 0, NULL, CC_FOLLOW_NONE,
     NULL, 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":32767,\"y\":-32768,\"rotation\":270}", 32767, -32768, 3, NULL,
     CC_FOLLOW_NONE, NULL, 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":1.0,\"y\":0,\"rotation\":180.0}", 1, 0, 2, NULL, CC_FOLLOW_NONE,
     NULL, 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"N\"}", 1, 0, 1, NULL,
     CC_FOLLOW_FOLLOWER, "N", 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"WS\"}", 1, 0, 1, NULL,
     CC_FOLLOW_FOLLOWER, "WS", 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":90,\"follower\":\"C\",\"stable\":null}", 1,
     0, 1, NULL, CC_FOLLOW_FOLLOWER, "C", 0, 0},
    {CC_RULESET_CLASSIC,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":null,\"stable\":null,\"hike\":null,"
     "\"withdraw\":null}",
     1, 0, 0, NULL, CC_FOLLOW_NONE, NULL, 0, 0},
    {CC_RULESET_HILLS, "{\"x\":0,\"y\":1,\"rotation\":0,\"stable\":\"C\"}", 0, 1, 0, NULL,
     CC_FOLLOW_STABLE, "C", 0, 0},
    {CC_RULESET_HILLS,
     "{\"x\":0,\"y\":1,\"rotation\":0,\"hike\":{\"x\":-1,\"y\":2,\"toward\":\"W\"}}", 0, 1, 0, NULL,
     CC_FOLLOW_HIKE, NULL, -1, 2},
    {CC_RULESET_DISCOVERY,
     "{\"x\":2,\"y\":-1,\"rotation\":90,\"withdraw\":{\"x\":5,\"y\":6,\"location\":\"SE\"}}", 2, -1,
     1, NULL, CC_FOLLOW_WITHDRAW, "SE", 5, 6},
    /* A listed option sent back as it is: its informational members are ignored. */
    {CC_RULESET_HILLS,
     "{\"x\":0,\"y\":1,\"rotation\":0,\"hike\":{\"x\":-1,\"y\":2,\"toward\":\"W\",\"to\":{\"x\":-3,"
     "\"y\":2},\"points\":2}}",
     0, 1, 0, NULL, CC_FOLLOW_HIKE, NULL, -1, 2},
    {CC_RULESET_DISCOVERY,
     "{\"x\":2,\"y\":-1,\"rotation\":90,\"withdraw\":{\"x\":5,\"y\":6,\"location\":\"SE\",\"kind\":"
     "\"grassland\",\"points\":1}}",
     2, -1, 1, NULL, CC_FOLLOW_WITHDRAW, "SE", 5, 6},
    {CC_RULESET_DISCOVERY, "{\"x\":2,\"y\":-1,\"rotation\":90,\"tile\":\"A\"}", 2, -1, 1, "A",
     CC_FOLLOW_NONE, NULL, 0, 0},
    {CC_RULESET_CLASSIC, "{\"x\":1,\"y\":0,\"rotation\":0,\"tile\":\"RB\"}", 1, 0, 0, "RB",
     CC_FOLLOW_NONE, NULL, 0, 0},
};

Test(json_in, bot_seats_and_hints_taken)
{
    struct json_new_game g;
    struct json_err err;
    const char *body = "{\"players\":[{\"name\":\"Ann\"},{\"bot\":\"mcts\",\"think_ms\":10},"
                       "{\"bot\":\"random\"},{\"bot\":\"hard\",\"think_ms\":250}],\"hints\":false}";
    cr_assert_eq(json_in_new_game(body, strlen(body), &g, &err), 0, "%s", err.detail);
    cr_expect_str_eq(g.bots[3], "hard");
    cr_expect_str_eq(g.names[3], "Bot (hard)");
    cr_expect_str_eq(g.bots[0], "");
    cr_expect_str_eq(g.bots[1], "mcts");
    cr_expect_eq(g.think_ms[1], 10);
    cr_expect_str_eq(g.bots[2], "random");
    cr_expect_eq(g.think_ms[2], JSON_THINK_MS_DEFAULT);
    cr_expect_str_eq(g.names[2], "Bot (random)");
    cr_expect_eq(g.hints_off, 1);
}

Test(json_in, placements_taken)
{
    for (size_t i = 0; i < sizeof placements / sizeof placements[0]; i++) {
        const struct placement_case *c = &placements[i];
        struct cc_action a;
        struct json_err err;
        memset(&err, 0, sizeof err);
        int rc = json_in_placement(c->body, strlen(c->body), c->ruleset, &a, &err);
        cr_expect_eq(rc, 0, "%s: %s %s", c->body, err.code, err.detail);
        if (rc != 0) continue;
        cr_expect_eq(a.kind, CC_ACTION_PLACE, "%s", c->body);
        cr_expect_eq(a.x, c->x, "%s", c->body);
        cr_expect_eq(a.y, c->y, "%s", c->body);
        cr_expect_eq(a.rot, c->rot, "%s", c->body);
        int tile = c->tile ? cc_tileset_find(cc_tileset_get(c->ruleset), c->tile) : CC_NO_TILE;
        cr_expect_eq(a.tile, tile, "%s: tile %d", c->body, a.tile);
        cr_expect_eq(a.follow, c->follow, "%s", c->body);
        if (c->follow == CC_FOLLOW_HIKE) {
            cr_expect_eq(a.loc, 3, "%s: side %d", c->body, a.loc); /* W: sides N E S W */
        } else if (c->loc) {
            cr_expect_eq(a.loc, cc_location_parse(c->loc), "%s", c->body);
        }
        cr_expect_eq(a.fx, c->fx, "%s", c->body);
        cr_expect_eq(a.fy, c->fy, "%s", c->body);
    }
}

/* ---- Players taken ------------------------------------------------------------------ */

Test(json_in, players_taken)
{
    build_names();
    static const struct {
        const char *body;
        const char *name;
    } cases[] = {
        {"{\"name\":\"Ann\"}", "Ann"},
        {" { \"name\" : \"Ann Lee\" } ", "Ann Lee"},
        {"{\"name\":\"Zo\\u00eb\"}", "Zo\xc3\xab"},
        {"{\"name\":\"\xf0\x9f\x8e\xb2\"}", "\xf0\x9f\x8e\xb2"},
        {player_40, name_40},
        {player_40_utf8, name_40_utf8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        static char name[STORE_NAME_MAX + 1];
        struct json_err err;
        int rc = json_in_player(cases[i].body, strlen(cases[i].body), name, &err);
        cr_expect_eq(rc, 0, "%s: %s %s", cases[i].body, rc ? err.code : "", rc ? err.detail : "");
        if (rc == 0) cr_expect_str_eq(name, cases[i].name);
    }
    /* The details name the field as the body has it. */
    static char name[STORE_NAME_MAX + 1];
    struct json_err err;
    cr_expect_eq(json_in_player("{}", 2, name, &err), -1);
    cr_expect_str_eq(err.detail, "name is required.");
    cr_expect_eq(json_in_player(player_41, strlen(player_41), name, &err), -1);
    cr_expect_str_eq(err.detail, "name must be 1 to 40 characters of UTF-8 text.");
    const char *zw = "{\"name\":\"A\\u200bB\"}";
    cr_expect_eq(json_in_player(zw, strlen(zw), name, &err), -1);
    cr_expect(strstr(err.detail, "name holds U+200B") == err.detail, "%s", err.detail);
    /* ... and a seat's name, as before. */
    static struct json_new_game ng;
    cr_expect_eq(json_in_new_game(named_41, strlen(named_41), &ng, &err), -1);
    cr_expect_str_eq(err.detail, "players[0].name must be 1 to 40 characters of UTF-8 text.");
}

/* Issue 29, item 13: blank and invisible names, and spaces around one, are refused for a
 * player and a seat (a join, a rematch and an open seat read names with the same decoder). */
Test(json_in, blank_and_invisible_names_refused)
{
    static const char *const refused[] = {
        " ",
        "   ",
        "\\u00a0",
        "\\u3000",
        "\\u115f",
        "\\u3164",
        "\\u2800",
        "\\ufffc",
        "\\u034f",
        "\\u0301",
        "\\u0301\\u0302\\u20dd",
        "\\u1160",
        "\\uffa0",
        "\\u2003",
        "\\u0301A",
        "\\u034fAnn",
        " Ann",
        "Ann ",
        "Ann\\u00a0",
        "\\u3000Ann",
        "Ann\\u3164",
        "Ann\\u2800",
        "\\ue000",
        "\\ud83d\\ude00 ",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char body[128];
        static char name[STORE_NAME_MAX + 1];
        struct json_err err;
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", refused[i]);
        cr_expect_eq(json_in_player(body, strlen(body), name, &err), -1, "%s: taken", body);
        cr_expect_str_eq(err.code, "invalid_body", "%s", body);
        snprintf(body, sizeof body, "{\"players\":[{\"name\":\"Bob\"},{\"name\":\"%s\"}]}",
                 refused[i]);
        static struct json_new_game ng;
        cr_expect_eq(json_in_new_game(body, strlen(body), &ng, &err), -1, "%s: taken", body);
        cr_expect_str_eq(err.code, "invalid_body", "%s", body);
        cr_expect(strstr(err.detail, "players[1].name must begin with a visible character"),
                  "%s: %s", body, err.detail);
    }
    static const char *const taken[] = {
        "A", "Ann Lee", "\\u00e9",   "e\\u0301",       "\\u2764\\ufe0f", "(A)",
        "1", "\\u4e2d", "A\\u3000B", "\\ud83d\\ude00", "Ann\\u0301",     "\\u00a1Ol\\u00e9!",
    };
    for (size_t i = 0; i < sizeof taken / sizeof taken[0]; i++) {
        char body[128];
        static char name[STORE_NAME_MAX + 1];
        struct json_err err;
        snprintf(body, sizeof body, "{\"name\":\"%s\"}", taken[i]);
        int rc = json_in_player(body, strlen(body), name, &err);
        cr_expect_eq(rc, 0, "%s: %s", body, rc ? err.detail : "");
    }
}

/* ---- Webhooks and empty bodies taken ------------------------------------------------- */

Test(json_in, webhooks_and_empty_bodies_taken)
{
    build_bodies();
    static const struct {
        const char *body;
        const char *url;
    } hooks[] = {
        {"{\"url\":\"https://a.example/hook?x=1\"}", "https://a.example/hook?x=1"},
        {" {\"url\" : \"http://10.0.0.1:8080/\"} ", "http://10.0.0.1:8080/"},
        {"{\"url\":\"https:\\/\\/a.example\\/\"}", "https://a.example/"},
        {"{\"url\":\"\"}", ""}, /* checked further by webhook_url_check() */
    };
    for (size_t i = 0; i < sizeof hooks / sizeof hooks[0]; i++) {
        static char url[STORE_URL_MAX + 1], format[STORE_HOOK_FORMAT_MAX];
        struct json_err err;
        int rc = json_in_webhook(hooks[i].body, strlen(hooks[i].body), url, format, &err);
        cr_expect_eq(rc, 0, "%s: %s", hooks[i].body, rc ? err.code : "");
        if (rc == 0) cr_expect_str_eq(url, hooks[i].url);
        if (rc == 0) cr_expect_str_eq(format, "tilehall", "%s: the default format", hooks[i].body);
    }
    static const char *const formats[] = {"tilehall", "discord", "slack"};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        char body[96], url[STORE_URL_MAX + 1], format[STORE_HOOK_FORMAT_MAX];
        struct json_err err;
        snprintf(body, sizeof body, "{\"url\":\"https://a.example/\",\"format\":\"%s\"}",
                 formats[i]);
        cr_expect_eq(json_in_webhook(body, strlen(body), url, format, &err), 0, "%s", body);
        cr_expect_str_eq(format, formats[i]);
    }
    static char url[STORE_URL_MAX + 1], format[STORE_HOOK_FORMAT_MAX];
    struct json_err err;
    cr_expect_eq(json_in_webhook(url_2048, strlen(url_2048), url, format, &err), 0);
    cr_expect_eq(strlen(url), 2048);

    static const char *const empty[] = {"", " ", "\r\n\t ", "{}", " { } ", "{\n}\n"};
    for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++)
        cr_expect_eq(json_in_empty(empty[i], strlen(empty[i]), &err), 0, "\"%s\"", empty[i]);
}

/* ---- Seats {"player": "me"} ------------------------------------------------------------ */

Test(json_in, me_seat)
{
    static struct json_new_game ng;
    struct json_err err;
    static const char none[] = "{" TWO "}";
    cr_assert_eq(json_in_new_game(none, sizeof none - 1, &ng, &err), 0, "%s", err.detail);
    cr_expect_eq(ng.me_seat, -1);
    static const char me1[] = "{\"players\":[{\"name\":\"Ann\"},{\"player\":\"me\"},"
                              "{\"name\":\"Cy\"}]}";
    cr_assert_eq(json_in_new_game(me1, sizeof me1 - 1, &ng, &err), 0, "%s", err.detail);
    cr_expect_eq(ng.me_seat, 1);
    cr_expect_eq(ng.setup.nplayers, 3);
    cr_expect_str_eq(ng.names[0], "Ann");
    cr_expect_str_eq(ng.names[1], "");
    cr_expect_str_eq(ng.names[2], "Cy");
}

/* ---- open seats and POST /v1/games/{id}/join bodies ---------------------------------- */

Test(json_in, open_seats)
{
    static struct json_new_game ng;
    struct json_err err;
    static const char body[] =
        "{\"players\":[{\"name\":\"Ann\"},{\"open\":true},{\"open\":true,\"name\":\"Cy\"}]}";
    cr_assert_eq(json_in_new_game(body, strlen(body), &ng, &err), 0, "%s", err.detail);
    cr_expect_eq(ng.open_seats, 6u);
    cr_expect_str_eq(ng.names[1], "Seat 2");
    cr_expect_str_eq(ng.names[2], "Cy");
    static const char two[] = "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}]}";
    cr_assert_eq(json_in_new_game(two, strlen(two), &ng, &err), 0, "%s", err.detail);
    cr_expect_eq(ng.open_seats, 0u);
}

Test(json_in, join_bodies)
{
    struct json_join j;
    struct json_err err;
    static const struct {
        const char *body;
        const char *code;   /* NULL: taken */
        const char *invite; /* as decoded */
        const char *name;
    } cases[] = {
        {"", NULL, "", ""},
        {"{}", NULL, "", ""},
        {"{\"invite\":\"abc\"}", NULL, "abc", ""},
        {"{\"invite\":\"abc\",\"name\":\"Bob\"}", NULL, "abc", "Bob"},
        {"{\"name\":\"Bob\"}", NULL, "", "Bob"},
        {"{\"invite\":\"\"}", "invalid_body", NULL, NULL},
        {"{\"invite\":7}", "invalid_body", NULL, NULL},
        {"{\"invite\":\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}",
         "invalid_body", NULL, NULL},
        {"{\"name\":\"\"}", "invalid_body", NULL, NULL},
        {"{\"seat\":1}", NULL, "", ""},
        {"{\"seat\":2,\"name\":\"Bob\"}", NULL, "", "Bob"},
        {"{\"seat\":1,\"invite\":\"abc\"}", "invalid_body", NULL, NULL},
        {"{\"seat\":-1}", "invalid_body", NULL, NULL},
        {"{\"seat\":6}", "invalid_body", NULL, NULL},
        {"{\"seat\":1.5}", "invalid_body", NULL, NULL},
        {"{\"seat\":\"1\"}", "invalid_body", NULL, NULL},
        {"{\"chair\":1}", "unknown_field", NULL, NULL},
        {"[1]", "invalid_json", NULL, NULL},
        {"{\"invite\":", "invalid_json", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        memset(&err, 0, sizeof err);
        int rc = json_in_join(cases[i].body, strlen(cases[i].body), &j, &err);
        if (!cases[i].code) {
            cr_expect_eq(rc, 0, "%s: %s", cases[i].body, err.detail);
            cr_expect_str_eq(j.invite, cases[i].invite, "%s", cases[i].body);
            cr_expect_str_eq(j.name, cases[i].name, "%s", cases[i].body);
        } else {
            cr_expect_eq(rc, -1, "%s taken", cases[i].body);
            cr_expect_str_eq(err.code, cases[i].code, "%s", cases[i].body);
        }
    }
}
