import Testing
@testable import MathSpeech

/// The table of Full_Composition_Exclusion scalars that equality shortcuts rely on.
@Suite struct NormalizationTests {
    /// The table is the standard library's Unicode data, for every scalar.
    @Test func tableMatchesTheStandardLibrary() {
        var mismatches: [UInt32] = []
        for value in UInt32(0) ... 0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Normalization.isNFC(value) == scalar.properties.isFullCompositionExclusion { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty)
    }

    /// A one-scalar text is in NFC exactly when the table says so (checked on the scalars around the
    /// table's ranges and on common mathematical ones).
    @Test func oneScalarTextsInNFC() {
        let samples: [UInt32] = Normalization.compositionExclusions.flatMap { [$0.lowerBound - 1, $0.lowerBound, $0.upperBound, $0.upperBound + 1] }
            + [0x41, 0xC5, 0x301, 0x2212, 0x2264, 0x3B1, 0x2062, 0x1D465]
        for value in samples {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            let nfc = String(decoding: text._nfcCodeUnits, as: UTF8.self)
            #expect(Normalization.isNFC(value) == (nfc.utf8.elementsEqual(text.utf8)), "U+\(String(value, radix: 16))")
            #expect((Normalization.nfcScalar(text) != nil) == (value >= 0x80 && Normalization.isNFC(value)))
        }
        #expect(Normalization.isKnownNFC("x+1"))
        #expect(!Normalization.isKnownNFC("e\u{301}"))
        #expect(!Normalization.isKnownNFC("\u{2126}"))
    }
}
