#!/usr/bin/env python3
"""Writes deterministic random TeX formulas, one per line, for equivalence checks between two builds
(scripts/check-equivalence.sh): a change meant to keep output must give the same trees and speech for
every one of them.

Usage: scripts/random-formulas.py [COUNT] [--seed N]     (default 20000 formulas, seed 1)

Formulas are built from fragments that exercise every part of the semantic analysis (fences that pair
and do not, scripts, fractions, functions, big operators, differentials, units, tables, text, macros)
plus hostile bytes (NUL, U+2061, unbalanced braces, `\\def` loops). They need not be valid TeX.
"""
import random
import sys

ATOMS = [
    "x", "y", "z", "a", "b", "n", "k", "f", "g", "h", "F", "P", "C", "d", "e", "i", "t", "A", "B",
    "0", "1", "2", "3", "10", "3.14", "0.5", "1{,}000", "\\alpha", "\\beta", "\\pi", "\\theta", "\\infty",
    "\\mathbb{R}", "\\mathbb{Z}", "\\mathbb{N}", "\\mathrm{d}", "\\partial", "\\nabla", "\\emptyset",
    "\\mathbf{v}", "\\vec{r}", "\\hat{x}", "\\bar{z}", "\\overline{AB}", "\\tilde{y}", "\\dot{x}",
    "\\text{if }", "\\text{ or }", "\\text{cm}", "\\mathrm{kg}", "\\mathrm{m/s}", "\\%", "!", "'", "''",
    "\\ldots", "\\cdots", "\\vdots", "\\dots", "\\triangle", "\\angle", "\\forall", "\\exists", "\\neg",
    "\\sin", "\\cos", "\\log", "\\ln", "\\exp", "\\lim", "\\max", "\\det", "\\operatorname{rank}",
    "\\sum", "\\prod", "\\int", "\\iint", "\\oint", "\\bigcup", "\\bigoplus",
    "\\circ", "^\\circ", "\\prime", "\\mid", "|", "\\|", "\\{", "\\}", "(", ")", "[", "]", "\\langle", "\\rangle",
    "\\lfloor", "\\rfloor", "\\lceil", "\\rceil", "\\left(", "\\right)", "\\left|", "\\right|", "\\left.", "\\right.",
    "\\left\\{", "\\right\\}", "\\middle|", "\\big(", "\\big)", "\\Big|",
]
OPERATORS = [
    "+", "-", "=", "<", ">", "\\le", "\\ge", "\\ne", "\\approx", "\\equiv", "\\sim", "\\times", "\\cdot", "\\div",
    "/", "*", "\\pm", "\\mp", "\\cup", "\\cap", "\\setminus", "\\in", "\\notin", "\\subset", "\\subseteq",
    "\\to", "\\rightarrow", "\\Rightarrow", "\\iff", "\\mapsto", ",", ";", ":", "\\,", "\\;", "\\quad", "\\qquad",
    "\\!", "~", "\\bmod", "\\mod", "\\wedge", "\\vee", "\\oplus", "\\otimes", "\\perp", "\\parallel",
    "\\stackrel{def}{=}", "\\overset{?}{=}", "\\xrightarrow{f}", "\\circ", "\\ast", "\\star", "\\dagger",
]
HOSTILE = [
    "\x00", "\u2061", "\u2062", "\u2063", "{", "}", "^", "_", "&", "\\\\", "#", "\\def\\a{\\a}\\a",
    "\\newcommand{\\b}[1]{#1#1}\\b{x}", "\\frac", "\\sqrt", "\\left(", "\\right)", "\\begin{matrix}", "\\end{matrix}",
    "\\unknowncommand", "\\foo{bar}", "\u00a0", "\u2212", "\u221a", "\U0001D465", "\u0301",
]


