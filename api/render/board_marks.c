/* board_marks.c: the marks of the expansions of classic on a board picture (see
 * board_marks.h). Sizes are in px of a 60 px tile; a 600 px picture of a mid-game board
 * shows them at about nine tenths of that, so each shape is told by its outline and
 * colour, not by its detail. Absolute coordinates are integers (board_svg.c: no locale,
 * no floating point); fractions appear only in constant relative steps. */
#include "board_marks.h"

#include <stddef.h>

const char mark_follower_path[] = "M-2,-4 A4,4 0 1 1 2,-4 L7,-2 L6,1 L3,1 L6,8 L1,8 L0,5 L-1,8 "
                                  "L-6,8 L-3,1 L-6,1 L-7,-2 Z";

void mark_inn(struct buf *b, int x, int y)
{
    /* A dark sign board; on it a golden tankard of beer with its handle and its foam. */
    buf_putf(b,
             "<g class=\"inn\" transform=\"translate(%d,%d)\"><title>inn</title><rect x=\"-7\" "
             "y=\"-7\" width=\"14\" height=\"14\" rx=\"2.5\" fill=\"#7a2e14\" "
             "stroke=\"#fff2d6\" stroke-width=\"1\"/><path d=\"M2,-2 h2.5 v5 h-2.5\" "
             "fill=\"none\" stroke=\"#ffd34d\" stroke-width=\"1.4\"/><path d=\"M-4.5,-2.5 h7 "
             "v8 h-7 z\" fill=\"#ffc21a\"/><path d=\"M-5,-2 a1.8,1.8 0 0 1 2.4,-2.6 "
             "a1.8,1.8 0 0 1 3,0 a1.6,1.6 0 0 1 2.6,2.6 z\" fill=\"#ffffff\"/></g>",
             x, y);
}

void mark_cathedral(struct buf *b, int x, int y)
{
    /* A nave under a slate roof, a spire over its middle with a gold cross, a dark door. */
    buf_putf(b,
             "<g class=\"cathedral\" transform=\"translate(%d,%d)\"><title>cathedral</title>"
             "<path d=\"M-8,-1 h16 v9 h-16 z\" fill=\"#f1ede3\" stroke=\"#2f2a44\" "
             "stroke-width=\"0.9\"/><path d=\"M-9,-1 L-6,-5 h12 L9,-1 z\" fill=\"#4b5d8a\" "
             "stroke=\"#2f2a44\" stroke-width=\"0.8\"/><path d=\"M-3.5,-1 L0,-12 L3.5,-1 z\" "
             "fill=\"#4b5d8a\" stroke=\"#2f2a44\" stroke-width=\"0.8\"/><path d=\"M0,-12 "
             "v-4.5 M-1.8,-14.5 h3.6\" stroke=\"#d4a017\" stroke-width=\"1.4\"/><path "
             "d=\"M-1.8,8 v-3.5 a1.8,1.8 0 0 1 3.6,0 v3.5 z\" fill=\"#2f2a44\"/></g>",
             x, y);
}

static const char *const goods_names[CC_GOODS_COUNT] = {"wine", "grain", "cloth"};

void mark_goods(struct buf *b, int x, int y, unsigned goods)
{
    /* Each on a light disc, a silhouette of its own: a bunch of grapes (a cluster), a
     * sheaf tied at its waist (an hourglass), a bolt of cloth (a striped oblong). */
    static const char *const drawing[CC_GOODS_COUNT] = {
        "<path d=\"M0,-3.5 l1.5,-3\" stroke=\"#3f7a2a\" stroke-width=\"1.4\"/>"
        "<g fill=\"#7a1f6e\" stroke=\"#4a0f42\" stroke-width=\"0.5\"><circle cx=\"-3\" "
        "cy=\"-2\" r=\"1.9\"/><circle cy=\"-2\" r=\"1.9\"/><circle cx=\"3\" cy=\"-2\" "
        "r=\"1.9\"/><circle cx=\"-1.5\" cy=\"1\" r=\"1.9\"/><circle cx=\"1.5\" cy=\"1\" "
        "r=\"1.9\"/><circle cy=\"4\" r=\"1.9\"/></g>",
        "<path d=\"M-4.5,-5.5 L4.5,-5.5 L1.2,0 L3.5,5.5 L-3.5,5.5 L-1.2,0 z\" fill=\"#f0b21c\" "
        "stroke=\"#8a6212\" stroke-width=\"0.8\" stroke-linejoin=\"round\"/><path "
        "d=\"M-1.8,0 h3.6 M-2,-5.5 v3 M0,-5.5 v3 M2,-5.5 v3\" stroke=\"#8a6212\" "
        "stroke-width=\"1\"/>",
        "<path d=\"M-5,-4 h10 v8 h-10 z\" fill=\"#17a2a0\" stroke=\"#0d5c5b\" "
        "stroke-width=\"0.9\"/><path d=\"M-5,-1.3 h10 M-5,1.3 h10\" stroke=\"#ffffff\" "
        "stroke-width=\"1\"/>",
    };
    if (goods >= CC_GOODS_COUNT) return;
    buf_putf(b,
             "<g class=\"goods %s\" transform=\"translate(%d,%d)\"><title>%s</title><circle "
             "r=\"8\" fill=\"#fbf6e8\" stroke=\"#5e4a30\" stroke-width=\"0.8\"/>%s</g>",
             goods_names[goods], x, y, goods_names[goods], drawing[goods]);
}

