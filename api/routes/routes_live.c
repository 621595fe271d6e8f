/* routes_live.c: a game's events, its chat, or a tournament's events as server-sent events
 * (GET .../events, .../chat, /v1/tournaments/{id}/events with text/event-stream, and their
 * /stream paths).
 *
 * A stream sends every event after the one the client saw last (Last-Event-ID, else the
 * query's `after`) as
 *     id: <seq>\nevent: <type>\ndata: <the event as JSON>\n\n
 * then waits on a live watch (live.h) for the next commit of the game on any server, and
 * sends a comment line ": heartbeat" when SSE_HEARTBEAT seconds passed without anything
 * (so that proxies keep it open and a client that went away is noticed at the next write).
 * It ends after the game_finished event (a tournament's: tournament_finished, or once it
 * is found cancelled; a chat's never), and at shutdown (after what it holds, with a
 * short `retry:`, so that the client reconnects to another server at once). While it waits it holds
 * no thread: the HTTP layer suspends its connection until the watch wakes it.
 *
 * Streams are shared fairly between client addresses: one address holds at most
 * MAX_STREAMS_PER_IP of them, and when all MAX_STREAMS are open a newcomer from an address
 * that holds fewer than the heaviest address (less one) takes the place of that address's
 * newest stream, which ends (with a long `retry:`). So a few addresses cannot keep every
 * other client's EventSource out.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "auth.h"
#include "buf.h"
#include "dlist.h"
#include "game_answers.h"
#include "json_out.h"
#include "live.h"
#include "log.h"
#include "metrics.h"
#include "peer.h"
#include "problem.h"
#include "routes.h"
#include "store.h"
#include "store_chat.h"
#include "store_games.h"
#include "store_tournaments.h"

#define STREAM_PAGE    100   /* events read from the database at once */
#define RETRY_MS       2000  /* the reconnection delay the stream asks EventSource for */
#define DB_RETRY_MS    1000  /* after a failed read of the events, try again this soon */
#define STOP_RETRY_MS  250   /* the reconnection delay a stream ended at shutdown asks for */
#define EVICT_RETRY_MS 10000 /* ... and one that made room for another address's stream */
/* The most a stream buffers: a page of events goes out in parts when it is longer (the rest
 * follows at once after), so it only must hold the largest single event (a few KiB). */
#define STREAM_OUT_MAX (1u << 20)

static int heartbeat_ms = 15000; /* SSE_HEARTBEAT */
static int max_streams = 256;    /* MAX_STREAMS */
static int max_per_ip = 32;      /* MAX_STREAMS_PER_IP (0: MAX_STREAMS) */

/* What a stream follows. */
enum sse_kind {
    SSE_EVENTS = 0, /* a game's events */
    SSE_CHAT,       /* a game's chat messages (0026) */
    SSE_TOURNEY     /* a tournament's events (0032, woken by 0037's notifications) */
};

/* An event stream. */
struct sse {
    struct api_stream base;         /* first: what the HTTP layer sees */
    struct live_watch watch;        /* wakes it (new events, heartbeat, recheck, stop) */
    atomic_int reasons;             /* live_reason bits since the last read */
    char game[AUTH_UUID_LEN + 1];   /* the game (SSE_TOURNEY: the tournament) */
    int last;                       /* seq of the last event sent (or seen by the client) */
    enum sse_kind kind;             /* what it follows */
    char viewer[AUTH_UUID_LEN + 1]; /* SSE_CHAT: the reader's person (blocks), or "" */
    int query;                      /* 1: read the events at the next read() */
    int finished;                   /* 1 once the last event is buffered: end after it */
    long long next_beat;            /* api_now_ms() of the next heartbeat */
    long long next_query;           /* after a failed read: not before this */
    struct buf out;                 /* bytes to send (at most STREAM_OUT_MAX) */
    size_t off;                     /* bytes of out sent already */
    int said_bye;                   /* 1 once the last retry (at stop) is buffered */
    /* The register of streams (reg_lock), for the fair shares per address. */
    uint8_t peer[PEER_KEY_LEN]; /* the client's address key */
    unsigned long long opened;  /* the order it was let in: the newest is evicted first */
    int armed;                  /* reg_lock: 1 once read (the HTTP layer set wake) */
    int waking;                 /* reg_lock: 1 while an eviction calls its wake */
    atomic_int evicted;         /* 1: it ends to make room for another address */
    struct sse *prev, *next;    /* reg_lock: the register */
};

