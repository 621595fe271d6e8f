/* spare.c: a freed block of each large kind kept per thread -- see spare.h. */
#include "spare.h"

#include <pthread.h>
#include <stdlib.h>

/* A thread's spares, the value of its key. */
struct spares {
    void *block[SPARE_KINDS];
};

static pthread_key_t key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static int key_ok; /* 0: no key (then nothing is kept) */

/* The key's destructor: a thread ends. */
static void spares_free(void *arg)
{
    struct spares *s = arg;
    for (int k = 0; k < SPARE_KINDS; k++) free(s->block[k]);
    free(s);
}

static void key_make(void)
{
    key_ok = pthread_key_create(&key, spares_free) == 0;
}

/* The calling thread's spares (made on first use), or NULL. */
static struct spares *mine(void)
{
    pthread_once(&key_once, key_make);
    if (!key_ok) return NULL;
    struct spares *s = pthread_getspecific(key);
    if (!s && (s = calloc(1, sizeof *s)) != NULL && pthread_setspecific(key, s) != 0) {
        free(s);
        s = NULL;
    }
    return s;
}

void *spare_take(enum spare_kind k, size_t size)
{
    struct spares *s = mine();
    if (s && s->block[k]) {
        void *p = s->block[k];
        s->block[k] = NULL;
        return p;
    }
    return malloc(size);
}

void spare_give(enum spare_kind k, void *p)
{
    if (!p) return;
    struct spares *s = mine();
    if (s && !s->block[k]) {
        s->block[k] = p;
        return;
    }
    free(p);
}
