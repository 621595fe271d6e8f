/* netaddr_test.c: the special-purpose address tables, edge by edge: the first and last
 * address of every range refused, the addresses just outside it allowed (unless a
 * neighbouring range takes them); embedded IPv4 judged by the IPv4 table; this host's own
 * interface addresses; parsing of literals. */
#include <arpa/inet.h>
#include <criterion/criterion.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "netaddr.h"

/* An address and whether a webhook must be refused it (1) or may reach it (0). */
struct addr_case {
    const char *ip;
    int special;
};

static const struct addr_case v4_cases[] = {
    /* 0.0.0.0/8 */
    {"0.0.0.0", 1},
    {"0.255.255.255", 1},
    {"1.0.0.0", 0},
    /* 10.0.0.0/8 */
    {"9.255.255.255", 0},
    {"10.0.0.0", 1},
    {"10.255.255.255", 1},
    {"11.0.0.0", 0},
    /* 100.64.0.0/10 */
    {"100.63.255.255", 0},
    {"100.64.0.0", 1},
    {"100.127.255.255", 1},
    {"100.128.0.0", 0},
    /* 127.0.0.0/8 */
    {"126.255.255.255", 0},
    {"127.0.0.0", 1},
    {"127.0.0.1", 1},
    {"127.255.255.255", 1},
    {"128.0.0.0", 0},
    /* 169.254.0.0/16 */
    {"169.253.255.255", 0},
    {"169.254.0.0", 1},
    {"169.254.169.254", 1},
    {"169.254.255.255", 1},
    {"169.255.0.0", 0},
    /* 172.16.0.0/12 */
    {"172.15.255.255", 0},
    {"172.16.0.0", 1},
    {"172.31.255.255", 1},
    {"172.32.0.0", 0},
    /* 192.0.0.0/24, then 192.0.2.0/24 */
    {"191.255.255.255", 0},
    {"192.0.0.0", 1},
    {"192.0.0.9", 1},
    {"192.0.0.170", 1},
    {"192.0.0.255", 1},
    {"192.0.1.0", 0},
    {"192.0.1.255", 0},
    {"192.0.2.0", 1},
    {"192.0.2.255", 1},
    {"192.0.3.0", 0},
    /* 192.31.196.0/24 */
    {"192.31.195.255", 0},
    {"192.31.196.0", 1},
    {"192.31.196.255", 1},
    {"192.31.197.0", 0},
    /* 192.52.193.0/24 */
    {"192.52.192.255", 0},
    {"192.52.193.0", 1},
    {"192.52.193.255", 1},
    {"192.52.194.0", 0},
    /* 192.88.99.0/24 */
    {"192.88.98.255", 0},
    {"192.88.99.0", 1},
    {"192.88.99.255", 1},
    {"192.88.100.0", 0},
    /* 192.168.0.0/16 */
    {"192.167.255.255", 0},
    {"192.168.0.0", 1},
    {"192.168.255.255", 1},
    {"192.169.0.0", 0},
    /* 192.175.48.0/24 */
    {"192.175.47.255", 0},
    {"192.175.48.0", 1},
    {"192.175.48.255", 1},
    {"192.175.49.0", 0},
    /* 198.18.0.0/15 */
    {"198.17.255.255", 0},
    {"198.18.0.0", 1},
    {"198.19.255.255", 1},
    {"198.20.0.0", 0},
    /* 198.51.100.0/24 */
    {"198.51.99.255", 0},
    {"198.51.100.0", 1},
    {"198.51.100.255", 1},
    {"198.51.101.0", 0},
    /* 203.0.113.0/24 */
    {"203.0.112.255", 0},
    {"203.0.113.0", 1},
    {"203.0.113.255", 1},
    {"203.0.114.0", 0},
    /* 224.0.0.0/4 and 240.0.0.0/4 (with the broadcast address) up to the end */
    {"223.255.255.255", 0},
    {"224.0.0.0", 1},
    {"239.255.255.255", 1},
    {"240.0.0.0", 1},
    {"255.255.255.254", 1},
    {"255.255.255.255", 1},
    /* public addresses */
    {"8.8.8.8", 0},
    {"1.1.1.1", 0},
    {"93.184.216.34", 0},
};

