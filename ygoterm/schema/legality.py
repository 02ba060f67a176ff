"""May this deck file be played? One verdict for the menu's deck pickers and `ygoterm duel/solo`,
so that the CLI refuses exactly what the menu refuses (one source of legality)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .banlist import Banlist, find_banlist, load_banlist
from .cardpool import CardPool
from .decks import Deck, load_deck
from .problems import DataError, Problem, did_you_mean
from .rules import DeckRules, Rules
from .validate import check_deck

# The rules a duel can be played through anyway (`--allow-illegal`): sizes, copies, the banlist.
# A card in the wrong deck (R-DECK-7), an unknown card (R-DECK-8) or a broken file cannot.
WAIVABLE = frozenset({"R-DECK-1", "R-DECK-2", "R-DECK-3", "R-DECK-4", "R-DECK-5"})


@dataclass(frozen=True)
class Verdict:
    """A deck file, read (None when it cannot be), and every reason it may not be played."""

    path: Path
    deck: Deck | None
    problems: list[Problem]

    @property
    def legal(self) -> bool:
        return self.deck is not None and not self.problems

    @property
    def waivable(self) -> bool:
        """Illegal only by rules a duel can be played through (see WAIVABLE)."""
        return self.deck is not None and all(p.rule in WAIVABLE for p in self.problems)


def judge_deck(path: Path, pool: CardPool, dirs: list[Path]) -> Verdict:
    """The deck in `path` checked against R-DECK-1…8 and the banlist it names, looked for in the
    `banlists/` folders of the deck folders `dirs` (a named banlist that is missing is an R-DECK-5
    problem: the deck would otherwise be played without its list)."""
    try:
        deck, problems = load_deck(path, pool)
    except DataError as e:
        return Verdict(path, None, e.problems)
    banlist = None
    if deck.banlist and deck.source is not None:
        banlist, unknown, loading = lookup_banlist(deck.banlist, pool, dirs, named_in=path)
        if unknown is not None:
            problems.append(deck.source.problem(("banlist",), unknown[0], unknown[1], "R-DECK-5", key=False))
        problems += loading
    return Verdict(path, deck, problems + check_deck(deck, banlist=banlist))


def lookup_banlist(name: str, pool: CardPool, dirs: list[Path], *, named_in: Path) -> tuple[Banlist | None, tuple[str, str] | None, list[Problem]]:
    """The banlist a deck names, looked for in the `banlists/` folders of the deck folders `dirs`:
    (the list, (message, hint) when none of that name exists (an R-DECK-5 problem), the problems
    of a list that cannot be read)."""
    banlist_dirs = [d / "banlists" for d in dirs if (d / "banlists").is_dir()]
    found = find_banlist(name, banlist_dirs, named_in=named_in)
    if found is None:
        known = sorted({p.stem for d in banlist_dirs for p in d.iterdir() if p.suffix in (".yaml", ".yml", ".conf")})
        return None, (f"unknown banlist '{name}'", did_you_mean(name, known) or f"known banlists: {', '.join(known) or 'none'}"), []
    try:
        return load_banlist(found, pool), None, []
    except DataError as e:
        return None, None, e.problems


def copy_limit(deck: Deck, dirs: list[Path], pool: CardPool, *, named_in: Path) -> Callable[[str], int]:
    """Copies allowed per card name, for the lab's what-ifs: the deck's banlist's limit, else 3
    (a banlist that cannot be found or read counts 3 copies: `ygoterm check` reports it)."""
    banlist = lookup_banlist(deck.banlist, pool, dirs, named_in=named_in)[0] if deck.banlist else None
    limits: dict[str, int] = {}
    if banlist is not None:
        for card in deck.main:
            found = banlist.limit(card.deck_name)
            if found is not None:
                limits[card.name] = found
    return lambda name: limits.get(name, 3)


def judge_unsaved(deck: Deck, pool: CardPool, dirs: list[Path], *, named_in: Path) -> tuple[Banlist | None, list[Problem]]:
    """A deck being edited (not yet a file): its banlist and every R-DECK problem, as `judge_deck`
    would find them once it is saved at `named_in` (the problems carry no line numbers)."""
    banlist: Banlist | None = None
    problems: list[Problem] = []
    if deck.banlist:
        banlist, unknown, problems = lookup_banlist(deck.banlist, pool, dirs, named_in=named_in)
        if unknown is not None:
            problems = [Problem(deck.name, 0, 0, "banlist", unknown[0], unknown[1], "R-DECK-5")]
    return banlist, problems + check_deck(deck, banlist=banlist)


def rules_admitting(decks: tuple[Deck, ...], base: DeckRules | None = None) -> DeckRules:
    """`base` widened just enough for `decks` to pass its sizes and copy limit: the rules an
    illegal deck is played under, recorded in its saves so that they open again."""
    base = base or DeckRules()
    mains, extras, sides = ([len(d.section(s)) for d in decks] for s in ("main", "extra", "side"))
    copies = max((n for d in decks for n in Counter(c.deck_name for c in d.all_cards).values()), default=0)
    main_max = None if base.main_max is None or max(mains) > base.main_max else base.main_max
    extra_max = None if base.extra_max is None else max(base.extra_max, *extras)
    return DeckRules(main_min=min(base.main_min, *mains), main_max=main_max, extra_max=extra_max,
                     side_max=max(base.side_max, *sides), side_exact=None, max_copies=max(base.max_copies, copies))


def rules_of_decks(decks: tuple[Deck, ...], base: Rules) -> Rules:
    """The rules a duel of `decks` is played under: the profile the decks say they are built
    for (`rules: goat`), when those that say one agree, with the player's own choices of `base`
    kept (starting LP, manual actions); otherwise `base` (decks of two formats, or none said)."""
    declared = {d.rules.format: d.rules for d in decks if d.rules is not None}
    if len(declared) != 1:
        return base
    (profile,) = declared.values()
    return profile.model_copy(update={"duel": profile.duel.model_copy(update={"starting_lp": base.duel.starting_lp}),
                                      "manual_actions": base.manual_actions, "time": base.time})
