/* netaddr.c: the special-purpose address tables and this host's own addresses.
 *
 * The tables follow IANA's IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890),
 * every row of them refused: none is where a webhook receiver lives, even those the
 * registry marks globally reachable (anycast services, AS112). Multicast (its own
 * registries) and the reserved IPv4 block are added. For IPv6, anything outside 2000::/3
 * (IANA's IPv6 Address Space: the only block allocated as global unicast) is refused too,
 * except the forms that embed an IPv4 address, which are judged by it.
 */
#include "netaddr.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A row of the IPv4 table. */
struct range4 {
    uint32_t net;     /* first address, host byte order */
    int len;          /* prefix length */
    const char *name; /* what it is, and where it is defined */
};

/* IANA IPv4 Special-Purpose Address Registry, in address order, plus multicast. */
static const struct range4 table4[] = {
    {0x00000000u, 8, "this network (RFC 791)"},                      /* 0.0.0.0/8 */
    {0x0a000000u, 8, "private-use (RFC 1918)"},                      /* 10.0.0.0/8 */
    {0x64400000u, 10, "shared address space (RFC 6598)"},            /* 100.64.0.0/10 */
    {0x7f000000u, 8, "loopback (RFC 1122)"},                         /* 127.0.0.0/8 */
    {0xa9fe0000u, 16, "link-local (RFC 3927)"},                      /* 169.254.0.0/16 */
    {0xac100000u, 12, "private-use (RFC 1918)"},                     /* 172.16.0.0/12 */
    {0xc0000000u, 24, "IETF protocol assignments (RFC 6890)"},       /* 192.0.0.0/24 */
    {0xc0000200u, 24, "documentation TEST-NET-1 (RFC 5737)"},        /* 192.0.2.0/24 */
    {0xc01fc400u, 24, "AS112-v4 (RFC 7535)"},                        /* 192.31.196.0/24 */
    {0xc034c100u, 24, "AMT (RFC 7450)"},                             /* 192.52.193.0/24 */
    {0xc0586300u, 24, "deprecated 6to4 relay anycast (RFC 7526)"},   /* 192.88.99.0/24 */
    {0xc0a80000u, 16, "private-use (RFC 1918)"},                     /* 192.168.0.0/16 */
    {0xc0af3000u, 24, "direct delegation AS112 service (RFC 7534)"}, /* 192.175.48.0/24 */
    {0xc6120000u, 15, "benchmarking (RFC 2544)"},                    /* 198.18.0.0/15 */
    {0xc6336400u, 24, "documentation TEST-NET-2 (RFC 5737)"},        /* 198.51.100.0/24 */
    {0xcb007100u, 24, "documentation TEST-NET-3 (RFC 5737)"},        /* 203.0.113.0/24 */
    {0xe0000000u, 4, "multicast (RFC 5771)"},                        /* 224.0.0.0/4 */
    {0xf0000000u, 4, "reserved (RFC 1112)"}, /* 240.0.0.0/4, with 255.255.255.255 (RFC 919) */
};

/* A row of the IPv6 table. */
struct range6 {
    uint8_t net[16];  /* first address */
    int len;          /* prefix length */
    const char *name; /* what it is, and where it is defined */
    int v4;           /* byte offset of an embedded IPv4 address that decides, or -1 */
};

/*
 * IANA IPv6 Special-Purpose Address Registry, plus multicast and the deprecated
 * site-local block; the first row that matches decides (so the more specific come first).
 */
