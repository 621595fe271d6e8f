/* uri.h: a request target as sent: its path decoded for routing, its query split up. */
#ifndef API_URI_H
#define API_URI_H

#include <stddef.h>

#include "nodiscard.h"
#include "req.h"

#define URI_MAX        8192 /* bytes of a request target (path and query) at most, else 414 */
#define URI_MAX_PARAMS 64   /* query parameters at most, else 414 (API_MAX_QUERY are kept) */

enum uri_status {
    URI_OK,       /* decoded */
    URI_BAD,      /* an escaped NUL (%00), or in a path an escaped slash (%2F) */
    URI_TOO_MANY, /* a query of more than URI_MAX_PARAMS parameters */
};

/*
 * Decodes the percent-escapes of the path `raw` (`len` bytes, no query) into `out`
 * (`cap` bytes, at least len + 1), NUL-terminated. The path is routed as sent: an
 * escaped slash would make one segment look like two and an escaped NUL would cut the
 * path short, so both are URI_BAD. A '%' not followed by two hex digits stays as it is.
 */
enum uri_status uri_path_decode(const char *raw, size_t len, char *out, size_t cap) NODISCARD;

/*
 * Splits the query `q` (the text after '?', NUL-terminated, changed in place) at '&' into
 * name/value pairs, each with '+' as a space and its percent-escapes decoded, pointing
 * into `q`: up to `max` into `out`, their number in *n, *more set to 1 when there were
 * more (they are not kept). A pair without '=' has the value "", and empty pairs
 * ("a&&b") are skipped. URI_BAD for an escaped NUL, URI_TOO_MANY for more than
 * URI_MAX_PARAMS pairs.
 */
enum uri_status uri_query_split(char *q, struct api_query *out, size_t max, size_t *n,
                                int *more) NODISCARD;

#endif
