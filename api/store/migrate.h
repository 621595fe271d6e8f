/* migrate.h: applies the numbered SQL files of migrations/ at start-up. */
#ifndef API_MIGRATE_H
#define API_MIGRATE_H

#include "nodiscard.h"

/*
 * Reads every file NNNN_name.sql of `dir` (ascending NNNN; two files with one number
 * are an error) and applies those the database has not recorded yet (store_migrate).
 * Returns 0, or -1 after logging why.
 */
int migrate_run(const char *dir) NODISCARD;

#endif
