import Testing
@testable import MathSyntax

/// The character-reference reader shared by the TeX text scanner and the HTML tokenizer.
@Suite struct CharacterReferenceTests {
    private func read(_ text: String, maxNameLength: Int = 40) -> (CharacterReference, Int)? {
        let bytes = Array(text.utf8)
        return CharacterReference.read(bytes, at: 0, limit: bytes.count, maxNameLength: maxNameLength)
            .map { ($0.reference, $0.length) }
    }

    @Test func numericReferences() throws {
        #expect(read("&#931;")! == (.scalar("Σ"), 6))
        #expect(read("&#x3A3;rest")! == (.scalar("Σ"), 7))
        #expect(read("&#X3a3;")! == (.scalar("Σ"), 7))
        #expect(read("&#x10FFFF;")! == (.scalar("\u{10FFFF}"), 10))
        #expect(read("&#x0000041;")! == (.scalar("A"), 11))   // leading zeros, seven digits
    }

    @Test func malformedNumericReferencesAreText() {
        for text in ["&#;", "&#x;", "&#0;", "&#x110000;", "&#xD800;", "&#12a;", "&#x12g;", "&#99999999;",
                     "&#x00000041;", "&#931", "&;"] {
            #expect(read(text) == nil, "\(text)")
        }
    }

    @Test func namedReferencesAreLeftToTheCaller() throws {
        let bytes = Array("x&Sigma;y".utf8)
        let (reference, length) = try #require(CharacterReference.read(bytes, at: 1, limit: bytes.count, maxNameLength: 40))
        #expect(reference == .name(2..<7))
        #expect(length == 7)
        #expect(CharacterReference.xmlPredefined(bytes[2..<7]) == nil)
        #expect(CharacterReference.xmlPredefined("amp".utf8) == 0x26)
        #expect(CharacterReference.xmlPredefined("apos".utf8) == 0x27)
    }

    @Test func theNameLengthAndTheLimitBoundTheSearch() {
        #expect(read("&abcdefghijk;", maxNameLength: 10) == nil)
        #expect(read("&abcdefghij;", maxNameLength: 10) != nil)
        let bytes = Array("&lt;".utf8)
        #expect(CharacterReference.read(bytes, at: 0, limit: 3, maxNameLength: 40) == nil)
    }
}
