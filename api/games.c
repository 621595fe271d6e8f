/* games.c: loading stored games, and the cache of decoded games that spares most loads.
 *
 * The cache holds, per slot (a hash of the id), one decoded game at some version and,
 * once a read wrote it, its GET answer. A game's id and version name one state, so what
 * the cache holds is never wrong, only perhaps not the newest: a read first asks the
 * database for the version (a small query) and uses the cache only when it holds that
 * one; an action uses whatever the cache holds, and its commit, which checks the version,
 * finds out a stale copy (the action is then tried again on the stored game). Several
 * servers on one database each keep their own cache; none needs another's.
 *
 * The reads' version queries are batched: one thread asks for the versions of all the
 * games that requests are waiting for in one query, so that many reads share one round
 * trip (each still sees every action committed before it asked).
 */
#include "games.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "problem.h"

/* A cached game: what struct api_game holds but the encoded snapshot. */
struct cached {
    char id[AUTH_UUID_LEN + 1];                  /* the game's id */
    int version;                                 /* its version */
    int last_seq;                                /* seq of its newest event */
    int nplayers;                                /* entries in players */
    struct store_player players[CC_MAX_PLAYERS]; /* names and token hashes */
    struct cc_game g;                            /* the decoded state */
};

/* One cached game. */
struct slot {
    pthread_rwlock_t lock; /* guards everything below */
    struct cached *c;      /* the game, or NULL */
    char *body;            /* its GET answer at that version, or NULL */
    size_t body_len;       /* bytes in body */
};

static struct slot *slots; /* the cache, or NULL when off */
static size_t nslots;      /* entries in slots */

#define BATCH_MAX 64 /* games asked for in one version query */

enum vstate { V_QUEUED, V_ASKED, V_DONE };

/* A read waiting for the stored version of its game: a thread blocked on `cond`, or (with
 * `async`) a suspended request that is woken. Guarded by vlock. */
struct vreq {
    char id[AUTH_UUID_LEN + 1]; /* the game */
    int version;                /* out: its stored version (-1: no such game) */
    enum store_status st;       /* out: how the query went */
    enum vstate state;          /* queued, in a query, or done (the above filled in) */
    int cancelled;              /* async: the request ended before the answer */
    int waking;                 /* async: done, and the batcher is waking the request */
    int consumed;               /* async: taken while waking: the batcher frees it */
    struct api_async *async;    /* the suspended request, or NULL: a thread waits on cond */
    pthread_cond_t cond;        /* signalled when done (without async) */
    struct vreq *next;          /* the queue */
};

static pthread_mutex_t vlock = PTHREAD_MUTEX_INITIALIZER; /* guards the queue and vstop */
static pthread_cond_t vwork = PTHREAD_COND_INITIALIZER;   /* the queue is not empty */
static pthread_cond_t vwoke = PTHREAD_COND_INITIALIZER;   /* a batch's wakes are done */
static struct vreq *vhead, **vtail = &vhead;              /* waiting reads, oldest first */
static int vstop;                                         /* 1: the batcher should end */
static pthread_t vthread;                                 /* the batcher */
static int vrunning;                                      /* 1 while it runs */