static void sse_fire(struct live_watch *w, int reasons);

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t reg_woke = PTHREAD_COND_INITIALIZER; /* an eviction's wake is over */
static struct sse *reg;                                    /* reg_lock: every open stream */
static unsigned long long reg_order;                       /* reg_lock: the last `opened` */

/* Streams of `peer` in the register not evicted. reg_lock held. */
static int reg_count(const uint8_t *peer)
{
    int n = 0;
    for (struct sse *e = reg; e; e = e->next)
        n += !atomic_load(&e->evicted) && !memcmp(e->peer, peer, PEER_KEY_LEN);
    return n;
}

/* Takes `s` out of the register (waiting for an eviction's wake of it to end). */
static void reg_remove(struct sse *s)
{
    pthread_mutex_lock(&reg_lock);
    DLIST_UNLINK(reg, s, prev, next);
    while (s->waking) pthread_cond_wait(&reg_woke, &reg_lock);
    pthread_mutex_unlock(&reg_lock);
}

/*
 * Lets stream `s` (its peer set) in: enters it in the register and returns 0, or returns
 * -1 (not entered) when its address holds its share already, or every stream is taken and
 * no address holds more than one more than its address. When every stream is taken but
 * another address holds more, that address's newest stream is evicted for it.
 */
static int reg_admit(struct sse *s)
{
    pthread_mutex_lock(&reg_lock);
    int total = 0;
    for (struct sse *e = reg; e; e = e->next) total += !atomic_load(&e->evicted);
    int mine = reg_count(s->peer);
    struct sse *victim = NULL;
    int refused = max_per_ip > 0 && mine >= max_per_ip;
    if (!refused && total >= max_streams) {
        /* The heaviest address's newest stream that has been read (a wake to end it). */
        int heaviest = 0;
        for (struct sse *e = reg; e; e = e->next) {
            if (atomic_load(&e->evicted) || !e->armed) continue;
            int n = reg_count(e->peer);
            if (n > heaviest || (n == heaviest && victim && e->opened > victim->opened)) {
                heaviest = n;
                victim = e;
            }
        }
        if (!victim || heaviest <= mine + 1) {
            victim = NULL;
            refused = 1;
        }
    }
    if (!refused) {
        s->opened = ++reg_order;
        DLIST_PUSH(reg, s, prev, next);
    }
    if (victim) {
        atomic_store(&victim->evicted, 1);
        victim->waking = 1; /* reg_remove() waits: its wake stays valid meanwhile */
    }
    pthread_mutex_unlock(&reg_lock);
    if (victim) {
        log_kv(LOG_INFO, "event stream evicted for another address's", "game", victim->game, NULL);
        sse_fire(&victim->watch, LIVE_STOP);
        pthread_mutex_lock(&reg_lock);
        victim->waking = 0;
        pthread_cond_broadcast(&reg_woke);
        pthread_mutex_unlock(&reg_lock);
    }
    return refused ? -1 : 0;
}

void routes_live_config(const struct cfg *cfg)
{
    heartbeat_ms = cfg->sse_heartbeat * 1000;
    max_streams = cfg->max_streams;
    max_per_ip = cfg->max_streams_per_ip;
}

/* Appends `n` bytes of `s` to the stream's output; -1 when out of memory or over the limit
 * (the buffer remembers which). */
static int out_put(struct sse *s, const char *p, size_t n)
{
    return buf_add(&s->out, p, n) ? -1 : 0;
}

/* store_events_each() callback: formats one event. */
static int put_event(void *arg, int seq, const char *type, const char *payload, size_t len)
{
    struct sse *s = arg;
    size_t mark = buf_len(&s->out);
    if (buf_addf(&s->out, "id: %d\nevent: %s\n", seq, type)) return -1;
    /* One data line per line of the payload (stored events have none, but be safe). */
    const char *p = payload, *end = payload + len;
    do {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl ? nl : end;
        if (out_put(s, "data: ", 6) || out_put(s, p, (size_t)(stop - p)) || out_put(s, "\n", 1))
            goto fail;
        p = nl ? nl + 1 : end;
    } while (p < end);
    if (out_put(s, "\n", 1)) goto fail;
    s->last = seq;
    if (strcmp(type, s->kind == SSE_TOURNEY ? "tournament_finished" : "game_finished") == 0)
        s->finished = 1;
    return 0;
fail:
    buf_truncate(&s->out, mark); /* never a part of an event */
    return -1;
}

