// eSpeak-NG's C API for MathAloudVoice (Debian: libespeak-ng-dev; pkg-config: espeak-ng).
#include <espeak-ng/speak_lib.h>