static void *batcher_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&vlock);
    for (;;) {
        while (!vhead && !vstop) pthread_cond_wait(&vwork, &vlock);
        if (!vhead) break;
        struct vreq *batch[BATCH_MAX];
        const char *ids[BATCH_MAX];
        int versions[BATCH_MAX];
        size_t n = 0;
        while (vhead && n < BATCH_MAX) {
            batch[n] = vhead;
            ids[n] = vhead->id;
            vhead->state = V_ASKED;
            n++;
            vhead = vhead->next;
        }
        if (!vhead) vtail = &vhead;
        pthread_mutex_unlock(&vlock);
        enum store_status st = store_game_versions(ids, n, versions);
        pthread_mutex_lock(&vlock);
        size_t nwake = 0;
        for (size_t i = 0; i < n; i++) {
            struct vreq *r = batch[i];
            r->st = st;
            r->version = versions[i];
            r->state = V_DONE;
            if (!r->async) {
                pthread_cond_signal(&r->cond);
            } else if (r->cancelled) {
                free(r);
            } else {
                r->waking = 1; /* the request, and so r->async, lives until this is 0 */
                batch[nwake++] = r;
            }
        }
        /* The wakes outside the lock, which the requests queuing now wait for. */
        pthread_mutex_unlock(&vlock);
        for (size_t i = 0; i < nwake; i++) batch[i]->async->wake(batch[i]->async->wake_arg);
        pthread_mutex_lock(&vlock);
        for (size_t i = 0; i < nwake; i++) {
            batch[i]->waking = 0;
            if (batch[i]->consumed) free(batch[i]);
        }
        pthread_cond_broadcast(&vwoke);
    }
    pthread_mutex_unlock(&vlock);
    return NULL;
}

/* Queues `r` for the batcher (vlock held). */
static void enqueue(struct vreq *r)
{
    int idle = !vhead;
    r->next = NULL;
    *vtail = r;
    vtail = &r->next;
    if (idle) pthread_cond_signal(&vwork);
}

/* The stored version of game `id`: STORE_OK (-1 in *version: no such game) or a failure. */
static enum store_status stored_version(const char *id, int *version)
{
    if (!vrunning) {
        enum store_status s = store_game_version(id, version);
        if (s == STORE_NOT_FOUND) {
            *version = -1;
            s = STORE_OK;
        }
        return s;
    }
    struct vreq r = {.version = -1, .st = STORE_ERROR, .state = V_QUEUED};
    snprintf(r.id, sizeof r.id, "%s", id);
    pthread_cond_init(&r.cond, NULL);
    pthread_mutex_lock(&vlock);
    enqueue(&r);
    while (r.state != V_DONE) pthread_cond_wait(&r.cond, &vlock);
    pthread_mutex_unlock(&vlock);
    pthread_cond_destroy(&r.cond);
    *version = r.version;
    return r.st;
}

/* api_async.cancel: the request of a->pending ended (or asks directly) before using it. */
static void vreq_cancel(struct api_async *a)
{
    struct vreq *r = a->pending;
    a->pending = NULL;
    a->cancel = NULL;
    pthread_mutex_lock(&vlock);
    if (r->state == V_QUEUED) {
        struct vreq **p = &vhead;
        while (*p != r) p = &(*p)->next;
        *p = r->next;
        if (vtail == &r->next) vtail = p;
        free(r);
    } else if (r->state == V_ASKED) {
        r->cancelled = 1; /* the batcher frees it */
    } else {
        /* Done: the request must outlive the batcher's wake of it. */
        while (r->waking) pthread_cond_wait(&vwoke, &vlock);
        free(r);
    }
    pthread_mutex_unlock(&vlock);
}

/*
 * The stored version of game `id` for a request that can wait suspended (`a`): a
 * store_status (STORE_OK: *version set, -1 for no such game), or -1 after queuing the
 * question or while it is not answered yet (suspend until woken; ask again then).
 */
static int stored_version_async(const char *id, struct api_async *a, int *version)
{
    struct vreq *r = a->pending;
    if (!r) {
        if (!(r = calloc(1, sizeof *r))) return STORE_ERROR;
        snprintf(r->id, sizeof r->id, "%s", id);
        r->async = a;
        r->state = V_QUEUED;
        a->pending = r;
        a->cancel = vreq_cancel;
        pthread_mutex_lock(&vlock);
        enqueue(r);
        pthread_mutex_unlock(&vlock);
        return -1;
    }
    pthread_mutex_lock(&vlock);
    int done = r->state == V_DONE;
    enum store_status st = r->st;
    if (done) {
        *version = r->version;
        a->pending = NULL;
        a->cancel = NULL;
        if (r->waking)
            r->consumed = 1; /* the batcher frees it */
        else
            free(r);
    }
    pthread_mutex_unlock(&vlock);
    return done ? (int)st : -1;
}

