/* peer.c: a client's address as a fixed-size key (see peer.h). */
#include "peer.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

void peer_key(const struct sockaddr *sa, uint8_t key[PEER_KEY_LEN])
{
    memset(key, 0, PEER_KEY_LEN);
    if (sa && sa->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)(const void *)sa;
        key[10] = key[11] = 0xFF;
        memcpy(key + 12, &a->sin_addr, 4);
    } else if (sa && sa->sa_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)(const void *)sa;
        memcpy(key, &a->sin6_addr, PEER_KEY_LEN);
    }
}
