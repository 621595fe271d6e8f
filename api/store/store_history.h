/* store_history.h: what replays of past versions and exports of games are read from
 * (store_history.c, store_export.c). */
#ifndef API_STORE_HISTORY_H
#define API_STORE_HISTORY_H

#include "store_games.h"

/* What replaying a game to a past version needs (store_history.c). Strings malloc'd. */
struct store_history {
    char *setup;   /* the game's setup as a POST /v1/games body (seats named "Seat 1" ...) */
    int version;   /* the version stored now */
    char *actions; /* JSON array of the stored actions (their bodies) producing versions
                      2 .. the version asked, oldest first */
};

/*
 * The setup of game `id` (a valid UUID) and its actions up to version `upto` into `out`
 * (store_history_free, also after a failure): STORE_OK, STORE_NOT_FOUND ...
 */
enum store_status store_game_history(const char *id, int upto, struct store_history *out) NODISCARD;

/* Frees the strings of `h` and leaves it empty (all zero). */
void store_history_free(struct store_history *h);

/* What an export of a game is made of (store_export.c). Strings malloc'd. */
struct store_export {
    char *setup;     /* the setup as a POST /v1/games body (seats: names, computer players) */
    char status[16]; /* the game's status as stored ("finished" ...) */
    char result[16]; /* how it ended ("completed", "resignation", "timeout"), or "" */
    char *actions;   /* JSON array of every stored action (their bodies), oldest first */
    char *chat;      /* JSON array of the chat's messages, oldest first (0026) */
};

/*
 * The export of game `id` (a valid UUID) into `out` (store_export_free, also after a
 * failure): STORE_OK, STORE_NOT_FOUND ...
 */
enum store_status store_game_export(const char *id, struct store_export *out) NODISCARD;

/* Frees the strings of `x` and leaves it empty (all zero). */
void store_export_free(struct store_export *x);

#endif
