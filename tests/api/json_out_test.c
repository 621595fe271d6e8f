/* json_out_test.c: the JSON writer: commas, escapes, and its limit (JSON_OUT_MAX): a
 * document past it is no document (NULL), never a cut one. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"

/* Takes the document of `o`, checks it is `want`, frees it. */
static void expect(struct json_out *o, const char *want)
{
    size_t len = 0;
    char *s = json_out_take(o, &len);
    cr_assert_not_null(s);
    cr_assert_str_eq(s, want);
    cr_assert_eq(len, strlen(want));
    free(s);
}

Test(json_out, members_elements_and_commas)
{
    struct json_out o;
    json_out_init(&o);
    json_out_begin_object(&o);
    json_out_kint(&o, "a", -9223372036854775807LL - 1);
    json_out_kstring(&o, "b", NULL);
    json_out_key(&o, "c");
    json_out_begin_array(&o);
    json_out_bool(&o, 1);
    json_out_bool(&o, 0);
    json_out_null(&o);
    json_out_raw(&o, "{\"x\":1}", 7);
    json_out_begin_array(&o);
    json_out_end_array(&o);
    json_out_int(&o, 0);
    json_out_end_array(&o);
    json_out_end_object(&o);
    expect(&o, "{\"a\":-9223372036854775808,\"b\":null,\"c\":[true,false,null,{\"x\":1},[],0]}");
    /* Empty, the writer gives "", and it is ready for the next document. */
    expect(&o, "");
    json_out_string(&o, "again");
    expect(&o, "\"again\"");
    json_out_free(&o);
}

Test(json_out, escapes)
{
    struct json_out o;
    json_out_init(&o);
    static const char *const texts[] = {
        "",           "plain text",   "q\"b\\s/",
        "\b\f\n\r\t", "\x01\x1f\x7f", "\xc3\xa9t\xc3\xa9 \xf0\x9f\x8f\xb0" /* UTF-8 as it is */,
        "\"\""};
    json_out_begin_array(&o);
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) json_out_string(&o, texts[i]);
    json_out_end_array(&o);
    expect(&o, "[\"\",\"plain text\",\"q\\\"b\\\\s/\",\"\\b\\f\\n\\r\\t\",\"\\u0001\\u001f\x7f\","
               "\"\xc3\xa9t\xc3\xa9 \xf0\x9f\x8f\xb0\",\"\\\"\\\"\"]");
    json_out_free(&o);
}

Test(json_out, every_control_character)
{
    struct json_out o;
    json_out_init(&o);
    for (int c = 1; c < 0x20; c++) {
        char in[2] = {(char)c, 0};
        json_out_string(&o, in);
        size_t len;
        char *s = json_out_take(&o, &len);
        cr_assert_not_null(s);
        cr_assert(len == 4 || len == 8, "byte %d: %s", c, s);
        cr_assert_eq(s[1], '\\');
        free(s);
    }
    json_out_free(&o);
}

/* Starts `o` as an array that holds `n` digits (not closed); returns the digits (malloc'd,
 * not NUL-terminated). */
static char *open_digits(struct json_out *o, size_t n)
{
    char *digits = malloc(n);
    cr_assert(digits);
    memset(digits, '1', n);
    json_out_init(o);
    json_out_begin_array(o);
    json_out_raw(o, digits, n);
    return digits;
}

/* Takes the document of `o`: an array of exactly JSON_OUT_MAX bytes. */
static void expect_full_array(struct json_out *o)
{
    size_t len = 0;
    char *s = json_out_take(o, &len);
    cr_assert_not_null(s);
    cr_assert_eq(len, JSON_OUT_MAX);
    cr_assert_eq(s[0], '[');
    cr_assert_eq(s[len - 1], ']');
    free(s);
}

Test(json_out, exactly_at_the_limit)
{
    size_t n = JSON_OUT_MAX - 2;
    struct json_out o;
    char *raw = open_digits(&o, n);
    json_out_end_array(&o);
    expect_full_array(&o);
    free(raw);
}

Test(json_out, past_the_limit_is_no_document)
{
    size_t n = JSON_OUT_MAX - 2;
    struct json_out o;
    char *raw = open_digits(&o, n);
    json_out_int(&o, 2); /* the comma alone passes the limit */
    json_out_end_array(&o);
    size_t len = 99;
    cr_assert_null(json_out_take(&o, &len));
    cr_assert_eq(len, 0);
    /* The writer is usable again. */
    json_out_string(&o, "x");
    expect(&o, "\"x\"");
    /* A long string that passes it: escapes count (6 bytes per control character). */
    memset(raw, '\x01', n - 1);
    raw[n - 1] = '\0';
    json_out_string(&o, raw);
    cr_assert_null(json_out_take(&o, NULL));
    free(raw);
    json_out_free(&o);
}

Test(json_out, a_string_exactly_at_the_limit)
{
    /* ["\u0001...", with the quotes, the brackets and a comma before it: escapes count. */
    size_t n = (JSON_OUT_MAX - 6) / 6;
    char *s = malloc(n + 1);
    cr_assert(s);
    memset(s, '\x01', n);
    s[n] = '\0';
    size_t pad = JSON_OUT_MAX - 6 * n - 5; /* "[" pad-digit-string "," "\"" ... "\"" "]" */
    struct json_out o;
    char *digits = open_digits(&o, pad);
    json_out_string(&o, s);
    json_out_end_array(&o);
    expect_full_array(&o);
    /* One byte more is no document. */
    json_out_begin_array(&o);
    json_out_raw(&o, digits, pad);
    json_out_string(&o, s);
    json_out_null(&o);
    json_out_end_array(&o);
    cr_assert_null(json_out_take(&o, NULL));
    free(digits);
    free(s);
}

Test(json_out, a_piece_written_again)
{
    struct json_out o;
    json_out_init(&o);
    json_out_begin_array(&o);
    json_out_begin_object(&o);
    json_out_kint(&o, "x", 1);
    size_t from = json_out_len(&o);
    json_out_key(&o, "spots");
    json_out_begin_array(&o);
    json_out_string(&o, "N");
    json_out_end_array(&o);
    size_t len = json_out_len(&o) - from;
    json_out_end_object(&o);
    json_out_begin_object(&o);
    json_out_kint(&o, "x", 2);
    json_out_repeat(&o, from, len);
    json_out_kint(&o, "y", 3); /* a comma after the piece */
    json_out_end_object(&o);
    json_out_end_array(&o);
    expect(&o, "[{\"x\":1,\"spots\":[\"N\"]},{\"x\":2,\"spots\":[\"N\"],\"y\":3}]");
    /* Bytes that were never written: no document. */
    json_out_begin_array(&o);
    json_out_repeat(&o, 0, 2);
    cr_assert_null(json_out_take(&o, NULL));
    json_out_free(&o);
}

Test(json_out, a_piece_written_again_past_the_limit_is_no_document)
{
    size_t n = JSON_OUT_MAX / 2;
    struct json_out o;
    char *raw = open_digits(&o, n);
    json_out_repeat(&o, 1, n); /* twice n digits and a bracket: past the limit */
    json_out_end_array(&o);
    cr_assert_null(json_out_take(&o, NULL));
    free(raw);
    json_out_free(&o);
}
