import CHarfBuzz
import Foundation

/// The OpenType MATH constants the layout uses, in em (percentages as fractions). Names follow the
/// OpenType MATH table specification (`MathConstants`).
public struct MathConstants: Sendable {
    /// OpenType MATH `scriptPercentScaleDown`, as a fraction (70 % → 0.7).
    public var scriptPercentScaleDown = 0.7
    /// OpenType MATH `scriptScriptPercentScaleDown`, as a fraction (70 % → 0.7).
    public var scriptScriptPercentScaleDown = 0.5
    /// OpenType MATH `delimitedSubFormulaMinHeight`, em.
    public var delimitedSubFormulaMinHeight = 0.0
    /// OpenType MATH `displayOperatorMinHeight`, em.
    public var displayOperatorMinHeight = 0.0
    /// OpenType MATH `mathLeading`, em.
    public var mathLeading = 0.0
    /// OpenType MATH `axisHeight`, em.
    public var axisHeight = 0.25
    /// OpenType MATH `accentBaseHeight`, em.
    public var accentBaseHeight = 0.45
    /// OpenType MATH `flattenedAccentBaseHeight`, em.
    public var flattenedAccentBaseHeight = 0.65
    /// OpenType MATH `subscriptShiftDown`, em.
    public var subscriptShiftDown = 0.0
    /// OpenType MATH `subscriptTopMax`, em.
    public var subscriptTopMax = 0.0
    /// OpenType MATH `subscriptBaselineDropMin`, em.
    public var subscriptBaselineDropMin = 0.0
    /// OpenType MATH `superscriptShiftUp`, em.
    public var superscriptShiftUp = 0.0
    /// OpenType MATH `superscriptShiftUpCramped`, em.
    public var superscriptShiftUpCramped = 0.0
    /// OpenType MATH `superscriptBottomMin`, em.
    public var superscriptBottomMin = 0.0
    /// OpenType MATH `superscriptBaselineDropMax`, em.
    public var superscriptBaselineDropMax = 0.0
    /// OpenType MATH `subSuperscriptGapMin`, em.
    public var subSuperscriptGapMin = 0.0
    /// OpenType MATH `superscriptBottomMaxWithSubscript`, em.
    public var superscriptBottomMaxWithSubscript = 0.0
    /// OpenType MATH `spaceAfterScript`, em.
    public var spaceAfterScript = 0.0
    /// OpenType MATH `upperLimitGapMin`, em.
    public var upperLimitGapMin = 0.0
    /// OpenType MATH `upperLimitBaselineRiseMin`, em.
    public var upperLimitBaselineRiseMin = 0.0
    /// OpenType MATH `lowerLimitGapMin`, em.
    public var lowerLimitGapMin = 0.0
    /// OpenType MATH `lowerLimitBaselineDropMin`, em.
    public var lowerLimitBaselineDropMin = 0.0
    /// OpenType MATH `stackTopShiftUp`, em.
    public var stackTopShiftUp = 0.0
    /// OpenType MATH `stackTopDisplayStyleShiftUp`, em.
    public var stackTopDisplayStyleShiftUp = 0.0
    /// OpenType MATH `stackBottomShiftDown`, em.
    public var stackBottomShiftDown = 0.0
    /// OpenType MATH `stackBottomDisplayStyleShiftDown`, em.
    public var stackBottomDisplayStyleShiftDown = 0.0
    /// OpenType MATH `stackGapMin`, em.
    public var stackGapMin = 0.0
    /// OpenType MATH `stackDisplayStyleGapMin`, em.
    public var stackDisplayStyleGapMin = 0.0
    /// OpenType MATH `stretchStackTopShiftUp`, em.
    public var stretchStackTopShiftUp = 0.0
    /// OpenType MATH `stretchStackBottomShiftDown`, em.
    public var stretchStackBottomShiftDown = 0.0
    /// OpenType MATH `stretchStackGapAboveMin`, em.
    public var stretchStackGapAboveMin = 0.0
    /// OpenType MATH `stretchStackGapBelowMin`, em.
    public var stretchStackGapBelowMin = 0.0
    /// OpenType MATH `fractionNumeratorShiftUp`, em.
    public var fractionNumeratorShiftUp = 0.0
    /// OpenType MATH `fractionNumeratorDisplayStyleShiftUp`, em.
    public var fractionNumeratorDisplayStyleShiftUp = 0.0
    /// OpenType MATH `fractionDenominatorShiftDown`, em.
    public var fractionDenominatorShiftDown = 0.0
    /// OpenType MATH `fractionDenominatorDisplayStyleShiftDown`, em.
    public var fractionDenominatorDisplayStyleShiftDown = 0.0
    /// OpenType MATH `fractionNumeratorGapMin`, em.
    public var fractionNumeratorGapMin = 0.0
    /// OpenType MATH `fractionNumDisplayStyleGapMin`, em.
    public var fractionNumDisplayStyleGapMin = 0.0
    /// OpenType MATH `fractionRuleThickness`, em.
    public var fractionRuleThickness = 0.04
    /// OpenType MATH `fractionDenominatorGapMin`, em.
    public var fractionDenominatorGapMin = 0.0
    /// OpenType MATH `fractionDenomDisplayStyleGapMin`, em.
    public var fractionDenomDisplayStyleGapMin = 0.0
    /// OpenType MATH `overbarVerticalGap`, em.
    public var overbarVerticalGap = 0.0
    /// OpenType MATH `overbarRuleThickness`, em.
    public var overbarRuleThickness = 0.04
    /// OpenType MATH `overbarExtraAscender`, em.
    public var overbarExtraAscender = 0.0
    /// OpenType MATH `underbarVerticalGap`, em.
    public var underbarVerticalGap = 0.0
    /// OpenType MATH `underbarRuleThickness`, em.
    public var underbarRuleThickness = 0.04
    /// OpenType MATH `underbarExtraDescender`, em.
    public var underbarExtraDescender = 0.0
    /// OpenType MATH `radicalVerticalGap`, em.
    public var radicalVerticalGap = 0.0
    /// OpenType MATH `radicalDisplayStyleVerticalGap`, em.
    public var radicalDisplayStyleVerticalGap = 0.0
    /// OpenType MATH `radicalRuleThickness`, em.
    public var radicalRuleThickness = 0.04
    /// OpenType MATH `radicalExtraAscender`, em.
    public var radicalExtraAscender = 0.0
    /// OpenType MATH `radicalKernBeforeDegree`, em.
    public var radicalKernBeforeDegree = 0.0
    /// OpenType MATH `radicalKernAfterDegree`, em.
    public var radicalKernAfterDegree = 0.0
    /// OpenType MATH `radicalDegreeBottomRaisePercent`, as a fraction (70 % → 0.7).
    public var radicalDegreeBottomRaisePercent = 0.6
    /// `MinConnectorOverlap` of the MathVariants table.
    public var minConnectorOverlap = 0.0
}

