/* json_chat_test.c: a chat message's body (api/json/json_chat.c) as a table: what is accepted as
 * it was sent, and each refusal with its code. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "codes.h"
#include "json_in.h"

/* A body and what it must give: its text (accepted), or a refusal's code. */
struct chat_case {
    const char *body; /* the body */
    const char *text; /* accepted as this text, or NULL */
    const char *code; /* else refused with this code */
};

#define EMOJI "\xf0\x9f\x8e\xb2"

static const struct chat_case cases[] = {
    {"{\"text\":\"hi\"}", "hi", NULL},
    {"{\"text\":\"two\\nlines\"}", "two\nlines", NULL},
    {"{\"text\":\"caf\\u00e9 " EMOJI "\"}", "caf\xc3\xa9 " EMOJI, NULL},
    {"{\"text\":\"  padded  \"}", "  padded  ", NULL},
    {"{\"text\":\"\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\" \\n \"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"tab\\there\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"cr\\r\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"del\\u007f\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"c1\\u0085\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"rlo\\u202e\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"lri\\u2067\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"zwj\\u200d\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"bom\\ufeff\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"ls\\u2028\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"tag\\udb40\\udc41\"}", NULL, "invalid_chat_text"},
    {"{\"text\":\"nul\\u0000\"}", NULL, "invalid_json"},
    {"{\"text\":1}", NULL, "invalid_body"},
    {"{\"text\":null}", NULL, "invalid_body"},
    {"{}", NULL, "invalid_body"},
    {"{\"text\":\"hi\",\"to\":2}", NULL, "unknown_field"},
    {"{\"text\":\"a\",\"text\":\"b\"}", NULL, "invalid_body"},
    {"[]", NULL, "invalid_json"},
    {"", NULL, "invalid_json"},
};

Test(json_chat, every_case)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct chat_case *c = &cases[i];
        static char text[JSON_CHAT_TEXT_BYTES + 1];
        struct json_err err;
        memset(&err, 0, sizeof err);
        int rc = json_in_chat(c->body, strlen(c->body), text, &err);
        if (c->text) {
            cr_expect_eq(rc, 0, "%s: refused (%s: %s)", c->body, err.code, err.detail);
            if (rc == 0) cr_expect_str_eq(text, c->text, "%s", c->body);
        } else {
            cr_expect_eq(rc, -1, "%s: accepted", c->body);
            cr_expect_str_eq(err.code, c->code, "%s: %s", c->body, err.detail);
            cr_expect(api_code_known(err.code), "%s: code %s unlisted", c->body, err.code);
        }
    }
}

/* 500 characters are the most, whatever their width: 500 of four bytes pass, 501 of one
 * do not. */
Test(json_chat, five_hundred_characters)
{
    static char body[2200], text[JSON_CHAT_TEXT_BYTES + 1];
    struct json_err err;
    size_t o = (size_t)snprintf(body, sizeof body, "{\"text\":\"");
    for (int i = 0; i < 500; i++, o += 4) memcpy(body + o, EMOJI, 4);
    snprintf(body + o, sizeof body - o, "\"}");
    cr_expect_eq(json_in_chat(body, strlen(body), text, &err), 0, "%s", err.detail);
    cr_expect_eq(strlen(text), 2000);
    o = (size_t)snprintf(body, sizeof body, "{\"text\":\"");
    for (int i = 0; i < 501; i++) body[o++] = 'x';
    snprintf(body + o, sizeof body - o, "\"}");
    cr_expect_eq(json_in_chat(body, strlen(body), text, &err), -1);
    cr_expect_str_eq(err.code, "invalid_chat_text");
}
