/* limit.c: the creation limit per client address, counted by every path that creates
 * something that stays -- see service.h.
 *
 * A token bucket per client address for what creates rows that stay (a game is about
 * 1 KB, at most about 4.5 KB, and nothing expires yet). Its defaults, 30 at once and 120 a
 * minute (2 a second) on average, are meant never to meet an honest client: a person starts
 * a game every few minutes, and a lobby or tournament runner that sets up 30 tables at once
 * gets them at once; a game takes at least two requests for each of its 70-odd turns, so one
 * address that kept 2 creations a second busy would have to play some 300 actions a second.
 * A flood from one address is held to 2 games a second (about 170 MB a day at most instead
 * of 16 GB an hour). Every creation of a game counts (POST /v1/games, a rematch, a replay,
 * and next the matchmaker's and tournaments'), and a replay, which stores every event of a
 * whole game at once (about 190 KB for a long one), weighs one creation per
 * GAME_LIMIT_BYTES it stores. Behind a reverse proxy every client is the proxy's address:
 * raise it or limit there (README "Limits and security").
 */
#include "game/service.h"
#include "ratelimit.h"

static struct ratelimit *creations; /* NULL while off (CREATE_LIMIT_PER_MINUTE=0) */

int game_limit_init(int per_minute, int burst, int slots)
{
    game_limit_free();
    if (per_minute <= 0) return 0;
    creations = ratelimit_new(per_minute / 60.0, burst, slots);
    return creations ? 0 : -1;
}

void game_limit_free(void)
{
    ratelimit_delete(creations);
    creations = NULL;
}

int game_limit_take(const struct sockaddr *addr, int weight)
{
    return ratelimit_take_n(creations, addr, weight);
}

int game_limit_peek(const struct sockaddr *addr)
{
    return ratelimit_peek(creations, addr);
}

int game_limit_weight(size_t stored_bytes)
{
    size_t w = stored_bytes / GAME_LIMIT_BYTES;
    return w < 1 ? 1 : w > 1000000 ? 1000000 : (int)w;
}
