/* peer.h: a client's address as a fixed-size key, for the limits kept per address (render
 * slots of board.png, event streams, connections waiting for their request). */
#ifndef API_PEER_H
#define API_PEER_H

#include <stdint.h>

struct sockaddr;

#define PEER_KEY_LEN 16 /* bytes of a key: an IPv6 address, IPv4 as ::ffff:a.b.c.d */

/*
 * The key of `sa` into `key`: its IPv6 address, or the IPv4-mapped form of an IPv4 one (so
 * that a client counts once whichever way it came). NULL and other families get the
 * all-zero key (they share one count). Pure.
 */
void peer_key(const struct sockaddr *sa, uint8_t key[PEER_KEY_LEN]);

#endif
