/* utf8_test.c: api/base/utf8.c: what is UTF-8 and what is not (overlongs, surrogates, above
 * U+10FFFF, cut short, stray continuation bytes), cuts on character boundaries, the
 * characters refused in names, and JSON escaping that writes only valid UTF-8. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "utf8.h"

/* One byte sequence and whether it is UTF-8. */
struct seq {
    const char *s; /* the bytes */
    int valid;     /* 1 when UTF-8 */
};

static const struct seq seqs[] = {
    {"", 1},
    {"plain ASCII", 1},
    {"caf\xC3\xA9", 1},              /* é */
    {"\xE2\x82\xAC", 1},             /* € */
    {"\xF0\x9F\x98\x80", 1},         /* U+1F600 */
    {"\xF4\x8F\xBF\xBF", 1},         /* U+10FFFF, the last */
    {"\xED\x9F\xBF", 1},             /* U+D7FF, just below the surrogates */
    {"\xEE\x80\x80", 1},             /* U+E000, just above them */
    {"\xEF\xBF\xBF", 1},             /* U+FFFF (a noncharacter, but UTF-8) */
    {"\xC2\x80", 1},                 /* U+0080, the first two-byte one */
    {"\x80", 0},                     /* a stray continuation byte */
    {"A\xBF", 0},                    /* another */
    {"\xC0\xAF", 0},                 /* an overlong '/' */
    {"\xC1\xBF", 0},                 /* an overlong U+007F */
    {"\xE0\x80\xAF", 0},             /* an overlong '/' in three bytes */
    {"\xE0\x9F\xBF", 0},             /* an overlong U+07FF */
    {"\xF0\x80\x80\xAF", 0},         /* an overlong '/' in four bytes */
    {"\xF0\x8F\xBF\xBF", 0},         /* an overlong U+FFFF */
    {"\xED\xA0\x80", 0},             /* U+D800, a surrogate */
    {"\xED\xBF\xBF", 0},             /* U+DFFF */
    {"\xED\xA0\xBD\xED\xB8\x80", 0}, /* a surrogate pair in UTF-8 (CESU-8) */
    {"\xF4\x90\x80\x80", 0},         /* U+110000, beyond Unicode */
    {"\xF5\x80\x80\x80", 0},         /* lead bytes F5 to FF never occur */
    {"\xFF\xFE", 0},
    {"\xE2\x82", 0},     /* cut short */
    {"\xF0\x9F\x98", 0}, /* cut short */
    {"\xC3", 0},         /* cut short at the end */
    {"\xE2\x82x", 0},    /* cut short by a byte that does not continue it */
    {"\xC3\xA9\xC3", 0}, /* valid, then cut short */
};

Test(utf8, valid_and_invalid_sequences)
{
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++)
        cr_expect_eq(utf8_valid(seqs[i].s, strlen(seqs[i].s)), seqs[i].valid, "sequence %zu", i);
}

Test(utf8, a_nul_byte_is_utf8_and_the_length_counts)
{
    cr_assert_eq(utf8_valid("a\0b", 3), 1);
    cr_assert_eq(utf8_valid("\xC3\xA9", 1), 0, "the length cuts the sequence short");
}

Test(utf8, next_decodes_code_points)
{
    uint32_t cp = 0;
    cr_assert_eq(utf8_next("A", 1, &cp), 1);
    cr_assert_eq(cp, 0x41);
    cr_assert_eq(utf8_next("\xC3\xA9", 2, &cp), 2);
    cr_assert_eq(cp, 0xE9);
    cr_assert_eq(utf8_next("\xE2\x80\xAE", 3, &cp), 3);
    cr_assert_eq(cp, 0x202E);
    cr_assert_eq(utf8_next("\xF0\x9F\x98\x80", 4, &cp), 4);
    cr_assert_eq(cp, 0x1F600);
    cr_assert_eq(utf8_next("\xF0\x9F\x98\x80", 3, &cp), 0, "cut short by the length");
    cr_assert_eq(utf8_next("x", 0, &cp), 0);
}