/* store_chat_each() callback: formats one chat message, unless the reader blocked its
 * sender (passed over all the same). */
static int put_chat(void *arg, const struct store_chat_message *m)
{
    struct sse *s = arg;
    if (m->blocked) {
        s->last = m->seq;
        return 0;
    }
    struct json_out w;
    json_out_init(&w);
    routes_chat_message_json(&w, m);
    size_t len = 0;
    char *txt = json_out_take(&w, &len);
    if (!txt) return -1;
    int rc = put_event(s, m->seq, "chat_message", txt, len);
    free(txt);
    return rc;
}

/* live_watch.fire: note why, and have the HTTP layer read the stream again. */
static void sse_fire(struct live_watch *w, int reasons)
{
    struct sse *s = w->arg;
    atomic_fetch_or(&s->reasons, reasons);
    if (s->base.wake) s->base.wake(s->base.wake_arg);
}

/* (Re)arms the watch: the next event after s->last, or the next heartbeat or retry. */
static void arm(struct sse *s)
{
    live_watch_remove(&s->watch);
    s->watch.after = s->last;
    s->watch.kind = s->kind == SSE_CHAT      ? LIVE_KIND_CHAT
                    : s->kind == SSE_TOURNEY ? LIVE_KIND_TOURNEY
                                             : LIVE_KIND_EVENTS;
    s->watch.deadline_ms = s->next_beat;
    if (s->query && s->next_query && s->next_query < s->next_beat)
        s->watch.deadline_ms = s->next_query;
    live_watch_add(&s->watch);
}

/* Copies what is buffered into `buf`; returns the bytes (0: nothing buffered). */
static long flush(struct sse *s, char *buf, size_t max)
{
    size_t n = buf_len(&s->out) - s->off;
    if (n > max) n = max;
    memcpy(buf, buf_ptr(&s->out) + s->off, n);
    s->off += n;
    if (s->off == buf_len(&s->out)) {
        s->off = 0;
        buf_reset(&s->out); /* and forget a failure: the next page starts after s->last */
    }
    return (long)n;
}

/* 1 when tournament `p` will write no event after seq `last`: it finished (its last event
 * tournament_finished) or was called off (it writes none), and `last` is its newest. */
static int tourney_over(const struct store_tourney_progress *p, int last)
{
    return (strcmp(p->status, "finished") == 0 || strcmp(p->status, "cancelled") == 0) &&
           last >= p->last_seq;
}

/* Reads the next page of the stream's events, chat messages or tournament events after
 * s->last into its output. */
static enum store_status read_page(struct sse *s, int *count)
{
    int seen = 0;
    switch (s->kind) {
    case SSE_CHAT:
        return store_chat_each(s->game, s->last, STREAM_PAGE, s->viewer[0] ? s->viewer : NULL,
                               put_chat, s, count, &seen);
    case SSE_TOURNEY: {
        struct store_tourney_progress p;
        enum store_status st =
            store_tourney_events_each(s->game, s->last, STREAM_PAGE, put_event, s, count, &p);
        /* Called off (no tournament_finished comes), or gone: nothing more will come. */
        if ((st == STORE_OK && tourney_over(&p, s->last)) || st == STORE_NOT_FOUND) {
            s->finished = 1;
            st = STORE_OK;
        }
        return st;
    }
    case SSE_EVENTS:
        break;
    }
    return store_events_each(s->game, s->last, STREAM_PAGE, put_event, s, count);
}

