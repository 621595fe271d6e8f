/* board_png.c: SVG to PNG with librsvg and cairo (the only file that includes their
 * headers), and the cache of rendered pictures: BOARD_PNG_CACHE_SLOTS entries found by a
 * scan under one mutex, the least recently used dropped first. */
#include "board_png.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "metrics.h"
#include "peer.h"

int board_png_width(const char *v, int *out)
{
    if (!v) {
        *out = BOARD_PNG_WIDTH_DEFAULT;
        return 0;
    }
    long n = 0;
    size_t i = 0;
    for (; v[i] >= '0' && v[i] <= '9'; i++) {
        n = n * 10 + (v[i] - '0');
        if (n > BOARD_PNG_WIDTH_MAX) return -1;
    }
    if (i == 0 || v[i] != '\0' || n < BOARD_PNG_WIDTH_MIN) return -1;
    static const int sizes[] = BOARD_PNG_SIZES;
    size_t k = 0;
    while (sizes[k] < n) k++; /* the last is BOARD_PNG_WIDTH_MAX */
    *out = sizes[k];
    return 0;
}

void board_png_size(double svg_w, double svg_h, int width, int *out_w, int *out_h)
{
    double w = width, h = width * svg_h / svg_w;
    double max_h = (double)BOARD_PNG_WIDTH_MAX * 4;
    if (w * h > (double)BOARD_PNG_MAX_PIXELS) {
        double k = sqrt((double)BOARD_PNG_MAX_PIXELS / (w * h));
        w *= k;
        h *= k;
    }
    if (h > max_h) {
        w *= max_h / h;
        h = max_h;
    }
    *out_w = w < 1 ? 1 : (int)w;
    *out_h = h < 1 ? 1 : (int)h;
}

/* cairo's stream writer into a struct buf (`closure`). */
static cairo_status_t png_write(void *closure, const unsigned char *data, unsigned int length)
{
    return buf_add(closure, data, length) == BUF_OK ? CAIRO_STATUS_SUCCESS
                                                    : CAIRO_STATUS_WRITE_ERROR;
}

int board_png_render(const char *svg, size_t len, int width, struct board_png *out)
{
    memset(out, 0, sizeof *out);
    int rc = -1;
    GError *err = NULL;
    cairo_surface_t *s = NULL;
    cairo_t *cr = NULL;
    struct buf b;
    buf_init(&b, BOARD_PNG_MAX);
    RsvgHandle *h = rsvg_handle_new_from_data((const guint8 *)svg, len, &err);
    if (!h) goto out;
    gdouble sw = 0, sh = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &sw, &sh) || !(sw > 0) || !(sh > 0)) goto out;
    int w, hh;
    board_png_size(sw, sh, width, &w, &hh);
    s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, hh);
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) goto out;
    cr = cairo_create(s);
    if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) goto out;
    RsvgRectangle viewport = {0, 0, w, hh};
    if (!rsvg_handle_render_document(h, cr, &viewport, &err)) goto out;
    cairo_surface_flush(s);
    if (cairo_surface_write_to_png_stream(s, png_write, &b) != CAIRO_STATUS_SUCCESS) goto out;
    out->data = buf_take(&b, &out->len);
    if (!out->data) goto out;
    out->width = w;
    out->height = hh;
    rc = 0;
out:
    if (err) g_error_free(err);
    if (cr) cairo_destroy(cr);
    if (s) cairo_surface_destroy(s);
    if (h) g_object_unref(h);
    buf_free(&b);
    return rc;
}

void board_png_free(struct board_png *p)
{
    if (!p) return;
    free(p->data);
    memset(p, 0, sizeof *p);
}

