/* games.c: loading stored games, and the cache of decoded games that spares most loads
 * (routes/game_answers.c answers requests with them).
 *
 * The cache holds, per slot, one decoded game at some version and, once a read wrote it,
 * its GET answer. A game may be in any of the CACHE_WAYS slots of its set (a hash of the
 * id), the set's least recently used giving way to a new one: with one slot a game, two
 * games of one slot took turns to push each other out (a fifth of 200 games played at
 * once shared a slot of 1,024, and each of their moves loaded the game again). A game's id and
 * version name one state, so what the cache holds is never wrong, only perhaps not the newest: a
 * read first asks the database for the version (a small query) and uses the cache only when it
 * holds that one; an action uses whatever the cache holds, and its commit, which checks the
 * version, finds out a stale copy (the action is then tried again on the stored game). Several
 * servers on one database each keep their own cache; none needs another's. The reads'
 * version queries go through the batcher (batcher.c).
 *
 * Commits go through the game service (game_commit, game/service.h), which puts every
 * state this server stores into the cache (games_remember), so that it follows them.
 *
 * After a failover, a version may name another state: the old primary may have shown a
 * commit (to this server's reads) that its standby never got, and the new primary then
 * gives that version to another action. So every entry carries the database epoch in
 * which it was read (store_epoch(): the timeline of the primary it came from), an entry
 * of an older epoch than the newest one seen is never used, and a state read from one
 * primary is never committed on another (store_commit.epoch).
 */
#include "games.h"

#include <pthread.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batcher.h"
#include "json_game.h"
#include "log.h"
#include "metrics.h"
#include "spare.h"
#include "store_games.h"
#include "store_people.h"

#define CACHE_WAYS 4 /* slots a game may take (a set) */

/*
 * One cached game: its id, version and epoch, the decoded game (a struct api_game whose
 * row.snapshot is left empty), and its GET answer. An action takes the game itself out of
 * its slot (games_fetch with GAMES_ANY: no copy of its 55 KB) and, once committed, gives the
 * new state back (games_remember notes the version, games_keep hands the game in): the slot
 * keeps its id, version and answer meanwhile (ag NULL), so that reads still find the answer.
 */
struct slot {
    char id[AUTH_UUID_LEN + 1]; /* the game's id, or "" for an empty slot */
    int version;                /* the version cached */
    unsigned epoch;             /* store_epoch() when read: see above */
    struct api_game *ag;        /* the game at that version, or NULL (lent to an action) */
    char *body;                 /* its GET answer at that version, or NULL */
    size_t body_len;            /* bytes in body */
    atomic_ulong used;          /* the tick of its last use (set under the set's read lock too) */
};

/* The slots a game may take. */
struct set {
    pthread_rwlock_t lock;       /* guards the slots (but `used`) */
    struct slot way[CACHE_WAYS]; /* its slots */
};

static struct set *sets;  /* the cache, or NULL when off */
static size_t nsets;      /* entries in sets */
static atomic_ulong tick; /* counts the uses of slots */

/* The set of game `id` (FNV-1a of the id). */
static struct set *set_of(const char *id)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)id; *p; p++) h = (h ^ *p) * 16777619u;
    return &sets[h % nsets];
}

/* The slot of set `t` (locked) that holds game `id`, or NULL; marked used. */
static struct slot *slot_find(struct set *t, const char *id)
{
    for (int i = 0; i < CACHE_WAYS; i++) {
        struct slot *s = &t->way[i];
        if (s->id[0] && strcmp(s->id, id) == 0) {
            atomic_store_explicit(&s->used,
                                  atomic_fetch_add_explicit(&tick, 1, memory_order_relaxed),
                                  memory_order_relaxed);
            return s;
        }
    }
    return NULL;
}

int games_init(int n, int commit_threads)
{
    if (n > 0) {
        nsets = ((size_t)n + CACHE_WAYS - 1) / CACHE_WAYS;
        sets = calloc(nsets, sizeof *sets);
        if (!sets) return -1;
        for (size_t i = 0; i < nsets; i++) pthread_rwlock_init(&sets[i].lock, NULL);
    }
    if (batcher_start(commit_threads) != 0) {
        games_shutdown();
        return -1;
    }
    return 0;
}

void games_shutdown(void)
{
    batcher_stop();
    for (size_t i = 0; i < nsets; i++) {
        for (int w = 0; w < CACHE_WAYS; w++) {
            free(sets[i].way[w].ag);
            free(sets[i].way[w].body);
        }
        pthread_rwlock_destroy(&sets[i].lock);
    }
    free(sets);
    sets = NULL;
    nsets = 0;
}

