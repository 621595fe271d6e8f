/* ratelimit_test.c: the rate limiter: a burst, then refusals with a wait; addresses apart
 * (IPv4 and IPv6); the table stays its size, forgetting the stalest address of a full set;
 * off when the rate is 0; a limiter of its own (struct ratelimit) with a fractional rate. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "ratelimit.h"

static struct sockaddr_in v4(const char *ip)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    inet_pton(AF_INET, ip, &a.sin_addr);
    return a;
}

static int take(const char *ip)
{
    struct sockaddr_in a = v4(ip);
    return ratelimit_take((const struct sockaddr *)&a);
}

Test(ratelimit, off_when_the_rate_is_zero)
{
    cr_assert_eq(ratelimit_init(0, 10, 64), 0);
    for (int i = 0; i < 1000; i++) cr_assert_eq(take("10.0.0.1"), 0);
    ratelimit_free();
}

Test(ratelimit, a_burst_then_a_wait)
{
    cr_assert_eq(ratelimit_init(1, 3, 64), 0);
    for (int i = 0; i < 3; i++) cr_assert_eq(take("10.0.0.1"), 0, "request %d", i);
    int wait = take("10.0.0.1");
    cr_assert(wait >= 1 && wait <= 1, "wait %d", wait);
    /* Another address has its own bucket. */
    cr_assert_eq(take("10.0.0.2"), 0);
    ratelimit_free();
}

Test(ratelimit, ipv6_and_ipv4_apart)
{
    cr_assert_eq(ratelimit_init(1, 1, 64), 0);
    struct sockaddr_in6 a;
    memset(&a, 0, sizeof a);
    a.sin6_family = AF_INET6;
    inet_pton(AF_INET6, "2001:db8::1", &a.sin6_addr);
    cr_assert_eq(ratelimit_take((const struct sockaddr *)&a), 0);
    cr_assert_gt(ratelimit_take((const struct sockaddr *)&a), 0);
    cr_assert_eq(take("10.0.0.1"), 0);
    cr_assert_gt(take("10.0.0.1"), 0);
    /* No address (or another family) always passes. */
    cr_assert_eq(ratelimit_take(NULL), 0);
    ratelimit_free();
}

Test(ratelimit, a_full_table_forgets_the_stalest)
{
    /* One set of 8: the ninth address takes the place of the one seen least recently. */
    cr_assert_eq(ratelimit_init(1, 1, 8), 0);
    char ip[32];
    for (int i = 0; i < 8; i++) {
        snprintf(ip, sizeof ip, "10.0.1.%d", i);
        cr_assert_eq(take(ip), 0);
        cr_assert_gt(take(ip), 0, "%s is limited", ip);
    }
    cr_assert_eq(take("10.0.2.1"), 0); /* new: forgets 10.0.1.0 */
    cr_assert_eq(take("10.0.1.0"), 0); /* forgotten, so a full bucket again (forgets .1) */
    cr_assert_gt(take("10.0.1.2"), 0); /* still remembered: still limited */
    /* Thousands of addresses: the table never grows, each is limited while remembered. */
    for (int i = 0; i < 5000; i++) {
        snprintf(ip, sizeof ip, "10.1.%d.%d", i / 256, i % 256);
        cr_assert_eq(take(ip), 0);
    }
    ratelimit_free();
}

Test(ratelimit, a_limiter_of_its_own_with_a_fractional_rate)
{
    /* One every 2 s, 2 at once: the creation limit's kind (CREATE_LIMIT_PER_MINUTE=30). */
    struct ratelimit *rl = ratelimit_new(30 / 60.0, 2, 64);
    cr_assert_not_null(rl);
    struct sockaddr_in a = v4("10.0.0.9");
    for (int i = 0; i < 2; i++)
        cr_assert_eq(ratelimit_take_from(rl, (const struct sockaddr *)&a), 0, "creation %d", i);
    int wait = ratelimit_take_from(rl, (const struct sockaddr *)&a);
    cr_assert(wait == 2, "wait %d", wait);
    /* Apart from the limiter of all requests, which is off. */
    cr_assert_eq(take("10.0.0.9"), 0);
    ratelimit_delete(rl);
    /* Off: no limiter, every request passes. */
    cr_assert_null(ratelimit_new(0, 10, 64));
    cr_assert_eq(ratelimit_take_from(NULL, (const struct sockaddr *)&a), 0);
}
