/* t_badinput.c: a table of bad requests across the endpoints. Each must be answered with
 * its 4xx problem (application/problem+json, the status in the body, the expected code;
 * the few that libmicrohttpd answers by itself, before the server sees them, with its own
 * 4xx and no problem, and a body too slow to finish, which it can only cut off, are marked),
 * the server must go on serving, and the game the requests aim at must stay as stored,
 * byte for byte (its row, snapshot, and the sizes of its logs, read with libpq), with no
 * game created by a refused POST /v1/games.
 *
 * Most requests go through the spec proxy, so their answers are checked against
 * openapi.yaml too. Those sent straight to the server say why in their row: the proxy
 * would change the bytes (it re-frames a chunked body, buffers a slow one before it sends
 * anything, refuses header floods and bytes in headers that Node does not allow with an
 * answer of its own). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "hard.h"
#include "tests.h"

#define J     "Content-Type: application/json"
#define TWO   "\"players\":[{\"name\":\"A\"},{\"name\":\"B\"}]"
#define AUTH  "@auth"  /* replaced by the Authorization of the seat to move */
#define OTHER "@other" /* replaced by the Authorization of the other seat */

/* One bad request and the answer it must get. */
struct bad {
    const char *kind;   /* what is wrong with it */
    enum hard_via via;  /* how it is sent */
    const char *method; /* method */
    const char *path;   /* path; "%s" is the game's id */
    const char *body;   /* body, or NULL; see len */
    size_t len;         /* bytes of body (0: strlen) */
    const char *hdr[4]; /* extra header lines (AUTH, OTHER placeholders) */
    long status;        /* the status it must get */
    const char *code;   /* and the problem code (NULL: libmicrohttpd's own answer) */
};

#define G    "/v1/games"
#define GID  "/v1/games/%s"
#define DRAW "/v1/games/%s/draw"
#define PL   "/v1/games/%s/placements"
#define EV   "/v1/games/%s/events"

/* The bodies that are built at run time (their rows name them with a NULL body). */
static char *deep_body, *big_body, *chunk_body, *many_names_body;