/* The slot of game `id` (FNV-1a of the id). */
static struct slot *slot_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) h = (h ^ *p) * 16777619u;
    return &slots[h % nslots];
}

int games_init(int n)
{
    if (n <= 0) return 0;
    slots = calloc((size_t)n, sizeof *slots);
    if (!slots) return -1;
    nslots = (size_t)n;
    for (size_t i = 0; i < nslots; i++) pthread_rwlock_init(&slots[i].lock, NULL);
    vstop = 0;
    if (pthread_create(&vthread, NULL, batcher_main, NULL) != 0) {
        games_shutdown();
        return -1;
    }
    vrunning = 1;
    return 0;
}

void games_shutdown(void)
{
    if (vrunning) {
        pthread_mutex_lock(&vlock);
        vstop = 1;
        pthread_cond_signal(&vwork);
        pthread_mutex_unlock(&vlock);
        pthread_join(vthread, NULL);
        vrunning = 0;
    }
    for (size_t i = 0; i < nslots; i++) {
        free(slots[i].c);
        free(slots[i].body);
        pthread_rwlock_destroy(&slots[i].lock);
    }
    free(slots);
    slots = NULL;
    nslots = 0;
}

void games_store_failed(struct api_response *resp, enum store_status s)
{
    if (s == STORE_UNAVAILABLE)
        problem_unavailable(resp);
    else
        problem_reply(resp, 500, "internal_error", "The game could not be read or stored.");
}

/* Answers the failure of reading game `id`. */
static void load_failed(struct api_response *resp, enum store_status s)
{
    if (s == STORE_NOT_FOUND)
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
    else
        games_store_failed(resp, s);
}

/* Points ag->names at the names in its own row. */
static void fix_names(struct api_game *ag)
{
    for (int i = 0; i < CC_MAX_PLAYERS; i++)
        ag->names[i] = i < ag->row.nplayers ? ag->row.players[i].name : "";
}

/* A copy of the cached game `id` (at `version` unless it is -1), or NULL. */
static struct api_game *from_cache(const char *id, int version)
{
    struct slot *s = slot_of(id);
    struct api_game *copy = NULL;
    pthread_rwlock_rdlock(&s->lock);
    const struct cached *c = s->c;
    if (c && strcmp(c->id, id) == 0 && (version < 0 || c->version == version) &&
        (copy = malloc(sizeof *copy)) != NULL) {
        memcpy(copy->id, c->id, sizeof copy->id);
        copy->row.version = c->version;
        copy->row.last_seq = c->last_seq;
        copy->row.nplayers = c->nplayers;
        memcpy(copy->row.players, c->players, sizeof copy->row.players);
        copy->row.snapshot_len = 0;
        memcpy(&copy->g, &c->g, sizeof copy->g);
    }
    pthread_rwlock_unlock(&s->lock);
    if (copy) {
        fix_names(copy);
        copy->cached = 1;
    }
    return copy;
}

/* Puts `ag` (and `body`) into the slot `s` (locked) unless it holds a newer version. */
static void slot_put(struct slot *s, const struct api_game *ag, const char *body, size_t len)
{
    int same = s->c && strcmp(s->c->id, ag->id) == 0;
    if (same && s->c->version > ag->row.version) return;
    if (same && s->c->version == ag->row.version && (!body || s->body)) return;
    if (!s->c && !(s->c = malloc(sizeof *s->c))) return;
    struct cached *c = s->c;
    memcpy(c->id, ag->id, sizeof c->id);
    c->version = ag->row.version;
    c->last_seq = ag->row.last_seq;
    c->nplayers = ag->row.nplayers;
    memcpy(c->players, ag->row.players, sizeof c->players);
    memcpy(&c->g, &ag->g, sizeof c->g);
    free(s->body);
    s->body = NULL;
    s->body_len = 0;
    if (body && (s->body = malloc(len + 1)) != NULL) {
        memcpy(s->body, body, len);
        s->body[len] = '\0';
        s->body_len = len;
    }
}

