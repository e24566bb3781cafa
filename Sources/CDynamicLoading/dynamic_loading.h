// Opening a C library at first use instead of linking it, shared by the CESpeakNG, CHarfBuzz and
// CCairo shims: a program that links the Swift wrapper then starts without loading the library and
// its dependencies, and runs its other commands where the library is absent.
//
// A shim lists the functions it needs in an X-macro, declares a table of them with
// MATHALOUD_FUNCTION_FIELD (each field keeps the function's declared type through __typeof__), opens
// the library with mathaloud_open_library and fills the table with MATHALOUD_LOAD_FUNCTION.
#ifndef MATHALOUD_DYNAMIC_LOADING_H
#define MATHALOUD_DYNAMIC_LOADING_H
#include <dlfcn.h>
#include <stddef.h>

/// A table field for the function `name`, typed as the header declares it.
#define MATHALOUD_FUNCTION_FIELD(name) __typeof__(&name) name;

/// Fills `api->name` from `handle`; inside a loader that returns a message, returns one when the
/// library lacks the function.
#define MATHALOUD_LOAD_FUNCTION(name) \
    api->name = (__typeof__(&name))dlsym(handle, #name); \
    if (api->name == NULL) return "the library lacks " #name;

/// Opens `path` when it is not NULL, else the first of `names` that opens. Returns the handle, or NULL
/// with `*error` saying why.
static inline void *mathaloud_open_library(const char *path, const char *const *names, size_t count,
                                           const char **error) {
    void *handle = path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    for (size_t i = 0; path == NULL && i < count && handle == NULL; i++) {
        handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *message = dlerror();
        *error = message != NULL ? message : "cannot open the library";
    }
    return handle;
}
#endif