static const struct bad table[] = {
    /* Not JSON, or not an object. */
    {"not JSON", VIA_PROXY, "POST", G, "{", 0, {J}, 400, "invalid_json"},
    {"trailing garbage", VIA_PROXY, "POST", G, "{" TWO "} x", 0, {J}, 400, "invalid_json"},
    {"an array, not an object", VIA_PROXY, "POST", G, "[]", 0, {J}, 400, "invalid_json"},
    {"a bare string", VIA_PROXY, "POST", G, "\"players\"", 0, {J}, 400, "invalid_json"},
    {"empty body", VIA_PROXY, "POST", G, "", 0, {J}, 400, "invalid_json"},
    {"only whitespace", VIA_PROXY, "POST", G, " \r\n\t ", 0, {J}, 400, "invalid_json"},
    {"a comment", VIA_PROXY, "POST", G, "{/* two */" TWO "}", 0, {J}, 400, "invalid_json"},
    {"single quotes", VIA_PROXY, "POST", G, "{'players':[]}", 0, {J}, 400, "invalid_json"},
    {"a NUL byte in the body",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO "}\0{}",
     sizeof("{" TWO "}") + 2,
     {J},
     400,
     "invalid_json"},
    {"a NUL byte inside a string",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"A\0B\"},{\"name\":\"B\"}]}",
     sizeof("{\"players\":[{\"name\":\"A\0B\"},{\"name\":\"B\"}]}") - 1,
     {J},
     400,
     "invalid_json"},
    {"an escaped NUL (\\u0000) in a name",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"A\\u0000B\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_json"},
    {"deep nesting", VIA_PROXY, "POST", G, NULL, 0, {J}, 400, "invalid_json"},
    {"a lone surrogate escape",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"\\ud800\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_json"},
    {"numbers with leading zeros",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"seed\":007}",
     0,
     {J},
     400,
     "invalid_json"},
    /* Invalid UTF-8 and control characters. */
    {"invalid UTF-8 (a stray continuation byte)",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"A\x80\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"invalid UTF-8 (an overlong '/')",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"\xC0\xAF\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"invalid UTF-8 (a UTF-16 surrogate)",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"\xED\xA0\x80\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"invalid UTF-8 (cut short)",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"\xE2\x82\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a control character in a name",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"A\\u0007\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    /* Wrong types. */
    {"players is a string",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":\"AB\"}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a name is a number",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":1},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a player is null",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[null,{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"ruleset is an object",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"ruleset\":{}}",
     0,
     {J},
     400,
     "invalid_body"},
    {"options is an array",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"options\":[true]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"river is a string",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"options\":{\"river\":\"true\"}}",
     0,
     {J},
     400,
     "bad_option"},
    {"deck holds a number",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"deck\":[\"A\",7]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"x is a string",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":\"1\",\"y\":0,\"rotation\":0}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"rotation is a boolean",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":true}",
     0,
     {J, AUTH},
     400,
     "bad_rotation"},
    {"follower is an object",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":{}}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    /* Out of range and huge numbers. */
    {"a negative seed", VIA_PROXY, "POST", G, "{" TWO ",\"seed\":-1}", 0, {J}, 400, "invalid_body"},
    {"a seed above 2^53 as a number",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"seed\":9007199254740993}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a seed of 1e400 (infinite)",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"seed\":1e400}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a seed above 2^64 as a string",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"seed\":\"99999999999999999999999\"}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a fractional seed",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"seed\":0.5}",
     0,
     {J},
     400,
     "invalid_body"},
    {"x beyond the board's range",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":40000,\"y\":0,\"rotation\":0}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"y of 1e308",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":0,\"y\":1e308,\"rotation\":0}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"a rotation of 45",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":45}",
     0,
     {J, AUTH},
     400,
     "bad_rotation"},
    {"a rotation of 1e400 (infinite)",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":1e400}",
     0,
     {J, AUTH},
     400,
     "bad_rotation"},
    {"a rotation of -90",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":-90}",
     0,
     {J, AUTH},
     400,
     "bad_rotation"},
    /* Limits of the setup. */
    {"one player",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"A\"}]}",
     0,
     {J},
     400,
     "bad_player_count"},
    {"no players", VIA_PROXY, "POST", G, "{\"players\":[]}", 0, {J}, 400, "bad_player_count"},
    {"six players", VIA_PROXY, "POST", G, NULL, 0, {J}, 400, "bad_player_count"},
    {"a name of 41 characters",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"12345678901234567890123456789012345678901\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"an empty name",
     VIA_PROXY,
     "POST",
     G,
     "{\"players\":[{\"name\":\"\"},{\"name\":\"B\"}]}",
     0,
     {J},
     400,
     "invalid_body"},
    {"a deck of 201 tiles", VIA_PROXY, "POST", G, NULL, 0, {J}, 400, "deck_too_long"},
    /* Fields: duplicate, unknown, missing, conflicting. */
    {"a key twice", VIA_PROXY, "POST", G, "{" TWO "," TWO "}", 0, {J}, 400, "invalid_body"},
    {"a key twice, nested",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"hike\":{\"x\":0,\"x\":1,\"y\":0,\"toward\":\"E\"}}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"an unknown field",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"colour\":\"red\"}",
     0,
     {J},
     400,
     "unknown_field"},
    {"an unknown option",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"options\":{\"rivers\":true}}",
     0,
     {J},
     400,
     "unknown_field"},
    {"an unknown ruleset",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"ruleset\":\"chess\"}",
     0,
     {J},
     400,
     "unknown_ruleset"},
    {"an unknown tile",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO ",\"start\":\"ZZ\"}",
     0,
     {J},
     400,
     "unknown_tile"},
    {"y missing",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"rotation\":0}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"two follow-ups",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"N\",\"stable\":\"N\"}",
     0,
     {J, AUTH},
     400,
     "invalid_body"},
    {"a follow-up of another ruleset",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"withdraw\":{\"x\":0,\"y\":0,\"location\":\"N\"}}",
     0,
     {J, AUTH},
     400,
     "followup_not_in_ruleset"},
    {"an unknown location",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0,\"follower\":\"NNW\"}",
     0,
     {J, AUTH},
     400,
     "bad_location"},
    {"a body for the draw",
     VIA_PROXY,
     "POST",
     DRAW,
     "{\"tile\":\"A\"}",
     0,
     {J, AUTH},
     400,
     "unknown_field"},
    {"a draw body that is not JSON",
     VIA_PROXY,
     "POST",
     DRAW,
     "draw!",
     0,
     {J, AUTH},
     400,
     "invalid_json"},
    {"a placement without a body", VIA_PROXY, "POST", PL, NULL, 0, {AUTH}, 400, "invalid_json"},
    /* Content types. */
    {"Content-Type text/plain",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO "}",
     0,
     {"Content-Type: text/plain"},
     415,
     "unsupported_media_type"},
    {"no Content-Type",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO "}",
     0,
     {"Content-Type:"},
     415,
     "unsupported_media_type"},
    {"Content-Type application/jsonx",
     VIA_PROXY,
     "POST",
     G,
     "{" TWO "}",
     0,
     {"Content-Type: application/jsonx"},
     415,
     "unsupported_media_type"},
    {"a form body on a placement",
     VIA_PROXY,
     "POST",
     PL,
     "x=1&y=0",
     0,
     {"Content-Type: application/x-www-form-urlencoded", AUTH},
     415,
     "unsupported_media_type"},
    /* Bodies over the limit. */
    {"a body over 64 KiB (Content-Length)",
     VIA_PROXY,
     "POST",
     G,
     NULL,
     0,
     {J},
     413,
     "body_too_large"},
    {"a body over 64 KiB, chunked (the proxy would re-frame it)",
     VIA_CHUNKED,
     "POST",
     G,
     NULL,
     0,
     {J},
     413,
     "body_too_large"},
    {"Content-Length of 2^64 (the proxy refuses it itself)",
     VIA_RAW,
     "POST",
     G,
     NULL,
     0,
     {NULL},
     413,
     "body_too_large"},
    /* Ids, tokens, preconditions, parameters. */
    {"an unknown game id",
     VIA_PROXY,
     "POST",
     "/v1/games/00000000-0000-4000-8000-000000000000/draw",
     NULL,
     0,
     {AUTH},
     404,
     "not_found"},
    {"a malformed game id", VIA_PROXY, "GET", "/v1/games/%s'--", NULL, 0, {NULL}, 404, "not_found"},
    {"an id of 300 characters", VIA_PROXY, "GET", NULL, NULL, 0, {NULL}, 404, "not_found"},
    {"no token", VIA_PROXY, "POST", DRAW, NULL, 0, {NULL}, 401, "missing_token"},
    {"a token of another game",
     VIA_PROXY,
     "POST",
     DRAW,
     NULL,
     0,
     {"Authorization: Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
     401,
     "unknown_token"},
    {"a Basic credential",
     VIA_PROXY,
     "POST",
     DRAW,
     NULL,
     0,
     {"Authorization: Basic QTpC"},
     401,
     "missing_token"},
    {"the other seat's token",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0}",
     0,
     {J, OTHER},
     403,
     "not_your_turn"},
    {"a malformed If-Match",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0}",
     0,
     {J, AUTH, "If-Match: \"seven\""},
     400,
     "invalid_parameter"},
    {"a stale If-Match",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0}",
     0,
     {J, AUTH, "If-Match: \"1\""},
     412,
     "version_mismatch"},
    {"an If-Match above 2^31",
     VIA_PROXY,
     "POST",
     PL,
     "{\"x\":1,\"y\":0,\"rotation\":0}",
     0,
     {J, AUTH, "If-Match: \"99999999999\""},
     400,
     "invalid_parameter"},
    {"an Idempotency-Key of 65 characters",
     VIA_PROXY,
     "POST",
     DRAW,
     NULL,
     0,
     {AUTH, "Idempotency-Key: 12345678901234567890123456789012345678901234567890123456789012345"},
     400,
     "invalid_parameter"},
    {"an Idempotency-Key with a byte above ASCII (Node refuses it)",
     VIA_DIRECT,
     "POST",
     DRAW,
     NULL,
     0,
     {AUTH, "Idempotency-Key: caf\xC3\xA9"},
     400,
     "invalid_parameter"},
    {"a negative after",
     VIA_PROXY,
     "GET",
     EV "?after=-1",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    {"after is not a number",
     VIA_PROXY,
     "GET",
     EV "?after=abc",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    {"after of 10^20",
     VIA_PROXY,
     "GET",
     EV "?after=100000000000000000000",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    {"a wait of 61", VIA_PROXY, "GET", EV "?wait=61", NULL, 0, {NULL}, 400, "invalid_parameter"},
    {"a wait of 1e3", VIA_PROXY, "GET", EV "?wait=1e3", NULL, 0, {NULL}, 400, "invalid_parameter"},
    {"an after with a space",
     VIA_PROXY,
     "GET",
     EV "?after=%%201",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    {"after given twice",
     VIA_PROXY,
     "GET",
     EV "?after=1&after=2",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    {"17 query parameters",
     VIA_PROXY,
     "GET",
     EV "?a=1&b=2&c=3&d=4&e=5&f=6&g=7&h=8&i=9&j=10&k=11&l=12&m=13&n=14&o=15&p=16&after=1",
     NULL,
     0,
     {NULL},
     400,
     "invalid_parameter"},
    /* Methods and paths. */
    {"PUT on a game", VIA_PROXY, "PUT", GID, "{}", 0, {J}, 405, "method_not_allowed"},
    {"DELETE on a game", VIA_PROXY, "DELETE", GID, NULL, 0, {NULL}, 405, "method_not_allowed"},
    {"a path with a dot segment",
     VIA_PROXY,
     "GET",
     "/v1/games/%s/../../healthz",
     NULL,
     0,
     {NULL},
     404,
     "not_found"},
    /* Header floods and slow clients (straight to the server: see the top). */
    {"150 header fields", VIA_RAW, NULL, NULL, NULL, 0, {NULL}, 431, "headers_too_large"},
    {"a header of 20 KiB", VIA_RAW, NULL, NULL, NULL, 0, {NULL}, 431, "headers_too_large"},
    /* Beyond the buffer of the HTTP layer, libmicrohttpd answers by itself, without a
     * problem body (its own 4xx, code NULL here): the server must still go on. */
    {"a header of 100 KiB (beyond the HTTP layer's buffer)",
     VIA_RAW,
     NULL,
     NULL,
     NULL,
     0,
     {NULL},
     431,
     NULL},
    {"a request line of 80 KiB", VIA_RAW, NULL, NULL, NULL, 0, {NULL}, 414, NULL},
    {"a Content-Length that is no number", VIA_RAW, NULL, NULL, NULL, 0, {NULL}, 400, NULL},
    /* libmicrohttpd 0.9.75 cannot queue an answer while a body is still arriving: the
     * connection guard (api/connguard.c) answers on the socket at REQUEST_TIMEOUT. */
    {"a slow body (a byte every 100 ms)",
     VIA_SLOW,
     NULL,
     NULL,
     NULL,
     0,
     {NULL},
     408,
     "request_timeout"},
    {"slow headers (a byte every 100 ms)",
     VIA_SLOW,
     NULL,
     NULL,
     NULL,
     0,
     {NULL},
     408,
     "request_timeout"},
};

/* Builds the run-time bodies. */
static int make_bodies(void)
{
    size_t n = 5000;
    deep_body = malloc(2 * n + 64);
    big_body = malloc(80 * 1024);
    chunk_body = malloc(200 * 1024);
    many_names_body = malloc(512);
    if (!deep_body || !big_body || !chunk_body || !many_names_body) return -1;
    static const char head[] = "{" TWO ",\"x\":";
    size_t o = sizeof head - 1;
    memcpy(deep_body, head, o);
    memset(deep_body + o, '[', n);
    memset(deep_body + o + n, ']', n);
    memcpy(deep_body + o + 2 * n, "}", 2);
    o = (size_t)snprintf(big_body, 80 * 1024, "%s\"", head);
    memset(big_body + o, 'a', 70 * 1024);
    memcpy(big_body + o + 70 * 1024, "\"}", 3);
    o = (size_t)snprintf(chunk_body, 200 * 1024, "%s\"", head);
    memset(chunk_body + o, 'b', 190 * 1024);
    memcpy(chunk_body + o + 190 * 1024, "\"}", 3);
    snprintf(many_names_body, 512, "%s",
             "{\"players\":[{\"name\":\"A\"},{\"name\":\"B\"},{\"name\":\"C\"},"
             "{\"name\":\"D\"},{\"name\":\"E\"},{\"name\":\"F\"}]}");
    return 0;
}

static void free_bodies(void)
{
    free(deep_body);
    free(big_body);
    free(chunk_body);
    free(many_names_body);
    deep_body = big_body = chunk_body = many_names_body = NULL;
}

/* The raw request of a VIA_RAW/VIA_SLOW row (malloc'd, its length in *len); in a slow one
 * a NUL byte marks where the slow part begins. */
static char *raw_request(const struct bad *b, const char *id, size_t *len)
{
    size_t cap = 160 * 1024, o = 0;
    char *req = malloc(cap);
    if (!req) return NULL;
#define PUT(...) (o += (size_t)snprintf(req + o, cap - o, __VA_ARGS__))
    if (strncmp(b->kind, "150 header", 10) == 0) {
        PUT("GET /v1/games/%s HTTP/1.1\r\nHost: x\r\n", id);
        for (int i = 0; i < 150; i++) PUT("X-Flood-%d: %d\r\n", i, i);
        PUT("Connection: close\r\n\r\n");
    } else if (strncmp(b->kind, "a header of 20", 14) == 0) {
        PUT("GET /v1/games/%s HTTP/1.1\r\nHost: x\r\nX-Big: ", id);
        memset(req + o, 'h', 20 * 1024);
        o += 20 * 1024;
        PUT("\r\nConnection: close\r\n\r\n");
    } else if (strncmp(b->kind, "a header of 100", 15) == 0) {
        PUT("GET /v1/games/%s HTTP/1.1\r\nHost: x\r\nX-Big: ", id);
        memset(req + o, 'h', 100 * 1024);
        o += 100 * 1024;
        PUT("\r\nConnection: close\r\n\r\n");
    } else if (strncmp(b->kind, "a request line of", 17) == 0) {
        PUT("GET /v1/games/%s/events?", id);
        for (int i = 0; i < 8000; i++) PUT("after=%04d&", i);
        PUT(" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    } else if (strncmp(b->kind, "a Content-Length that", 21) == 0) {
        PUT("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 12abc\r\nConnection: close\r\n\r\n{}");
    } else if (strncmp(b->kind, "Content-Length of", 17) == 0) {
        PUT("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 18446744073709551615\r\nConnection: close\r\n\r\n{}");
    } else if (strncmp(b->kind, "a slow body", 11) == 0) {
        PUT("POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 400\r\nConnection: close\r\n\r\n");
        req[o++] = '\0';
        memset(req + o, ' ', 400);
        o += 400;
    } else {
        PUT("GET /v1/games/%s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n", id);
        req[o++] = '\0';
        PUT("X-Slow: aaaaaaaaaaaaaaaaaaaa\r\n\r\n");
    }
#undef PUT
    *len = o;
    return req;
}

/* The body of a row (built ones by kind). */
static const char *body_of(const struct bad *b, size_t *len)
{
    const char *body = b->body;
    if (!body) {
        if (strcmp(b->kind, "deep nesting") == 0)
            body = deep_body;
        else if (strcmp(b->kind, "six players") == 0)
            body = many_names_body;
        else if (strncmp(b->kind, "a body over 64 KiB (", 20) == 0)
            body = big_body;
        else if (strncmp(b->kind, "a body over 64 KiB, chunked", 27) == 0)
            body = chunk_body;
        else if (strcmp(b->kind, "a deck of 201 tiles") == 0) {
            static char deck[2400];
            size_t o = (size_t)snprintf(deck, sizeof deck, "{" TWO ",\"deck\":[");
            for (int i = 0; i < 201; i++)
                o += (size_t)snprintf(deck + o, sizeof deck - o, "%s\"A\"", i ? "," : "");
            snprintf(deck + o, sizeof deck - o, "]}");
            body = deck;
        }
    }
    *len = body ? (b->len ? b->len : strlen(body)) : 0;
    return body;
}

void test_bad_input(struct server *srv)
{
    char why[400];
    struct game g;
    CHECK(game_new(srv, "{\"players\":[{\"name\":\"Ann\"},{\"name\":\"Bob\"}],\"seed\":5}", &g, why,
                   sizeof why) == 0,
          "%s", why);
    /* The game in its place phase: every kind of placement refusal is reachable. */
    struct resp r;
    char path[600];
    snprintf(path, sizeof path, "/v1/games/%s/draw", g.id);
    const char *h0[] = {g.auth[0], NULL};
    http(srv, "POST", path, NULL, h0, &r);
    CHECK(r.status == 200, "draw: %ld %s", r.status, r.body);
    resp_free(&r);
    /* Slow requests go to a server of their own that gives a request 2 seconds. */
    struct server strict;
    const char *env[] = {"REQUEST_TIMEOUT=2", NULL};
    CHECK(hard_server_start(&strict, env, 0) == 0,
          "the server with REQUEST_TIMEOUT=2 did not start");
    CHECK(make_bodies() == 0, "out of memory");
    struct db_game before, after;
    int failed = 0;
    long games_before = db_scalar("SELECT count(*) FROM games");
    if (db_game_read(g.id, &before, why, sizeof why) || !before.found) failed = 1;
    size_t n = sizeof table / sizeof table[0];
    for (size_t i = 0; !failed && i < n; i++) {
        const struct bad *b = &table[i];
        const char *hdr[5] = {NULL};
        for (int k = 0; k < 4 && b->hdr[k]; k++)
            hdr[k] = strcmp(b->hdr[k], AUTH) == 0    ? g.auth[0]
                     : strcmp(b->hdr[k], OTHER) == 0 ? g.auth[1]
                                                     : b->hdr[k];
        if (b->path && strstr(b->path, "%s"))
            snprintf(path, sizeof path, b->path, g.id);
        else if (b->path)
            snprintf(path, sizeof path, "%s", b->path);
        else {
            int k = snprintf(path, sizeof path, "/v1/games/");
            memset(path + k, 'f', 300);
            path[k + 300] = '\0';
        }
        size_t len;
        const char *body = body_of(b, &len);
        char *raw = NULL;
        if (b->via == VIA_RAW || b->via == VIA_SLOW) body = raw = raw_request(b, g.id, &len);
        const struct server *to = b->via == VIA_SLOW ? &strict : srv;
        long long t0 = hard_now_ms();
        hard_send(to, b->via, b->method, path, body, len, hdr, &r);
        free(raw);
        long long took = hard_now_ms() - t0;
        int ok = b->status == 0 /* closed without an answer, within the time limit */
                     ? r.status == 0 && took < 4000
                     : !b->code ? r.status == b->status /* the HTTP library's own answer */
                                : r.status == b->status && strcmp(problem_code(&r), b->code) == 0 &&
                                      strcmp(r.ctype, "application/problem+json") == 0 &&
                                      jnum(r.json, "status") == (double)b->status &&
                                      jstr(r.json, "detail")[0];
        if (!ok) {
            snprintf(why, sizeof why, "%s: %ld %s %.200s (want %ld %s)", b->kind, r.status, r.ctype,
                     r.body, b->status, b->code ? b->code : "");
            failed = 1;
        }
        resp_free(&r);
        /* Still serving, and the game as it was. */
        struct server direct = *srv;
        snprintf(direct.base, sizeof direct.base, "%s", srv->direct);
        http(&direct, "GET", "/healthz", NULL, NULL, &r);
        if (!failed && r.status != 200) {
            snprintf(why, sizeof why, "%s: then /healthz answered %ld", b->kind, r.status);
            failed = 1;
        }
        resp_free(&r);
        if (!failed && db_game_read(g.id, &after, why, sizeof why) == 0) {
            if (!db_game_same(&before, &after)) {
                snprintf(why, sizeof why, "%s: the stored game changed (version %d -> %d)", b->kind,
                         before.version, after.version);
                failed = 1;
            }
            db_game_free(&after);
        }
        long games_now = db_scalar("SELECT count(*) FROM games");
        if (!failed && games_now != games_before) {
            snprintf(why, sizeof why, "%s: %ld games stored, %ld before", b->kind, games_now,
                     games_before);
            failed = 1;
        }
        if (!failed) {
            http(srv, "GET", "/v1/games", NULL, NULL, &r); /* the proxy too answers still */
            resp_free(&r);
        }
    }
    db_game_free(&before);
    free_bodies();
    int code = hard_server_stop(&strict);
    CHECK(!failed, "%s", why);
    CHECK(n >= 40, "only %zu kinds of bad input", n);
    CHECK(code == 0, "the REQUEST_TIMEOUT=2 server exited with status %d", code);
    /* The game plays on. */
    CHECK(play_turn(srv, &g, 1, why, sizeof why) == 0, "after the bad input: %s", why);
}
