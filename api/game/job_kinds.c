/* job_kinds.c: the registry of job kinds and the plans commits write -- see job_kinds.h. */
#include "job_kinds.h"
#include "store_games.h"

#include <string.h>

static const struct jobs_kind *kinds[JOBS_MAX_KINDS]; /* the registry (filled at start-up) */
static int nkinds;                                    /* entries in kinds */

int jobs_register(const struct jobs_kind *k)
{
    for (int i = 0; i < nkinds; i++)
        if (kinds[i] == k) return 0;
    if (nkinds >= JOBS_MAX_KINDS) return -1;
    kinds[nkinds++] = k;
    return 0;
}

int jobs_plan(const struct cc_game *g, const struct store_player *seats, struct store_jobs *out)
{
    int n = 0;
    for (int i = 0; i < nkinds; i++) {
        int due = 0, lease = 10000;
        enum jobs_plan p = kinds[i]->plan ? kinds[i]->plan(g, seats, &due, &lease) : JOBS_PLAN_NONE;
        if (p == JOBS_PLAN_NONE) continue;
        store_jobs_add(out, (struct store_job_plan){.kind = kinds[i]->name,
                                                    .remove = p == JOBS_PLAN_REMOVE,
                                                    .due_ms = due,
                                                    .lease_ms = lease});
        n++;
    }
    return n;
}

const struct jobs_kind *jobs_kind_of(const char *name)
{
    for (int i = 0; i < nkinds; i++)
        if (strcmp(kinds[i]->name, name) == 0) return kinds[i];
    return NULL;
}

int jobs_kinds_of_lane(enum jobs_lane lane, const char *names[JOBS_MAX_KINDS])
{
    int n = 0;
    for (int i = 0; i < nkinds; i++)
        if (kinds[i]->lane == lane) names[n++] = kinds[i]->name;
    return n;
}
