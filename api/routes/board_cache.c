/* board_cache.c: the leaderboard's answers kept a moment: a few slots under one lock. */
#include "board_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "mono.h"

/* One answer kept. */
struct slot {
    char key[BOARD_CACHE_KEY_MAX]; /* "" when free */
    char *body;                    /* malloc'd answer */
    size_t len;                    /* its bytes */
    long long at_ms;               /* mono_ms() when it was made */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[BOARD_CACHE_SLOTS];
static int ttl; /* ms an answer is kept, 0: off (under lock) */

void board_cache_init(int ttl_ms)
{
    board_cache_shutdown();
    pthread_mutex_lock(&lock);
    ttl = ttl_ms > 0 ? ttl_ms : 0;
    pthread_mutex_unlock(&lock);
}

void board_cache_shutdown(void)
{
    pthread_mutex_lock(&lock);
    for (int i = 0; i < BOARD_CACHE_SLOTS; i++) {
        free(slots[i].body);
        memset(&slots[i], 0, sizeof slots[i]);
    }
    ttl = 0;
    pthread_mutex_unlock(&lock);
}

int board_cache_get(const char *key, struct api_response *resp)
{
    char *copy = NULL;
    size_t len = 0;
    long long now = mono_ms();
    pthread_mutex_lock(&lock);
    for (int i = 0; ttl && i < BOARD_CACHE_SLOTS; i++) {
        struct slot *s = &slots[i];
        if (!s->body || strcmp(s->key, key) != 0) continue;
        if (now - s->at_ms < ttl && (copy = malloc(s->len + 1))) {
            memcpy(copy, s->body, s->len + 1);
            len = s->len;
        }
        break;
    }
    pthread_mutex_unlock(&lock);
    if (!copy) return 0;
    api_reply_take(resp, 200, "application/json", copy);
    resp->len = len;
    return 1;
}

void board_cache_put(const char *key, const char *body, size_t len)
{
    if (strlen(key) >= BOARD_CACHE_KEY_MAX) return;
    char *copy = malloc(len + 1);
    if (!copy) return;
    memcpy(copy, body, len);
    copy[len] = '\0';
    long long now = mono_ms();
    pthread_mutex_lock(&lock);
    struct slot *use = NULL;
    for (int i = 0; ttl && i < BOARD_CACHE_SLOTS; i++) {
        struct slot *s = &slots[i];
        if (s->body && strcmp(s->key, key) == 0) {
            use = s; /* the same page again: the newer answer */
            break;
        }
        if (!use || !s->body || (use->body && s->at_ms < use->at_ms)) use = s;
    }
    if (use) {
        free(use->body);
        memcpy(use->key, key, strlen(key) + 1);
        use->body = copy;
        use->len = len;
        use->at_ms = now;
        copy = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(copy);
}