/* api_stream.read */
static long sse_read(struct api_stream *base, char *buf, size_t max, int stopping)
{
    struct sse *s = (struct sse *)base;
    if (buf_len(&s->out) > s->off) return flush(s, buf, max);
    if (stopping) {
        /* What it held went out whole: a last reconnection delay, then the end, after
         * which EventSource reconnects (to another server) with Last-Event-ID. */
        if (s->said_bye) return -1;
        s->said_bye = 1;
        if (buf_addf(&s->out, ": server stopping\nretry: %d\n\n", STOP_RETRY_MS)) return -1;
        return flush(s, buf, max);
    }
    if (!s->armed) {
        pthread_mutex_lock(&reg_lock);
        s->armed = 1; /* read by the HTTP layer: its wake is set, it may be evicted */
        pthread_mutex_unlock(&reg_lock);
    }
    if (atomic_load(&s->evicted)) {
        /* Room made for another address: a long reconnection delay, then the end. */
        if (s->said_bye) return -1;
        s->said_bye = 1;
        if (buf_addf(&s->out, ": evicted for another client\nretry: %d\n\n", EVICT_RETRY_MS))
            return -1;
        return flush(s, buf, max);
    }
    if (s->finished) return -1;
    int reasons = atomic_exchange(&s->reasons, 0);
    if (reasons & LIVE_STOP) return -1;
    if (reasons & (LIVE_EVENT | LIVE_RECHECK)) s->query = 1;
    long long now = api_now_ms();
    if (s->query && now >= s->next_query) {
        /* Armed before the read: an event committed meanwhile still wakes the stream. */
        arm(s);
        int count = 0;
        enum store_status st = read_page(s, &count);
        if (st == STORE_OK) {
            s->query = count == STREAM_PAGE; /* a full page: more may follow at once */
            s->next_query = 0;
        } else if (buf_err(&s->out) == BUF_TOO_BIG && buf_len(&s->out)) {
            s->next_query = 0; /* the page was cut at a whole event: the rest after these */
        } else if (buf_err(&s->out) == BUF_TOO_BIG) {
            log_kv(LOG_ERROR, "event stream: an event is larger than the stream's buffer", "game",
                   s->game, NULL);
            return -1;
        } else {
            s->next_query = now + DB_RETRY_MS;
        }
        if (buf_len(&s->out) > s->off) {
            s->next_beat = now + heartbeat_ms;
            return flush(s, buf, max);
        }
        if (s->finished) return -1; /* a tournament over with nothing left to send */
    }
    if (now >= s->next_beat) {
        s->next_beat = now + heartbeat_ms;
        static const char beat[] = ": heartbeat\n\n";
        if (out_put(s, beat, sizeof beat - 1)) return -1;
        return flush(s, buf, max);
    }
    arm(s);
    /* Woken between the checks above and arming: the HTTP layer reads again at once. */
    return 0;
}

/* api_stream.free */
static void sse_free(struct api_stream *base)
{
    struct sse *s = (struct sse *)base;
    reg_remove(s);
    live_watch_remove(&s->watch);
    buf_free(&s->out);
    free(s);
    metrics_gauge_add(METRICS_SSE_STREAMS, -1);
}

/* The seq to resume after: Last-Event-ID when it is a seq, else `after`. */
static int resume_after(const struct api_request *req, int after)
{
    const char *id = req->last_event_id;
    if (!id) return after;
    while (*id == ' ') id++;
    char *end;
    long v = strtol(id, &end, 10);
    if (end == id || *end != '\0' || v < 0 || v > 2147483647L || id[0] == '+' || id[0] == '-')
        return after;
    return (int)v;
}

/* store_tourney_events_each() callback of the look before a stream opens (it reads none). */
static int no_event(void *arg, int seq, const char *type, const char *json, size_t len)
{
    (void)arg, (void)seq, (void)type, (void)json, (void)len;
    return 0;
}

/*
 * Looks up what stream `s` (its kind set) follows, `id`, before it opens: the game (the
 * chat's too), or the tournament. Sets s->game to its id and s->finished when nothing will
 * come after s->last. Returns 0, or 1 after answering (404 when there is no such game or
 * tournament, 503 ...).
 */
static int subject_look(struct sse *s, struct api_response *resp, const char *id)
{
    if (s->kind == SSE_TOURNEY) {
        struct store_tourney_progress p;
        int none = 0;
        enum store_status st = store_tourney_events_each(id, 0, 0, no_event, NULL, &none, &p);
        if (problem_store_missing(resp, st, "There is no tournament with this id.")) return 1;
        snprintf(s->game, sizeof s->game, "%s", id);
        /* Finished (or called off) and every event seen: the stream ends at once. */
        s->finished = tourney_over(&p, s->last);
        return 0;
    }
    struct api_game *ag = games_load(id, GAMES_CURRENT, resp);
    if (!ag) return 1;
    snprintf(s->game, sizeof s->game, "%s", ag->id);
    /* A finished game whose events were all seen: nothing will come, the stream ends. (Its
     * chat goes on: people talk after a game.) */
    if (s->kind == SSE_EVENTS && ag->g.phase == CC_PHASE_FINISHED && s->last >= ag->row.last_seq)
        s->finished = 1;
    games_free(ag);
    return 0;
}