const char *mark_figure_name(unsigned kind)
{
    switch (kind) {
    case CC_PIECE_LARGE:
        return "large follower";
    case CC_PIECE_BUILDER:
        return "builder";
    case CC_PIECE_PIG:
        return "pig";
    default:
        return NULL;
    }
}

bool mark_figure(struct buf *b, const char *cls, unsigned kind, unsigned seat, const char *fill,
                 const char *edge, bool lying, int x, int y, const char *title_extra)
{
    const char *name = mark_figure_name(kind);
    if (!name) return false;
    const char *word = kind == CC_PIECE_LARGE ? "large" : name;
    buf_putf(b, "<g class=\"%s %s\" transform=\"translate(%d,%d)\">", cls, word, x, y);
    if (kind == CC_PIECE_LARGE) {
        /* The follower half as large again (its outline as thick as a follower's). */
        buf_putf(b,
                 "<path transform=\"scale(1.45)%s\" d=\"%s\" fill=\"%s\" stroke=\"%s\" "
                 "stroke-width=\"0.85\" stroke-linejoin=\"round\"/>",
                 lying ? " rotate(-90)" : "", mark_follower_path, fill, edge);
    } else if (kind == CC_PIECE_BUILDER) {
        /* A slim pawn (a round head on a cone) taller than a follower, a hammer raised
         * beside it. */
        buf_putf(b,
                 "<g transform=\"scale(1.2)\"><path d=\"M3,2 L8.5,-5.5\" stroke=\"#6b4a1f\" "
                 "stroke-width=\"1.5\"/><path d=\"M5.8,-7.6 L11,-3.6\" stroke=\"#4a4a4a\" "
                 "stroke-width=\"3\"/><path d=\"M-5,8 L-1.8,-1.5 A3.6,3.6 0 1 1 1.8,-1.5 L5,8 Z\" "
                 "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.1\" stroke-linejoin=\"round\"/>"
                 "</g>",
                 fill, edge);
    } else {
        /* A pig from the side: legs, a curled tail, body, head, ear and a pink snout. */
        buf_putf(b,
                 "<g transform=\"scale(1.15)\" stroke=\"%s\"><path d=\"M-8,0 c-3,-1 -2,-4 0,-3\" "
                 "fill=\"none\" stroke-width=\"1.1\"/><path d=\"M-6.5,3 h2.6 v5 h-2.6 z "
                 "M-3,4 h2.6 v4 h-2.6 z M1.5,4 h2.6 v4 h-2.6 z M4.2,3 h2.6 v5 h-2.6 z\" "
                 "fill=\"%s\" stroke-width=\"0.7\"/><ellipse cx=\"-1\" cy=\"1\" rx=\"7.5\" "
                 "ry=\"4.8\" fill=\"%s\" stroke-width=\"1\"/><circle cx=\"6\" cy=\"-1\" "
                 "r=\"3.8\" fill=\"%s\" stroke-width=\"1\"/><path d=\"M4,-4 l1,-3.5 l2.5,2.5 z\" "
                 "fill=\"%s\" stroke-width=\"0.9\" stroke-linejoin=\"round\"/><ellipse "
                 "cx=\"9.6\" cy=\"0\" rx=\"1.8\" ry=\"2.1\" fill=\"#f4a6b8\" "
                 "stroke-width=\"0.8\"/></g>",
                 edge, fill, fill, fill, fill);
    }
    buf_putf(b, "<title>%s of seat %u%s</title></g>", name, seat, title_extra);
    return true;
}
