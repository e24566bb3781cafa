// HarfBuzz for MathAloudRender: the core API, OpenType (MATH table) and one portable outline call.
//
// The library is not linked: it is opened with dlopen when the first font is loaded
// (mathaloud_hb_load), so programs that link MathAloudRender start without loading HarfBuzz and its
// dependencies, and run their other commands where it is absent. Swift calls the functions through
// the loaded table (`hb.hb_shape(…)` in CLibraries.swift); the list below names every function it uses.
#ifndef MATHALOUD_CHARFBUZZ_SHIM_H
#define MATHALOUD_CHARFBUZZ_SHIM_H
#include <harfbuzz/hb.h>
#include <harfbuzz/hb-ot.h>
#include "../CDynamicLoading/dynamic_loading.h"

#define MATHALOUD_HB_FUNCTIONS(X) \
    X(hb_blob_create_from_file_or_fail) \
    X(hb_blob_destroy) \
    X(hb_buffer_add_utf8) \
    X(hb_buffer_create) \
    X(hb_buffer_destroy) \
    X(hb_buffer_get_glyph_infos) \
    X(hb_buffer_get_glyph_positions) \
    X(hb_buffer_guess_segment_properties) \
    X(hb_buffer_set_direction) \
    X(hb_buffer_set_script) \
    X(hb_draw_funcs_create) \
    X(hb_draw_funcs_make_immutable) \
    X(hb_draw_funcs_set_close_path_func) \
    X(hb_draw_funcs_set_cubic_to_func) \
    X(hb_draw_funcs_set_line_to_func) \
    X(hb_draw_funcs_set_move_to_func) \
    X(hb_draw_funcs_set_quadratic_to_func) \
    X(hb_face_collect_unicodes) \
    X(hb_face_count) \
    X(hb_face_create) \
    X(hb_face_destroy) \
    X(hb_face_get_glyph_count) \
    X(hb_face_get_upem) \
    X(hb_face_make_immutable) \
    X(hb_feature_from_string) \
    X(hb_font_create) \
    X(hb_font_destroy) \
    X(hb_font_get_glyph_extents) \
    X(hb_font_get_glyph_h_advance) \
    X(hb_font_get_nominal_glyph) \
    X(hb_font_make_immutable) \
    X(hb_font_set_scale) \
    X(hb_ot_font_set_funcs) \
    X(hb_ot_math_get_constant) \
    X(hb_ot_math_get_glyph_assembly) \
    X(hb_ot_math_get_glyph_italics_correction) \
    X(hb_ot_math_get_glyph_kerning) \
    X(hb_ot_math_get_glyph_top_accent_attachment) \
    X(hb_ot_math_get_glyph_variants) \
    X(hb_ot_math_get_min_connector_overlap) \
    X(hb_ot_math_has_data) \
    X(hb_set_create) \
    X(hb_set_destroy) \
    X(hb_set_next) \
    X(hb_shape) \
    X(hb_ot_metrics_get_position)

/// The HarfBuzz functions MathAloudRender calls, each with its declared type.
typedef struct {
    MATHALOUD_HB_FUNCTIONS(MATHALOUD_FUNCTION_FIELD)
    /// `hb_font_draw_glyph` on HarfBuzz 7 and later, its predecessor `hb_font_get_glyph_shape` (same
    /// signature) on HarfBuzz 6 (Debian 12).
    void (*draw_glyph)(hb_font_t *font, hb_codepoint_t glyph, hb_draw_funcs_t *funcs, void *data);
} mathaloud_hb_api;

/// Opens libharfbuzz and fills `api`. Returns NULL on success, or a message saying what is missing.
static inline const char *mathaloud_hb_load(mathaloud_hb_api *api) {
#if defined(__APPLE__)
    static const char *const names[] = { "libharfbuzz.0.dylib", "/opt/homebrew/lib/libharfbuzz.0.dylib",
                                         "/usr/local/lib/libharfbuzz.0.dylib" };
#else
    static const char *const names[] = { "libharfbuzz.so.0", "libharfbuzz.so" };
#endif
    const char *error = NULL;
    void *handle = mathaloud_open_library(NULL, names, sizeof names / sizeof names[0], &error);
    if (handle == NULL) return error;
    MATHALOUD_HB_FUNCTIONS(MATHALOUD_LOAD_FUNCTION)
    api->draw_glyph = (void (*)(hb_font_t *, hb_codepoint_t, hb_draw_funcs_t *, void *))dlsym(handle, "hb_font_draw_glyph");
    if (api->draw_glyph == NULL) {
        api->draw_glyph = (void (*)(hb_font_t *, hb_codepoint_t, hb_draw_funcs_t *, void *))dlsym(handle, "hb_font_get_glyph_shape");
    }
    if (api->draw_glyph == NULL) return "libharfbuzz lacks hb_font_draw_glyph and hb_font_get_glyph_shape (HarfBuzz 4 or later is needed)";
    return NULL;
}
#endif
