// eSpeak-NG's C API for MathAloudVoice (Debian: libespeak-ng-dev; pkg-config: espeak-ng).
//
// The library is not linked: MathAloudVoice opens it with dlopen on first use (mathaloud_espeak_load),
// so a program that links MathAloudVoice starts without loading eSpeak-NG and its ~40 dependent
// libraries (audio back ends among them), and runs its other commands where eSpeak-NG is absent.
#include <espeak-ng/speak_lib.h>
#include "../CDynamicLoading/dynamic_loading.h"

#define MATHALOUD_ESPEAK_FUNCTIONS(X) \
    X(espeak_Initialize) \
    X(espeak_SetSynthCallback) \
    X(espeak_ListVoices) \
    X(espeak_SetVoiceByName) \
    X(espeak_SetParameter) \
    X(espeak_Synth)

/// The eSpeak-NG functions MathAloudVoice calls, each with its declared type.
typedef struct {
    MATHALOUD_ESPEAK_FUNCTIONS(MATHALOUD_FUNCTION_FIELD)
} mathaloud_espeak_api;

/// Opens libespeak-ng (`path` when not NULL, else the usual names) and fills `api`. Returns NULL on
/// success, or a message saying what is missing.
static inline const char *mathaloud_espeak_load(mathaloud_espeak_api *api, const char *path) {
#if defined(__APPLE__)
    static const char *const names[] = { "libespeak-ng.1.dylib", "libespeak-ng.dylib",
                                         "/opt/homebrew/lib/libespeak-ng.dylib", "/usr/local/lib/libespeak-ng.dylib" };
#else
    static const char *const names[] = { "libespeak-ng.so.1", "libespeak-ng.so" };
#endif
    const char *error = NULL;
    void *handle = mathaloud_open_library(path, names, sizeof names / sizeof names[0], &error);
    if (handle == NULL) return error;
    MATHALOUD_ESPEAK_FUNCTIONS(MATHALOUD_LOAD_FUNCTION)
    return NULL;
}
