/* buf_test.c: the bounded buffer: growth, the limit (at it, one past it), formatted text,
 * take, truncate, reset, free; the sanitizer run checks every byte it touches. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

/* `n` bytes of a pattern that shows misplaced copies: 'a' + i % 26. */
static char *pattern(size_t n)
{
    char *p = malloc(n + 1);
    cr_assert(p);
    for (size_t i = 0; i < n; i++) p[i] = (char)('a' + i % 26);
    p[n] = '\0';
    return p;
}

Test(buf, starts_empty_and_allocates_nothing)
{
    struct buf b;
    buf_init(&b, 100);
    cr_assert_eq(buf_len(&b), 0);
    cr_assert_str_eq(buf_ptr(&b), "");
    cr_assert_eq(buf_err(&b), BUF_OK);
    cr_assert_null(b.p);
    cr_assert_eq(buf_add(&b, "", 0), BUF_OK); /* an empty append needs no memory */
    cr_assert_null(b.p);
    buf_free(&b);
}

Test(buf, grows_by_many_small_and_large_appends)
{
    struct buf b;
    buf_init(&b, 1u << 20);
    char *want = pattern(300000);
    size_t at = 0;
    /* Pieces of 1, 2, ... 1000 bytes, then one big one: every growth step is crossed. */
    for (size_t k = 1; at + k <= 200000; k = k % 1000 + 1) {
        cr_assert_eq(buf_add(&b, want + at, k), BUF_OK);
        at += k;
    }
    cr_assert_eq(buf_add(&b, want + at, 300000 - at), BUF_OK);
    cr_assert_eq(buf_len(&b), 300000);
    cr_assert_eq(memcmp(buf_ptr(&b), want, 300000), 0);
    cr_assert_eq(buf_ptr(&b)[300000], '\0');
    cr_assert_leq(b.cap, (1u << 20) + 1);
    free(want);
    buf_free(&b);
}

Test(buf, holds_nul_bytes)
{
    struct buf b;
    buf_init(&b, 16);
    cr_assert_eq(buf_add(&b, "a\0b", 3), BUF_OK);
    cr_assert_eq(buf_len(&b), 3);
    cr_assert_eq(memcmp(buf_ptr(&b), "a\0b", 4), 0);
    buf_free(&b);
}

Test(buf, exactly_at_the_limit_fits)
{
    struct buf b;
    buf_init(&b, 5000);
    char *want = pattern(5000);
    cr_assert_eq(buf_add(&b, want, 4999), BUF_OK);
    cr_assert_eq(buf_adds(&b, "z"), BUF_OK);
    cr_assert_eq(buf_len(&b), 5000);
    cr_assert_eq(b.cap, 5001); /* capped: never more than the limit and the NUL */
    cr_assert_eq(buf_add(&b, "", 0), BUF_OK);
    size_t len = 0;
    char *s = buf_take(&b, &len);
    cr_assert_not_null(s);
    cr_assert_eq(len, 5000);
    cr_assert_eq(memcmp(s, want, 4999), 0);
    cr_assert_str_eq(s + 4999, "z");
    free(s);
    free(want);
}

Test(buf, one_past_the_limit_fails_and_keeps_the_text)
{
    struct buf b;
    buf_init(&b, 10);
    cr_assert_eq(buf_adds(&b, "0123456789"), BUF_OK);
    cr_assert_eq(buf_adds(&b, "x"), BUF_TOO_BIG);
    cr_assert_eq(buf_err(&b), BUF_TOO_BIG);
    cr_assert_str_eq(buf_ptr(&b), "0123456789");
    cr_assert_eq(buf_len(&b), 10);
    /* Remembered: nothing is added after it, not even what would fit. */
    buf_truncate(&b, 4);
    cr_assert_eq(buf_adds(&b, "x"), BUF_TOO_BIG);
    cr_assert_str_eq(buf_ptr(&b), "0123");
    size_t len = 99;
    cr_assert_null(buf_take(&b, &len));
    cr_assert_eq(len, 0);
    /* Taken (or failed), it is empty, usable, with the same limit. */
    cr_assert_eq(buf_err(&b), BUF_OK);
    cr_assert_eq(buf_adds(&b, "0123456789"), BUF_OK);
    cr_assert_eq(buf_adds(&b, "x"), BUF_TOO_BIG);
    buf_free(&b);
}

