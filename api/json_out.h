/* json_out.h: a JSON writer into one growing buffer (the hot answers: games, events, turns). */
#ifndef API_JSON_OUT_H
#define API_JSON_OUT_H

#include <stddef.h>

#include "nodiscard.h"

/*
 * A document being written, compact as cJSON_PrintUnformatted() writes it. Commas are
 * placed by the writer: call json_out_key() before each member of an object, nothing
 * before each element of an array. After an allocation failure every call does nothing
 * and json_out_take() returns NULL.
 */
struct json_out {
    char *buf;  /* heap, NUL-terminated while not failed; NULL before the first write */
    size_t len; /* bytes written */
    size_t cap; /* bytes allocated */
    int comma;  /* 1 when the next member or element needs a comma before it */
    int failed; /* 1 after an allocation failure */
};

/* An empty writer (no allocation yet). */
void json_out_init(struct json_out *o);

/* Frees what `o` holds and empties it; `o` may be reused. */
void json_out_free(struct json_out *o);

/*
 * Takes the document: a malloc'd NUL-terminated string of *len bytes (len may be NULL)
 * that the caller frees, or NULL after an allocation failure. `o` is empty afterwards.
 */
char *json_out_take(struct json_out *o, size_t *len) NODISCARD;

void json_out_begin_object(struct json_out *o); /* "{" */
void json_out_end_object(struct json_out *o);   /* "}" */
void json_out_begin_array(struct json_out *o);  /* "[" */
void json_out_end_array(struct json_out *o);    /* "]" */

/* The name of the next member of the open object: `"key":` (keys are not escaped: plain
 * ASCII names of the API). */
void json_out_key(struct json_out *o, const char *key);

void json_out_int(struct json_out *o, long long v);      /* a number without fraction */
void json_out_string(struct json_out *o, const char *s); /* a string, escaped; NULL: null */
void json_out_null(struct json_out *o);
void json_out_bool(struct json_out *o, int v);

/* `len` bytes of JSON text written as one value (an object, an array ... made elsewhere). */
void json_out_raw(struct json_out *o, const char *json, size_t len);

/* A member: json_out_key() then the value. */
void json_out_kint(struct json_out *o, const char *key, long long v);
void json_out_kstring(struct json_out *o, const char *key, const char *s);

#endif