/// One size variant of a stretchy glyph.
public struct GlyphVariant: Sendable {
    /// The glyph id.
    public var glyph: UInt32
    /// Advance in the stretch direction, em.
    public var advance: Double
}

/// One part of a glyph assembly (OpenType `GlyphPartRecord`), lengths in em.
public struct GlyphPart: Sendable {
    /// The glyph id.
    public var glyph: UInt32
    /// Length of the connector at the start (bottom or left), em.
    public var startConnector: Double
    /// Length of the connector at the end (top or right), em.
    public var endConnector: Double
    /// The part's full advance in the stretch direction, em.
    public var fullAdvance: Double
    /// An extender, repeated as often as needed.
    public var isExtender: Bool
}

/// An OpenType math font: a ``FontFace`` with a MATH table, its constants, size variants,
/// assemblies, script-size forms (`ssty`) and kerning. Load once and share: instances are immutable
/// from the outside, thread-safe, and cache everything they read.
public final class MathFont: @unchecked Sendable {
    /// The font file opened with HarfBuzz.
    public let face: FontFace
    /// The MATH constants in em.
    public let constants: MathConstants
    /// A human-readable name (the family, e.g. `Latin Modern Math`).
    public let name: String
    /// Size variants and assemblies by glyph and direction (slot 2 × glyph, + 1 for vertical).
    private let variantCache: LockedGlyphTable<[GlyphVariant]>
    private let assemblyCache: LockedGlyphTable<[GlyphPart]>
    /// Script-size forms by nominal glyph and level (slot 2 × glyph + level − 1), with the character
    /// they were shaped from (a slot is reused when another character has the same nominal glyph).
    private let scriptForms: LockedGlyphTable<(scalar: UInt32, glyph: UInt32)>