struct api_game *games_load(const char *id, enum games_from from, struct api_response *resp)
{
    return games_load_at(id, from, -1, resp);
}

struct api_game *games_load_at(const char *id, enum games_from from, int version,
                               struct api_response *resp)
{
    if (!auth_uuid_valid(id)) {
        problem_reply(resp, 404, "not_found", "There is no game with this id.");
        return NULL;
    }
    if (slots && from != GAMES_DB) {
        if (from == GAMES_CURRENT && version < 0) {
            enum store_status vs = stored_version(id, &version);
            if (vs == STORE_OK && version < 0) vs = STORE_NOT_FOUND;
            if (vs != STORE_OK) {
                load_failed(resp, vs);
                return NULL;
            }
        }
        struct api_game *copy = from_cache(id, version);
        if (copy) return copy;
    }
    struct api_game *ag = malloc(sizeof *ag);
    if (!ag) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return NULL;
    }
    snprintf(ag->id, sizeof ag->id, "%s", id);
    ag->cached = 0;
    enum store_status s = store_game_load(id, &ag->row);
    if (s != STORE_OK) {
        load_failed(resp, s);
        goto fail;
    }
    enum cc_status st = cc_game_decode(&ag->g, ag->row.snapshot, ag->row.snapshot_len);
    if (st != CC_OK || ag->g.nplayers != ag->row.nplayers) {
        log_kv(LOG_ERROR, "stored game does not decode", "game", id, NULL);
        problem_engine(resp, CC_ERR_CORRUPT);
        goto fail;
    }
    fix_names(ag);
    games_remember(ag, NULL, 0);
    return ag;
fail:
    free(ag);
    return NULL;
}

int games_current_version(const char *id, const struct api_request *req, struct api_response *resp,
                          int *version)
{
    *version = -1;
    if (!slots || !auth_uuid_valid(id)) return 0;
    enum store_status vs;
    struct api_async *a = req->async;
    if (a && a->pending && req->stopping) a->cancel(a); /* ask directly instead */
    if (a && vrunning && !req->stopping) {
        int st = stored_version_async(id, a, version);
        if (st < 0) {
            resp->suspend = API_SUSPEND_WAKE;
            return 1;
        }
        vs = (enum store_status)st;
    } else {
        vs = stored_version(id, version);
    }
    if (vs == STORE_OK && *version < 0) vs = STORE_NOT_FOUND;
    if (vs != STORE_OK) {
        *version = -1;
        load_failed(resp, vs);
        return 1;
    }
    return 0;
}

int games_answer_cached(const char *id, int version, struct api_response *resp)
{
    if (!slots || version < 0) return 0;
    struct slot *s = slot_of(id);
    int answered = 0;
    pthread_rwlock_rdlock(&s->lock);
    if (s->c && s->body && s->c->version == version && strcmp(s->c->id, id) == 0) {
        api_reply_copy(resp, 200, "application/json", s->body, s->body_len);
        games_etag(resp, version);
        answered = resp->status == 200;
    }
    pthread_rwlock_unlock(&s->lock);
    return answered;
}

void games_remember(const struct api_game *ag, const char *body, size_t len)
{
    if (!slots) return;
    struct slot *s = slot_of(ag->id);
    pthread_rwlock_wrlock(&s->lock);
    slot_put(s, ag, body, len);
    pthread_rwlock_unlock(&s->lock);
}

void games_free(struct api_game *ag)
{
    free(ag);
}

void games_etag(struct api_response *resp, int version)
{
    snprintf(resp->etag, sizeof resp->etag, "\"%d\"", version);
}