/* Adding `n` bytes (`formatted`: through buf_addf) to the empty buffer `b`, past its limit,
 * is refused and leaves it empty, with nothing allocated for it when it had nothing; frees
 * `b`. */
static void too_big_leaves_empty(struct buf *b, size_t n, int formatted)
{
    int had_room = b->p != NULL;
    char *text = pattern(n);
    cr_assert_eq(formatted ? buf_addf(b, "%s", text) : buf_add(b, text, n), BUF_TOO_BIG);
    if (!had_room) cr_assert_null(b->p);
    cr_assert_str_eq(buf_ptr(b), "");
    free(text);
    buf_free(b);
}

Test(buf, one_big_append_past_the_limit_on_an_empty_buffer)
{
    struct buf b;
    buf_init(&b, 4096);
    too_big_leaves_empty(&b, 4097, 0);
}

Test(buf, a_huge_length_does_not_overflow)
{
    struct buf b;
    buf_init(&b, 100);
    cr_assert_eq(buf_adds(&b, "abc"), BUF_OK);
    cr_assert_eq(buf_add(&b, "x", SIZE_MAX), BUF_TOO_BIG);
    cr_assert_eq(buf_add(&b, "x", SIZE_MAX - 2), BUF_TOO_BIG);
    cr_assert_str_eq(buf_ptr(&b), "abc");
    buf_free(&b);
}

Test(buf, limit_zero_takes_nothing)
{
    struct buf b;
    buf_init(&b, 0);
    cr_assert_eq(buf_add(&b, "", 0), BUF_OK);
    cr_assert_eq(buf_adds(&b, "a"), BUF_TOO_BIG);
    cr_assert_eq(buf_addf(&b, "%d", 1), BUF_TOO_BIG);
    cr_assert_null(b.p);
    buf_free(&b);
}

Test(buf, formatted)
{
    struct buf b;
    buf_init(&b, 1u << 16);
    cr_assert_eq(buf_addf(&b, "%s=%d;", "x", 42), BUF_OK);
    cr_assert_eq(buf_addf(&b, "%05.1f|%c", 2.25, 'q'), BUF_OK);
    cr_assert_str_eq(buf_ptr(&b), "x=42;002.2|q");
    /* Longer than any room there is: measured, grown, written again. */
    char *long_text = pattern(5000);
    cr_assert_eq(buf_addf(&b, "[%s]", long_text), BUF_OK);
    cr_assert_eq(buf_len(&b), 12 + 5002);
    cr_assert_eq(memcmp(buf_ptr(&b) + 13, long_text, 5000), 0);
    cr_assert_str_eq(buf_ptr(&b) + 13 + 5000, "]");
    cr_assert_eq(buf_addf(&b, "%s", ""), BUF_OK);
    cr_assert_eq(buf_len(&b), 5014);
    free(long_text);
    buf_free(&b);
}

Test(buf, put_formatted_remembers_the_failure)
{
    struct buf b;
    buf_init(&b, 8);
    buf_putf(&b, "%d-%s", 12, "ab");
    cr_assert_str_eq(buf_ptr(&b), "12-ab");
    buf_putf(&b, "%s", "long"); /* past the limit: not added, remembered */
    cr_assert_eq(buf_err(&b), BUF_TOO_BIG);
    buf_putf(&b, "%s", "x");
    cr_assert_str_eq(buf_ptr(&b), "12-ab");
    cr_assert_null(buf_take(&b, NULL));
    buf_free(&b);
}

Test(buf, formatted_past_the_limit_adds_no_part)
{
    struct buf b;
    buf_init(&b, 20);
    cr_assert_eq(buf_adds(&b, "0123456789"), BUF_OK); /* room allocated: 21 bytes */
    cr_assert_eq(buf_addf(&b, "%s", "abcdefghij"), BUF_OK);
    cr_assert_eq(buf_len(&b), 20);
    buf_reset(&b);
    cr_assert_eq(buf_adds(&b, "0123456789"), BUF_OK);
    /* 11 bytes: vsnprintf() writes 10 of them into the room, the text must not keep them. */
    cr_assert_eq(buf_addf(&b, "%s!", "abcdefghij"), BUF_TOO_BIG);
    cr_assert_str_eq(buf_ptr(&b), "0123456789");
    cr_assert_eq(buf_len(&b), 10);
    cr_assert_null(buf_take(&b, NULL));
    too_big_leaves_empty(&b, 100, 1);
}

