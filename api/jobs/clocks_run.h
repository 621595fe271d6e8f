/* clocks_run.h: what happens at a clock's deadline and before it (clocks_run.c, the job
 * kinds "deadline" and "deadline_near"), and the timeout rule other jobs play too. */
#ifndef API_CLOCKS_RUN_H
#define API_CLOCKS_RUN_H

#include "job_kinds.h"

struct api_game;
/*
 * Plays the clock's timeout rule now for the seat to move of the game *agp (a clocked game
 * being played, read from the database; clocks_run.c): with "resign", or on the seat's
 * third timeout in a row, it resigns; else its whole turn is played as greedy would. Each
 * action through game_play() by GAME_BY_CLOCK, guarded by the version (another server's
 * action first is no failure). *agp is replaced as game_play() replaces it (NULL after a
 * failed read). JOBS_DONE, or JOBS_RETRY when it failed for now. Used at a deadline and
 * for a suspended player's seat (suspension.c).
 */
enum jobs_result clocks_play_timeout(struct api_game **agp);

#endif
