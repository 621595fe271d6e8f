/* apidb.c: the set-up of the store's tests against a real PostgreSQL -- see apidb.h. */
#include "apidb.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "log.h"
#include "migrate.h"
#include "store.h"

PGconn *apidb_open(const char *truncate)
{
    const char *url = getenv("DATABASE_URL");
    cr_assert(url, "DATABASE_URL must name the test database");
    cr_assert_eq(log_set_level("error"), 0);
    cr_assert_eq(store_init(url), 0);
    cr_assert_eq(migrate_run("migrations"), 0);
    PGconn *check = PQconnectdb(url);
    cr_assert_eq(PQstatus(check), CONNECTION_OK);
    PQclear(PQexec(check, "SET client_min_messages = warning"));
    PGresult *r = PQexec(check, truncate);
    cr_assert_eq(PQresultStatus(r), PGRES_COMMAND_OK, "%s", PQerrorMessage(check));
    PQclear(r);
    return check;
}

void apidb_close(PGconn *check)
{
    PQfinish(check);
    store_shutdown();
}