/* Opens the stream of `kind` of `id` (a game, or with SSE_TOURNEY a tournament) after
 * `after`; a chat's as `viewer` (a person, or NULL) may read it. */
static void open_stream(const struct api_request *req, struct api_response *resp, const char *id,
                        int after, enum sse_kind kind, const char *viewer)
{
    if (!live_running()) {
        problem_reply(resp, 503, "too_many_streams", "Event streams are not available now.");
        resp->retry_after = 5;
        return;
    }
    struct sse *s = calloc(1, sizeof *s);
    if (!s) {
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    peer_key(req->client_addr, s->peer);
    if (reg_admit(s)) {
        free(s);
        problem_reply(resp, 503, "too_many_streams",
                      "This server has as many event streams open as it may, or as many for "
                      "this address as its share; retry later or use the long poll (wait=).");
        resp->retry_after = 10;
        return;
    }
    s->kind = kind;
    s->last = resume_after(req, after);
    if (subject_look(s, resp, id)) {
        reg_remove(s);
        free(s);
        return;
    }
    metrics_gauge_add(METRICS_SSE_STREAMS, 1);
    s->base.read = sse_read;
    s->base.free = sse_free;
    buf_init(&s->out, STREAM_OUT_MAX);
    snprintf(s->watch.game, sizeof s->watch.game, "%s", s->game);
    s->watch.fire = sse_fire;
    s->watch.arg = s;
    snprintf(s->viewer, sizeof s->viewer, "%s", viewer ? viewer : "");
    s->query = 1;
    s->next_beat = api_now_ms() + heartbeat_ms;
    if (buf_addf(&s->out, "retry: %d\n\n", RETRY_MS)) {
        sse_free(&s->base);
        problem_reply(resp, 500, "internal_error", "Out of memory.");
        return;
    }
    resp->status = 200;
    resp->content_type = "text/event-stream";
    resp->stream = &s->base;
    log_kv(LOG_DEBUG, "event stream", kind == SSE_TOURNEY ? "tournament" : "game", s->game, NULL);
}

void routes_event_stream(const struct api_request *req, struct api_response *resp, const char *id,
                         int after)
{
    open_stream(req, resp, id, after, SSE_EVENTS, NULL);
}

void routes_chat_stream_open(const struct api_request *req, struct api_response *resp,
                             const char *id, int after, const char *viewer)
{
    open_stream(req, resp, id, after, SSE_CHAT, viewer);
}

void routes_tourney_stream_open(const struct api_request *req, struct api_response *resp,
                                const char *id, int after)
{
    open_stream(req, resp, id, after, SSE_TOURNEY, NULL);
}

int routes_long_poll_arm(const struct api_request *req, const char *id, int after, long wait,
                         routes_wait_arm_fn *arm_watch)
{
    long long deadline = req->started_ms + wait * 1000;
    int waits = wait > 0 && !req->stopping && api_now_ms() < deadline;
    int armed = waits && arm_watch(req->async, id, after, deadline) == 0;
    if (waits && req->async) req->async->by_design = 1;
    if (!armed) live_wait_end(req->async);
    return !waits ? 0 : armed ? API_SUSPEND_WAKE : API_SUSPEND_TICK;
}

void routes_long_poll_page_begin(struct json_out *w, const char *key)
{
    json_out_init(w);
    json_out_begin_object(w);
    json_out_key(w, key);
    json_out_begin_array(w);
}

int routes_long_poll_page_end(const struct api_request *req, struct api_response *resp,
                              struct json_out *w, enum store_status s, const char *missing,
                              int empty, int suspend)
{
    if (s != STORE_OK) {
        json_out_free(w);
        live_wait_end(req->async);
        (void)problem_store_missing(resp, s, missing);
        return 1;
    }
    if (empty && suspend) {
        json_out_free(w);
        /* Woken by the hub; without it, run again at the HTTP layer's next tick. */
        resp->suspend = suspend;
        return 1;
    }
    live_wait_end(req->async);
    json_out_end_array(w);
    return 0;
}

int routes_wants_event_stream(const struct api_request *req)
{
    static const char want[] = "text/event-stream";
    for (const char *p = req->accept; p && *p; p++)
        if (strncasecmp(p, want, sizeof want - 1) == 0) return 1;
    return 0;
}