/* Points ag->names at the names in its own row. */
static void fix_names(struct api_game *ag)
{
    for (int i = 0; i < CC_MAX_PLAYERS; i++)
        ag->names[i] = i < ag->row.nplayers ? ag->row.players[i].name : "";
}

/* Copies game `from` into `to` but its encoded snapshot (8 KB, never used from the cache):
 * a copy that is the cache's, or comes from it, and is lent to nobody. */
static void copy_game(struct api_game *to, const struct api_game *from)
{
    memcpy(to->id, from->id, sizeof to->id);
    memcpy(&to->row, &from->row, offsetof(struct store_game, snapshot));
    to->row.snapshot_len = 0;
    memcpy(&to->g, &from->g, sizeof to->g);
    to->epoch = from->epoch;
    to->cached = 1;
    to->lent = 0;
    fix_names(to);
}

/* The usable slot of game `id` in set `t` (locked): holding its game (at `version` unless that
 * is -1) read in the newest epoch; or NULL. */
static struct slot *slot_usable(struct set *t, const char *id, int version)
{
    struct slot *s = slot_find(t, id);
    if (!s || !s->ag || (version >= 0 && s->version != version) || s->epoch != store_epoch_newest())
        return NULL;
    return s;
}

/* A copy of the cached game `id` (at `version` unless it is -1), or NULL. */
static struct api_game *from_cache(const char *id, int version)
{
    struct set *t = set_of(id);
    struct api_game *copy = NULL;
    pthread_rwlock_rdlock(&t->lock);
    const struct slot *s = slot_usable(t, id, version);
    if (s && (copy = spare_take(SPARE_GAME, sizeof *copy)) != NULL) copy_game(copy, s->ag);
    pthread_rwlock_unlock(&t->lock);
    return copy;
}

/* The cached game `id` itself, taken out of its slot for an action (see struct slot), or
 * NULL. */
static struct api_game *take_from_cache(const char *id)
{
    struct set *t = set_of(id);
    pthread_rwlock_wrlock(&t->lock);
    struct slot *s = slot_usable(t, id, -1);
    struct api_game *ag = s ? s->ag : NULL;
    if (s) s->ag = NULL;
    pthread_rwlock_unlock(&t->lock);
    if (ag) {
        ag->cached = 1;
        ag->lent = 1;
        ag->given_back = 0;
    }
    return ag;
}

/* Puts `ag` (and `body`) into its slot of set `t` (locked: the one that holds the game, else
 * an empty one, else the least recently used) unless that holds a newer version. A game
 * lent by the cache (ag->lent) whose slot waits for it is not copied: the slot notes its
 * version and answer, and ag->given_back says that games_keep() may hand it in. */
static void slot_put(struct set *t, struct api_game *ag, const char *body, size_t len)
{
    if (ag->epoch != store_epoch_newest()) return; /* read before a failover */
    struct slot *s = slot_find(t, ag->id);
    for (int i = 0; !s && i < CACHE_WAYS; i++)
        if (!t->way[i].id[0]) s = &t->way[i];
    for (int i = 0; !s && i < CACHE_WAYS; i++) {
        struct slot *w = &t->way[i];
        if (!s || atomic_load_explicit(&w->used, memory_order_relaxed) <
                      atomic_load_explicit(&s->used, memory_order_relaxed))
            s = w;
    }
    atomic_store_explicit(&s->used, atomic_fetch_add_explicit(&tick, 1, memory_order_relaxed),
                          memory_order_relaxed);
    int same = s->id[0] && strcmp(s->id, ag->id) == 0 && s->epoch == ag->epoch;
    if (same && s->version > ag->row.version) return;
    if (same && s->version == ag->row.version && s->ag && (!body || s->body)) return;
    if (same && !s->ag && ag->lent) {
        ag->given_back = 1; /* the slot waits for it: games_keep() */
    } else {
        if (!s->ag && !(s->ag = malloc(sizeof *s->ag))) {
            s->id[0] = '\0';
            return;
        }
        copy_game(s->ag, ag);
    }
    memcpy(s->id, ag->id, sizeof s->id);
    s->version = ag->row.version;
    s->epoch = ag->epoch;
    /* A bank's answer changes as its time runs: written afresh at each read (0011). */
    if (ag->row.clock.kind == STORE_CLOCK_BANK) body = NULL;
    free(s->body);
    s->body = NULL;
    s->body_len = 0;
    if (body && (s->body = malloc(len + 1)) != NULL) {
        memcpy(s->body, body, len);
        s->body[len] = '\0';
        s->body_len = len;
    }
}

