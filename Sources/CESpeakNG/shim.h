// eSpeak-NG's C API for MathAloudVoice (Debian: libespeak-ng-dev; pkg-config: espeak-ng).
//
// The library is not linked: MathAloudVoice opens it with dlopen on first use (mathaloud_espeak_load),
// so a program that links MathAloudVoice starts without loading eSpeak-NG and its ~40 dependent
// libraries (audio back ends among them), and runs its other commands where eSpeak-NG is absent.
#include <espeak-ng/speak_lib.h>
#include <dlfcn.h>
#include <stddef.h>

/// The eSpeak-NG functions MathAloudVoice calls.
typedef struct {
    int (*initialize)(espeak_AUDIO_OUTPUT output, int buflength, const char *path, int options);
    void (*setSynthCallback)(t_espeak_callback *callback);
    const espeak_VOICE **(*listVoices)(espeak_VOICE *voiceSpec);
    espeak_ERROR (*setVoiceByName)(const char *name);
    espeak_ERROR (*setParameter)(espeak_PARAMETER parameter, int value, int relative);
    espeak_ERROR (*synth)(const void *text, size_t size, unsigned int position, espeak_POSITION_TYPE positionType,
                          unsigned int endPosition, unsigned int flags, unsigned int *uniqueIdentifier, void *userData);
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
    void *handle = path != NULL ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    for (size_t i = 0; path == NULL && i < sizeof names / sizeof names[0] && handle == NULL; i++) {
        handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (handle == NULL) {
        const char *error = dlerror();
        return error != NULL ? error : "cannot open libespeak-ng";
    }
    api->initialize = (int (*)(espeak_AUDIO_OUTPUT, int, const char *, int))dlsym(handle, "espeak_Initialize");
    api->setSynthCallback = (void (*)(t_espeak_callback *))dlsym(handle, "espeak_SetSynthCallback");
    api->listVoices = (const espeak_VOICE **(*)(espeak_VOICE *))dlsym(handle, "espeak_ListVoices");
    api->setVoiceByName = (espeak_ERROR (*)(const char *))dlsym(handle, "espeak_SetVoiceByName");
    api->setParameter = (espeak_ERROR (*)(espeak_PARAMETER, int, int))dlsym(handle, "espeak_SetParameter");
    api->synth = (espeak_ERROR (*)(const void *, size_t, unsigned int, espeak_POSITION_TYPE, unsigned int, unsigned int,
                                   unsigned int *, void *))dlsym(handle, "espeak_Synth");
    if (!api->initialize || !api->setSynthCallback || !api->listVoices || !api->setVoiceByName || !api->setParameter
        || !api->synth) {
        return "libespeak-ng lacks an expected function (espeak_Initialize, espeak_Synth, …)";
    }
    return NULL;
}