def expr(rng, depth):
    """A random expression of roughly `depth` levels."""
    if depth <= 0 or rng.random() < 0.25:
        return rng.choice(ATOMS)
    r = rng.random()
    sub = lambda: expr(rng, depth - 1)
    if r < 0.10:
        return "\\frac{%s}{%s}" % (sub(), sub())
    if r < 0.16:
        return "%s^{%s}" % (rng.choice(ATOMS), sub())
    if r < 0.22:
        return "%s_{%s}" % (rng.choice(ATOMS), sub())
    if r < 0.26:
        return "%s_{%s}^{%s}" % (rng.choice(ATOMS), sub(), sub())
    if r < 0.30:
        return "\\sqrt{%s}" % sub() if rng.random() < 0.6 else "\\sqrt[%s]{%s}" % (sub(), sub())
    if r < 0.38:
        o, c = rng.choice([("(", ")"), ("[", "]"), ("\\{", "\\}"), ("|", "|"), ("\\|", "\\|"), ("\\left(", "\\right)"),
                           ("\\left[", "\\right]"), ("\\langle", "\\rangle"), ("\\lfloor", "\\rfloor"), ("(", "]"),
                           ("\\left.", "\\right|"), ("\\left\\{", "\\right."), ("[", ")")])
        return o + sub() + c
    if r < 0.44:
        return rng.choice(["\\sin", "\\cos", "\\log", "\\ln", "\\tan^{-1}", "\\sin^2", "\\log_2", "f", "g", "h", "k", "P"]) + \
            rng.choice(["(%s)", " %s", "\\left(%s\\right)", "^{-1}(%s)", "'(%s)", "_n(%s)"]) % sub()
    if r < 0.50:
        op = rng.choice(["\\sum", "\\prod", "\\int", "\\iint", "\\oint", "\\lim", "\\max", "\\bigcup", "\\sum\\limits",
                         "\\int\\nolimits"])
        lo = rng.choice(["", "_{%s}" % sub(), "_{i=1}", "_{x \\to 0}", "_0"])
        hi = rng.choice(["", "^{%s}" % sub(), "^{n}", "^\\infty", "^1"])
        dx = rng.choice(["", "\\,dx", " d x", "\\,\\mathrm{d}t", " dy\\,dx", ""])
        return op + lo + hi + " " + sub() + dx
    if r < 0.54:
        env = rng.choice(["matrix", "pmatrix", "bmatrix", "vmatrix", "cases", "aligned", "array{cc}", "smallmatrix", "gathered"])
        rows = rng.randint(1, 3)
        cols = rng.randint(1, 3)
        body = " \\\\ ".join(" & ".join(sub() for _ in range(cols)) for _ in range(rows))
        name = env.split("{")[0]
        spec = env[len(name):]
        return "\\begin{%s}%s %s \\end{%s}" % (name, spec, body, name)
    if r < 0.58:
        return rng.choice(["\\hat", "\\bar", "\\vec", "\\dot", "\\ddot", "\\tilde", "\\overline", "\\underline",
                           "\\overbrace", "\\underbrace", "\\widehat", "\\boxed", "\\cancel", "\\mathbf", "\\mathrm",
                           "\\mathbb", "\\text", "\\color{red}", "\\phantom", "\\displaystyle"]) + "{%s}" % sub()
    if r < 0.61:
        return "\\binom{%s}{%s}" % (sub(), sub())
    if r < 0.63:
        return "%s \\pmod{%s}" % (sub(), sub())
    if r < 0.65:
        return rng.choice(["5\\,\\mathrm{m/s}", "3\\text{ kg}", "30^\\circ", "25^\\circ\\mathrm{C}", "15\\%", "6'", "5' 4''",
                           "0.\\overline{3}", "2\\frac{1}{4}", "{}_{n}C_{k}", "{}_{10}P_{2}", "n!", "(n+1)!", "x'''",
                           "\\frac{dy}{dx}", "\\frac{d^2 y}{dx^2}", "\\frac{\\partial f}{\\partial x}", "\\frac{d}{dx}"])
    if r < 0.67:
        return rng.choice(HOSTILE) + sub()
    # A row of operands and operators.
    parts = [sub()]
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.85:
            parts.append(rng.choice(OPERATORS))
        parts.append(sub())
    return " ".join(parts)


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    count = int(args[0]) if args else 20000
    rng = random.Random(seed)
    out = sys.stdout
    for _ in range(count):
        line = expr(rng, rng.randint(1, 5)).replace("\n", " ")
        out.write(line + "\n")


if __name__ == "__main__":
    main()
