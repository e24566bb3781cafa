/// Named character references accepted in MathML input beyond XML's five (`lt`, `gt`, `amp`,
/// `quot`, `apos`): the commonly used names of the HTML5 / MathML entity set (Greek letters,
/// operators, relations, arrows, fences, spaces, invisible operators, accented Latin letters,
/// double-struck, script and fraktur capitals…).
///
/// XML parsers reject these names unless a DTD declares them, but real documents use them, so
/// ``MathMLReader`` rewrites each one to a numeric character reference before parsing.
package enum MathMLEntities {
    /// Name → replacement text, parsed once from ``table``.
    static let values: [String: String] = {
        var result: [String: String] = [:]
        result.reserveCapacity(1024)
        for item in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let eq = item.firstIndex(of: "=") else { continue }
            var text = ""
            for hex in item[item.index(after: eq)...].split(separator: "+") {
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    text.unicodeScalars.append(scalar)
                }
            }
            result[String(item[..<eq])] = text
        }
        return result
    }()

    /// Names longer than this (the table's longest has 24 letters) are not looked up.
    package static let maxNameLength = 40

    /// The replacement text of the entity `name` (without `&` and `;`), nil when unknown.
    package static func value(of name: String) -> String? { values[name] }

    /// `name=HEX[+HEX…]`, code points in hexadecimal, several per line. Values follow the HTML5
    /// named character reference list.
    private static let table = """
alpha=3B1 beta=3B2 gamma=3B3 delta=3B4 epsilon=3B5 epsi=3B5 epsiv=3F5 varepsilon=3F5
straightepsilon=3F5 zeta=3B6 eta=3B7 theta=3B8 thetav=3D1 thetasym=3D1 vartheta=3D1 iota=3B9
kappa=3BA kappav=3F0 varkappa=3F0 lambda=3BB mu=3BC nu=3BD xi=3BE omicron=3BF pi=3C0 piv=3D6
varpi=3D6 rho=3C1 rhov=3F1 varrho=3F1 sigma=3C3 sigmaf=3C2 sigmav=3C2 varsigma=3C2 tau=3C4
upsilon=3C5 upsi=3C5 upsih=3D2 phi=3C6 phiv=3D5 varphi=3D5 straightphi=3D5 chi=3C7 psi=3C8 omega=3C9
gammad=3DD digamma=3DD Alpha=391 Beta=392 Gamma=393 Delta=394 Epsilon=395 Zeta=396 Eta=397 Theta=398
Iota=399 Kappa=39A Lambda=39B Mu=39C Nu=39D Xi=39E Omicron=39F Pi=3A0 Rho=3A1 Sigma=3A3 Tau=3A4
Upsilon=3A5 Upsi=3D2 Phi=3A6 Chi=3A7 Psi=3A8 Omega=3A9 Gammad=3DC it=2062 InvisibleTimes=2062
af=2061 ApplyFunction=2061 ic=2063 InvisibleComma=2063 nbsp=A0 NonBreakingSpace=A0 ThinSpace=2009
thinsp=2009 ensp=2002 emsp=2003 emsp13=2004 emsp14=2005 MediumSpace=205F VeryThinSpace=200A
hairsp=200A ZeroWidthSpace=200B NegativeThinSpace=200B NegativeMediumSpace=200B
NegativeThickSpace=200B NegativeVeryThinSpace=200B ThickSpace=205F+200A NoBreak=2060 zwnj=200C
zwj=200D NewLine=A Tab=9 DifferentialD=2146 dd=2146 ExponentialE=2147 ee=2147 exponentiale=2147
ImaginaryI=2148 ii=2148 CapitalDifferentialD=2145 DD=2145 plus=2B minus=2212 times=D7 divide=F7
div=F7 PlusMinus=B1 pm=B1 plusmn=B1 mp=2213 MinusPlus=2213 mnplus=2213 sdot=22C5 middot=B7
centerdot=B7 CenterDot=B7 star=2606 ast=2A lowast=2217 bull=2022 bullet=2022 compfn=2218
SmallCircle=2218 cir=25CB oplus=2295 CirclePlus=2295 ominus=2296 CircleMinus=2296 otimes=2297
CircleTimes=2297 odot=2299 CircleDot=2299 osol=2298 setminus=2216 Backslash=2216 setmn=2216
smallsetminus=2216 wedge=2227 and=2227 vee=2228 or=2228 cap=2229 cup=222A sqcap=2293
SquareIntersection=2293 sqcup=2294 SquareUnion=2294 uplus=228E UnionPlus=228E amalg=2A3F coprod=2210
Coproduct=2210 prod=220F Product=220F sum=2211 Sum=2211 int=222B Integral=222B Int=222C iiint=222D
tint=222D qint=2A0C oint=222E conint=222E ContourIntegral=222E Conint=222F
DoubleContourIntegral=222F xcup=22C3 Union=22C3 bigcup=22C3 xcap=22C2 Intersection=22C2 bigcap=22C2
xvee=22C1 Vee=22C1 bigvee=22C1 xwedge=22C0 Wedge=22C0 bigwedge=22C0 xoplus=2A01 bigoplus=2A01
bigotimes=2A02 xodot=2A00 bigodot=2A00 xuplus=2A04 biguplus=2A04 xsqcup=2A06 bigsqcup=2A06
dotplus=2214 plusdo=2214 minusd=2238 dotminus=2238 Sqrt=221A radic=221A ne=2260 NotEqual=2260
le=2264 leq=2264 ge=2265 geq=2265 GreaterEqual=2265 ll=226A Lt=226A gg=226B Gt=226B
NestedLessLess=226A NestedGreaterGreater=226B leqslant=2A7D geqslant=2A7E les=2A7D ges=2A7E lE=2266
gE=2267 leqq=2266 geqq=2267 LessFullEqual=2266 GreaterFullEqual=2267 lsim=2272 gsim=2273
lesssim=2272 gtrsim=2273 LessTilde=2272 GreaterTilde=2273 lne=2A87 gne=2A88 lnE=2268 gnE=2269
nlt=226E nless=226E NotLess=226E ngt=226F ngtr=226F NotGreater=226F nle=2270 nleq=2270 nge=2271
ngeq=2271 approx=2248 ap=2248 asymp=2248 TildeTilde=2248 thkap=2248 sim=223C Tilde=223C thksim=223C
simeq=2243 sime=2243 TildeEqual=2243 cong=2245 TildeFullEqual=2245 equiv=2261 Congruent=2261
nequiv=2262 NotCongruent=2262 prop=221D propto=221D Proportional=221D vprop=221D varpropto=221D
Equal=2A75 doteq=2250 esdot=2250 DotEqual=2250 triangleq=225C trie=225C colone=2254 coloneq=2254
Colon=2237 Proportion=2237 prec=227A pr=227A Precedes=227A succ=227B sc=227B Succeeds=227B
preceq=2AAF pre=2AAF succeq=2AB0 sce=2AB0 perp=22A5 bottom=22A5 bot=22A5 UpTee=22A5 mid=2223
VerticalBar=2223 nmid=2224 parallel=2225 par=2225 DoubleVerticalBar=2225 npar=2226 nparallel=2226
models=22A7 vDash=22A8 vdash=22A2 dashv=22A3 Vdash=22A9 top=22A4 DownTee=22A4 RightTee=22A2
LeftTee=22A3 nsim=2241 napprox=2249 nap=2249 ncong=2247 bump=224E bumpe=224F isin=2208 in=2208
Element=2208 isinv=2208 notin=2209 NotElement=2209 notinva=2209 ni=220B niv=220B ReverseElement=220B
notni=220C sub=2282 subset=2282 sup=2283 supset=2283 Superset=2283 sube=2286 subseteq=2286
SubsetEqual=2286 supe=2287 supseteq=2287 SupersetEqual=2287 nsub=2284 nsup=2285 nsube=2288
nsubseteq=2288 nsupe=2289 nsupseteq=2289 subne=228A subsetneq=228A supne=228B supsetneq=228B
empty=2205 emptyset=2205 emptyv=2205 varnothing=2205 forall=2200 ForAll=2200 exist=2203 Exists=2203
nexist=2204 NotExists=2204 nexists=2204 complement=2201 comp=2201 not=AC there4=2234 therefore=2234
Therefore=2234 because=2235 becaus=2235 Because=2235 larr=2190 leftarrow=2190 LeftArrow=2190
slarr=2190 ShortLeftArrow=2190 rarr=2192 rightarrow=2192 RightArrow=2192 srarr=2192
ShortRightArrow=2192 uarr=2191 uparrow=2191 UpArrow=2191 darr=2193 downarrow=2193 DownArrow=2193
harr=2194 leftrightarrow=2194 LeftRightArrow=2194 varr=2195 updownarrow=2195 UpDownArrow=2195
lArr=21D0 Leftarrow=21D0 DoubleLeftArrow=21D0 rArr=21D2 Rightarrow=21D2 Implies=21D2
DoubleRightArrow=21D2 hArr=21D4 Leftrightarrow=21D4 iff=21D4 DoubleLeftRightArrow=21D4 uArr=21D1
Uparrow=21D1 DoubleUpArrow=21D1 dArr=21D3 Downarrow=21D3 DoubleDownArrow=21D3 map=21A6 mapsto=21A6
RightTeeArrow=21A6 longleftarrow=27F5 xlarr=27F5 LongLeftArrow=27F5 longrightarrow=27F6 xrarr=27F6
LongRightArrow=27F6 longleftrightarrow=27F7 xharr=27F7 LongLeftRightArrow=27F7 Longleftarrow=27F8
xlArr=27F8 DoubleLongLeftArrow=27F8 Longrightarrow=27F9 xrArr=27F9 DoubleLongRightArrow=27F9
Longleftrightarrow=27FA xhArr=27FA DoubleLongLeftRightArrow=27FA longmapsto=27FC xmap=27FC
hookleftarrow=21A9 larrhk=21A9 hookrightarrow=21AA rarrhk=21AA nearr=2197 nearrow=2197
UpperRightArrow=2197 searr=2198 searrow=2198 LowerRightArrow=2198 swarr=2199 swarrow=2199
LowerLeftArrow=2199 nwarr=2196 nwarrow=2196 UpperLeftArrow=2196 rightleftharpoons=21CC rlhar=21CC
Equilibrium=21CC leftrightharpoons=21CB lrhar=21CB ReverseEquilibrium=21CB leftharpoonup=21BC
lharu=21BC LeftVector=21BC rightharpoonup=21C0 rharu=21C0 RightVector=21C0 leftharpoondown=21BD
lhard=21BD DownLeftVector=21BD rightharpoondown=21C1 rhard=21C1 DownRightVector=21C1
rightleftarrows=21C4 rlarr=21C4 RightArrowLeftArrow=21C4 leftrightarrows=21C6 lrarr=21C6
LeftArrowRightArrow=21C6 nrarr=219B nrightarrow=219B nlarr=219A nleftarrow=219A nharr=21AE
nleftrightarrow=21AE nrArr=21CF nRightarrow=21CF nlArr=21CD nLeftarrow=21CD nhArr=21CE
nLeftrightarrow=21CE crarr=21B5 rightsquigarrow=219D rarrw=219D zigrarr=21DD circlearrowleft=21BA
olarr=21BA circlearrowright=21BB orarr=21BB curvearrowleft=21B6 cularr=21B6 curvearrowright=21B7
curarr=21B7 twoheadrightarrow=21A0 Rarr=21A0 twoheadleftarrow=219E Larr=219E Rrightarrow=21DB
rAarr=21DB Lleftarrow=21DA lAarr=21DA upharpoonleft=21BF uharl=21BF upharpoonright=21BE uharr=21BE
downharpoonleft=21C3 dharl=21C3 downharpoonright=21C2 dharr=21C2 lang=27E8 langle=27E8
LeftAngleBracket=27E8 rang=27E9 rangle=27E9 RightAngleBracket=27E9 lceil=2308 LeftCeiling=2308
rceil=2309 RightCeiling=2309 lfloor=230A LeftFloor=230A rfloor=230B RightFloor=230B lbrace=7B
lcub=7B rbrace=7D rcub=7D lbrack=5B lsqb=5B rbrack=5D rsqb=5D lpar=28 rpar=29 lowbar=5F UnderBar=5F
OverBar=203E vert=7C verbar=7C VerticalLine=7C Vert=2016 Verbar=2016 LeftDoubleBracket=27E6
RightDoubleBracket=27E7 lobrk=27E6 robrk=27E7 lmoust=23B0 rmoust=23B1 ulcorner=231C ulcorn=231C
urcorner=231D urcorn=231D llcorner=231E dlcorn=231E lrcorner=231F drcorn=231F OverBrace=23DE
UnderBrace=23DF OverParenthesis=23DC UnderParenthesis=23DD OverBracket=23B4 UnderBracket=23B5
infin=221E part=2202 PartialD=2202 nabla=2207 Del=2207 prime=2032 Prime=2033 tprime=2034 qprime=2057
bprime=2035 backprime=2035 deg=B0 hellip=2026 mldr=2026 ctdot=22EF vellip=22EE dtdot=22F1 utdot=22F0
nldr=2025 angle=2220 ang=2220 measuredangle=2221 angmsd=2221 angsph=2222 triangle=25B5 utri=25B5
triangledown=25BF dtri=25BF triangleleft=25C3 ltri=25C3 triangleright=25B9 rtri=25B9
vartriangleleft=22B2 vltri=22B2 vartriangleright=22B3 vrtri=22B3 square=25A1 squ=25A1 Square=25A1
blacksquare=25AA squf=25AA FilledSmallSquare=25FC EmptySmallSquare=25FB loz=25CA lozenge=25CA
blacklozenge=29EB lozf=29EB diamond=22C4 diam=22C4 Diamond=22C4 sstarf=22C6 starf=2605 bigstar=2605
aleph=2135 alefsym=2135 beth=2136 gimel=2137 daleth=2138 hbar=210F planck=210F hslash=210F
plankv=210F ell=2113 weierp=2118 wp=2118 image=2111 Im=2111 imagpart=2111 real=211C Re=211C
realpart=211C imath=131 inodot=131 jmath=237 ohm=3A9 mho=2127 Copf=2102 complexes=2102 Nopf=2115
naturals=2115 Qopf=211A rationals=211A Ropf=211D reals=211D Zopf=2124 integers=2124 Popf=2119
primes=2119 Hopf=210D quaternions=210D Fscr=2131 Lscr=2112 Laplacetrf=2112 Mscr=2133 Mellintrf=2133
Bscr=212C bernou=212C Escr=2130 expectation=2130 Hscr=210B HilbertSpace=210B Iscr=2110 Rscr=211B
Fouriertrf=2131 flat=266D natural=266E sharp=266F check=2713 checkmark=2713 cross=2717 maltese=2720
copy=A9 reg=AE trade=2122 sect=A7 para=B6 dagger=2020 Dagger=2021 ddagger=2021 micro=B5 half=BD
frac12=BD frac14=BC frac34=BE frac13=2153 frac23=2154 frac15=2155 frac16=2159 frac18=215B sup1=B9
sup2=B2 sup3=B3 ordf=AA ordm=BA iexcl=A1 iquest=BF laquo=AB raquo=BB lsaquo=2039 rsaquo=203A
lsquo=2018 rsquo=2019 ldquo=201C rdquo=201D sbquo=201A bdquo=201E ndash=2013 mdash=2014 dash=2010
hyphen=2010 horbar=2015 permil=2030 pertenk=2031 euro=20AC pound=A3 yen=A5 cent=A2 curren=A4
brvbar=A6 uml=A8 Dot=A8 die=A8 DoubleDot=A8 acute=B4 cedil=B8 macr=AF circ=2C6 tilde=2DC
DiacriticalTilde=2DC Hat=5E grave=60 DiacriticalGrave=60 DiacriticalAcute=B4 breve=2D8 Breve=2D8
caron=2C7 Hacek=2C7 dot=2D9 DiacriticalDot=2D9 tdot=20DB TripleDot=20DB DotDot=20DC hearts=2665
spades=2660 clubs=2663 diams=2666 sol=2F bsol=5C excl=21 quest=3F num=23 dollar=24 percnt=25
commat=40 colon=3A semi=3B comma=2C period=2E equals=3D midast=2A Agrave=C0 Aacute=C1 Acirc=C2
Atilde=C3 Auml=C4 Aring=C5 AElig=C6 Ccedil=C7 Egrave=C8 Eacute=C9 Ecirc=CA Euml=CB Igrave=CC
Iacute=CD Icirc=CE Iuml=CF ETH=D0 Ntilde=D1 Ograve=D2 Oacute=D3 Ocirc=D4 Otilde=D5 Ouml=D6 Oslash=D8
Ugrave=D9 Uacute=DA Ucirc=DB Uuml=DC Yacute=DD THORN=DE szlig=DF agrave=E0 aacute=E1 acirc=E2
atilde=E3 auml=E4 aring=E5 aelig=E6 ccedil=E7 egrave=E8 eacute=E9 ecirc=EA euml=EB igrave=EC
iacute=ED icirc=EE iuml=EF eth=F0 ntilde=F1 ograve=F2 oacute=F3 ocirc=F4 otilde=F5 ouml=F6 oslash=F8
ugrave=F9 uacute=FA ucirc=FB uuml=FC yacute=FD thorn=FE yuml=FF Aopf=1D538 Bopf=1D539 Dopf=1D53B
Eopf=1D53C Fopf=1D53D Gopf=1D53E Iopf=1D540 Jopf=1D541 Kopf=1D542 Lopf=1D543 Mopf=1D544 Oopf=1D546
Sopf=1D54A Topf=1D54B Uopf=1D54C Vopf=1D54D Wopf=1D54E Xopf=1D54F Yopf=1D550 Afr=1D504 Bfr=1D505
Cfr=212D Dfr=1D507 Efr=1D508 Ffr=1D509 Gfr=1D50A Hfr=210C Ifr=2111 Jfr=1D50D Kfr=1D50E Lfr=1D50F
Mfr=1D510 Nfr=1D511 Ofr=1D512 Pfr=1D513 Qfr=1D514 Rfr=211C Sfr=1D516 Tfr=1D517 Ufr=1D518 Vfr=1D519
Wfr=1D51A Xfr=1D51B Yfr=1D51C Zfr=2128 Ascr=1D49C Cscr=1D49E Dscr=1D49F Gscr=1D4A2 Jscr=1D4A5
Kscr=1D4A6 Nscr=1D4A9 Oscr=1D4AA Pscr=1D4AB Qscr=1D4AC Sscr=1D4AE Tscr=1D4AF Uscr=1D4B0 Vscr=1D4B1
Wscr=1D4B2 Xscr=1D4B3 Yscr=1D4B4 Zscr=1D4B5 escr=212F gscr=210A oscr=2134
"""
}
