/* cors_test.c: the CORS headers, table-driven: "*" and a list of origins (listed,
 * unlisted, none, a near miss), Vary: Origin with a list, preflights (methods, request
 * headers, Max-Age) and other answers (exposed headers), paths with and without CORS;
 * and CORS_ORIGINS' parsing (good and bad lists). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "cors.h"

#define A  "https://play.example"
#define B  "http://localhost:5173"
#define AO "Access-Control-Allow-Origin"
#define AM "Access-Control-Allow-Methods"
#define AH "Access-Control-Allow-Headers"
#define MA "Access-Control-Max-Age"
#define EH "Access-Control-Expose-Headers"

struct cors_case {
    const char *origins;   /* CORS_ORIGINS */
    const char *path;      /* the request's path */
    const char *origin;    /* its Origin, or NULL */
    const char *preflight; /* the methods of a preflight, or NULL */
    const char *want;      /* the headers, "Name: value" joined by "\n" ("" none) */
};

#define EXPOSE EH ": " CORS_EXPOSE_HEADERS
#define PRE(m) AM ": " m "\n" AH ": " CORS_ALLOW_HEADERS "\n" MA ": 600"
#define G      "/v1/games/0b5f4c1e-7d2a-4c3b-9e8f-1a2b3c4d5e6f"

static const struct cors_case cases[] = {
    /* Any origin: every /v1 answer, with or without an Origin. */
    {"*", "/v1/games", A, NULL, AO ": *\n" EXPOSE},
    {"*", "/v1/games", NULL, NULL, AO ": *\n" EXPOSE},
    {"*", G "/events", "null", NULL, AO ": *\n" EXPOSE},
    {"*", "/v1/games", A, "POST", AO ": *\n" PRE("POST")},
    {"*", G "/placements", B, "GET, POST", AO ": *\n" PRE("GET, POST")},
    {"*", G "/webhook", B, "GET, POST, DELETE", AO ": *\n" PRE("GET, POST, DELETE")},
    {"*", "/v1", A, NULL, AO ": *\n" EXPOSE},
    {"*", "/v1/nope", A, NULL, AO ": *\n" EXPOSE},
    {"*", "/openapi.yaml", A, NULL, AO ": *\n" EXPOSE},
    /* The operators' paths: none. */
    {"*", "/healthz", A, NULL, ""},
    {"*", "/readyz", A, "GET", ""},
    {"*", "/metrics", A, NULL, ""},
    {"*", "/", A, NULL, ""},
    {"*", "/v1x", A, NULL, ""},
    {"*", "/v2/games", A, NULL, ""},
    /* A list: the listed origin echoed, Vary always. */
    {A "," B, "/v1/games", A, NULL, "Vary: Origin\n" AO ": " A "\n" EXPOSE},
    {A "," B, "/v1/games", B, "POST", "Vary: Origin\n" AO ": " B "\n" PRE("POST")},
    {" " A " , " B " ", G, B, NULL, "Vary: Origin\n" AO ": " B "\n" EXPOSE},
    {A, "/v1/games", "https://evil.example", NULL, "Vary: Origin"},
    {A, "/v1/games", "https://evil.example", "POST", "Vary: Origin"},
    {A, "/v1/games", NULL, NULL, "Vary: Origin"},
    {A, "/v1/games", "null", NULL, "Vary: Origin"},
    {A, "/v1/games", A "/", NULL, "Vary: Origin"},
    {A, "/v1/games", A ":443", NULL, "Vary: Origin"},
    {A, "/v1/games", "http://play.example", NULL, "Vary: Origin"},
    {A, "/v1/games", "https://play.example.evil", NULL, "Vary: Origin"},
    {A, "/v1/games", "https://PLAY.example", NULL, "Vary: Origin"},
    {A, "/healthz", A, NULL, ""},
    {"http://[::1]:8080", "/v1/rulesets", "http://[::1]:8080", NULL,
     "Vary: Origin\n" AO ": http://[::1]:8080\n" EXPOSE},
};

/* The headers of `c` as "Name: value" lines. */
static void render(const struct cors_case *c, char *out, size_t cap)
{
    struct cors_config cfg;
    char err[256];
    cr_assert_eq(cors_parse(c->origins, &cfg, err, sizeof err), 0, "%s: %s", c->origins, err);
    struct cors_header h[CORS_MAX_HEADERS];
    size_t n = cors_headers(&cfg, c->path, c->origin, c->preflight, h);
    cr_assert_leq(n, CORS_MAX_HEADERS);
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s%s: %s", i ? "\n" : "", h[i].name,
                 h[i].value);
}

Test(cors, every_case)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct cors_case *c = &cases[i];
        char got[1024];
        render(c, got, sizeof got);
        cr_expect_str_eq(got, c->want, "case %zu (%s, %s, Origin %s, %s):\n%s\n-- not --\n%s", i,
                         c->origins, c->path, c->origin ? c->origin : "none",
                         c->preflight ? c->preflight : "no preflight", got, c->want);
    }
}

Test(cors, the_lists_it_takes)
{
    static const struct {
        const char *spec;
        int any;
        size_t n;
    } good[] = {
        {"*", 1, 0},
        {" * ", 1, 0},
        {A, 0, 1},
        {A "," B, 0, 2},
        {A ", " B ", https://x.example:8443", 0, 3},
        {"http://127.0.0.1:3000", 0, 1},
        {"http://[::1]:8080", 0, 1},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        struct cors_config c;
        char err[256] = "";
        cr_expect_eq(cors_parse(good[i].spec, &c, err, sizeof err), 0, "%s: %s", good[i].spec, err);
        cr_expect_eq(c.any, good[i].any, "%s", good[i].spec);
        cr_expect_eq(c.n, good[i].n, "%s", good[i].spec);
    }
    struct cors_config c;
    char err[256];
    cr_assert_eq(cors_parse(A " , " B, &c, err, sizeof err), 0);
    cr_expect_str_eq(c.origins[0], A);
    cr_expect_str_eq(c.origins[1], B);
}

Test(cors, the_lists_it_refuses)
{
    static const char *const bad[] = {
        "",
        ",",
        A ",",
        "," A,
        A ",," B,
        "* ," A,
        A ", *",
        "play.example",
        "ftp://play.example",
        "https://",
        "https://:443",
        A "/",
        A "/app",
        "https://play example",
        "null",
        "https://play.example?x=1",
        "https://a.example,https://b.example,https://c.example,https://d.example,"
        "https://e.example,https://f.example,https://g.example,https://h.example,"
        "https://i.example,https://j.example,https://k.example,https://l.example,"
        "https://m.example,https://n.example,https://o.example,https://p.example,"
        "https://q.example",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cors_config c;
        char err[256] = "";
        cr_expect_eq(cors_parse(bad[i], &c, err, sizeof err), -1, "\"%s\" taken", bad[i]);
        cr_expect(strstr(err, "CORS_ORIGINS") != NULL, "\"%s\": error \"%s\"", bad[i], err);
    }
    /* An origin of CORS_ORIGIN_MAX bytes is too long. */
    char longer[CORS_ORIGIN_MAX + 16];
    snprintf(longer, sizeof longer, "https://");
    while (strlen(longer) < CORS_ORIGIN_MAX) snprintf(longer + strlen(longer), 2, "a");
    struct cors_config c;
    char err[256];
    cr_expect_eq(cors_parse(longer, &c, err, sizeof err), -1);
    longer[CORS_ORIGIN_MAX - 1] = '\0';
    cr_expect_eq(cors_parse(longer, &c, err, sizeof err), 0, "%s", err);
}
