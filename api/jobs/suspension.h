/* suspension.h: a suspended player's seats in running games, played by the clock's timeout
 * rule or resigned (the job kind "suspension"; issue 28). */
#ifndef API_SUSPENSION_H
#define API_SUSPENSION_H

#include "nodiscard.h"

/* Registers the job kind "suspension" (before jobs_start). 0 or -1. */
int suspension_init(void) NODISCARD;

#endif
