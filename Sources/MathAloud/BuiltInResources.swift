import Foundation

extension SpeechResources {
    /// The rules and words built into the library, overlaid by `rulesDirectory` (or, when nil, by
    /// `MATHALOUD_RULES`): what every ``Speaker`` loads. The service lists locales and styles from it
    /// and checks a rules directory with it before it reloads.
    public static func builtIn(overriddenBy rulesDirectory: URL?) throws(SpeechLoadError) -> SpeechResources {
        try SpeechResources(builtIn: EmbeddedSpeechResources.files,
                            overrideDirectory: rulesDirectory ?? Speaker.environmentRulesDirectory)
    }
}
