import Testing
import MathSyntax
@testable import MathSemantics

/// The numbered vocabulary's written-out tables agree with the names they stand for.
@Suite struct SemanticVocabularyTests {
    /// An atom's string is its case name in kebab case (`negativeInteger` → `negative-integer`), and
    /// `noFence` is `none`.
    @Test func atomStringsAreCaseNamesInKebabCase() {
        for atom in PropertyAtom.allCases {
            var kebab = ""
            for u in String(describing: atom).unicodeScalars {
                if u.properties.isUppercase { kebab += "-" + String(u).lowercased() } else { kebab.unicodeScalars.append(u) }
            }
            #expect(atom.string == (atom == .noFence ? "none" : kebab))
            #expect(PropertyAtom(string: atom.string) == atom)
        }
    }

    /// Every MathML variant has the atom of its name.
    @Test func variantAtomsAreVariantNames() {
        for variant in MathVariant.allCases {
            #expect(variant.atom.string == variant.rawValue)
        }
    }

    /// Function and limit names are found in the packed-name table, other names are not.
    @Test func nameClasses() {
        #expect(Vocabulary.nameClass("sin") == .trig)
        #expect(Vocabulary.nameClass("arcsinh") == .hyperbolic)
        #expect(Vocabulary.nameClass("ess sup") == .named)
        #expect(Vocabulary.nameClass("proj lim") == .limit)
        #expect(Vocabulary.nameClass("sinx") == nil)
        #expect(Vocabulary.nameClass("projectivelimit") == nil)
        #expect(Vocabulary.nameClass("") == nil)
        #expect(Vocabulary.isLimitName("lim") && !Vocabulary.isLimitName("log"))
        #expect(Vocabulary.functionClass("lim") == nil && Vocabulary.functionClass("ln") == .ln)
    }

    /// The sole scalar of a string.
    @Test func soleScalars() {
        #expect("x".soleScalar == "x")
        #expect("∑".soleScalar == "∑")
        #expect("𝑥".soleScalar == "𝑥")
        #expect("xy".soleScalar == nil && "".soleScalar == nil)
        #expect("xy".hasSeveralScalars && !"x".hasSeveralScalars && !"".hasSeveralScalars)
    }
}
