"""Rulesets whose names and texts are chosen to meet the C++ a kernel becomes
(interpreter/native/kernel.py): C and C++ keywords, the macros of the headers a kernel
includes, the kernel's own symbols and placeholders, and texts of every character.
tests/test_kernel_texts.py builds them and plays them against Python."""
from __future__ import annotations

import random
from string import Template

# names the grammar allows (letters, digits, '_'): C++ keywords and common macros of
# <Python.h>, <unistd.h>, <stdio.h>, <errno.h>, <assert.h>, <limits.h>, <stdlib.h>,
# <math.h>, <fcntl.h>...; the kernel's own names and the prefixes of the names it made
# (F_OK is the function 'OK', F_LOCK the function 'LOCK'...); the names Meeple gave its
# hidden locals ($it3 was written H_it3)
NAMES = [
    "NAME", "OK", "EOF", "NULL", "errno", "assert", "F_OK", "stdin", "stdout", "stderr", "TRUE", "FALSE",
    "LOCK", "TEST", "TLOCK", "ULOCK", "GETFD", "SETFL", "R_OK", "W_OK", "X_OK", "SEEK_SET", "BUFSIZ",
    "EXIT_FAILURE", "INT_MAX", "CHAR_BIT", "RAND_MAX", "NAN", "INFINITY", "HUGE_VAL", "linux", "unix",
    "offsetof", "va_arg", "setjmp", "isnan", "signbit", "NDEBUG", "Py_None", "Py_RETURN_NONE", "PyObject",
    "METH_O", "Py_ssize_t", "PY_SSIZE_T_MAX", "__LINE__", "__FILE__", "__cplusplus", "_GNU_SOURCE", "_",
    "__", "_A", "class", "new", "delete", "do", "goto", "switch", "case", "default", "break", "continue",
    "struct", "union", "template", "typename", "this", "operator", "static", "const", "void", "char",
    "long", "double", "signed", "unsigned", "sizeof", "typedef", "namespace", "using", "virtual", "friend",
    "private", "protected", "explicit", "inline", "volatile", "throw", "try", "catch", "auto", "register",
    "main", "std", "mk", "I", "Id", "Str", "St", "Frame", "Opts", "Seen", "Depth", "W", "nn", "bail", "mv",
    "s", "f", "e", "p", "k_", "v_", "a_b", "NP", "NI", "NZ", "DIR", "STEPS", "WORK", "LIMIT", "RANGE",
    "STEP", "EPOCH", "HAS_TEAMS", "KERNEL_NAME", "KERNEL_SYMBOL", "T0", "T1", "CA0", "RAY0", "P0", "P1",
    "I0", "I1", "o0", "e0", "c0", "ret_0", "run_top", "pmod", "eq", "add", "NONE_I", "NONE_ID",
    "H_it0", "H_i0", "H_r1", "H_n0", "p0_x", "g_x", "pv_x", "iv_x", "F_x", "FK_x", "a_x", "k_x", "v1_lo",
    "A", "Ax", "A_", "NAME2", "MY_NAME", "NAMEs", "NAME_", "x5f_", "_5f_", "u", "uF_x", "uF", "LX_", "PREV",
]

# texts: every printable ASCII character, C++ punctuation, escapes and comments as
# written in C++, the placeholders Meeple replaced, and more of Unicode
TEXTS = [
    "NAME", "x NAME y", "NAMENAME", "@NEXT", "@END", "@NEXT@END", '"', "\\", "\\\\\"", "'", "??=", "??/",
    "??'", "??(", "??)", "??!", "??<", "??>", "??-", "*/", "/*", "//", "\n", "\t", "\r", "\x00", "a\x00b",
    "\x7f", "\x1b[31m", "\\0", "\\x41", "\\u0041", "\\101", "%s%n%d", "\"); abort(); (\"", ")\"", "R\"(x)\"",
    "#define NAME 1", "\\\n", "{}", "};", "<::>", "<%%>", "$", "`", "@", "\u00e9", "\u00ff", "\u0100", "\u2603",
    "\u202e", "\ufeff", "\U0001F600", "\uffff", "e\u0301", "\u00a0", "", " ", "  x  ", "NONE", "\xff",
    "".join(chr(c) for c in range(32, 127)), "".join(chr(c) for c in range(1, 32)),
    "".join(chr(c) for c in range(127, 256)),
]


def dsl_string(text: str) -> str:
    """A string literal of the rules language with exactly this text."""
    out = []
    for ch in text:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 or 0xD800 <= ord(ch) <= 0xDFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def texts(seed: int, count: int = 12) -> list[str]:
    """The hostile texts, then ``count`` drawn at random from all of Unicode (every
    plane, no surrogates), shuffled by the seed."""
    rnd = random.Random(seed)
    drawn = []
    for _ in range(count):
        chars = []
        for _ in range(rnd.randrange(1, 12)):
            c = rnd.choice([rnd.randrange(0, 128), rnd.randrange(0, 0x800), rnd.randrange(0, 0x110000)])
            chars.append(chr(c if not 0xD800 <= c <= 0xDFFF else 0xE000))
        drawn.append("".join(chars))
    out = TEXTS + drawn
    rnd.shuffle(out)
    return out