static const struct range6 table6[] = {
    {{0}, 128, "unspecified (RFC 4291)", -1},                            /* ::/128 */
    {{[15] = 1}, 128, "loopback (RFC 4291)", -1},                        /* ::1/128 */
    {{[10] = 0xff, [11] = 0xff}, 96, "IPv4-mapped (RFC 4291)", 12},      /* ::ffff:0:0/96 */
    {{[8] = 0xff, [9] = 0xff}, 96, "IPv4-translated (RFC 2765)", 12},    /* ::ffff:0:0:0/96 */
    {{0}, 96, "IPv4-compatible, deprecated (RFC 4291)", 12},             /* ::/96 */
    {{0, 0x64, 0xff, 0x9b}, 96, "IPv4/IPv6 translation (RFC 6052)", 12}, /* 64:ff9b::/96 */
    {{0, 0x64, 0xff, 0x9b, 0, 1}, 48, "local-use IPv4/IPv6 translation (RFC 8215)", -1},
    {{1}, 64, "discard-only (RFC 6666)", -1},                       /* 100::/64 */
    {{0x20, 0x01}, 23, "IETF protocol assignments (RFC 2928)", -1}, /* 2001::/23 */
    {{0x20, 0x01, 0x0d, 0xb8}, 32, "documentation (RFC 3849)", -1}, /* 2001:db8::/32 */
    {{0x20, 0x02}, 16, "6to4 (RFC 3056)", 2},                       /* 2002::/16 */
    {{0x26, 0x20, 0, 0x4f, 0x80},
     48,
     "direct delegation AS112 (RFC 7534)",
     -1},                                                        /* 2620:4f:8000::/48 */
    {{0x3f, 0xff}, 20, "documentation (RFC 9637)", -1},          /* 3fff::/20 */
    {{0x5f}, 16, "segment routing SIDs (RFC 9602)", -1},         /* 5f00::/16 */
    {{0xfc}, 7, "unique-local (RFC 4193)", -1},                  /* fc00::/7 */
    {{0xfe, 0x80}, 10, "link-local (RFC 4291)", -1},             /* fe80::/10 */
    {{0xfe, 0xc0}, 10, "site-local, deprecated (RFC 3879)", -1}, /* fec0::/10 */
    {{0xff}, 8, "multicast (RFC 4291)", -1},                     /* ff00::/8 */
};

const char *netaddr_special4(uint32_t a)
{
    for (size_t i = 0; i < sizeof table4 / sizeof table4[0]; i++) {
        uint32_t mask = table4[i].len ? 0xffffffffu << (32 - table4[i].len) : 0;
        if ((a & mask) == table4[i].net) return table4[i].name;
    }
    return NULL;
}

/* 1 when the first `len` bits of `a` and `b` agree. */
static int prefix_match(const uint8_t *a, const uint8_t *b, int len)
{
    int full = len / 8, rest = len % 8;
    if (memcmp(a, b, (size_t)full) != 0) return 0;
    if (!rest) return 1;
    uint8_t mask = (uint8_t)(0xff << (8 - rest));
    return (a[full] & mask) == (b[full] & mask);
}

const char *netaddr_special6(const uint8_t b[16])
{
    for (size_t i = 0; i < sizeof table6 / sizeof table6[0]; i++) {
        const struct range6 *r = &table6[i];
        if (!prefix_match(b, r->net, r->len)) continue;
        if (r->v4 < 0) return r->name;
        const uint8_t *p = b + r->v4;
        return netaddr_special4((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
                                p[3]);
    }
    if ((b[0] & 0xe0) != 0x20) return "not global unicast (outside 2000::/3, RFC 4291)";
    return NULL;
}

const char *netaddr_special(const struct sockaddr *sa)
{
    if (sa->sa_family == AF_INET)
        return netaddr_special4(ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr));
    if (sa->sa_family == AF_INET6)
        return netaddr_special6(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr);
    return "not IP";
}

/* This host's addresses as last read: 4 bytes (IPv4) or 16 (IPv6) each. */
#define OWN_MAX 256
static struct {
    pthread_mutex_t lock;
    long long read_ms; /* when (monotonic ms), 0 never */
    int n;             /* addresses */
    int len[OWN_MAX];  /* 4 or 16 */
    uint8_t a[OWN_MAX][16];
} own = {.lock = PTHREAD_MUTEX_INITIALIZER};

