"""What a generated module may contain (tests/test_codegen.py, tests/test_fuzz.py): only the
generator's own names, literals at the top level, classes and functions, and no string but
the title (and the one key the templates read)."""
from __future__ import annotations

import ast
import re

#: names a generated module is made of: generated names (word + number) and the templates' words
GENERATED = re.compile(r"^[A-Za-z][A-Za-z_]*_\d+$")
VOCABULARY = frozenset("""
    TITLE self st move seat protocol getrandbits legal_moves legal apply play walk generated_from went_on
    __reduce_ex__ hand hands trick cards card entry allowed found part out held history made seat
    faces count bits r played winner c needed admitted pick hit key sign top i chain also must able
    sitting bids list len range id get append extend bit_length bit_count is_terminal current_player _at
    hands trump lead tricks_won taken _taken _won log last_trick tricks_played leader advance _legal _history _code n
    revealed arg extra _ __slots__ at follow enter words round random_words undealt aside dealt_cards places i j map sum __getitem__ dealt turned suit bit min
    won scores ended points dealer max_rounds finish reset_round last_round _last_round order draws
    gs effect occ free _box box bit_of origin cells moves pending over __class__
    queue passer tiebreaker put recentre pop _next _step step deck decks rules end_round
    strength best who rank type strengths after tricks start third
    where mask here kind_cells slot r0 r1 c0 c1 cols runs packed once twice lines grown along index stop window _geo _points lift shift pairs removed wide _plan _slides
    movable movable_cards low ring rest part mover plan sort tuple first second text table rows row
    enumerate of team_points work value values member
    _slide_table number cut entries moved old new change empty base block bottom feet foot front group high k last line near s starts _relocation_moves unique
    max abs any all
    _past cards_at kind_cells kinds mask points_memo region_masks regions rule seats value where winners low items
    nxt offset bid_cards setdefault values text round_start action keys best finals final codes move_codes
    chains sets fill missing ranks use alone inside
    KeyError follow_one
    point bytearray TypeError ValueError
    h
""".split())


def names_in(tree) -> set[str]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.arg):
            out.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.Lambda)):
            raise AssertionError(f"a generated module holds {type(node).__name__}")
    return out


def assert_only_generator_names(source: str) -> None:
    tree = ast.parse(source)
    foreign = {name for name in names_in(tree) if not GENERATED.match(name)} - VOCABULARY
    assert not foreign, f"names the generator did not make: {sorted(foreign)}"
    for node in tree.body:        # top level: literals, classes and functions only
        if isinstance(node, ast.Assign):
            try:
                ast.literal_eval(node.value)
            except ValueError:          # a table of constants: tuples of generated names only
                assert all(isinstance(part, (ast.Tuple, ast.Load)) or (
                    isinstance(part, ast.Name) and GENERATED.match(part.id)) for part in ast.walk(node.value)), \
                    ast.dump(node.value)[:200]
        else:
            assert isinstance(node, (ast.ClassDef, ast.FunctionDef)), ast.dump(node)[:200]
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(node):
            strings.remove(ast.get_docstring(node, clean=False))
    title = [n for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "TITLE"]
    strings.remove(ast.literal_eval(title[0].value))
    keys = {"sitting", "turned", "grid", "round", "bids", "tricks_won", "points", "scores", "counters"}
    assert set(strings) <= keys, strings     # the only strings the templates use
