// The MathAloud umbrella: one import for the whole pure-Swift core.
@_exported import MathSyntax
@_exported import MathTeX
@_exported import MathMarkup
@_exported import MathSemantics
@_exported import MathSpeech