/* A cached picture. */
struct entry {
    char id[40];          /* the game's id ("" while the slot is free) */
    int version;          /* the game's version */
    int width;            /* as asked */
    struct board_png png; /* the picture */
    unsigned long used;   /* the clock when last found or stored */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int wait_ms = BOARD_PNG_WAIT_MS;           /* board_png_set_wait() */
static struct entry cache[BOARD_PNG_CACHE_SLOTS]; /* under lock */
static size_t cache_bytes;                        /* under lock: PNG bytes kept */
static unsigned long clock_now;                   /* under lock: ticks per use */

/* A render running (board_png_begin() to board_png_end()). */
struct flight {
    char id[40];                /* the game's id */
    int version;                /* its version */
    int width;                  /* as asked */
    int busy;                   /* 1 while the render runs, else the slot is free */
    uint8_t peer[PEER_KEY_LEN]; /* the key of the client address it renders for */
};

static struct flight flights[BOARD_PNG_RENDERS]; /* under lock */

/* The entry of (id, version, width), or NULL. Under lock. */
static struct entry *find(const char *id, int version, int width)
{
    for (size_t i = 0; i < BOARD_PNG_CACHE_SLOTS; i++) {
        struct entry *e = &cache[i];
        if (e->png.data && e->version == version && e->width == width && !strcmp(e->id, id))
            return e;
    }
    return NULL;
}

/* Copies entry `e` into `out` and counts the answer. Under lock. Returns 1, or 0. */
static int copy_out(struct entry *e, struct board_png *out)
{
    memset(out, 0, sizeof *out);
    char *d = malloc(e->png.len + 1);
    if (!d) return 0;
    memcpy(d, e->png.data, e->png.len);
    d[e->png.len] = '\0';
    *out = e->png;
    out->data = d;
    e->used = ++clock_now;
    metrics_board_png(METRICS_PNG_CACHED);
    return 1;
}

/* Empties entry `e`. Under lock. */
static void drop(struct entry *e)
{
    cache_bytes -= e->png.len;
    board_png_free(&e->png);
    e->id[0] = '\0';
}

int board_png_cached(const char *id, int version, int width, struct board_png *out)
{
    pthread_mutex_lock(&lock);
    struct entry *e = find(id, version, width);
    int hit = e && copy_out(e, out);
    pthread_mutex_unlock(&lock);
    return hit;
}

/* The render slot of (id, version, width) or, with id NULL, a free one; or NULL. Under
 * lock. */
static struct flight *flight_find(const char *id, int version, int width)
{
    for (size_t i = 0; i < BOARD_PNG_RENDERS; i++) {
        struct flight *f = &flights[i];
        if (!id ? !f->busy
                : f->busy && f->version == version && f->width == width && !strcmp(f->id, id))
            return f;
    }
    return NULL;
}

void board_png_set_wait(int ms)
{
    pthread_mutex_lock(&lock);
    wait_ms = ms < 0 ? 0 : ms;
    pthread_mutex_unlock(&lock);
}

int board_png_wait(void)
{
    pthread_mutex_lock(&lock);
    int ms = wait_ms;
    pthread_mutex_unlock(&lock);
    return ms;
}

/* Renders running for the client address `peer`. Under lock. */
static int peer_renders(const uint8_t *peer)
{
    int n = 0;
    for (size_t i = 0; i < BOARD_PNG_RENDERS; i++)
        n += flights[i].busy && !memcmp(flights[i].peer, peer, PEER_KEY_LEN);
    return n;
}

int board_png_begin(const char *id, int version, int width, const uint8_t *peer,
                    struct board_png *out)
{
    size_t n = strlen(id);
    if (n >= sizeof flights[0].id) return 0; /* no game's id: neither waits nor is cached */
    pthread_mutex_lock(&lock);
    int rc = 0;
    struct entry *e = find(id, version, width);
    struct flight *f = NULL;
    if (e && copy_out(e, out))
        rc = 1;
    else if (flight_find(id, version, width))
        rc = BOARD_PNG_BUSY; /* found in the cache once that render ends */
    else if (peer_renders(peer) >= BOARD_PNG_RENDERS_PER_ADDRESS)
        rc = BOARD_PNG_ADDRESS_BUSY;
    else if (!(f = flight_find(NULL, 0, 0)))
        rc = BOARD_PNG_BUSY;
    if (f) {
        memcpy(f->id, id, n);
        f->id[n] = '\0';
        f->version = version;
        f->width = width;
        memcpy(f->peer, peer, PEER_KEY_LEN);
        f->busy = 1;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

void board_png_end(const char *id, int version, int width, const struct board_png *png)
{
    if (png && png->data) metrics_board_png(METRICS_PNG_RENDERED);
    char *copy = NULL;
    if (png && png->data && png->len <= BOARD_PNG_CACHE_BYTES && strlen(id) < sizeof cache[0].id &&
        (copy = malloc(png->len + 1))) {
        memcpy(copy, png->data, png->len);
        copy[png->len] = '\0';
    }
    pthread_mutex_lock(&lock);
    struct flight *f = flight_find(id, version, width);
    if (f) f->busy = 0;
    if (copy && !find(id, version, width)) {
        /* Room: drop the least recently used while a slot or the byte budget is short. */
        for (;;) {
            struct entry *free_slot = NULL, *oldest = NULL;
            for (size_t i = 0; i < BOARD_PNG_CACHE_SLOTS; i++) {
                struct entry *e = &cache[i];
                if (!e->png.data) {
                    if (!free_slot) free_slot = e;
                } else if (!oldest || e->used < oldest->used)
                    oldest = e;
            }
            if (free_slot && cache_bytes + png->len <= BOARD_PNG_CACHE_BYTES) {
                memcpy(free_slot->id, id, strlen(id) + 1);
                free_slot->version = version;
                free_slot->width = width;
                free_slot->png = *png;
                free_slot->png.data = copy;
                free_slot->used = ++clock_now;
                cache_bytes += png->len;
                copy = NULL;
                break;
            }
            if (!oldest) break;
            drop(oldest);
        }
    }
    pthread_mutex_unlock(&lock);
    free(copy);
}

static pthread_cond_t spawned_done = PTHREAD_COND_INITIALIZER; /* a spawned render ended */
static int spawned;                                            /* under lock: running */

/* The thread of board_png_spawn(). */
static void *spawn_main(void *arg)
{
    struct board_png_job *j = arg;
    j->rc = board_png_render(j->svg, strlen(j->svg), j->width, &j->png);
    free(j->svg);
    j->svg = NULL;
    board_png_end(j->id, j->version, j->width, j->rc == 0 ? &j->png : NULL);
    j->done(j);
    pthread_mutex_lock(&lock);
    spawned--;
    pthread_cond_broadcast(&spawned_done);
    pthread_mutex_unlock(&lock);
    return NULL;
}

int board_png_spawn(struct board_png_job *j)
{
    pthread_attr_t a;
    if (pthread_attr_init(&a)) return -1;
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    pthread_mutex_lock(&lock);
    spawned++;
    pthread_mutex_unlock(&lock);
    pthread_t t;
    int rc = pthread_create(&t, &a, spawn_main, j);
    pthread_attr_destroy(&a);
    if (rc) {
        pthread_mutex_lock(&lock);
        spawned--;
        pthread_mutex_unlock(&lock);
        return -1;
    }
    return 0;
}

void board_png_shutdown(void)
{
    pthread_mutex_lock(&lock);
    while (spawned > 0) pthread_cond_wait(&spawned_done, &lock);
    for (size_t i = 0; i < BOARD_PNG_CACHE_SLOTS; i++)
        if (cache[i].png.data) drop(&cache[i]);
    pthread_mutex_unlock(&lock);
}
