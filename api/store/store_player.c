/* store_player.c: people, the players' identities across games (migrations/0007): created
 * with their idempotent answer, found by their token's hash, their token replaced. */
#include "store.h"

#include <string.h>

#include <libpq-fe.h>

#include "store_db.h"
#include "store_games.h"
#include "store_people.h"

enum store_status store_person_create(const struct store_person *p, const struct store_idem *idem)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    enum store_status s = db_begin(&pg);
    if (s == STORE_OK) {
        const char *vals[3] = {p->id, p->name, (const char *)p->token_hash};
        int lens[3] = {0, 0, AUTH_HASH_LEN};
        s = db_run_cmd(&pg, ST_PERSON_INSERT, 3, vals, lens, NULL);
    }
    if (s == STORE_OK && idem) s = db_idem_put(pg, idem);
    if (s == STORE_OK) s = db_exec(pg, "COMMIT", "commit");
    if (s != STORE_OK) db_rollback(pg);
    return s;
}

/* Fills out's id and name from columns 0 and 1 of `res` (row 0, text or binary: the
 * bytes of text are the same). STORE_OK, or STORE_ERROR for a row out of shape. */
static enum store_status take_person(const PGresult *res, struct store_person *out)
{
    size_t il = (size_t)PQgetlength(res, 0, 0), nl = (size_t)PQgetlength(res, 0, 1);
    if (il != AUTH_UUID_LEN || nl > STORE_NAME_MAX) return STORE_ERROR;
    memcpy(out->id, PQgetvalue(res, 0, 0), il);
    out->id[il] = '\0';
    memcpy(out->name, PQgetvalue(res, 0, 1), nl);
    out->name[nl] = '\0';
    out->suspended = 0;
    return STORE_OK;
}

enum store_status store_person_by_token(const uint8_t hash[AUTH_HASH_LEN], struct store_person *out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[1] = {(const char *)hash};
    int lens[1] = {AUTH_HASH_LEN};
    PGresult *res;
    /* Results in binary: text columns as their bytes, the hash as its 32 bytes. */
    enum store_status s = db_run_fmt(&pg, ST_PERSON_BY_TOKEN, 1, vals, lens, 1, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    s = take_person(res, out);
    if (s == STORE_OK && PQgetlength(res, 0, 2) != AUTH_HASH_LEN) s = STORE_ERROR;
    if (s == STORE_OK) memcpy(out->token_hash, PQgetvalue(res, 0, 2), AUTH_HASH_LEN);
    /* Suspended by the operator (0026): an int4 in binary, big-endian. */
    if (s == STORE_OK && PQgetlength(res, 0, 3) != 4) s = STORE_ERROR;
    if (s == STORE_OK) {
        const unsigned char *b = (const unsigned char *)PQgetvalue(res, 0, 3);
        out->suspended = (b[0] | b[1] | b[2] | b[3]) != 0;
    }
    PQclear(res);
    return s;
}

enum store_status store_person_token_replace(const uint8_t old_hash[AUTH_HASH_LEN],
                                             const uint8_t new_hash[AUTH_HASH_LEN],
                                             struct store_person *out)
{
    PGconn *pg = db_conn();
    if (!pg) return STORE_UNAVAILABLE;
    const char *vals[2] = {(const char *)old_hash, (const char *)new_hash};
    int lens[2] = {AUTH_HASH_LEN, AUTH_HASH_LEN};
    PGresult *res;
    enum store_status s = db_run(&pg, ST_PERSON_TOKEN, 2, vals, lens, &res);
    if (s != STORE_OK) return s;
    if (PQntuples(res) != 1) {
        PQclear(res);
        return STORE_NOT_FOUND;
    }
    s = take_person(res, out);
    if (s == STORE_OK) memcpy(out->token_hash, new_hash, AUTH_HASH_LEN);
    PQclear(res);
    return s;
}