    /// Opens a math font; nil when the file is missing, is not a font or has no MATH table.
    public convenience init?(path: String, name: String? = nil) {
        guard let face = FontFace(path: path) else { return nil }
        self.init(face: face, name: name)
    }

    /// A math font of an open face; nil when the font has no MATH table.
    public init?(face: FontFace, name: String? = nil) {
        guard hb.hb_ot_math_has_data(face.face) != 0 else { return nil }
        let path = face.path
        self.face = face
        let glyphCount = Int(hb.hb_face_get_glyph_count(face.face))
        self.variantCache = LockedGlyphTable(slotCount: 2 * glyphCount)
        self.assemblyCache = LockedGlyphTable(slotCount: 2 * glyphCount)
        self.scriptForms = LockedGlyphTable(slotCount: 2 * glyphCount)
        self.name = name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let font = face.font
        func c(_ k: hb_ot_math_constant_t) -> Double { face.em(hb.hb_ot_math_get_constant(font, k)) }
        func pct(_ k: hb_ot_math_constant_t) -> Double { Double(hb.hb_ot_math_get_constant(font, k)) / 100 }
        var m = MathConstants()
        m.scriptPercentScaleDown = pct(HB_OT_MATH_CONSTANT_SCRIPT_PERCENT_SCALE_DOWN)
        m.scriptScriptPercentScaleDown = pct(HB_OT_MATH_CONSTANT_SCRIPT_SCRIPT_PERCENT_SCALE_DOWN)
        if m.scriptPercentScaleDown <= 0 { m.scriptPercentScaleDown = 0.7 }
        if m.scriptScriptPercentScaleDown <= 0 { m.scriptScriptPercentScaleDown = 0.5 }
        m.delimitedSubFormulaMinHeight = c(HB_OT_MATH_CONSTANT_DELIMITED_SUB_FORMULA_MIN_HEIGHT)
        m.displayOperatorMinHeight = c(HB_OT_MATH_CONSTANT_DISPLAY_OPERATOR_MIN_HEIGHT)
        m.mathLeading = c(HB_OT_MATH_CONSTANT_MATH_LEADING)
        m.axisHeight = c(HB_OT_MATH_CONSTANT_AXIS_HEIGHT)
        m.accentBaseHeight = c(HB_OT_MATH_CONSTANT_ACCENT_BASE_HEIGHT)
        m.flattenedAccentBaseHeight = c(HB_OT_MATH_CONSTANT_FLATTENED_ACCENT_BASE_HEIGHT)
        m.subscriptShiftDown = c(HB_OT_MATH_CONSTANT_SUBSCRIPT_SHIFT_DOWN)
        m.subscriptTopMax = c(HB_OT_MATH_CONSTANT_SUBSCRIPT_TOP_MAX)
        m.subscriptBaselineDropMin = c(HB_OT_MATH_CONSTANT_SUBSCRIPT_BASELINE_DROP_MIN)
        m.superscriptShiftUp = c(HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP)
        m.superscriptShiftUpCramped = c(HB_OT_MATH_CONSTANT_SUPERSCRIPT_SHIFT_UP_CRAMPED)
        m.superscriptBottomMin = c(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MIN)
        m.superscriptBaselineDropMax = c(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BASELINE_DROP_MAX)
        m.subSuperscriptGapMin = c(HB_OT_MATH_CONSTANT_SUB_SUPERSCRIPT_GAP_MIN)
        m.superscriptBottomMaxWithSubscript = c(HB_OT_MATH_CONSTANT_SUPERSCRIPT_BOTTOM_MAX_WITH_SUBSCRIPT)
        m.spaceAfterScript = c(HB_OT_MATH_CONSTANT_SPACE_AFTER_SCRIPT)
        m.upperLimitGapMin = c(HB_OT_MATH_CONSTANT_UPPER_LIMIT_GAP_MIN)
        m.upperLimitBaselineRiseMin = c(HB_OT_MATH_CONSTANT_UPPER_LIMIT_BASELINE_RISE_MIN)
        m.lowerLimitGapMin = c(HB_OT_MATH_CONSTANT_LOWER_LIMIT_GAP_MIN)
        m.lowerLimitBaselineDropMin = c(HB_OT_MATH_CONSTANT_LOWER_LIMIT_BASELINE_DROP_MIN)
        m.stackTopShiftUp = c(HB_OT_MATH_CONSTANT_STACK_TOP_SHIFT_UP)
        m.stackTopDisplayStyleShiftUp = c(HB_OT_MATH_CONSTANT_STACK_TOP_DISPLAY_STYLE_SHIFT_UP)
        m.stackBottomShiftDown = c(HB_OT_MATH_CONSTANT_STACK_BOTTOM_SHIFT_DOWN)
        m.stackBottomDisplayStyleShiftDown = c(HB_OT_MATH_CONSTANT_STACK_BOTTOM_DISPLAY_STYLE_SHIFT_DOWN)
        m.stackGapMin = c(HB_OT_MATH_CONSTANT_STACK_GAP_MIN)
        m.stackDisplayStyleGapMin = c(HB_OT_MATH_CONSTANT_STACK_DISPLAY_STYLE_GAP_MIN)
        m.stretchStackTopShiftUp = c(HB_OT_MATH_CONSTANT_STRETCH_STACK_TOP_SHIFT_UP)
        m.stretchStackBottomShiftDown = c(HB_OT_MATH_CONSTANT_STRETCH_STACK_BOTTOM_SHIFT_DOWN)
        m.stretchStackGapAboveMin = c(HB_OT_MATH_CONSTANT_STRETCH_STACK_GAP_ABOVE_MIN)
        m.stretchStackGapBelowMin = c(HB_OT_MATH_CONSTANT_STRETCH_STACK_GAP_BELOW_MIN)
        m.fractionNumeratorShiftUp = c(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_SHIFT_UP)
        m.fractionNumeratorDisplayStyleShiftUp = c(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_DISPLAY_STYLE_SHIFT_UP)
        m.fractionDenominatorShiftDown = c(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_SHIFT_DOWN)
        m.fractionDenominatorDisplayStyleShiftDown = c(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_DISPLAY_STYLE_SHIFT_DOWN)
        m.fractionNumeratorGapMin = c(HB_OT_MATH_CONSTANT_FRACTION_NUMERATOR_GAP_MIN)
        m.fractionNumDisplayStyleGapMin = c(HB_OT_MATH_CONSTANT_FRACTION_NUM_DISPLAY_STYLE_GAP_MIN)
        m.fractionRuleThickness = c(HB_OT_MATH_CONSTANT_FRACTION_RULE_THICKNESS)
        m.fractionDenominatorGapMin = c(HB_OT_MATH_CONSTANT_FRACTION_DENOMINATOR_GAP_MIN)
        m.fractionDenomDisplayStyleGapMin = c(HB_OT_MATH_CONSTANT_FRACTION_DENOM_DISPLAY_STYLE_GAP_MIN)
        m.overbarVerticalGap = c(HB_OT_MATH_CONSTANT_OVERBAR_VERTICAL_GAP)
        m.overbarRuleThickness = c(HB_OT_MATH_CONSTANT_OVERBAR_RULE_THICKNESS)
        m.overbarExtraAscender = c(HB_OT_MATH_CONSTANT_OVERBAR_EXTRA_ASCENDER)
        m.underbarVerticalGap = c(HB_OT_MATH_CONSTANT_UNDERBAR_VERTICAL_GAP)
        m.underbarRuleThickness = c(HB_OT_MATH_CONSTANT_UNDERBAR_RULE_THICKNESS)
        m.underbarExtraDescender = c(HB_OT_MATH_CONSTANT_UNDERBAR_EXTRA_DESCENDER)
        m.radicalVerticalGap = c(HB_OT_MATH_CONSTANT_RADICAL_VERTICAL_GAP)
        m.radicalDisplayStyleVerticalGap = c(HB_OT_MATH_CONSTANT_RADICAL_DISPLAY_STYLE_VERTICAL_GAP)
        m.radicalRuleThickness = c(HB_OT_MATH_CONSTANT_RADICAL_RULE_THICKNESS)
        m.radicalExtraAscender = c(HB_OT_MATH_CONSTANT_RADICAL_EXTRA_ASCENDER)
        m.radicalKernBeforeDegree = c(HB_OT_MATH_CONSTANT_RADICAL_KERN_BEFORE_DEGREE)
        m.radicalKernAfterDegree = c(HB_OT_MATH_CONSTANT_RADICAL_KERN_AFTER_DEGREE)
        m.radicalDegreeBottomRaisePercent = pct(HB_OT_MATH_CONSTANT_RADICAL_DEGREE_BOTTOM_RAISE_PERCENT)
        m.minConnectorOverlap = face.em(hb.hb_ot_math_get_min_connector_overlap(font, HB_DIRECTION_TTB))
        self.constants = m
    }

