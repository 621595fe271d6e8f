/* apidb.h: what the store's tests against a real PostgreSQL share (`make test-api-db`). */
#ifndef TESTS_APIDB_H
#define TESTS_APIDB_H

#include <libpq-fe.h>

/* Opens the store on DATABASE_URL (migrated), empties the tables of `truncate` (a TRUNCATE
 * statement) and returns the test's own connection, to read what the store wrote. */
PGconn *apidb_open(const char *truncate);

/* Closes `check` and the store. */
void apidb_close(PGconn *check);

#endif
