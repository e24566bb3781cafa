import Testing
import MathSpeech

/// A locale's BCP 47 form (``LocaleTag/bcp47``): what SVG `lang`, PDF `/Lang` and SSML `xml:lang` write.
@Suite struct LocaleTagTests {
    @Test(arguments: [
        ("en", "en"), ("de", "de"), ("yue", "yue"),
        ("zh-cn", "zh-CN"), ("zh-tw", "zh-TW"), ("de-AT", "de-AT"), ("pt-br", "pt-BR"), ("EN-gb", "en-GB"),
        ("sr-latn-rs", "sr-Latn-RS"), ("zh-HANT-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("en-US-x-test", "en-US-x-test"), ("de-ch-x-ABCD-ab", "de-CH-x-abcd-ab"),
        // Written POSIX-style: `_` is read as `-` when the tag is made, so the tag is Taiwanese Chinese.
        ("zh_tw", "zh-TW"), ("pt_BR", "pt-BR"),
    ])
    func conventionalCase(_ text: String, _ expected: String) {
        #expect(LocaleTag(text).bcp47 == expected)
    }

    /// Not a tag that can be written into XML or PDF as it is: nil.
    @Test(arguments: ["", "-", "en-", "en--gb", "1en", "en\"><x", "en gb", "abcdefghi", "en-abcdefghi", "é", "en.UTF-8"])
    func notATag(_ text: String) {
        #expect(LocaleTag(text).bcp47 == nil)
    }
}
