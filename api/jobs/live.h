/* live.h: the hub that wakes whoever waits for a game's events (streams, long polls, webhooks).
 *
 * A commit of an action notifies channel STORE_EVENTS_CHANNEL with "<game id>:<seq>"
 * (PostgreSQL NOTIFY, sent at commit only) while some server watches the game (a lease
 * that adding a watch takes, see live.c); a chat message always notifies, with
 * "<game id>:chat:<seq>" (migrations/0026), and fires the watches of kind LIVE_KIND_CHAT; a seek
 * that stops waiting (matched, cancelled, expired) notifies "<seek id>:seek:1" (migrations/0029)
 * and fires the watches of kind LIVE_KIND_SEEK; a tournament's event always notifies
 * "<tournament id>:tourney:<seq>" (migrations/0037) and fires those of LIVE_KIND_TOURNEY.
 * Each server keeps one listening connection on a thread of its own (reconnecting when it is
 * lost); each notification, from any server, fires the watches of that game whose `after` it
 * passes. Watches also fire at their deadline, all of them now and then (a slow fallback, in case a
 * notification was missed, and after the listening connection came back), and at shutdown.
 */
#ifndef API_LIVE_H
#define API_LIVE_H

#include "auth.h"
#include "cfg.h"
#include "nodiscard.h"
#include "req.h"

/* Why a watch fired (bits). */
enum live_reason {
    LIVE_EVENT = 1,    /* an event of its game with seq > after was committed */
    LIVE_DEADLINE = 2, /* its deadline passed */
    LIVE_RECHECK = 4,  /* look again: a notification may have been missed */
    LIVE_STOP = 8      /* the server stops */
};

/* What a watch waits for. */
enum live_kind {
    LIVE_KIND_EVENTS = 0, /* a game's events (notified while the game is leased) */
    LIVE_KIND_CHAT,       /* a game's chat messages (always notified) */
    LIVE_KIND_SEEK,       /* the end of a seek's wait (always notified; `game` is its id) */
    LIVE_KIND_TOURNEY     /* a tournament's events (always notified; `game` is its id) */
};

/*
 * A wait for a game's events. The owner fills the first fields, then live_watch_add();
 * the watch fires once (it is removed from the hub then) and must be added again to wait
 * again. Owned by the caller; live_watch_remove() before freeing it.
 */
struct live_watch {
    char game[AUTH_UUID_LEN + 1]; /* the game (any case); the seek's or tournament's id */
    int after;                    /* fires on a committed event with seq > after */
    enum live_kind kind;          /* what it waits for */
    long long deadline_ms;        /* fires at this api_now_ms() time; 0: no deadline */
    /* Called on the hub's thread with the reasons (bits of live_reason), outside its
     * lock: must be quick, and must not call live_watch_add() or _remove(). */
    void (*fire)(struct live_watch *w, int reasons);
    void *arg; /* the owner's */

    /* The hub's (guarded by its lock). */
    int linked;                     /* 1 while waiting */
    int firing;                     /* 1 while its fire() runs */
    unsigned bucket;                /* the hash bucket of game */
    struct live_watch *prev, *next; /* the bucket's list */
    struct live_watch *fired_next;  /* the list of watches being fired */
};

/*
 * Starts the hub's thread: LIVE_FALLBACK_MS (cfg->live_fallback_ms) between rechecks.
 * Returns 0, or -1 when the thread cannot start (logged).
 */
int live_start(const struct cfg *cfg) NODISCARD;

/* Stops the thread, firing every watch still waiting with LIVE_STOP. */
void live_stop(void);

/* 1 while the hub runs (watches fire). */
int live_running(void);

/* Adds `w` (not waiting now) to the watches. Thread-safe. */
void live_watch_add(struct live_watch *w);

/*
 * Removes `w` if it waits, and waits until a fire() of it that is running has returned:
 * afterwards the hub no longer touches it. Thread-safe; not from within a fire().
 */
void live_watch_remove(struct live_watch *w);

/* Sets the function called (on the hub's thread) after every notification: the webhook
 * workers' wake. NULL for none. Call before live_start(). */
void live_set_event_hook(void (*fn)(void));

/*
 * A long poll's wait, kept as a->pending: arms (again) a watch that wakes the request
 * (a->wake) when an event of `game` with seq > `after` is committed, or at `deadline_ms`.
 * Call it before querying the events, so that none committed meanwhile is missed; if
 * the query finds nothing, answer resp->suspend = API_SUSPEND_WAKE. Returns 0, or -1
 * when the request cannot wait (no hub, out of memory, a->pending is someone else's).
 */
int live_wait_arm(struct api_async *a, const char *game, int after,
                  long long deadline_ms) NODISCARD;

/* live_wait_arm() for the game's chat messages (seq > `after`) instead of its events. */
int live_wait_arm_chat(struct api_async *a, const char *game, int after,
                       long long deadline_ms) NODISCARD;

/* live_wait_arm() for the end of seek `seek`'s wait (matched, cancelled, expired). */
int live_wait_arm_seek(struct api_async *a, const char *seek, long long deadline_ms) NODISCARD;

/* live_wait_arm() for tournament `tournament`'s events (seq > `after`). */
int live_wait_arm_tourney(struct api_async *a, const char *tournament, int after,
                          long long deadline_ms) NODISCARD;

/* Ends the long poll's wait of `a`, if it has one (call before answering). */
void live_wait_end(struct api_async *a);

#endif