# the ruleset: every $slot is a name; $t0..$tN texts. Every kind of name a kernel writes
# into its C++ (an enum and its values, a kind and its attributes and item variables, a
# board and its cells, zones, a deck, variables of each kind, a relation, functions and
# procedures with their parameters, locals, loop variables, a procedure's value) and
# every place a text goes (attributes, cell names, variables, literals, options, verbs)
RULES = Template("""ruleset hostile
players 2..2
enum $Enum { $ev0, $ev1, $ev2 }
kind $Kind { $fword: str, $ftint: $Enum, $fnum: int, var $ivword: str = $t0, var $ivnum: int = 0 }
board $Board: cells {
  $c0(x: 0, y: 0)
  $c1(x: 1, y: 0)
  $c2(x: 2, y: 0)
  $c3(x: 0, y: 1)
  $c4(x: 1, y: 1)
  $c5(x: 2, y: 1)
} holds $Kind
zone $Pot: $Kind
zone $Hand: $Kind per player
deck $Deck into $Pot { $Kind($fword: $dw, $ftint: $dt, $fnum: $dn) for $dw in $words for $dt in $Enum for $dn in [1, 2] }
var $said: str = $t1
var $count: int = 0
var $seen: list of str = [$t2, $t3]
var $points: int per player = 0
var $last: str per player = $t4
var $tint: $Enum = $ev1
relation $near($ra: $Board, $rb: $Board) = abs($ra.x - $rb.x) + abs($ra.y - $rb.y) == 1
function $weigh($fa: str, $fb: int): int = if $fa == $t5 or $fa == $t6 then $fb + 2 else $fb + 1
function $told($fc: $Kind): str = $fc.$fword + $t7 + $fc.$ivword
function $heavy($fd: $Board): bool = occupied($fd) and top($fd).$fnum == 2
procedure $take($pa: player, $pb: str): str {
  choose $l0 from [$cc for $cc in cells($Board) if empty($cc)] by $pa as $verb0 or $verb1
  if $l0 == none {
    return $pb + $t8
  }
  let $l1 = top($Pot)
  move $l1 to $l0
  $l1.$ivword = $l1.$ivword + $pb
  $l1.$ivnum = $l1.$ivnum + count($nb for $nb in $near($l0) if occupied($nb))
  return $l0.name + $told($l1) + $pb
}
procedure $mark($pc: $Enum) {
  if $pc == $tint {
    $count = $count + 1
  }
  $tint = $pc
}
setup {
  shuffle $Pot
  deal 2 from $Pot to $Hand
}
turn {
  choose $l2 from $options as $verb2
  let $l3 = call $take(active, $l2)
  $said = $said + $l3
  $count = $count + $weigh($l2, 1)
  $points(active) = $points(active) + $weigh($l3, $count)
  $last(active) = $l2
  for $l4 in $seen {
    if $l4 == $l2 {
      $count = $count + 1
    }
  }
  $seen = $seen + [$l2]
  choose $l5 from $Enum as $verb3
  call $mark($l5)
  if $l2 == $t9 {
    $count = $count + 3
  }
}
end when $count >= 14 or size($Pot) == 0
score($sp) = $points($sp) + count($cs for $cs in cells($Board) if occupied($cs) and top($cs).$fword == "NAME") * 10
  + count($cs for $cs in cells($Board) if occupied($cs) and top($cs).$fword == $t10) * 20
  + count($cd for $cd in cells($Board) if $heavy($cd) and $cd.name == $c1name) * 100
  + (if $last($sp) == $t11 then 1000 else 0)
""")

SLOTS = ["Enum", "ev0", "ev1", "ev2", "Kind", "fword", "ftint", "fnum", "ivword", "ivnum", "Board",
         "c0", "c1", "c2", "c3", "c4", "c5", "Pot", "Hand", "Deck", "dw", "dt", "dn", "said", "count", "seen",
         "points", "last", "tint", "near", "ra", "rb", "weigh", "fa", "fb", "told", "fc", "heavy", "fd",
         "take", "pa", "pb", "l0", "cc", "l1", "nb", "mark", "pc", "l2", "l3", "l4", "l5", "cs", "cd", "sp"]


def ruleset(seed: int, pinned: dict[str, str] | None = None) -> str:
    """A ruleset whose names are all the hostile names: a different one for each slot
    (``pinned`` ones where given, the rest in an order the seed shuffles), the names
    left over functions its score calls; and whose texts are hostile texts."""
    rnd = random.Random(seed)
    pinned = dict(pinned or {})
    rest = [n for n in NAMES if n not in pinned.values()]
    rnd.shuffle(rest)
    free = [s for s in SLOTS if s not in pinned]
    slots = {**pinned, **dict(zip(free, rest))}
    extra = rest[len(free):]
    arg = slots["fb"]
    ts = texts(seed)
    words = ts[:8]
    lits = {f"t{i}": dsl_string(t) for i, t in enumerate(ts[8:20])}
    options = ts[20:28] + ["NAME", "@NEXT"]
    verbs = {f"verb{i}": dsl_string(v) for i, v in enumerate(["NAME", "@END", ts[28] or "x", ts[29] or "y"])}
    text = RULES.substitute(
        slots, **lits, **verbs, words="[" + ", ".join(dsl_string(w) for w in words + ["NAME"]) + "]",
        options="[" + ", ".join(dsl_string(o) for o in options) + "]", c1name=dsl_string(slots["c1"]))
    return (text + "  + sum([" + ", ".join(f"{n}({i})" for i, n in enumerate(extra)) + "])\n"
            + "".join(f"function {n}({arg}: int): int = {arg} % 3\n" for n in extra))
