/* netaddr.h: which IP addresses a webhook may reach.
 *
 * An address is refused when it falls in one of IANA's special-purpose ranges (the IPv4
 * and IPv6 Special-Purpose Address Registries, plus multicast and, for IPv6, everything
 * outside 2000::/3, the only block allocated as global unicast), or when it is one of this
 * host's own interface addresses (they reach every service bound to all interfaces). An
 * IPv6 address that carries an IPv4 address (IPv4-compatible ::a.b.c.d, IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::a.b.c.d, 6to4
 * 2002:aabb:ccdd::) is judged by the IPv4 address it carries.
 */
#ifndef API_NETADDR_H
#define API_NETADDR_H

#include <stdint.h>
#include <sys/socket.h>

#include "nodiscard.h"

/*
 * The special-purpose range IPv4 address `a` (host byte order) falls in: its name and RFC
 * (a static string), or NULL for a public address.
 */
const char *netaddr_special4(uint32_t a);

/*
 * The special-purpose range IPv6 address `b` (network byte order) falls in, or NULL for a
 * public address; an embedded IPv4 address is judged by netaddr_special4().
 */
const char *netaddr_special6(const uint8_t b[16]);

/* netaddr_special4/6 of an AF_INET or AF_INET6 address; any other family: "not IP". */
const char *netaddr_special(const struct sockaddr *sa);

/*
 * 1 when `sa` is an address of one of this host's interfaces (getifaddrs(), read again at
 * most once a second; an IPv4-mapped IPv6 address counts as its IPv4 address), else 0.
 * Thread-safe.
 */
int netaddr_own(const struct sockaddr *sa);

/*
 * Why a webhook may not connect to `sa`: a static string naming the range, "this host's
 * own address", or NULL when it may. The check every connection of a delivery passes.
 */
const char *netaddr_refused(const struct sockaddr *sa);

/*
 * Parses an IP literal: dotted IPv4 ("a.b.c.d") or IPv6, in brackets or not. Fills `out`
 * (its family AF_INET or AF_INET6) and returns 0, or -1 when `s` is no such literal.
 */
int netaddr_parse(const char *s, struct sockaddr_storage *out) NODISCARD;

#define NETADDR_KEY_MAX 48 /* bytes of a netaddr_key() text, its NUL included */

/*
 * The text that stands for client `sa` in per-address shares (games.owner, 0020): an IPv4
 * address dotted (an IPv4-mapped IPv6 one too), an IPv6 address's /64 followed by "::/64"
 * (one host's addresses vary in the lower half), into `buf` (NETADDR_KEY_MAX bytes).
 * Returns buf, or NULL for NULL and any other family.
 */
const char *netaddr_key(const struct sockaddr *sa, char *buf, size_t cap);

#endif
