"""The parser: source text -> IR, shown with the one-line printer ``dsl.ast.show``.

Syntax errors are tested from the chunked golden file testdata/parse_errors.meeple
(its header explains the marker comments)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from golden import golden_chunks
from meeple.dsl import ast as ir
from meeple.dsl.ast import show
from meeple.dsl.errors import MeepleError
from meeple.dsl.load import RULESETS_DIR
from meeple.dsl.parse import parse, parse_expr

TESTDATA = Path(__file__).resolve().parent / "testdata"


def expr(text: str) -> str:
    """The IR of one expression, parsed where a file allows one (an end condition)."""
    f = parse(f"ruleset t\nend when {text}\n")
    return show(f.decls[0].cond)


def stmts(body: str) -> list[str]:
    f = parse(f"ruleset t\nturn {{\n{body}\n}}\n")
    return [show(s) for s in f.decls[0].body.stmts]


def stmt(body: str) -> str:
    (s,) = stmts(body)
    return s


def decl(text: str, kind: str = "ruleset") -> str:
    f = parse(f"{kind} t\n{text}\n")
    (d,) = f.decls
    return show(d)


# ---------------------------------------------------------------- expressions

@pytest.mark.parametrize("text, tree", [
    # boolean operators: or < and < not
    ("a or b and not c",
     "(BinOp op=or (Var name=a) (BinOp op=and (Var name=b) (UnOp op=not (Var name=c))))"),
    ("a and b or c", "(BinOp op=or (BinOp op=and (Var name=a) (Var name=b)) (Var name=c))"),
    ("not a == b", "(UnOp op=not (BinOp op=== (Var name=a) (Var name=b)))"),
    ("not not a", "(UnOp op=not (UnOp op=not (Var name=a)))"),
    # arithmetic: * / % bind tighter than + -, all left-associative
    ("1 + 2 * 3", "(BinOp op=+ (IntLit value=1) (BinOp op=* (IntLit value=2) (IntLit value=3)))"),
    ("1 - 2 - 3", "(BinOp op=- (BinOp op=- (IntLit value=1) (IntLit value=2)) (IntLit value=3))"),
    ("10 / 3 % 2", "(BinOp op=% (BinOp op=/ (IntLit value=10) (IntLit value=3)) (IntLit value=2))"),
    ("(1 + 2) * 3", "(BinOp op=* (BinOp op=+ (IntLit value=1) (IntLit value=2)) (IntLit value=3))"),
    # comparisons bind looser than arithmetic, tighter than not/and
    ("a + 1 >= b * 2",
     "(BinOp op=>= (BinOp op=+ (Var name=a) (IntLit value=1)) (BinOp op=* (Var name=b) (IntLit value=2)))"),
    ("a != b and c < d",
     "(BinOp op=and (BinOp op=!= (Var name=a) (Var name=b)) (BinOp op=< (Var name=c) (Var name=d)))"),
    ("a <= b", "(BinOp op=<= (Var name=a) (Var name=b))"),
    ("a > b", "(BinOp op=> (Var name=a) (Var name=b))"),
    # membership
    ("x in xs", "(BinOp op=in (Var name=x) (Var name=xs))"),
    ("x not in hand(p)", "(BinOp op=not in (Var name=x) (Call func=hand [(Var name=p)]))"),
    ("not x in xs", "(UnOp op=not (BinOp op=in (Var name=x) (Var name=xs)))"),
    ("b - a in 0..1",
     "(BinOp op=in (BinOp op=- (Var name=b) (Var name=a)) (BinOp op=.. (IntLit value=0) (IntLit value=1)))"),
    # ranges: looser than + and *
    ("4..9", "(BinOp op=.. (IntLit value=4) (IntLit value=9))"),
    ("a + 1..n * 2",
     "(BinOp op=.. (BinOp op=+ (Var name=a) (IntLit value=1)) (BinOp op=* (Var name=n) (IntLit value=2)))"),
    # unary minus: tighter than every binary operator
    ("-x + 1", "(BinOp op=+ (UnOp op=- (Var name=x)) (IntLit value=1))"),
    ("- - x", "(UnOp op=- (UnOp op=- (Var name=x)))"),
    ("2 * -x", "(BinOp op=* (IntLit value=2) (UnOp op=- (Var name=x)))"),
    ("-c.v", "(UnOp op=- (Attr (Var name=c) name=v))"),
    # conditional expressions: the loosest; else-branches nest
    ("if a then b else c", "(CondExpr (Var name=a) (Var name=b) (Var name=c))"),
    ("if a then 1 else if b then 2 else 3",
     "(CondExpr (Var name=a) (IntLit value=1) (CondExpr (Var name=b) (IntLit value=2) (IntLit value=3)))"),
    # elif parts fold into nested conditionals (issue 11 §4)
    ("if a then 1 elif b then 2 else 3",
     "(CondExpr (Var name=a) (IntLit value=1) (CondExpr (Var name=b) (IntLit value=2) (IntLit value=3)))"),
    ("if a then 1 elif b then 2 elif c then 3 else 4",
     "(CondExpr (Var name=a) (IntLit value=1) (CondExpr (Var name=b) (IntLit value=2) "
     "(CondExpr (Var name=c) (IntLit value=3) (IntLit value=4))))"),
    ("if a then 1 elif b then if c then 2 else 3 else 4",
     "(CondExpr (Var name=a) (IntLit value=1) (CondExpr (Var name=b) "
     "(CondExpr (Var name=c) (IntLit value=2) (IntLit value=3)) (IntLit value=4)))"),
    ("if a or b then x + 1 else 0",
     "(CondExpr (BinOp op=or (Var name=a) (Var name=b)) (BinOp op=+ (Var name=x) (IntLit value=1)) (IntLit value=0))"),
    ("v - (if any(xs) then 1 else 0)",
     "(BinOp op=- (Var name=v) (CondExpr (Call func=any [(Var name=xs)]) (IntLit value=1) (IntLit value=0)))"),
    # literals
    ("42", "(IntLit value=42)"),
    ('"say \\"hi\\""', '(StrLit value=say "hi")'),
    ("true", "(BoolLit value=True)"),
    ("false", "(BoolLit value=False)"),
    ("none", "(NoneLit)"),
])
def test_expression_precedence(text, tree):
    assert expr(text) == tree


@pytest.mark.parametrize("text, tree", [
    ("a.b.c", "(Attr (Attr (Var name=a) name=b) name=c)"),
    ("xs[0]", "(Index (Var name=xs) (IntLit value=0))"),
    ("xs[i + 1].v", "(Attr (Index (Var name=xs) (BinOp op=+ (Var name=i) (IntLit value=1))) name=v)"),
    ("f()", "(Call func=f)"),
    ("f(a, b)", "(Call func=f [(Var name=a) (Var name=b)])"),
    ("top(pile).value", "(Attr (Call func=top [(Var name=pile)]) name=value)"),
    ("f(g(x))[0]", "(Index (Call func=f [(Call func=g [(Var name=x)])]) (IntLit value=0))"),
    ("card(c).clan == card(s[0]).clan",
     "(BinOp op=== (Attr (Call func=card [(Var name=c)]) name=clan) "
     "(Attr (Call func=card [(Index (Var name=s) (IntLit value=0))]) name=clan))"),
])
def test_attribute_index_and_call(text, tree):
    assert expr(text) == tree


@pytest.mark.parametrize("text, tree", [
    ("cell(grid, row: 2, col: 3)",
     "(CellAt (Var name=grid) [(NamedArg name=row (IntLit value=2)) (NamedArg name=col (IntLit value=3))])"),
    ('cell(river, name: "ford")', "(CellAt (Var name=river) [(NamedArg name=name (StrLit value=ford))])"),
    ("cell(map, q: -1, r: c.r + 1).name",
     "(Attr (CellAt (Var name=map) [(NamedArg name=q (UnOp op=- (IntLit value=1))) "
     "(NamedArg name=r (BinOp op=+ (Attr (Var name=c) name=r) (IntLit value=1)))]) name=name)"),
    ("top(cell(grid, row: 1, col: 1))",
     "(Call func=top [(CellAt (Var name=grid) [(NamedArg name=row (IntLit value=1)) "
     "(NamedArg name=col (IntLit value=1))])])"),
    ("cell(2, 3)", "(Call func=cell [(IntLit value=2) (IntLit value=3)])"),  # a function of yours
])
def test_cell_literal_takes_named_coordinates(text, tree):
    assert expr(text) == tree


def test_only_cell_takes_named_arguments():
    with pytest.raises(MeepleError) as e:
        parse("ruleset t\nend when near(grid, row: 1)\n")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.column) == ("parse/unexpected-token", 2, 21)
    assert "'near' is called with a named argument 'row:'" in d.message
    assert "only cell(BOARD, coordinate: value, ...)" in d.hint


@pytest.mark.parametrize("text, tree", [
    ("[]", "(ListLit)"),
    ("[1]", "(ListLit [(IntLit value=1)])"),
    ("[a, b + 1, [c]]",
     "(ListLit [(Var name=a) (BinOp op=+ (Var name=b) (IntLit value=1)) (ListLit [(Var name=c)])])"),
    ("[x for x in xs]", "(Comprehension (Var name=x) [(ForClause var=x (Var name=xs))])"),
    ("[x.v for x in xs if x.v > 2]",
     "(Comprehension (Attr (Var name=x) name=v) [(ForClause var=x (Var name=xs))] "
     "(BinOp op=> (Attr (Var name=x) name=v) (IntLit value=2)))"),
    ("[x + y for x in 1..2 for y in xs]",
     "(Comprehension (BinOp op=+ (Var name=x) (Var name=y)) [(ForClause var=x (BinOp op=.. (IntLit value=1) "
     "(IntLit value=2))) (ForClause var=y (Var name=xs))])"),
    ("sum(x.v for x in xs if c)",
     "(Aggregate func=sum (Comprehension (Attr (Var name=x) name=v) [(ForClause var=x (Var name=xs))] (Var name=c)))"),
    ("count(c for c in cells(b) if occupied(c))",
     "(Aggregate func=count (Comprehension (Var name=c) [(ForClause var=c (Call func=cells [(Var name=b)]))] "
     "(Call func=occupied [(Var name=c)])))"),
    ("all(empty(hand(p)) for p in players)",
     "(Aggregate func=all (Comprehension (Call func=empty [(Call func=hand [(Var name=p)])]) "
     "[(ForClause var=p (Var name=players))]))"),
    # an aggregate is not a call, a call of a list is
    ("max(xs)", "(Call func=max [(Var name=xs)])"),
    ("max(a, b)", "(Call func=max [(Var name=a) (Var name=b)])"),
    ("max(x for x in xs)", "(Aggregate func=max (Comprehension (Var name=x) [(ForClause var=x (Var name=xs))]))"),
])
def test_lists_comprehensions_and_aggregates(text, tree):
    assert expr(text) == tree


def test_comparisons_do_not_chain():
    with pytest.raises(MeepleError) as e:
        expr("a < b < c")
    assert e.value.diagnostics[0].code == "parse/unexpected-token"


def test_if_then_else_is_the_loosest_and_cannot_start_an_operand():
    assert expr("if a then b else c or d") == \
        "(CondExpr (Var name=a) (Var name=b) (BinOp op=or (Var name=c) (Var name=d)))"
    with pytest.raises(MeepleError):
        expr("1 + if a then 1 else 2")


def test_parse_expr_puts_every_span_at_the_template():
    at = ir.Span(file="f.meeple", line=7, column=3)
    e = parse_expr("card(target).value + 1", at)
    assert show(e) == "(BinOp op=+ (Attr (Call func=card [(Var name=target)]) name=value) (IntLit value=1))"
    assert {n.span for n in ir.walk(e)} == {at}


def test_parse_expr_error_names_the_template():
    at = ir.Span(file="f.meeple", line=7, column=3)
    with pytest.raises(MeepleError) as e:
        parse_expr("a +", at)
    d = e.value.diagnostics[0]
    assert d.span == at and d.message.startswith("in the template expression {a +}")


# ---------------------------------------------------------------- keywords as names

def test_keywords_usable_as_names_where_the_grammar_allows():
    # 'first' (a tie rule), 'all' (deal all), 'max' (while max) and 'at' are keywords
    # only where the grammar expects them
    assert stmts("pick first at random from players\nactive = first") == [
        "(PickRandom var=first (Var name=players))",
        "(Assign var=active (Var name=first))"]
    assert stmt("let max = max(a, all(x for x in xs))") == \
        "(Let var=max (Call func=max [(Var name=a) (Aggregate func=all (Comprehension (Var name=x) " \
        "[(ForClause var=x (Var name=xs))]))]))"
    assert stmt("deal all from pile to hand") == "(Deal (Var name=pile) to=hand)"
    assert expr("first(xs) + last(xs)") == \
        "(BinOp op=+ (Call func=first [(Var name=xs)]) (Call func=last [(Var name=xs)]))"
    assert expr("all(xs)") == "(Call func=all [(Var name=xs)])"
    assert decl("enum E { first, random, public, at }") == "(EnumDecl name=E ['first' 'random' 'public' 'at'])"
    assert decl("kind K { name: int, color: int, score: int }").count("FieldDecl") == 3
    assert expr("c.name") == "(Attr (Var name=c) name=name)"


def test_declaration_keywords_as_assignment_targets_after_an_expression():
    # After an expression, the parser's look-ahead also allows a new declaration, so
    # 'score' and 'name' lex as keywords; they must still work as assignment targets.
    assert stmts("let a = 1\nscore(active) = a + 1\nname = 2\ntitle = name") == [
        "(Let var=a (IntLit value=1))",
        "(Assign var=score (Var name=active) (BinOp op=+ (Var name=a) (IntLit value=1)))",
        "(Assign var=name (IntLit value=2))",
        "(Assign var=title (Var name=name))"]
    # ...but a missing '}' before a real declaration is still reported there
    with pytest.raises(MeepleError) as e:
        parse("ruleset t\nturn {\n  let a = 1\nfunction f(): int = 1\n")
    d = e.value.diagnostics[0]
    assert (d.code, d.span.line, d.message) == ("parse/unexpected-token", 4, "unexpected 'function'")


# ---------------------------------------------------------------- statements

@pytest.mark.parametrize("body, tree", [
    ("let x = 1", "(Let var=x (IntLit value=1))"),
    ("x = x + 1", "(Assign var=x (BinOp op=+ (Var name=x) (IntLit value=1)))"),
    ("gold(active) = 3", "(Assign var=gold (Var name=active) (IntLit value=3))"),
    ("active = next_player(active)", "(Assign var=active (Call func=next_player [(Var name=active)]))"),
    ("if a { }", "(If [((Var name=a) (Block))])"),
    ("if a { x = 1 } else { x = 2 }",
     "(If [((Var name=a) (Block [(Assign var=x (IntLit value=1))]))] (Block [(Assign var=x (IntLit value=2))]))"),
    ("if a { } elif b { } elif c { } else { end game }",
     "(If [((Var name=a) (Block)) ((Var name=b) (Block)) ((Var name=c) (Block))] (Block [(EndGame)]))"),
    ("for c in items(pile) { move c to discard }",
     "(For var=c (Call func=items [(Var name=pile)]) (Block [(Move (Var name=c) (Var name=discard))]))"),
    ("while n < 3 max 5 { n = n + 1 }",
     "(While (BinOp op=< (Var name=n) (IntLit value=3)) limit=5 (Block [(Assign var=n (BinOp op=+ (Var name=n) "
     "(IntLit value=1)))]))"),
    ("choose c from xs", "(Choose var=c (Var name=xs))"),
    ('choose c from xs as "play"', "(Choose var=c (Var name=xs) verb=play)"),
    ('choose c from xs by players[0] as "start"',
     "(Choose var=c (Var name=xs) (Index (Var name=players) (IntLit value=0)) verb=start)"),
    ('choose bid(p) from items(hand(p)) for each p in players as "bid"',
     "(ChooseEach var=bid arg=p (Call func=items [(Call func=hand [(Var name=p)])]) each=p "
     "(Var name=players) verb=bid)"),
    ("choose s subset of xs", "(ChooseSubset var=s (Var name=xs))"),
    ('choose s subset of xs where size(s) == 2 by p as "with"',
     "(ChooseSubset var=s (Var name=xs) (BinOp op=== (Call func=size [(Var name=s)]) (IntLit value=2)) "
     "(Var name=p) verb=with)"),
    ("best b in xs by b.v", "(Best var=b (Var name=xs) [(Attr (Var name=b) name=v)] tie=choose)"),
    ("best b in xs by b.v, w(b) tie first",
     "(Best var=b (Var name=xs) [(Attr (Var name=b) name=v) (Call func=w [(Var name=b)])] tie=first)"),
    ("best b in xs by b.v tie random", "(Best var=b (Var name=xs) [(Attr (Var name=b) name=v)] tie=random)"),
    ("best b in xs by b.v tie choose by p",
     "(Best var=b (Var name=xs) [(Attr (Var name=b) name=v)] tie=choose (Var name=p))"),
    ("move top(pile) to discard", "(Move (Call func=top [(Var name=pile)]) (Var name=discard))"),
    ("move [a, b] to hand(active)",
     "(Move (ListLit [(Var name=a) (Var name=b)]) (Call func=hand [(Var name=active)]))"),
    ("shuffle pile", "(Shuffle (Var name=pile))"),
    ("deal 5 from pile to hand", "(Deal count=5 (Var name=pile) to=hand)"),
    ("deal all from pile to hand", "(Deal (Var name=pile) to=hand)"),
    ("fill board from pile", "(Fill board=board (Var name=pile))"),
    ("pick x at random from players", "(PickRandom var=x (Var name=players))"),
    ('log played "{active} plays {c}"', "(Log key=played template={active} plays {c})"),
    ("call p()", "(CallProc proc=p)"),
    ("call p(1, x)", "(CallProc proc=p [(IntLit value=1) (Var name=x)])"),
    ("end game", "(EndGame)"),
    ("return", "(Return)"),
    ("return n + 1", "(Return (BinOp op=+ (Var name=n) (IntLit value=1)))"),
    ("let v = call f(1, x)", "(CallResult var=v new=True proc=f [(IntLit value=1) (Var name=x)])"),
    ("v = call f()", "(CallResult var=v new=False proc=f)"),
    ("points(p) = call f(p)",
     "(CallResult var=points (Var name=p) new=False proc=f [(Var name=p)])"),
    ("reveal hand(active)", "(Reveal (Call func=hand [(Var name=active)]))"),
])
def test_every_statement_form(body, tree):
    assert stmt(body) == tree


def test_a_bare_return_ends_its_block():
    # `return` followed by a statement would read it as the value: a bare return is last
    assert stmts("if x { return } y = 1") == [
        "(If [((Var name=x) (Block [(Return)]))])", "(Assign var=y (IntLit value=1))"]


def test_statements_need_no_separators():
    assert stmts("shuffle pile deal 1 from pile to hand let x = 1 x = 2") == [
        "(Shuffle (Var name=pile))", "(Deal count=1 (Var name=pile) to=hand)",
        "(Let var=x (IntLit value=1))", "(Assign var=x (IntLit value=2))"]


# ---------------------------------------------------------------- declarations

@pytest.mark.parametrize("text, tree", [
    ('title "Cards"', "(Title text=Cards)"),
    ('language "Deutsch"', "(Language text=Deutsch)"),
    ("players 2..4", "(Players min=2 max=4)"),
    ("order clockwise", "(Order direction=clockwise)"),
    ("order counterclockwise", "(Order direction=counterclockwise)"),
    ("enum Suit { red, blue, }", "(EnumDecl name=Suit ['red' 'blue'])"),
    ("kind Token { }", "(KindDecl name=Token)"),
    ("kind Card { suit: Suit, tags: list of list of int }",
     "(KindDecl name=Card [(FieldDecl name=suit (TypeRef name=Suit) var=False) "
     "(FieldDecl name=tags (TypeRef name=list (TypeRef name=list (TypeRef name=int))) var=False)])"),
    ("kind Unit { kind_: Suit, var wounds: int = 0 }",
     "(KindDecl name=Unit [(FieldDecl name=kind_ (TypeRef name=Suit) var=False) "
     "(FieldDecl name=wounds (TypeRef name=int) var=True (IntLit value=0))])"),
    ("board p: triangle(rows: 8) holds Card public",
     "(BoardDecl name=p generator=triangle [(NamedArg name=rows (IntLit value=8))] (TypeRef name=Card) "
     "visibility=public)"),
    ("board g: grid(rows: 2, cols: 3) holds Card hidden",
     "(BoardDecl name=g generator=grid [(NamedArg name=rows (IntLit value=2)) (NamedArg name=cols (IntLit value=3))] "
     "(TypeRef name=Card) visibility=hidden)"),
    ("board m: cells { a(x: 1, y: -1) b() } holds Card",
     "(BoardDecl name=m [(CellDef name=a [(NamedArg name=x (IntLit value=1)) (NamedArg name=y (UnOp op=- "
     "(IntLit value=1)))]) (CellDef name=b)] (TypeRef name=Card) visibility=public)"),
    # a per-player zone is seen by its owner unless said otherwise; a shared one by all
    ("zone hand: Card per player", "(ZoneDecl name=hand (TypeRef name=Card) per_player=True visibility=owner)"),
    ("zone mine: Card per player public",
     "(ZoneDecl name=mine (TypeRef name=Card) per_player=True visibility=public)"),
    ("zone pile: Card", "(ZoneDecl name=pile (TypeRef name=Card) per_player=False visibility=public)"),
    ("zone pile: Card hidden", "(ZoneDecl name=pile (TypeRef name=Card) per_player=False visibility=hidden)"),
    ("deck d into pile { 2 of Card(v: v) for v in 1..3  Card(v: 0) }",
     "(DeckDecl name=d into=pile [(DeckEntry count=2 kind=Card [(NamedArg name=v (Var name=v))] "
     "[(ForClause var=v (BinOp op=.. (IntLit value=1) (IntLit value=3)))]) "
     "(DeckEntry count=1 kind=Card [(NamedArg name=v (IntLit value=0))])])"),
    ("var n: int = 0", "(VarDecl name=n (TypeRef name=int) per_player=False (IntLit value=0))"),
    ("var gold: int per player = 3", "(VarDecl name=gold (TypeRef name=int) per_player=True (IntLit value=3))"),
    ("relation beside(a: p, b: p) = a.row == b.row",
     "(RelationDecl name=beside [(Param name=a (TypeRef name=p)) (Param name=b (TypeRef name=p))] "
     "(BinOp op=== (Attr (Var name=a) name=row) (Attr (Var name=b) name=row)))"),
    ("function f(x: int, ys: list of Card): bool = true",
     "(FunctionDecl name=f [(Param name=x (TypeRef name=int)) (Param name=ys (TypeRef name=list "
     "(TypeRef name=Card)))] (TypeRef name=bool) (BoolLit value=True))"),
    ("function g(): int = 1", "(FunctionDecl name=g (TypeRef name=int) (IntLit value=1))"),
    ("procedure p(c: Card) { }", "(ProcedureDecl name=p [(Param name=c (TypeRef name=Card))] (Block))"),
    ("procedure p(c: Card): int { return c.v }",
     "(ProcedureDecl name=p [(Param name=c (TypeRef name=Card))] (Block [(Return (Attr (Var name=c) "
     "name=v))]) (TypeRef name=int))"),
    ("procedure q(): list of grid { return [] }",
     "(ProcedureDecl name=q (Block [(Return (ListLit))]) (TypeRef name=list (TypeRef name=grid)))"),
    ("setup { shuffle pile }", "(SetupDecl (Block [(Shuffle (Var name=pile))]))"),
    ("turn { }", "(TurnDecl (Block))"),
    ("end when passes >= 2", "(EndDecl (BinOp op=>= (Var name=passes) (IntLit value=2)))"),
    ("at end { reveal pile }", "(AtEndDecl (Block [(Reveal (Var name=pile))]))"),
    ("score(p) = gold(p)", "(ScoreDecl param=p (Call func=gold [(Var name=p)]))"),
    ("tiebreak women(p) = 2", "(TiebreakDecl name=women param=p (IntLit value=2))"),
    ('name Suit.red "Red" "R"', "(NameDecl path=Suit.red text=Red short=R)"),
    ('name hand "hand"', "(NameDecl path=hand text=hand)"),
    ('text chase "Choose {n}"', "(TextDecl key=chase text=Choose {n})"),
    ('label Card "{v} of {suit}" "{v}{suit}"', "(LabelDecl kind=Card template={v} of {suit} short={v}{suit})"),
    ("color Suit.red red", "(ColorDecl path=Suit.red color=red)"),
    ("color Card by suit", "(KindColorDecl kind=Card attr=suit)"),
])
def test_every_declaration_form(text, tree):
    assert decl(text) == tree


def test_file_header_and_comments():
    f = parse("# a comment\nvariant fast  # trailing comment\n# another\ntitle \"Fast\"\n", "v.meeple")
    assert (f.kind, f.name) == ("variant", "fast")
    assert show(f) == "(File kind=variant name=fast [(Title text=Fast)])"


# ---------------------------------------------------------------- overlays

@pytest.mark.parametrize("text, tree", [
    ("replace zone pile: Card public",
     "(Replace (ZoneDecl name=pile (TypeRef name=Card) per_player=False visibility=public))"),
    ("replace order counterclockwise", "(Replace (Order direction=counterclockwise))"),
    ("replace function g(): int = 2", "(Replace (FunctionDecl name=g (TypeRef name=int) (IntLit value=2)))"),
    ("replace procedure start() { active = players[0] }",
     "(Replace (ProcedureDecl name=start (Block [(Assign var=active (Index (Var name=players) (IntLit value=0)))])))"),
    ("extend setup { shuffle pile }", "(Extend target=setup (Block [(Shuffle (Var name=pile))]))"),
    ("extend turn { }", "(Extend target=turn (Block))"),
    ("extend procedure start { end game }", "(Extend target=procedure name=start (Block [(EndGame)]))"),
    ("extend at end { reveal pile }", "(Extend target=at end (Block [(Reveal (Var name=pile))]))"),
    ("remove zone neutral", "(Remove what=zone name=neutral)"),
    ("remove var passes", "(Remove what=var name=passes)"),
    ("remove tiebreak women", "(Remove what=tiebreak name=women)"),
    ("remove board pyramid", "(Remove what=board name=pyramid)"),
])
def test_overlay_declarations(text, tree):
    assert decl(text, "variant") == tree


# ---------------------------------------------------------------- spans

def test_spans_give_file_line_and_column():
    text = ("ruleset t\n"
            "var n: int = 1\n"
            "end when n + bb * 3 > 0\n"
            "turn {\n"
            "  let x = top(pile).value\n"
            "  move x to discard\n"
            "}\n")
    f = parse(text, "span.meeple")
    var, end, turn = f.decls
    assert f.span.file == "span.meeple"
    assert (var.span.line, var.span.column) == (2, 5)          # the declared name
    cmp = end.cond
    assert (cmp.span.line, cmp.span.column) == (3, 10)         # a binary operation starts with its left side
    plus = cmp.left
    assert (plus.span.column, plus.right.span.column, plus.right.left.span.column) == (10, 14, 14)
    assert (plus.right.right.span.column, plus.right.right.span.end_column) == (19, 20)
    let, move = turn.body.stmts
    assert (let.span.line, let.span.column) == (5, 7)          # let: the name it binds
    attr = let.value
    assert (attr.span.line, attr.span.column) == (5, 21)       # .value
    assert (attr.obj.span.column, attr.obj.args[0].span.column) == (11, 15)
    assert (move.span.line, move.span.column) == (6, 3)
    assert (move.to.span.line, move.to.span.column, move.to.span.end_column) == (6, 13, 20)
    assert turn.span.line == 4 and turn.body.span.line == 4


def test_spans_of_multi_line_nodes():
    text = "ruleset t\nfunction f(x: int): int =\n  x +\n    1\n"
    (fn,) = parse(text).decls
    assert (fn.span.line, fn.body.span.line, fn.body.span.end_line) == (2, 3, 4)
    assert (fn.body.right.span.line, fn.body.right.span.column) == (4, 5)


@pytest.mark.parametrize("path", sorted(RULESETS_DIR.rglob("*.meeple")), ids=lambda p: p.name)
def test_every_node_of_a_bundled_file_has_a_span(path):
    f = parse(path.read_text(encoding="utf-8"), "c.meeple")
    for n in ir.walk(f):
        assert n.span.line >= 1 and n.span.column >= 1, show(n)
        assert n.span.file == "c.meeple"


# ---------------------------------------------------------------- syntax errors





def diag_text(d) -> str:
    return f"{d.message}\nhint: {d.hint}"


PARSE_CHUNKS = golden_chunks(TESTDATA / "parse_errors.meeple", require_marks=True)


def test_parse_golden_file_has_many_chunks():
    assert len(PARSE_CHUNKS) >= 40


@pytest.mark.parametrize("start, text, expected", PARSE_CHUNKS)
def test_syntax_error(start, text, expected):
    assert len(expected) == 1, "a syntax error stops the parser: one marker per chunk"
    (line, code, column, regex) = expected[0]
    with pytest.raises(MeepleError) as e:
        parse(text, "chunk.meeple")
    (d,) = e.value.diagnostics
    where = f"parse_errors.meeple:{start + line - 1}"
    assert d.code == code, f"{where}: {d.render()}"
    assert d.span.line == line, f"{where}: reported on line {d.span.line}: {d.render()}"
    if column is not None:
        assert d.span.column == column, f"{where}: reported at column {d.span.column}: {d.render()}"
    assert re.search(regex, diag_text(d), re.S), f"{where}: {diag_text(d)!r} does not match {regex!r}"
    assert d.span.file == "chunk.meeple"


GOLDEN_RENDERINGS = [
    ("ruleset cards\nplayers 2..4\nenum Suit { red blue }\n",
     "error[parse/unexpected-token]: cards.meeple:3:17: unexpected 'blue'\n"
     " 3 | enum Suit { red blue }\n"
     "   |                 ^^^^\n"
     "hint: expected one of: ',', '}'"),
    ("ruleset cards\nturn {\n  deal 2 from pile to hand\n  while n < 3 {\n    n = n + 1\n  }\n}\n"
     "\n\n\n\n\n\n# padding so that the error is on a two-digit line\n",
     "error[parse/unexpected-token]: cards.meeple:4:15: unexpected '{'\n"
     " 4 |   while n < 3 {\n"
     "   |               ^\n"
     "hint: expected one of: 'max'"),
    ("ruleset cards\nsetup {\n  shuffle pile\n",
     "error[parse/unexpected-end]: cards.meeple:3:11: the file ends too early\n"
     " 3 |   shuffle pile\n"
     "   |           ^\n"
     "hint: expected one of: 'best', 'call', 'choose', 'deal', 'end', 'fill', 'flip', 'for'; is a '}' missing?"),
    ("ruleset cards\n\n\n\n\n\n\n\n\nvar n: int = 1 @ 2\n",
     "error[parse/unexpected-character]: cards.meeple:10:16: unexpected character '@'\n"
     " 10 | var n: int = 1 @ 2\n"
     "    |                ^"),
    ("ruleset cards\norder sideways\n",
     "error[parse/unexpected-token]: cards.meeple:2:7: unexpected 'sideways'\n"
     " 2 | order sideways\n"
     "   |       ^^^^^^^^\n"
     "hint: expected one of: 'clockwise', 'counterclockwise'"),
]


@pytest.mark.parametrize("text, rendered", GOLDEN_RENDERINGS)
def test_syntax_error_full_rendering(text, rendered):
    with pytest.raises(MeepleError) as e:
        parse(text, "cards.meeple")
    assert e.value.render() == rendered
    assert str(e.value) == rendered


def test_bad_header_kind_lists_the_three_kinds():
    with pytest.raises(MeepleError) as e:
        parse("game cards\n")
    assert e.value.diagnostics[0].hint == "expected one of: 'locale', 'ruleset', 'variant'"