/* The games_fail of store status `s` (not STORE_OK). */
static enum games_fail fail_of(enum store_status s)
{
    switch (s) {
    case STORE_NOT_FOUND:
        return GAMES_NOT_FOUND;
    case STORE_UNAVAILABLE:
        return GAMES_UNAVAILABLE;
    default:
        return GAMES_ERROR;
    }
}

struct api_game *games_fetch(const char *id, enum games_from from, int version,
                             enum games_fail *why)
{
    *why = GAMES_OK;
    if (!auth_uuid_valid(id)) {
        *why = GAMES_NOT_FOUND;
        return NULL;
    }
    if (sets && from != GAMES_DB) {
        if (from == GAMES_CURRENT && version < 0) {
            enum store_status vs = batcher_version(id, &version);
            if (vs == STORE_OK && version < 0) vs = STORE_NOT_FOUND;
            if (vs != STORE_OK) {
                *why = fail_of(vs);
                return NULL;
            }
        }
        struct api_game *copy =
            from == GAMES_ANY && version < 0 ? take_from_cache(id) : from_cache(id, version);
        if (copy) return copy;
    }
    struct api_game *ag = spare_take(SPARE_GAME, sizeof *ag);
    if (!ag) {
        *why = GAMES_NO_MEMORY;
        return NULL;
    }
    snprintf(ag->id, sizeof ag->id, "%s", id);
    ag->cached = 0;
    ag->lent = 0;
    enum store_status s = store_game_load(id, &ag->row);
    ag->epoch = store_epoch(); /* of the connection the load ran on */
    if (s != STORE_OK) {
        *why = fail_of(s);
        goto fail;
    }
    enum cc_status st = cc_game_decode(&ag->g, ag->row.snapshot, ag->row.snapshot_len);
    if (st != CC_OK || ag->g.nplayers != ag->row.nplayers) {
        log_kv(LOG_ERROR, "stored game does not decode", "game", id, NULL);
        *why = GAMES_CORRUPT;
        goto fail;
    }
    fix_names(ag);
    metrics_game_load();
    games_remember(ag, NULL, 0);
    return ag;
fail:
    games_free(ag);
    return NULL;
}

void games_remember(struct api_game *ag, const char *body, size_t len)
{
    if (!sets) return;
    struct set *t = set_of(ag->id);
    pthread_rwlock_wrlock(&t->lock);
    slot_put(t, ag, body, len);
    pthread_rwlock_unlock(&t->lock);
}

/* The seat of `ag` bound to the person whose token hashes to `h` into *seat, or -1 (also
 * when no seat is bound to anyone: then nothing is asked). STORE_OK, or the lookup's failure. */
static enum store_status person_seat(const struct api_game *ag, const uint8_t h[AUTH_HASH_LEN],
                                     int *seat, int *suspended)
{
    *seat = -1;
    int bound = 0;
    for (int s = 0; s < ag->row.nplayers; s++) bound |= ag->row.players[s].person_id[0] != '\0';
    if (!bound) return STORE_OK;
    /* As routes_player_auth(): found by its hash (a unique index), then compared in
     * constant time; the lookup's timing is about the hash of the caller's own token. */
    struct store_person p;
    enum store_status st = store_person_by_token(h, &p);
    if (st == STORE_NOT_FOUND || (st == STORE_OK && !auth_hash_equal(h, p.token_hash)))
        return STORE_OK;
    if (st != STORE_OK) return st;
    for (int s = 0; s < ag->row.nplayers; s++)
        if (strcmp(ag->row.players[s].person_id, p.id) == 0) *seat = s;
    if (*seat >= 0 && p.suspended) {
        /* Suspended by the operator (0026): its token acts for nobody until reinstated. */
        *seat = -1;
        *suspended = 1;
    }
    return STORE_OK;
}

/* A rematch's named seat gets its token when it first asks for it (0009), after `ag` may
 * have been read (or cached): while `ag` shows such a seat unclaimed, a token that matched
 * no seat is compared once more with the seats as stored now, which `ag` then takes (so that
 * the cache follows at its next commit). STORE_OK, or the load's failure. */