Test(utf8, fit_cuts_on_character_boundaries)
{
    const char *s = "\xC3\xA9t\xC3\xA9"; /* été: 5 bytes */
    cr_assert_eq(utf8_fit(s, 0), 0);
    cr_assert_eq(utf8_fit(s, 1), 0, "half an é is not printed");
    cr_assert_eq(utf8_fit(s, 2), 2);
    cr_assert_eq(utf8_fit(s, 3), 3);
    cr_assert_eq(utf8_fit(s, 4), 3);
    cr_assert_eq(utf8_fit(s, 5), 5);
    cr_assert_eq(utf8_fit(s, 100), 5);
    cr_assert_eq(utf8_fit("\xF0\x9F\x98\x80\xF0\x9F\x98\x80", 7), 4);
    cr_assert_eq(utf8_fit("", 40), 0);
    cr_assert_eq(utf8_fit("abc", (size_t)-1), 3);
}

Test(utf8, fit_stops_before_invalid_bytes)
{
    cr_assert_eq(utf8_fit("ab\xFF\xFE", 40), 2);
    cr_assert_eq(utf8_fit("ab\xE2\x82", 40), 2, "a sequence cut short");
    cr_assert_eq(utf8_fit("\xC0\xAF", 40), 0, "an overlong");
    cr_assert_eq(utf8_fit("x\xED\xA0\x80y", 40), 1, "a surrogate");
}

Test(utf8, fit_with_printf)
{
    /* 41 bytes: 20 two-byte characters and an 'x'; %.40s would print 40 bytes. */
    char s[64] = "";
    for (int i = 0; i < 20; i++) memcpy(s + 2 * i, "\xC3\xA9", 2);
    s[40] = 'x';
    s[41] = '\0';
    const char *odd = "a\xC3\xA9\xC3\xA9"; /* 5 bytes: %.4s would cut the second é */
    char out[64];
    snprintf(out, sizeof out, "%.*s", utf8_fit(odd, 4), odd);
    cr_assert_str_eq(out, "a\xC3\xA9");
    cr_assert(utf8_valid(out, strlen(out)));
    snprintf(out, sizeof out, "%.*s", utf8_fit(s, 40), s);
    cr_assert_eq(strlen(out), 40);
}

Test(utf8, refused_in_names)
{
    static const uint32_t refused[] = {
        0x00,   0x07,   0x1F,   0x7F,    0x80,    0x85,    0x9F,    0xAD,    0x061C,
        0x180E, 0x200B, 0x200C, 0x200D,  0x200E,  0x200F,  0x2028,  0x2029,  0x202A,
        0x202B, 0x202C, 0x202D, 0x202E,  0x2060,  0x2066,  0x2067,  0x2068,  0x2069,
        0xFEFF, 0xFFF9, 0xFFFB, 0x110BD, 0x13430, 0x1BCA0, 0xE0001, 0xE0041, 0xE007F,
        0x0600, 0x0605, 0x06DD, 0x070F,  0x08E2,  0x1D173, 0x1D17A,
    };
    static const uint32_t allowed[] = {
        0x20,   0x41,   0x7E,   0xA0,    0xA9,    0xAC,    0xAE,    0xE9,     0x0606,
        0x061B, 0x200A, 0x2010, 0x2027,  0x202F,  0x205F,  0x2070,  0x3000,   0xFE0F,
        0xFEFE, 0xFF00, 0xFFFD, 0x1F600, 0x1F1E6, 0xE0080, 0xE0100, 0x10FFFF, 0x4E2D,
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
        cr_expect(utf8_refused_in_name(refused[i]), "U+%04X is refused", (unsigned)refused[i]);
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++)
        cr_expect(!utf8_refused_in_name(allowed[i]), "U+%04X is allowed", (unsigned)allowed[i]);
}

/* Issue 29, item 13: what shows nothing is not visible; what shows blank is a space. */
Test(utf8, visible_and_space)
{
    static const uint32_t invisible[] = {
        0x0020,   0x00A0, 0x3000, 0x115F, 0x1160, 0x3164, 0xFFA0,  0x2800, 0xFFFC,
        0x034F,   0x0300, 0x0301, 0x20DD, 0x1680, 0x2003, 0x202F,  0x205F, 0xE000,
        0x10FFFD, 0x0378, 0xFE0F, 0x200B, 0x0000, 0x00AD, 0xE0100, 0xD800,
    };
    static const uint32_t visible[] = {
        0x21,   0x41,   0x7E,   0xA1,   0xE9,   0x4E2D, 0x1F600, 0xFFFD, 0x2764,
        0x0661, 0x3001, 0x20AC, 0x1100, 0x3131, 0x2801, 0x0BF5,  0x30,
    };
    for (size_t i = 0; i < sizeof invisible / sizeof invisible[0]; i++)
        cr_expect(!utf8_visible(invisible[i]), "U+%04X is not visible", (unsigned)invisible[i]);
    for (size_t i = 0; i < sizeof visible / sizeof visible[0]; i++)
        cr_expect(utf8_visible(visible[i]), "U+%04X is visible", (unsigned)visible[i]);
    static const uint32_t spaces[] = {0x0020, 0x00A0, 0x1680, 0x2000, 0x200A, 0x202F, 0x205F,
                                      0x3000, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800};
    static const uint32_t not_spaces[] = {0x41, 0x034F, 0x0301, 0xFFFC, 0x200B, 0xFE0F, 0x2801};
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++)
        cr_expect(utf8_space(spaces[i]), "U+%04X is a space", (unsigned)spaces[i]);
    for (size_t i = 0; i < sizeof not_spaces / sizeof not_spaces[0]; i++)
        cr_expect(!utf8_space(not_spaces[i]), "U+%04X is no space", (unsigned)not_spaces[i]);
}

