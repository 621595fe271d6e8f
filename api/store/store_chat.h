/* store_chat.h: the store family of talk (migrations/0026, implemented by store_chat.c): a
 * game's chat messages, blocks between players, reports of messages, and the operator's
 * hiding and suspensions. */
#ifndef API_STORE_CHAT_H
#define API_STORE_CHAT_H

#include "store.h"

#define STORE_CHAT_TEXT_MAX 2000 /* bytes of a message's text (500 characters of UTF-8) */

/* A message to post. */
struct store_chat_post {
    const char *game;   /* the game (a valid UUID) */
    int seat;           /* the sender's seat */
    const char *person; /* the player bound to the seat, or NULL */
    const char *name;   /* the seat's name now */
    const char *text;   /* the text, checked (json_in_chat) */
    int max;            /* messages of one seat within window_ms at most */
    int window_ms;      /* the rate limit's window */
};

/*
 * The idempotent answer to keep with a message just numbered `seq` and sent at `at`
 * (store_chat_post()), built by the caller inside the post's transaction; NULL when it
 * cannot be built (the post is then undone).
 */
typedef const struct store_idem *(*store_chat_answer)(void *arg, int seq, const char *at);

/*
 * Posts `p` in one statement (chat_post() of 0026 and 0028: numbered under a lock of the
 * game's chat, so that the limit holds across servers; its webhook deliveries written with
 * it; a posted message notifies the live hubs, "<game>:chat:<seq>"). STORE_OK with *seq the
 * new message's number, *retry_ms 0 and `at` when it was sent (RFC 3339, UTC, ms), or
 * with *seq 0 and *retry_ms > 0 when the seat sent `max` messages within the window
 * (nothing written: *retry_ms is when the oldest of them leaves it). The game must exist.
 * With `answer` (an Idempotency-Key), the answer it gives is kept in the same transaction:
 * STORE_DUPLICATE (nothing posted) when a request with the same key stored its answer first.
 */
enum store_status store_chat_post(const struct store_chat_post *p, store_chat_answer answer,
                                  void *arg, int *seq, int *retry_ms, char at[32]) NODISCARD;

/* A message as read. */
struct store_chat_message {
    int seq;                            /* its number in the game's chat, from 1 */
    int seat;                           /* the sender's seat */
    char person[AUTH_UUID_LEN + 1];     /* the player bound to it then, or "" */
    char name[STORE_NAME_MAX + 1];      /* the seat's name then */
    char text[STORE_CHAT_TEXT_MAX + 1]; /* the text (kept when hidden) */
    int hidden;                         /* 1: hidden by the operator */
    int blocked;                        /* 1: its sender is blocked by the viewer */
    char at[32];                        /* when it was sent (RFC 3339, UTC, ms) */
};

/*
 * Calls fn(arg, m) for each message of game `game` with seq > after (oldest first, at most
 * `limit`), `blocked` set for a sender that person `viewer` (or NULL: nobody) blocked;
 * counts them in *count and sets *last to the seq of the last one (`after` when none). A
 * nonzero return of fn stops (STORE_ERROR).
 */
enum store_status store_chat_each(const char *game, int after, int limit, const char *viewer,
                                  int (*fn)(void *arg, const struct store_chat_message *m),
                                  void *arg, int *count, int *last) NODISCARD;

/*
 * Reports message `seq` of game `game` by seat `seat` (bound to `person`, or NULL), once
 * per seat and message: STORE_OK (*created 1, or 0 for a repeat), STORE_NOT_FOUND when the
 * game has no such message. With `keyed` (an Idempotency-Key), its answer is made and kept
 * in the report's transaction (outcome: *created); STORE_DUPLICATE when the key was kept
 * meanwhile by a request that raced this one (nothing done).
 */
enum store_status store_chat_report(const char *game, int seq, int seat, const char *person,
                                    int *created, store_keyed keyed, void *arg) NODISCARD;

/* Hides message `seq` of game `game` for everyone (its text kept) and closes its reports:
 * STORE_OK, STORE_NOT_FOUND when there is no such message. With `keyed` (the operator's
 * Idempotency-Key), as store_chat_report() (outcome: 1). */
enum store_status store_chat_hide(const char *game, int seq, store_keyed keyed,
                                  void *arg) NODISCARD;

/*
 * The open reports, oldest first, at most `limit`, as a JSON array text in *json (malloc'd,
 * the caller frees): each {game, seq, reports, reported_at, message {seq, seat, name,
 * player, text, hidden, at}, context [the messages from seq - 5 to seq + 5]}.
 */
enum store_status store_chat_reports(int limit, char **json) NODISCARD;

/*
 * Blocks (`on`) or unblocks person `blocked` for person `blocker`: STORE_OK with *changed 1
 * when it changed something (0: it stood so already), STORE_NOT_FOUND when blocking a
 * person that does not exist. With `keyed` (a block's Idempotency-Key), as
 * store_chat_report() (outcome: *changed).
 */
enum store_status store_block_set(const char *blocker, const char *blocked, int on, int *changed,
                                  store_keyed keyed, void *arg) NODISCARD;

/* The persons `blocker` blocked, as a JSON array text in *json (malloc'd): each {player,
 * name, since}, oldest first. */
enum store_status store_blocks_list(const char *blocker, char **json) NODISCARD;

/* One block: `blocker` blocked `blocked` (person ids). */
struct store_block {
    char blocker[AUTH_UUID_LEN + 1];
    char blocked[AUTH_UUID_LEN + 1];
};

/*
 * The blocks among the persons of `persons` (a PostgreSQL array text of their ids,
 * "{id,id,...}"), either way, into *out (*n of them, free() the array): the matchmaker never
 * pairs two persons of whom one blocked the other (api.md, "Play now"), and reads them once
 * a run rather than once a pair.
 */
enum store_status store_blocks_among(const char *persons, struct store_block **out,
                                     int *n) NODISCARD;

/*
 * Suspends (`on`) or reinstates person `id`: STORE_OK, STORE_NOT_FOUND when there is no
 * such person. A suspension also makes a "suspension" job due at once for every game in
 * which the person holds a seat and that is active (*games gets their number), in the same
 * statement; a suspension already in force keeps its time. With `keyed` (the operator's
 * Idempotency-Key), as store_chat_report() (outcome: *games).
 */
enum store_status store_person_suspend(const char *id, int on, int *games, store_keyed keyed,
                                       void *arg) NODISCARD;

/* The seats of game `game` bound to suspended persons, as bits (bit s: seat s). */
enum store_status store_game_suspended_seats(const char *game, unsigned *mask) NODISCARD;

#endif