    /// Size variants of a glyph in one direction (vertical or horizontal), smallest first (cached).
    public func variants(_ glyph: UInt32, vertical: Bool) -> [GlyphVariant] {
        variantCache.value(2 * Int(glyph) + (vertical ? 1 : 0)) {
            let dir = vertical ? HB_DIRECTION_BTT : HB_DIRECTION_LTR
            // Asked once for the number of variants, then for all of them (no fixed-size cut-off).
            var count: UInt32 = 0
            let total = Int(hb.hb_ot_math_get_glyph_variants(face.font, glyph, dir, 0, &count, nil))
            var buffer = [hb_ot_math_glyph_variant_t](repeating: .init(), count: max(total, 1))
            count = UInt32(buffer.count)
            _ = hb.hb_ot_math_get_glyph_variants(face.font, glyph, dir, 0, &count, &buffer)
            return buffer.prefix(Int(count)).map { GlyphVariant(glyph: $0.glyph, advance: face.em($0.advance)) }
        }
    }

    /// The glyph assembly (parts, bottom/left first) of a glyph in one direction; empty when none (cached).
    public func assembly(_ glyph: UInt32, vertical: Bool) -> [GlyphPart] {
        assemblyCache.value(2 * Int(glyph) + (vertical ? 1 : 0)) {
            let dir = vertical ? HB_DIRECTION_BTT : HB_DIRECTION_LTR
            var count: UInt32 = 0
            var italic: hb_position_t = 0
            let total = Int(hb.hb_ot_math_get_glyph_assembly(face.font, glyph, dir, 0, &count, nil, &italic))
            var buffer = [hb_ot_math_glyph_part_t](repeating: .init(), count: max(total, 1))
            count = UInt32(buffer.count)
            _ = hb.hb_ot_math_get_glyph_assembly(face.font, glyph, dir, 0, &count, &buffer, &italic)
            return buffer.prefix(Int(count)).map {
                GlyphPart(glyph: $0.glyph, startConnector: face.em($0.start_connector_length),
                          endConnector: face.em($0.end_connector_length), fullAdvance: face.em($0.full_advance),
                          isExtender: ($0.flags.rawValue & HB_OT_MATH_GLYPH_PART_FLAG_EXTENDER.rawValue) != 0)
            }
        }
    }