Test(buf, take_hands_over_and_empties)
{
    struct buf b;
    buf_init(&b, 1000);
    cr_assert_eq(buf_adds(&b, "hello"), BUF_OK);
    size_t len = 0;
    char *s = buf_take(&b, &len);
    cr_assert_str_eq(s, "hello");
    cr_assert_eq(len, 5);
    cr_assert_null(b.p);
    cr_assert_eq(buf_len(&b), 0);
    cr_assert_eq(b.max, 1000);
    /* The buffer writes a new text; the one taken stays the caller's. */
    cr_assert_eq(buf_adds(&b, "world"), BUF_OK);
    cr_assert_str_eq(s, "hello");
    free(s);
    /* Nothing appended: an empty string of the caller's, not NULL. */
    buf_free(&b);
    s = buf_take(&b, &len);
    cr_assert_not_null(s);
    cr_assert_str_eq(s, "");
    cr_assert_eq(len, 0);
    free(s);
    s = buf_take(&b, NULL);
    cr_assert_str_eq(s, "");
    free(s);
}

Test(buf, truncate_undoes_appends)
{
    struct buf b;
    buf_init(&b, 100);
    cr_assert_eq(buf_adds(&b, "keep"), BUF_OK);
    size_t mark = buf_len(&b);
    cr_assert_eq(buf_adds(&b, " and drop"), BUF_OK);
    buf_truncate(&b, mark);
    cr_assert_str_eq(buf_ptr(&b), "keep");
    cr_assert_eq(buf_adds(&b, "!"), BUF_OK);
    cr_assert_str_eq(buf_ptr(&b), "keep!");
    buf_truncate(&b, 0);
    cr_assert_str_eq(buf_ptr(&b), "");
    buf_free(&b);
}

Test(buf, reset_forgets_the_failure_and_keeps_the_memory)
{
    struct buf b;
    buf_init(&b, 8);
    cr_assert_eq(buf_adds(&b, "12345678"), BUF_OK);
    cr_assert_eq(buf_adds(&b, "9"), BUF_TOO_BIG);
    char *mem = b.p;
    buf_reset(&b);
    cr_assert_eq(buf_err(&b), BUF_OK);
    cr_assert_eq(buf_len(&b), 0);
    cr_assert_str_eq(buf_ptr(&b), "");
    cr_assert_eq(b.p, mem);
    cr_assert_eq(buf_adds(&b, "abc"), BUF_OK);
    cr_assert_str_eq(buf_ptr(&b), "abc");
    buf_reset(&b);
    buf_reset(&b);
    buf_free(&b);
    buf_reset(&b); /* on a freed (empty) buffer too */
    cr_assert_str_eq(buf_ptr(&b), "");
}

Test(buf, free_takes_null_and_leaves_a_usable_buffer)
{
    buf_free(NULL);
    struct buf b;
    buf_init(&b, 50);
    buf_free(&b); /* never allocated */
    cr_assert_eq(buf_adds(&b, "x"), BUF_OK);
    buf_free(&b);
    cr_assert_null(b.p);
    cr_assert_eq(buf_len(&b), 0);
    cr_assert_eq(b.max, 50);
    cr_assert_eq(buf_adds(&b, "again"), BUF_OK);
    cr_assert_str_eq(buf_ptr(&b), "again");
    buf_free(&b);
    buf_free(&b); /* twice */
}

Test(buf, room_then_added)
{
    struct buf b;
    buf_init(&b, 10);
    char *d = buf_room(&b, 4);
    cr_assert_not_null(d);
    memcpy(d, "abcd", 4);
    buf_added(&b, 3); /* fewer than asked for */
    cr_assert_str_eq(buf_ptr(&b), "abc");
    d = buf_room(&b, 7); /* exactly up to the limit */
    cr_assert_not_null(d);
    memcpy(d, "defghij", 7);
    buf_added(&b, 7);
    cr_assert_str_eq(buf_ptr(&b), "abcdefghij");
    cr_assert_null(buf_room(&b, 1)); /* one past it */
    cr_assert_eq(buf_err(&b), BUF_TOO_BIG);
    cr_assert_str_eq(buf_ptr(&b), "abcdefghij");
    buf_reset(&b);
    cr_assert_not_null(buf_room(&b, 0));
    buf_added(&b, 0);
    cr_assert_str_eq(buf_ptr(&b), "");
    buf_free(&b);
}