static long long mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Reads the interfaces' addresses again (own.lock held). */
static void own_read(void)
{
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) != 0) return; /* keeps what it had */
    own.n = 0;
    for (const struct ifaddrs *i = ifs; i && own.n < OWN_MAX; i = i->ifa_next) {
        if (!i->ifa_addr) continue;
        if (i->ifa_addr->sa_family == AF_INET) {
            memcpy(own.a[own.n], &((const struct sockaddr_in *)i->ifa_addr)->sin_addr, 4);
            own.len[own.n++] = 4;
        } else if (i->ifa_addr->sa_family == AF_INET6) {
            memcpy(own.a[own.n], &((const struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, 16);
            own.len[own.n++] = 16;
        }
    }
    freeifaddrs(ifs);
}

int netaddr_own(const struct sockaddr *sa)
{
    uint8_t key[16];
    int len;
    if (sa->sa_family == AF_INET) {
        memcpy(key, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        len = 4;
    } else if (sa->sa_family == AF_INET6) {
        const uint8_t *b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        static const uint8_t mapped[12] = {[10] = 0xff, [11] = 0xff};
        if (memcmp(b, mapped, 12) == 0) {
            memcpy(key, b + 12, 4);
            len = 4;
        } else {
            memcpy(key, b, 16);
            len = 16;
        }
    } else {
        return 0;
    }
    int found = 0;
    pthread_mutex_lock(&own.lock);
    long long now = mono_ms();
    if (!own.read_ms || now - own.read_ms >= 1000) {
        own_read();
        own.read_ms = now;
    }
    for (int i = 0; i < own.n && !found; i++)
        found = own.len[i] == len && memcmp(own.a[i], key, (size_t)len) == 0;
    pthread_mutex_unlock(&own.lock);
    return found;
}

const char *netaddr_refused(const struct sockaddr *sa)
{
    const char *why = netaddr_special(sa);
    if (why) return why;
    return netaddr_own(sa) ? "this host's own address" : NULL;
}

int netaddr_parse(const char *s, struct sockaddr_storage *out)
{
    memset(out, 0, sizeof *out);
    char h[INET6_ADDRSTRLEN + 2];
    size_t n = strlen(s);
    if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
        if (n - 2 >= sizeof h) return -1;
        memcpy(h, s + 1, n - 2);
        h[n - 2] = '\0';
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
        a6->sin6_family = AF_INET6;
        return inet_pton(AF_INET6, h, &a6->sin6_addr) == 1 ? 0 : -1;
    }
    struct sockaddr_in *a4 = (struct sockaddr_in *)out;
    if (inet_pton(AF_INET, s, &a4->sin_addr) == 1) {
        a4->sin_family = AF_INET;
        return 0;
    }
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)out;
    if (inet_pton(AF_INET6, s, &a6->sin6_addr) == 1) {
        a6->sin6_family = AF_INET6;
        return 0;
    }
    memset(out, 0, sizeof *out);
    return -1;
}

const char *netaddr_key(const struct sockaddr *sa, char *buf, size_t cap)
{
    if (!sa || cap < NETADDR_KEY_MAX) return NULL;
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return inet_ntop(AF_INET, &in->sin_addr, buf, (socklen_t)cap);
    }
    if (sa->sa_family != AF_INET6) return NULL;
    const uint8_t *b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
    static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(b, mapped, sizeof mapped) == 0)
        return inet_ntop(AF_INET, b + 12, buf, (socklen_t)cap);
    uint8_t prefix[16] = {0};
    memcpy(prefix, b, 8);
    char text[INET6_ADDRSTRLEN];
    if (!inet_ntop(AF_INET6, prefix, text, sizeof text)) return NULL;
    /* inet_ntop ends a /64 with "::" already unless its last group is zero-free. */
    size_t len = strlen(text);
    int w = snprintf(buf, cap, "%s%s/64", text,
                     len >= 2 && strcmp(text + len - 2, "::") == 0 ? "" : "::");
    return w > 0 && (size_t)w < cap ? buf : NULL;
}
