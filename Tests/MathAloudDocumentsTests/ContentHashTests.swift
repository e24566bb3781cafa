import Testing
@testable import MathAloudDocuments

/// The digest that names images (``ContentHash``) is SHA-256: the test vectors of FIPS 180-4's examples.
@Suite struct ContentHashTests {
    @Test func knownDigests() {
        #expect(ContentHash.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(ContentHash.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks (the padding does not fit after 56 bytes).
        #expect(ContentHash.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(ContentHash.hex(Array("abc".utf8), count: 20) == "ba7816bf8f01cfea4141")
    }
}
