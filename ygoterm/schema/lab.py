"""The deck lab's section of a deck file: roles, combos, groups and the brick (docs/data.md).

```yaml
lab:
  roles:                                  # tags on cards; a card may carry several
    Sangan: [searcher, monster]
    Pot of Greed: draw
  combos:
    Dark Magician turn 1:                 # every requirement of the list, met by different cards
      - 1 Dark Magician
      - any: [1 Mirror Force, 2 trap]     # one of these
    Two tributes: [2+ low-level, at most 1 boss]
  groups:
    Openers: [Dark Magician turn 1, Two tributes]
  brick: [no starter]                     # a hand that can do nothing
```

A requirement is "N NAME" (at least N), "N+ NAME", "at least N NAME", "at most N NAME",
"exactly N NAME" or "no NAME"; NAME is a role or a card name, several joined by `|` (any of
them). The mapping form `{at_least: N, of: NAME or [NAMES]}` (or `at_most`, `exactly`) takes
names that would not read as text. `any:` lists alternatives; an alternative is a requirement or
a list of them. Built-in roles: `monster`, `spell`, `trap`, `card` (every card).

Reading has two steps, like the deck itself: `read_lab` checks the shape when the deck file is
read (`parse_deck`), `resolve_lab` looks up names once the deck's cards are known. Both report
every problem as `file:line:col  path  message  (hint)`, the nearest names as hints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Union

from .problems import DataError, Problem, did_you_mean

if TYPE_CHECKING:
    from .cardpool import CardPool
    from .decks import Deck, DeckFile

BUILTIN_ROLES = ("monster", "spell", "trap", "card")
OPS = ("at_least", "at_most", "exactly")
MAX_ALTERNATIVES = 256  # a combo's `any:`s multiply out to at most this many ways to be met
MAX_NEEDS = 8  # requirements in one way to meet a combo

_TEXT = re.compile(r"^\s*(?:(at least|at most|exactly)\s+)?(\d{1,2})(\+)?\s+(\S.*?)\s*$", re.IGNORECASE)
_NONE = re.compile(r"^\s*no\s+(\S.*?)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Need:
    """At least / at most / exactly `n` cards of the hand that are any of `names` (roles or
    card names as written). `cards`: the Main Deck card names they stand for, once resolved."""

    op: str
    n: int
    names: tuple[str, ...]
    loc: tuple[Any, ...] = ()
    cards: frozenset[str] = frozenset()

    def __str__(self) -> str:
        what = "|".join(self.names)
        if self.op == "at_most" and self.n == 0:
            return f"no {what}"
        return f"{self.n} {what}" if self.op == "at_least" else f"{self.op.replace('_', ' ')} {self.n} {what}"


@dataclass(frozen=True, slots=True)
class AnyOf:
    """One of the alternatives; each alternative is every item of its tuple."""

    alternatives: tuple[tuple["Item", ...], ...]

    def __str__(self) -> str:
        return "any of (" + "; ".join(" + ".join(map(str, alt)) for alt in self.alternatives) + ")"


Item = Union[Need, AnyOf]


@dataclass(frozen=True, slots=True)
class Combo:
    """A named set of requirements, all met at once by different cards of the hand."""

    name: str
    items: tuple[Item, ...]

    def __str__(self) -> str:
        return " + ".join(map(str, self.items))

    def ways(self) -> list[tuple[Need, ...]]:
        """The combo multiplied out: each way is a list of Needs that must all hold."""
        return _ways(self.items)


def _ways(items: tuple[Item, ...]) -> list[tuple[Need, ...]]:
    ways: list[tuple[Need, ...]] = [()]
    for item in items:
        if isinstance(item, Need):
            ways = [w + (item,) for w in ways]
        else:
            branches = [b for alt in item.alternatives for b in _ways(alt)]
            ways = [w + b for w in ways for b in branches]
    return ways


@dataclass(frozen=True)
class Lab:
    """A deck's lab section. `roles`: card (as written) → its roles; after `resolve_lab` the
    Needs know their cards and `card_roles` maps Main Deck card names to every role they have."""

    roles: dict[str, tuple[str, ...]]
    combos: tuple[Combo, ...]
    groups: dict[str, tuple[str, ...]]
    brick: Combo | None = None
    card_roles: dict[str, tuple[str, ...]] | None = None

    @property
    def role_names(self) -> list[str]:
        return sorted({r for rs in self.roles.values() for r in rs})


# ---------------------------------------------------------------------- reading the shape


class _Reader:
    def __init__(self, problem: Callable[..., Problem]) -> None:
        self.problem = problem
        self.problems: list[Problem] = []

    def bad(self, loc: tuple[Any, ...], message: str, hint: str = "", key: bool = False) -> None:
        self.problems.append(self.problem(loc, message, hint, key=key))

    def items(self, value: Any, loc: tuple[Any, ...]) -> tuple[Item, ...]:
        if isinstance(value, (str, dict)):
            value = [value]
            item_locs = [loc]
        elif isinstance(value, list):
            item_locs = [loc + (i,) for i in range(len(value))]
        else:
            self.bad(loc, f"a combo is a list of requirements, not {value!r}", "e.g.  - 1 Dark Magician")
            return ()
        if not value:
            self.bad(loc, "this combo asks for nothing", "list at least one requirement, e.g.  - 1 Dark Magician")
        out: list[Item] = []
        for item, item_loc in zip(value, item_locs):
            parsed = self.item(item, item_loc)
            if parsed is not None:
                out.append(parsed)
        return tuple(out)

    def item(self, value: Any, loc: tuple[Any, ...]) -> Item | None:
        if isinstance(value, str):
            return self.text(value, loc)
        if isinstance(value, dict):
            if "any" in value:
                if set(value) != {"any"}:
                    self.bad(loc, "'any' stands alone in its mapping", "put the other requirements on their own lines")
                    return None
                alts = value["any"]
                if not isinstance(alts, list) or len(alts) < 1:
                    self.bad(loc + ("any",), "'any' takes a list of alternatives", "e.g.  any: [1 Mirror Force, 1 Waboku]")
                    return None
                parsed = []
                for i, alt in enumerate(alts):
                    items = self.items(alt, loc + ("any", i))
                    if items:
                        parsed.append(items)
                return AnyOf(tuple(parsed)) if parsed else None
            return self.mapping(value, loc)
        self.bad(loc, f"{value!r} is not a requirement", "write e.g. '1 Dark Magician', 'at most 1 trap' or {any: [...]}")
        return None

    def text(self, value: str, loc: tuple[Any, ...]) -> Need | None:
        hint = "write 'N NAME', 'N+ NAME', 'at most N NAME', 'exactly N NAME' or 'no NAME'"
        m = _NONE.match(value)
        if m:
            return self.need("at_most", 0, m.group(1).split("|"), loc)
        m = _TEXT.match(value)
        if not m:
            self.bad(loc, f"cannot read the requirement {value!r}", hint)
            return None
        words, count, plus, names = m.groups()
        op = (words or "at least").lower().replace(" ", "_")
        if plus and words:
            self.bad(loc, f"{value!r} says how many twice", "write '2+ NAME' or 'at least 2 NAME'")
            return None
        if op == "at_least" and int(count) == 0:
            self.bad(loc, f"{value!r} asks for nothing", "write 'no NAME' (or 'at most 0 NAME') for a hand without it")
            return None
        return self.need(op, int(count), names.split("|"), loc)

    def mapping(self, value: dict[str, Any], loc: tuple[Any, ...]) -> Need | None:
        ops = [k for k in value if k in OPS]
        unknown = [k for k in value if k not in OPS and k != "of"]
        if unknown:
            self.bad(loc + (unknown[0],), f"unknown key {unknown[0]!r}", did_you_mean(str(unknown[0]), [*OPS, "of", "any"]) or
                     "a requirement mapping has one of at_least / at_most / exactly, and 'of'", key=True)
            return None
        if len(ops) != 1 or "of" not in value:
            self.bad(loc, "a requirement mapping has one of at_least / at_most / exactly, and 'of'",
                     "e.g.  {at_least: 1, of: Dark Magician}")
            return None
        op, n, names = ops[0], value[ops[0]], value["of"]
        if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 60:
            self.bad(loc + (op,), f"{op} takes a number of cards from 0 to 60, not {n!r}")
            return None
        if op == "at_least" and n == 0:
            self.bad(loc + (op,), "at_least 0 asks for nothing", "use at_most: 0 for a hand without it")
            return None
        if isinstance(names, str):
            names = names.split("|")
        if not isinstance(names, list) or not names or not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in names):
            self.bad(loc + ("of",), "'of' takes a role or card name, or a list of them")
            return None
        return self.need(op, n, [str(x) for x in names], loc + ("of",))

    def need(self, op: str, n: int, names: list[str], loc: tuple[Any, ...]) -> Need | None:
        clean = tuple(" ".join(x.split()) for x in names)
        if not all(clean):
            self.bad(loc, "an empty name between '|'s", "write NAME|OTHER NAME")
            return None
        return Need(op, n, clean, loc)

    def combo(self, name: str, value: Any, loc: tuple[Any, ...]) -> Combo | None:
        items = self.items(value, loc)
        if not items:
            return None
        combo = Combo(name, items)
        ways = _count_ways(items)
        if ways > MAX_ALTERNATIVES:
            self.bad(loc, f"this combo can be met in {ways} ways; the lab takes at most {MAX_ALTERNATIVES}",
                     "split it into several combos and put them in a group", key=True)
            return None
        longest = max(len(w) for w in combo.ways())
        if longest > MAX_NEEDS:
            self.bad(loc, f"one way to meet this combo has {longest} requirements; the lab takes at most {MAX_NEEDS}",
                     "join names with | instead ('1 A|B')", key=True)
            return None
        return combo


def _count_ways(items: tuple[Item, ...]) -> int:
    total = 1
    for item in items:
        if isinstance(item, AnyOf):
            total *= sum(_count_ways(alt) for alt in item.alternatives)
    return total


def read_lab(value: Any, problem: Callable[..., Problem]) -> tuple[Lab | None, list[Problem]]:
    """The lab section's shape (names are looked up later by `resolve_lab`). `problem(loc,
    message, hint, key=…)` makes a located Problem (DeckFile.problem)."""
    r = _Reader(problem)
    if value is None:
        return None, []
    if not isinstance(value, dict):
        r.bad(("lab",), "'lab' is a mapping with 'roles', 'combos', 'groups' and 'brick'", "see docs/data.md, The deck lab")
        return None, r.problems
    for key in value:
        if key not in ("roles", "combos", "groups", "brick"):
            r.bad(("lab", key), f"unknown key {key!r} in the lab section",
                  did_you_mean(str(key), ["roles", "combos", "groups", "brick"]) or "the lab has roles, combos, groups and brick", key=True)
    roles: dict[str, tuple[str, ...]] = {}
    raw_roles = value.get("roles") or {}
    if not isinstance(raw_roles, dict):
        r.bad(("lab", "roles"), "'roles' maps card names to a role or a list of roles", "e.g.  Sangan: [searcher, monster]")
        raw_roles = {}
    for card, tags in raw_roles.items():
        loc = ("lab", "roles", card)
        if isinstance(tags, str):
            tags = [tags]
        if not isinstance(tags, list) or not tags or not all(isinstance(t, str) and t.strip() for t in tags):
            r.bad(loc, f"the roles of '{card}' are a role name or a list of them", f"e.g.  {card}: [searcher, monster]")
            continue
        roles[str(card)] = tuple(" ".join(t.split()) for t in tags)
    combos: list[Combo] = []
    raw_combos = value.get("combos") or {}
    if not isinstance(raw_combos, dict):
        r.bad(("lab", "combos"), "'combos' maps combo names to their requirements", "e.g.  Dark Magician: [1 Dark Magician]")
        raw_combos = {}
    for name, spec in raw_combos.items():
        combo = r.combo(str(name), spec, ("lab", "combos", name))
        if combo is not None:
            combos.append(combo)
    groups: dict[str, tuple[str, ...]] = {}
    raw_groups = value.get("groups") or {}
    if not isinstance(raw_groups, dict):
        r.bad(("lab", "groups"), "'groups' maps group names to lists of combo names", "e.g.  Openers: [Combo A, Combo B]")
        raw_groups = {}
    known = {str(n) for n in raw_combos}
    for name, members in raw_groups.items():
        loc = ("lab", "groups", name)
        if isinstance(members, str):
            members = [members]
        if not isinstance(members, list) or not members:
            r.bad(loc, f"the group '{name}' is a list of combo names")
            continue
        for i, member in enumerate(members):
            if str(member) not in known:
                r.bad(loc + (i,), f"the group '{name}' names no combo '{member}'",
                      did_you_mean(str(member), known) or f"combos: {', '.join(sorted(known)) or 'none'}")
        groups[str(name)] = tuple(str(m) for m in members)
    brick = None
    if value.get("brick") is not None:
        brick = r.combo("brick", value["brick"], ("lab", "brick"))
    return Lab(roles, tuple(combos), groups, brick), r.problems


# ---------------------------------------------------------------------- looking names up


def resolve_lab(deck_file: "DeckFile", deck: "Deck", pool: "CardPool") -> Lab:
    """The deck's lab with every name looked up in its Main Deck; a DataError lists every role
    or card that is unknown (with the nearest names) or not in the Main Deck."""
    lab = deck_file.lab
    if lab is None:
        lab = Lab({}, (), {})
    problems: list[Problem] = []
    resolved = resolve_needs(lab, deck, pool, lambda loc, message, hint: problems.append(deck_file.problem(loc, message, hint, key=False)))
    if problems:
        raise DataError(problems)
    return resolved


def resolve_needs(lab: Lab, deck: "Deck", pool: "CardPool", report: Callable[[tuple[Any, ...], str, str], None],
                  extra: tuple[Combo, ...] = ()) -> Lab:
    """`lab` (plus `extra` combos, e.g. from the command line) with every Need's cards filled
    in; each unknown name is passed to `report(loc, message, hint)`."""
    main = {c.name: c for c in deck.main}
    card_roles: dict[str, list[str]] = {name: [card.kind, "card"] for name, card in main.items()}
    for ref, tags in lab.roles.items():
        card = pool.get(ref)
        loc = ("lab", "roles", ref)
        if card is None:
            report(loc, f"unknown card '{ref}'", did_you_mean(ref, main) or pool.suggest(ref))
            continue
        if card.name not in main:
            report(loc, f"'{card.name}' is not in the Main Deck", did_you_mean(ref, main) or "add it to 'main', or remove its roles")
            continue
        for tag in tags:
            if tag in BUILTIN_ROLES and tag != card.kind and tag != "card":
                report(loc, f"'{card.name}' is a {card.kind}, not a {tag}", f"the role '{tag}' is given to every {tag} card already")
            elif pool.named(tag) is not None:
                report(loc, f"the role '{tag}' is also a card's name", "name the role differently, e.g. 'is " + tag + "'")
            elif tag not in card_roles[card.name]:
                card_roles[card.name].append(tag)
    roles = {r for rs in card_roles.values() for r in rs}
    members: dict[str, set[str]] = {}
    for name, rs in card_roles.items():
        for role in rs:
            members.setdefault(role, set()).add(name)

    def names_of(word: str, loc: tuple[Any, ...]) -> set[str] | None:
        if word in roles:
            return members[word]
        folded = {r.casefold(): r for r in roles}
        if word.casefold() in folded:
            return members[folded[word.casefold()]]
        if word.casefold() in (r.casefold() for r in BUILTIN_ROLES):
            return set()  # a built-in role no card of the deck has (no trap at all)
        card = pool.get(word)
        if card is not None and card.name in main:
            return {card.name}
        if card is not None:
            report(loc, f"'{card.name}' is not in the Main Deck", did_you_mean(word, [*roles, *main]) or "a combo counts Main Deck cards")
            return None
        report(loc, f"unknown role or card '{word}'", did_you_mean(word, [*roles, *main]) or
               f"roles: {', '.join(sorted(roles))}; or a card name of the Main Deck")
        return None

    def fill_items(items: tuple[Item, ...]) -> tuple[Item, ...]:
        out: list[Item] = []
        for item in items:
            if isinstance(item, Need):
                cards: set[str] = set()
                for word in item.names:
                    found = names_of(word, item.loc)
                    if found is not None:
                        cards |= found
                out.append(Need(item.op, item.n, item.names, item.loc, frozenset(cards)))
            else:
                out.append(AnyOf(tuple(fill_items(alt) for alt in item.alternatives)))
        return tuple(out)

    combos = tuple(Combo(c.name, fill_items(c.items)) for c in (*lab.combos, *extra))
    brick = Combo(lab.brick.name, fill_items(lab.brick.items)) if lab.brick else None
    return Lab(lab.roles, combos, lab.groups, brick, {k: tuple(v) for k, v in card_roles.items()})


def parse_need(text: str) -> tuple[Need | None, str]:
    """One requirement written on the command line (`--need "1 Dark Hole|Raigeki"`): the Need,
    or None and what is wrong with it."""
    messages: list[str] = []

    def problem(loc: Any, message: str, hint: str = "", key: bool = False) -> Problem:
        messages.append(message + (f" ({hint})" if hint else ""))
        return Problem("--need", 0, 0, "", message, hint)

    r = _Reader(problem)
    need = r.text(text, ("--need",))
    return need, "; ".join(messages)