    /// The glyph for a character at a script level: level 1 and 2 use the `ssty` feature
    /// (script-size forms drawn for small sizes), level 0 the nominal glyph. Nil when the font lacks it.
    public func glyph(for scalar: UInt32, scriptLevel: Int) -> UInt32? {
        guard let nominal = face.glyph(for: scalar) else { return nil }
        let level = min(scriptLevel, 2)
        guard level > 0 else { return nominal }
        let slot = 2 * Int(nominal) + level - 1
        if let form = scriptForms.stored(slot), form.scalar == scalar { return form.glyph }
        var text = ""
        text.unicodeScalars.append(Unicode.Scalar(scalar) ?? " ")
        let shaped = face.shape(text, features: "ssty=\(level)", mathScript: true)
        let glyph = shaped.count == 1 && shaped[0].glyph != 0 ? shaped[0].glyph : nominal
        scriptForms.store((scalar, glyph), in: slot)
        return glyph
    }

    /// The math kern (cut-in) of a glyph at one corner for a height, in em.
    public func kern(_ glyph: UInt32, corner: hb_ot_math_kern_t, height: Double) -> Double {
        face.em(hb.hb_ot_math_get_glyph_kerning(face.font, glyph, corner, Int32((height * face.unitsPerEm).rounded())))
    }
}