static const struct addr_case v6_cases[] = {
    /* ::/128, ::1/128 */
    {"::", 1},
    {"::1", 1},
    {"::2", 1},
    /* IPv4-compatible ::/96, by the IPv4 address it carries */
    {"::127.0.0.1", 1},
    {"::10.0.0.1", 1},
    {"::192.168.1.1", 1},
    {"::8.8.8.8", 0},
    {"::255.255.255.255", 1},
    {"::1:0:0", 1}, /* ::1:0:0 is outside ::/96: not 2000::/3 */
    /* IPv4-mapped ::ffff:0:0/96 */
    {"::ffff:127.0.0.1", 1},
    {"::ffff:0.0.0.0", 1},
    {"::ffff:10.1.2.3", 1},
    {"::ffff:169.254.169.254", 1},
    {"::ffff:8.8.8.8", 0},
    {"::ffff:255.255.255.255", 1},
    {"::fffe:8.8.8.8", 1},
    {"::1:ffff:8.8.8.8", 1},
    /* IPv4-translated ::ffff:0:0:0/96 */
    {"::ffff:0:127.0.0.1", 1},
    {"::ffff:0:192.168.0.1", 1},
    {"::ffff:0:8.8.8.8", 0},
    {"::ffff:1:8.8.8.8", 1},
    /* NAT64 64:ff9b::/96 */
    {"64:ff9b::127.0.0.1", 1},
    {"64:ff9b::10.0.0.1", 1},
    {"64:ff9b::198.18.0.1", 1},
    {"64:ff9b::8.8.8.8", 0},
    {"64:ff9b::1:8.8.8.8", 1},
    {"64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    /* 64:ff9b:1::/48 */
    {"64:ff9b:1::", 1},
    {"64:ff9b:1:ffff:ffff:ffff:ffff:ffff", 1},
    {"64:ff9b:2::", 1},
    /* 100::/64 */
    {"100::", 1},
    {"100::ffff:ffff:ffff:ffff", 1},
    {"100:0:0:1::", 1},
    /* 2000::/3 begins; 2001::/23 */
    {"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"2000::", 0},
    {"2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 0},
    {"2001::", 1},
    {"2001:0:4136:e378::1", 1},
    {"2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"2001:200::", 0},
    /* 2001:db8::/32 */
    {"2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", 0},
    {"2001:db8::", 1},
    {"2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"2001:db9::", 0},
    /* 6to4 2002::/16, by the IPv4 address it carries */
    {"2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 0},
    {"2002::", 1},
    {"2002:7f00:1::", 1},
    {"2002:a00:1::1", 1},
    {"2002:c0a8:101::1", 1},
    {"2002:c612:1::", 1},
    {"2002:808:808::1", 0},
    {"2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"2003::", 0},
    /* 2620:4f:8000::/48 */
    {"2620:4f:7fff:ffff:ffff:ffff:ffff:ffff", 0},
    {"2620:4f:8000::", 1},
    {"2620:4f:8000:ffff:ffff:ffff:ffff:ffff", 1},
    {"2620:4f:8001::", 0},
    /* 3fff::/20, then the end of 2000::/3 */
    {"3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 0},
    {"3fff::", 1},
    {"3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"3fff:1000::", 0},
    {"3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 0},
    {"4000::", 1},
    /* 5f00::/16 */
    {"5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"5f00::", 1},
    {"5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    /* fc00::/7 */
    {"fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"fc00::", 1},
    {"fd12:3456::1", 1},
    {"fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    /* fe80::/10, fec0::/10 */
    {"fe80::", 1},
    {"fe80::1", 1},
    {"febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    {"fec0::", 1},
    {"feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    /* ff00::/8 */
    {"ff00::", 1},
    {"ff02::1", 1},
    {"ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 1},
    /* public addresses */
    {"2606:4700:4700::1111", 0},
    {"2a00:1450:4001:80b::200e", 0},
    {"2400:cb00::1", 0},
};

Test(netaddr, ipv4_range_edges)
{
    for (size_t i = 0; i < sizeof v4_cases / sizeof v4_cases[0]; i++) {
        struct in_addr a;
        cr_assert_eq(inet_pton(AF_INET, v4_cases[i].ip, &a), 1, "%s", v4_cases[i].ip);
        const char *why = netaddr_special4(ntohl(a.s_addr));
        cr_expect_eq(why != NULL, v4_cases[i].special, "%s: %s", v4_cases[i].ip,
                     why ? why : "public");
    }
}

Test(netaddr, ipv6_range_edges)
{
    for (size_t i = 0; i < sizeof v6_cases / sizeof v6_cases[0]; i++) {
        struct in6_addr a;
        cr_assert_eq(inet_pton(AF_INET6, v6_cases[i].ip, &a), 1, "%s", v6_cases[i].ip);
        const char *why = netaddr_special6(a.s6_addr);
        cr_expect_eq(why != NULL, v6_cases[i].special, "%s: %s", v6_cases[i].ip,
                     why ? why : "public");
    }
}

Test(netaddr, socket_addresses_and_literals)
{
    static const struct {
        const char *lit;
        int special;
    } lits[] = {{"127.0.0.1", 1},        {"[::1]", 1},   {"::ffff:10.0.0.1", 1},
                {"[64:ff9b::a00:1]", 1}, {"8.8.8.8", 0}, {"[2606:4700::1]", 0}};
    for (size_t i = 0; i < sizeof lits / sizeof lits[0]; i++) {
        struct sockaddr_storage ss;
        int rc = netaddr_parse(lits[i].lit, &ss);
        cr_expect_eq(rc, 0, "parse %s", lits[i].lit);
        if (rc == 0)
            cr_expect_eq(netaddr_special((const struct sockaddr *)&ss) != NULL, lits[i].special,
                         "%s", lits[i].lit);
    }
    /* Not socket addresses: they do not parse. */
    static const char *const bad[] = {"example.com", "[127.0.0.1]", "1.2.3", "[fe80::1%25eth0]", "",
                                      "[]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct sockaddr_storage ss;
        cr_expect_neq(netaddr_parse(bad[i], &ss), 0, "parse %s", bad[i]);
    }
    struct sockaddr_un_like {
        sa_family_t family;
        char rest[30];
    } other = {AF_UNIX, {0}};
    cr_expect(netaddr_special((const struct sockaddr *)&other) != NULL, "AF_UNIX refused");
    struct sockaddr_storage pub;
    cr_assert_eq(netaddr_parse("8.8.8.8", &pub), 0);
    cr_expect_null(netaddr_refused((const struct sockaddr *)&pub), "8.8.8.8 is refused");
}

Test(netaddr, own_interface_addresses)
{
    struct ifaddrs *ifs = NULL;
    cr_assert_eq(getifaddrs(&ifs), 0);
    int seen = 0;
    for (const struct ifaddrs *i = ifs; i; i = i->ifa_next) {
        if (!i->ifa_addr ||
            (i->ifa_addr->sa_family != AF_INET && i->ifa_addr->sa_family != AF_INET6))
            continue;
        char txt[INET6_ADDRSTRLEN] = "";
        const void *raw =
            i->ifa_addr->sa_family == AF_INET
                ? (const void *)&((const struct sockaddr_in *)i->ifa_addr)->sin_addr
                : (const void *)&((const struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
        inet_ntop(i->ifa_addr->sa_family, raw, txt, sizeof txt);
        cr_expect_eq(netaddr_own(i->ifa_addr), 1, "%s (%s) is not own", txt, i->ifa_name);
        cr_expect_not_null(netaddr_refused(i->ifa_addr), "%s (%s) may be reached", txt,
                           i->ifa_name);
        if (i->ifa_addr->sa_family == AF_INET) {
            /* Also as an IPv4-mapped IPv6 address. */
            struct sockaddr_in6 m;
            memset(&m, 0, sizeof m);
            m.sin6_family = AF_INET6;
            m.sin6_addr.s6_addr[10] = m.sin6_addr.s6_addr[11] = 0xff;
            memcpy(&m.sin6_addr.s6_addr[12], raw, 4);
            cr_expect_eq(netaddr_own((const struct sockaddr *)&m), 1, "::ffff:%s", txt);
        }
        seen++;
    }
    freeifaddrs(ifs);
    cr_expect(seen > 0, "no interface addresses (not even loopback)");
    struct sockaddr_storage pub;
    cr_assert_eq(netaddr_parse("192.0.2.77", &pub), 0);
    cr_expect_eq(netaddr_own((const struct sockaddr *)&pub), 0, "a TEST-NET address is own");
}

/* The owner key of a client address (games.owner, 0020): IPv4 as it is, an IPv4-mapped
 * IPv6 address as its IPv4 one, an IPv6 address by its /64; nothing for other families. */
Test(netaddr, owner_keys)
{
    struct sockaddr_storage ss;
    char key[NETADDR_KEY_MAX];
    cr_assert_eq(netaddr_parse("127.0.0.2", &ss), 0);
    cr_expect_str_eq(netaddr_key((struct sockaddr *)&ss, key, sizeof key), "127.0.0.2");
    cr_assert_eq(netaddr_parse("::ffff:192.0.2.7", &ss), 0);
    cr_expect_str_eq(netaddr_key((struct sockaddr *)&ss, key, sizeof key), "192.0.2.7");
    cr_assert_eq(netaddr_parse("2001:db8:1:2:aaaa:bbbb:cccc:dddd", &ss), 0);
    cr_expect_str_eq(netaddr_key((struct sockaddr *)&ss, key, sizeof key), "2001:db8:1:2::/64");
    cr_assert_eq(netaddr_parse("2001:db8:1:2::1", &ss), 0);
    cr_expect_str_eq(netaddr_key((struct sockaddr *)&ss, key, sizeof key), "2001:db8:1:2::/64",
                     "one /64, one owner");
    cr_assert_eq(netaddr_parse("2001:db8::9", &ss), 0);
    cr_expect_str_eq(netaddr_key((struct sockaddr *)&ss, key, sizeof key), "2001:db8::/64");
    cr_expect_null(netaddr_key(NULL, key, sizeof key));
    struct sockaddr_storage un = {.ss_family = AF_UNIX};
    cr_expect_null(netaddr_key((struct sockaddr *)&un, key, sizeof key));
    cr_expect_null(netaddr_key((struct sockaddr *)&ss, key, 8), "a buffer too short");
}