/* Escapes `s` into a buffer of `cap` bytes and returns it NUL-terminated (static). */
static const char *esc(const char *s, size_t cap, size_t *used)
{
    static char out[512];
    size_t n = utf8_json_escape(s, out, cap, used);
    cr_assert(n <= cap);
    out[n] = '\0';
    return out;
}

Test(utf8, json_escape)
{
    size_t used;
    cr_assert_str_eq(esc("plain", 100, &used), "plain");
    cr_assert_eq(used, 5);
    cr_assert_str_eq(esc("a\"b\\c", 100, &used), "a\\\"b\\\\c");
    cr_assert_str_eq(esc("tab\tnl\n\x01", 100, &used), "tab\\u0009nl\\u000a\\u0001");
    cr_assert_str_eq(esc("caf\xC3\xA9 \xE2\x82\xAC", 100, &used), "caf\xC3\xA9 \xE2\x82\xAC");
    cr_assert_str_eq(esc("\x7F\xC2\x85", 100, &used), "\x7F\xC2\x85", "valid JSON as it is");
}

Test(utf8, json_escape_replaces_invalid_bytes)
{
    size_t used;
    cr_assert_str_eq(esc("/v1/games/\xFF\xFE", 100, &used), "/v1/games/\\ufffd\\ufffd");
    cr_assert_eq(used, 12);
    cr_assert_str_eq(esc("\xC0\xAF", 100, &used), "\\ufffd\\ufffd", "an overlong");
    cr_assert_str_eq(esc("\xED\xA0\x80!", 100, &used), "\\ufffd\\ufffd\\ufffd!", "a surrogate");
    cr_assert_str_eq(esc("a\xE2\x82", 100, &used), "a\\ufffd\\ufffd", "cut short");
    for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
        const char *out = esc(seqs[i].s, 500, &used);
        cr_expect(utf8_valid(out, strlen(out)), "sequence %zu escaped", i);
        cr_expect_eq(used, strlen(seqs[i].s));
    }
}

Test(utf8, json_escape_never_cuts_in_half)
{
    size_t used;
    /* é is 2 bytes, \u0001 6, \ufffd 6: each fits whole or not at all. */
    cr_assert_str_eq(esc("a\xC3\xA9", 2, &used), "a");
    cr_assert_eq(used, 1);
    cr_assert_str_eq(esc("a\xC3\xA9", 3, &used), "a\xC3\xA9");
    cr_assert_eq(used, 3);
    cr_assert_str_eq(esc("a\x01", 6, &used), "a");
    cr_assert_str_eq(esc("a\xFF", 6, &used), "a");
    cr_assert_str_eq(esc("a\xFF", 7, &used), "a\\ufffd");
    cr_assert_str_eq(esc("\"", 1, &used), "");
    cr_assert_eq(used, 0);
}

Test(utf8, long_texts_with_a_bad_byte_anywhere)
{
    /* ASCII is read eight bytes at a time: a bad byte at any offset is still found. */
    char s[64];
    for (size_t at = 0; at < 40; at++) {
        memset(s, 'a', 40);
        cr_assert(utf8_valid(s, 40));
        s[at] = (char)0xFF;
        cr_expect(!utf8_valid(s, 40), "0xFF at %zu", at);
        s[at] = (char)0xC3; /* a lead byte: valid only with its continuation */
        if (at + 1 < 40) {
            s[at + 1] = (char)0xA9;
            cr_expect(utf8_valid(s, 40), "é at %zu", at);
        } else {
            cr_expect(!utf8_valid(s, 40), "a lead byte last");
        }
    }
}
