// HarfBuzz for MathAloudRender: the core API, OpenType (MATH table) and one portable outline call.
#ifndef MATHALOUD_CHARFBUZZ_SHIM_H
#define MATHALOUD_CHARFBUZZ_SHIM_H
#include <hb.h>
#include <hb-ot.h>

/// Draws a glyph outline through `funcs`: `hb_font_draw_glyph` on HarfBuzz 7 and later, its
/// predecessor `hb_font_get_glyph_shape` (same signature) on HarfBuzz 6 (Debian 12).
static inline void mathaloud_hb_draw_glyph(hb_font_t *font, hb_codepoint_t glyph,
                                           hb_draw_funcs_t *funcs, void *data) {
#if HB_VERSION_ATLEAST(7, 0, 0)
    hb_font_draw_glyph(font, glyph, funcs, data);
#else
    hb_font_get_glyph_shape(font, glyph, funcs, data);
#endif
}
#endif
