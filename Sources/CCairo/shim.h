// cairo for MathAloudRender: image surfaces (PNG) and PDF surfaces.
//
// The library is not linked: it is opened with dlopen on first use (mathaloud_cairo_load), so programs
// that link MathAloudRender start without loading cairo and its dependencies (fontconfig, X11…).
// Swift calls the functions through the loaded table (`cairo.cairo_fill(…)` in CLibraries.swift).
#ifndef MATHALOUD_CCAIRO_SHIM_H
#define MATHALOUD_CCAIRO_SHIM_H
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>
#include "../CDynamicLoading/dynamic_loading.h"

#define MATHALOUD_CAIRO_FUNCTIONS(X) \
    X(cairo_arc) \
    X(cairo_close_path) \
    X(cairo_create) \
    X(cairo_curve_to) \
    X(cairo_destroy) \
    X(cairo_fill) \
    X(cairo_image_surface_create) \
    X(cairo_image_surface_create_from_png_stream) \
    X(cairo_image_surface_get_data) \
    X(cairo_image_surface_get_height) \
    X(cairo_image_surface_get_stride) \
    X(cairo_image_surface_get_width) \
    X(cairo_line_to) \
    X(cairo_move_to) \
    X(cairo_new_path) \
    X(cairo_paint) \
    X(cairo_pdf_surface_create_for_stream) \
    X(cairo_pdf_surface_set_metadata) \
    X(cairo_rectangle) \
    X(cairo_restore) \
    X(cairo_save) \
    X(cairo_scale) \
    X(cairo_set_dash) \
    X(cairo_set_line_width) \
    X(cairo_set_source_rgba) \
    X(cairo_show_page) \
    X(cairo_stroke) \
    X(cairo_surface_destroy) \
    X(cairo_surface_finish) \
    X(cairo_surface_flush) \
    X(cairo_surface_status) \
    X(cairo_tag_begin) \
    X(cairo_tag_end) \
    X(cairo_translate)

/// The cairo functions MathAloudRender (and its tests) call, each with its declared type.
typedef struct {
    MATHALOUD_CAIRO_FUNCTIONS(MATHALOUD_FUNCTION_FIELD)
} mathaloud_cairo_api;

/// Opens libcairo and fills `api`. Returns NULL on success, or a message saying what is missing.
static inline const char *mathaloud_cairo_load(mathaloud_cairo_api *api) {
#if defined(__APPLE__)
    static const char *const names[] = { "libcairo.2.dylib", "/opt/homebrew/lib/libcairo.2.dylib",
                                         "/usr/local/lib/libcairo.2.dylib" };
#else
    static const char *const names[] = { "libcairo.so.2", "libcairo.so" };
#endif
    const char *error = NULL;
    void *handle = mathaloud_open_library(NULL, names, sizeof names / sizeof names[0], &error);
    if (handle == NULL) return error;
    MATHALOUD_CAIRO_FUNCTIONS(MATHALOUD_LOAD_FUNCTION)
    return NULL;
}
#endif