static enum store_status unclaimed_seat(struct api_game *ag, const uint8_t h[AUTH_HASH_LEN],
                                        int *seat)
{
    int unclaimed = 0;
    for (int s = 0; s < ag->row.nplayers; s++) unclaimed |= ag->row.players[s].unclaimed;
    if (!unclaimed) return STORE_OK;
    struct store_game *row = malloc(sizeof *row);
    if (!row) return STORE_ERROR;
    enum store_status st = store_game_load(ag->id, row);
    if (st == STORE_OK && row->nplayers == ag->row.nplayers) {
        for (int s = 0; s < row->nplayers; s++)
            if (!row->players[s].unclaimed && auth_hash_equal(h, row->players[s].token_hash))
                *seat = s;
        memcpy(ag->row.players, row->players, sizeof ag->row.players);
        fix_names(ag);
    }
    free(row);
    return st == STORE_NOT_FOUND ? STORE_OK : st;
}

enum store_status games_seat_of(struct api_game *ag, const char *token, int *seat, int *suspended)
{
    *seat = -1;
    *suspended = 0;
    uint8_t h[AUTH_HASH_LEN];
    if (auth_sha256(token, strlen(token), h) != 0) return STORE_OK;
    /* Compare with every seat, in constant time each, without stopping early. */
    for (int s = 0; s < ag->row.nplayers; s++)
        if (auth_hash_equal(h, ag->row.players[s].token_hash)) *seat = s;
    /* Not a seat's token: perhaps the player token of the person bound to a seat (0008;
     * one seat per person and game), which acts for that seat exactly as its own token
     * would. */
    enum store_status st = STORE_OK;
    if (*seat < 0) st = person_seat(ag, h, seat, suspended);
    if (st == STORE_OK && *seat < 0 && !*suspended) st = unclaimed_seat(ag, h, seat);
    return st;
}

int games_cache_on(void)
{
    return sets != NULL;
}

int games_cached_body(const char *id, int version,
                      void (*use)(void *arg, const char *body, size_t len), void *arg)
{
    if (!sets || version < 0) return 0;
    struct set *t = set_of(id);
    int found = 0;
    pthread_rwlock_rdlock(&t->lock);
    const struct slot *s = slot_find(t, id);
    if (s && s->body && s->version == version) {
        use(arg, s->body, s->body_len);
        found = 1;
    }
    pthread_rwlock_unlock(&t->lock);
    return found;
}

void games_turn(const struct cc_game *g, struct store_turn *out)
{
    int finished = g->phase == CC_PHASE_FINISHED;
    memset(out, 0, sizeof *out);
    out->number = g->turn;
    out->seat = finished || g->seat == CC_NO_SEAT ? -1 : (int)g->seat;
    out->phase = finished ? "finished" : g->phase == CC_PHASE_PLACE ? "place" : "draw";
    out->nscores = g->nplayers;
    for (int s = 0; s < g->nplayers && s < CC_MAX_PLAYERS; s++)
        out->scores[s] = g->players[s].score;
}

void games_free(struct api_game *ag)
{
    spare_give(SPARE_GAME, ag);
}

void games_keep(struct api_game *ag)
{
    if (ag && ag->lent && ag->given_back) {
        struct set *t = set_of(ag->id);
        pthread_rwlock_wrlock(&t->lock);
        struct slot *s = slot_find(t, ag->id);
        int in = s && !s->ag && s->version == ag->row.version && s->epoch == ag->epoch;
        if (in) {
            ag->lent = 0;
            ag->row.snapshot_len = 0;
            s->ag = ag;
        }
        pthread_rwlock_unlock(&t->lock);
        if (in) return;
    }
    games_free(ag);
}

const char *games_status(const struct api_game *ag)
{
    switch (ag->row.state) {
    case STORE_WAITING:
        return "waiting";
    case STORE_ABORTED:
        return "aborted";
    case STORE_PLAYING:
        break;
    }
    return json_status(&ag->g);
}

void games_meta(const struct api_game *ag, struct json_game_meta *meta)
{
    memset(meta, 0, sizeof *meta);
    meta->id = ag->id;
    meta->version = ag->row.version;
    meta->names = ag->names;
    meta->seats = ag->row.players;
    meta->hints_off = ag->row.hints_off;
    meta->chat_public = ag->row.chat_public;
    meta->seed_chosen = ag->row.seed_chosen;
    meta->rated = ag->row.rated;
    meta->seat_ratings = 1;
    meta->clock = &ag->row.clock;
    meta->status = ag->row.state == STORE_PLAYING ? NULL : games_status(ag);
    for (int s = 0; s < ag->row.nplayers; s++)
        if (ag->row.players[s].open) meta->open |= 1u << s;
}
