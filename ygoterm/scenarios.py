"""Run scenario files headless: build the position, play the script, check the expectations.

Used by `ygoterm scenario check` and by the test suite (tests/scenarios/). The format is
documented in docs/scenarios.md.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from . import paths
from .agents import Agent, make_agent, observe, seat_seed
from .engine import PHASE_WORDS, SIDES, Duel, EffectError, IllegalChoice, Kind, Loc, Pos, build_position
from .schema.cardpool import CardPool
from .schema.cards import Monster
from .schema.decks import Deck, find_deck, load_deck, parse_deck, resolve
from .schema.problems import DataError, Problem, display_path
from .schema.scenario import Expect, ExpectCard, Scenario, SideExpect, read_scenario
from .schema.yamlio import Locator

_POS_WORDS = {Pos.ATTACK: "attack", Pos.DEFENSE: "defense", Pos.FACEDOWN_DEFENSE: "set", Pos.FACEDOWN_ATTACK: "facedown-attack"}
LOG_TAIL = 15


@dataclass
class Result:
    path: Path
    name: str
    failures: list[str] = field(default_factory=list)
    log_tail: list[str] = field(default_factory=list)
    duel: Duel | None = None

    @property
    def passed(self) -> bool:
        return not self.failures


class PoolCache:
    """Card pools by the extra card paths a scenario asks for (most share the shipped pool)."""

    def __init__(self, extra: list[Path] | None = None, base: CardPool | None = None) -> None:
        self.extra = extra or []
        self._pools: dict[tuple[str, ...], CardPool] = {} if base is None else {(): base}

    def get(self, more: list[Path]) -> CardPool:
        key = tuple(sorted(str(p.resolve()) for p in more))
        if key not in self._pools:
            dirs = paths.card_dirs([*self.extra, *(p for p in more if p.is_dir())])
            self._pools[key] = CardPool.load(dirs, files=[p for p in more if p.is_file()])
        return self._pools[key]


def scenario_files(targets: list[Path]) -> list[Path]:
    files: list[Path] = []
    for target in targets:
        if target.is_dir():
            files.extend(sorted(p for p in target.rglob("*") if p.suffix in (".yaml", ".yml")))
        else:
            files.append(target)
    return files


def prepare(path: Path, pools: PoolCache) -> tuple[Scenario, Duel, CardPool]:
    """Read a scenario file and build its duel, and the pool it plays with (its extra `cards:`
    included); DataError (with file:line) when it is broken."""
    scenario, data, locator = read_scenario(path)
    name = display_path(path)
    extra = [(path.parent / c).resolve() for c in scenario.cards]
    for index, c in enumerate(extra):
        line, col = locator.position(("cards", index), key=False)
        if not paths.may_read(c, path):
            raise DataError([Problem(name, line, col, f"cards[{index}]", f"{scenario.cards[index]}: outside the folders a scenario may read",
                                     "keep card files next to the scenario (or in your ygoterm folder), or pass them with --cards")])
        if not c.exists():
            raise DataError([Problem(name, line, col, f"cards[{index}]", f"{c}: no such file or folder")])
    pool = pools.get(extra)
    if scenario.decks is not None:
        decks = (_deck(scenario.decks.get("A"), "A", path, pool, locator, name),
                 _deck(scenario.decks.get("B"), "B", path, pool, locator, name))
        names = (scenario.names.get("A", "Player 1"), scenario.names.get("B", "Player 2"))
        duel = Duel.new(pool, decks, scenario.seed, scenario.rules, names)
        for side_word, mode in scenario.prompt.items():
            duel.set_prompt_mode(SIDES[side_word], mode)
    else:
        _check_card_names(scenario, pool, locator, name)
        _check_places(scenario, pool, locator, name)
        try:
            duel = build_position(pool, data, scenario.seed)
        except DataError as e:  # position problems name a path: give them the line
            raise DataError([_located(p, name, locator) if p.file == "scenario" else p for p in e.problems],
                            unreadable=e.unreadable) from None
    return scenario, duel, pool


def _located(problem: Problem, name: str, locator: Locator) -> Problem:
    line, col = locator.position(tuple(problem.path.split(".")))
    return replace(problem, file=name, line=line, col=col)


def _deck(ref: Any, side: str, path: Path, pool: CardPool, locator: Locator, name: str) -> Deck:
    line, col = locator.position(("decks", side), key=False)
    if ref is None:
        raise DataError([Problem(name, line, col, f"decks.{side}", f"no deck for {side}")])
    if isinstance(ref, dict):
        deck_file = parse_deck(ref, "", name, default_name=f"{side}'s deck")
        deck_file.locator = locator
        deck, problems = resolve(deck_file, pool)
    else:
        near = path.parent / str(ref)
        found = (find_deck(str(near), []) if paths.may_read(near, path) else None) or find_deck(str(ref), paths.deck_dirs())
        if found is None:
            raise DataError([Problem(name, line, col, f"decks.{side}", f"no deck named '{ref}'")])
        deck, problems = load_deck(found, pool)
    if problems:
        raise DataError(problems, unreadable=False)
    return deck


# where a card may be placed in a position: the pile or zone → a check and what to say otherwise
def _fits(pile: str, card: Any, entry: Any) -> str:
    monster = isinstance(card, Monster)
    extra_deck = monster and card.is_extra_deck
    if pile == "monsters" and not monster:
        return f"{card.name} is not a monster: put it under 'spells' (or 'field')"
    if pile == "spells" and monster:
        return f"{card.name} is a monster: put it under 'monsters' (a Pendulum monster in a Pendulum Zone: under 'pendulum')"
    if pile == "field" and not (card.kind == "spell" and card.subtype == "field"):
        return f"{card.name} is not a Field Spell: only a Field Spell goes in the Field Zone (R-ZONE-3)"
    if pile == "pendulum" and not (monster and card.is_pendulum):
        return f"{card.name} is not a Pendulum monster (R-ZONE-4)"
    if pile in ("hand", "deck") and extra_deck:
        return f"{card.name} is an Extra Deck monster: it cannot be in the {pile} (R-DECK-7); put it under 'extra'"
    if pile == "extra" and not extra_deck and not (monster and card.is_pendulum and getattr(entry, "face_up", False)):
        return f"{card.name} does not belong in the Extra Deck (R-DECK-7; a Pendulum monster there is 'face_up: true')"
    return ""


def _materials_without_xyz(pile: str, card: Any, entry: Any) -> bool:
    """Xyz Materials given to a card that is not an Xyz monster in a Monster Zone (the position
    builder would attach them to any monster, and drop them from a Spell or Trap unsaid)."""
    if not getattr(entry, "materials", None):
        return False
    return not (pile == "monsters" and isinstance(card, Monster) and "xyz" in card.frames)


def _check_places(scenario: Scenario, pool: CardPool, locator: Locator, name: str) -> None:
    """Every card of a position is somewhere it could be (no monster in a Spell & Trap Zone, no
    Synchro monster in the hand)."""
    problems = []
    for side_word in ("A", "B"):
        side = getattr(scenario, side_word)
        entries: list[tuple[str, int | None, Any]] = [(pile, index, entry) for pile in ("hand", "deck", "extra", "monsters", "spells", "pendulum")
                   for index, entry in enumerate(getattr(side, pile))]
        if side.field is not None:
            entries.append(("field", None, side.field))
        for pile, index, entry in entries:
            loc = (side_word, pile) if index is None else (side_word, pile, index)
            card = pool.get(entry.card)
            why = _fits(pile, card, entry)
            if why:
                line, col = locator.position(loc, key=False)
                problems.append(Problem(name, line, col, ".".join(map(str, loc)), why))
            elif _materials_without_xyz(pile, card, entry):
                line, col = locator.position((*loc, "materials"))
                problems.append(Problem(name, line, col, ".".join(map(str, (*loc, "materials"))),
                                        f"{entry.card} is not an Xyz monster: only an Xyz monster has Xyz Materials (R-ZONE-10)",
                                        "put the materials under the Xyz monster they belong to, or remove them"))
    if problems:
        raise DataError(problems)


def _check_card_names(scenario: Scenario, pool: CardPool, locator: Locator, name: str) -> None:
    problems = []
    for side_word in ("A", "B"):
        side = getattr(scenario, side_word)
        for pile in ("hand", "deck", "extra", "gy", "banished", "monsters", "spells", "pendulum"):
            for index, entry in enumerate(getattr(side, pile)):
                refs: list[tuple[str, tuple[str | int, ...]]] = [(entry.card, (side_word, pile, index))]
                refs += [(m, (side_word, pile, index, "materials", j)) for j, m in enumerate(getattr(entry, "materials", []))]
                for ref, loc in refs:
                    if pool.get(ref) is None:
                        line, col = locator.position(loc, key=False)
                        problems.append(Problem(name, line, col, ".".join(map(str, loc)), f"unknown card '{ref}'", pool.suggest(ref), "R-DECK-8"))
        if side.field is not None and pool.get(side.field.card) is None:
            line, col = locator.position((side_word, "field"), key=False)
            problems.append(Problem(name, line, col, f"{side_word}.field", f"unknown card '{side.field.card}'", pool.suggest(side.field.card)))
    if problems:
        raise DataError(problems)


GoalState = Literal["solved", "failed"]
GOAL_WORDS = {"win": "win this turn", "survive": "survive this turn"}


@dataclass(frozen=True)
class Puzzle:
    """A puzzle's goal for side A (player 1), as `scenario check` checks it and the TUI tells it:
    `win` is solved by winning before the puzzle's turn ends, `survive` by seeing the next turn
    start (or by winning)."""

    goal: Literal["win", "survive"]
    turn: int

    def state(self, duel: Duel) -> GoalState | None:
        """Solved, failed, or None while it is still open."""
        if self.goal == "win" and duel.turn > self.turn:
            return "failed"  # (a win later, e.g. by the opponent's deck-out, is not this puzzle's)
        if duel.outcome is not None:
            return "solved" if duel.outcome.winner == 0 else "failed"
        if duel.turn > self.turn:
            return "solved"
        return None

    def verdict(self, duel: Duel) -> str:
        """What happened, in a sentence for the player."""
        me, them = duel.players
        if duel.outcome is not None and not (self.goal == "win" and duel.turn > self.turn):
            return duel.outcome.text(duel.names) + "."
        if self.goal == "survive":
            return f"You made it through the turn with {me.lp} LP."
        return f"The turn is over and {duel.names[1]} still has {them.lp} LP."


def puzzle_of(scenario: Scenario) -> Puzzle | None:
    return Puzzle(scenario.goal, scenario.turn) if scenario.goal is not None else None


def ai_sides(scenario: Scenario) -> dict[int, str]:
    """The players the AI plays in this scenario, as agent names (`ai:normal` …)."""
    return {SIDES[side]: f"ai:{level}" for side, level in scenario.ai.items()}


def _play_ai(duel: Duel, agents: dict[int, Agent], pool: CardPool) -> None:
    """Answer every pending decision of a side the AI plays (as the TUI's AI seat would)."""
    while (d := duel.pending) is not None and d.player in agents:
        duel.apply(agents[d.player].choose(observe(duel, d.player, pool), d))


def run(path: Path, pools: PoolCache) -> Result:
    """Play one scenario file. Raises DataError if the file itself is broken."""
    scenario, duel, pool = prepare(path, pools)
    result = Result(path, scenario.name, duel=duel)
    agents = {p: make_agent(spec, seat_seed(duel.seed)) for p, spec in ai_sides(scenario).items()}
    for number, step in enumerate(scenario.script, 1):
        where = f"step {number}"
        _play_ai(duel, agents, pool)
        if step.expect is not None:
            result.failures += [f"{where} (expect): {f}" for f in compare(duel, step.expect)]
            continue
        if duel.pending is None:
            result.failures.append(f"{where}: the duel is already over ({duel.outcome.text(duel.names) if duel.outcome else ''})")
            break
        if step.concede is not None:
            duel.concede(SIDES[step.concede])
            continue
        if step.time is not None:
            duel.call_time()
            continue
        if step.first is not None:
            if duel.pending.kind != Kind.FIRST:
                result.failures.append(f"{where}: expected the coin-toss choice, but the engine asks: {duel.pending.prompt}")
                break
            duel.apply("first" if duel.pending.player == SIDES[step.first] else "second")
            continue
        assert step.do is not None
        if step.as_ is not None and duel.pending.player != SIDES[step.as_]:
            result.failures.append(f"{where} '{step.do}': expected {step.as_} to decide, but it is {'AB'[duel.pending.player]}'s decision ({duel.pending.prompt})")
            break
        try:
            duel.apply(step.do)
        except EffectError as e:
            result.failures.append(f"{where} '{step.do}': {e}")
            break
        except IllegalChoice as e:
            if step.refused is None:
                result.failures.append(f"{where} '{step.do}' was refused: {e}")
                break
            if e.rule != step.refused:
                result.failures.append(f"{where} '{step.do}': refused with {e.rule}, expected {step.refused} ({e.message})")
            continue
        if step.refused is not None:
            result.failures.append(f"{where} '{step.do}': expected a refusal ({step.refused}) but it was accepted")
            break
    _play_ai(duel, agents, pool)
    if scenario.expect is not None:
        result.failures += compare(duel, scenario.expect)
    puzzle = puzzle_of(scenario)
    if puzzle is not None and (state := puzzle.state(duel)) != "solved":
        why = puzzle.verdict(duel) if state else f"it is still turn {duel.turn}"
        result.failures.append(f"the puzzle's goal ({GOAL_WORDS[puzzle.goal]}) is {'missed' if state else 'not reached yet'}: {why}")
    result.log_tail = [e.text(duel.names) for e in duel.log[-LOG_TAIL:]]
    return result


# ---------------------------------------------------------------------- expectations


def compare(d: Duel, expect: Expect) -> list[str]:
    """Every difference between the duel and the expectation, as readable lines."""
    out: list[str] = []
    if expect.lp:
        for side_word, lp in expect.lp.items():
            actual = d.players[SIDES[side_word]].lp
            if actual != lp:
                out.append(f"{side_word} LP: expected {lp}, found {actual}")
    for side_word in ("A", "B"):
        side_expect = getattr(expect, side_word)
        if side_expect is not None:
            out += _compare_side(d, SIDES[side_word], side_word, side_expect)
    if expect.outcome is not None:
        out += _compare_outcome(d, expect.outcome)
    if expect.turn is not None and d.turn != expect.turn:
        out.append(f"turn: expected {expect.turn}, found {d.turn}")
    if expect.phase is not None and d.phase != PHASE_WORDS[expect.phase]:
        out.append(f"phase: expected {expect.phase}, found {d.phase.title}")
    if expect.turn_player is not None and d.turn_player != SIDES[expect.turn_player]:
        out.append(f"turn player: expected {expect.turn_player}, found {'AB'[d.turn_player]}")
    if expect.deciding is not None:
        who = "AB"[d.pending.player] if d.pending else "nobody"
        if who != expect.deciding:
            out.append(f"deciding: expected {expect.deciding}, found {who}")
    text = "\n".join(e.text(d.names) for e in d.log)
    out += [f"log: expected a line containing {s!r}" for s in expect.log if s not in text]
    out += [f"log: expected no line containing {s!r}" for s in expect.not_log if s in text]
    for side_word, hidden in expect.not_told.items():
        told = "\n".join(e.text(d.names) for e in d.events_for(SIDES[side_word]))
        out += [f"log as {side_word} reads it: expected no line containing {s!r}" for s in hidden if s in told]
    return out


def _compare_outcome(d: Duel, expected: Any) -> list[str]:
    actual = d.outcome
    if expected == "ongoing":
        return [] if actual is None else [f"outcome: expected the duel to go on, but: {actual.text(d.names)}"]
    if actual is None:
        return [f"outcome: expected {expected.winner} to win, but the duel goes on"]
    winner = "draw" if actual.winner is None else "AB"[actual.winner]
    out = []
    if winner != expected.winner:
        out.append(f"outcome: expected {expected.winner}, found {winner} ({actual.text(d.names)})")
    if expected.reason and expected.reason.casefold() not in f"{actual.reason} {actual.detail}".casefold():
        out.append(f"outcome reason: expected {expected.reason!r}, found {actual.reason!r} ({actual.detail})")
    return out


def _compare_side(d: Duel, p: int, side_word: str, e: SideExpect) -> list[str]:
    side = d.players[p]
    out: list[str] = []

    def diff(what: str, expected: Any, actual: Any) -> None:
        if expected != actual:
            out.append(f"{side_word}.{what}: expected {expected}, found {actual}")

    if e.lp is not None:
        diff("lp", e.lp, side.lp)
    if e.deck is not None:
        diff("deck", e.deck, len(side.deck))
    for pile in ("hand", "extra"):
        wanted = getattr(e, pile)
        cards = side.pile(pile)
        if isinstance(wanted, int):
            diff(pile, wanted, len(cards))
        elif wanted is not None:
            diff(pile, sorted(wanted), sorted(c.name for c in cards))
    for pile in ("gy", "banished"):
        wanted = getattr(e, pile)
        if wanted is not None and not _groups_match(wanted, [c.name for c in side.pile(pile)]):
            diff(pile + " (bottom → top)", _show_groups(wanted), [c.name for c in side.pile(pile)])
    if e.monsters is not None:
        out += _compare_zone(d, side_word, "monsters", e.monsters, [c for c in side.mzone if c is not None])
    if e.spells is not None:
        out += _compare_zone(d, side_word, "spells", e.spells, [c for c in side.szone[:5] if c is not None and not c.in_pendulum_zone])
    if e.pendulum is not None:
        out += _compare_zone(d, side_word, "pendulum", e.pendulum, [c for c in (side.szone[i] for i in side.pendulum_zones)
                                                                     if c is not None and c.in_pendulum_zone])
    if e.field is not None:
        actual = side.field_spell.name if side.field_spell else None
        diff("field", e.field or None, actual)
    return out


def _groups_match(expected: list[Any], actual: list[str]) -> bool:
    """Ordered comparison where a nested list is a group compared as a multiset (RULES.md)."""
    i = 0
    for group in expected:
        names = [group] if isinstance(group, str) else group
        chunk = actual[i:i + len(names)]
        if Counter(chunk) != Counter(names):
            return False
        i += len(names)
    return i == len(actual)


def _show_groups(expected: list[Any]) -> list[Any]:
    return [g if isinstance(g, str) else "{" + ", ".join(g) + "}" for g in expected]


def _compare_zone(d: Duel, side_word: str, what: str, expected: list[ExpectCard], actual: list[Any]) -> list[str]:
    def describe(card: Any) -> str:
        text = card.name
        if card.loc == Loc.MZONE:
            text += f" ({_POS_WORDS[card.pos]}, zone {card.seq + 1}, {card.atk}/{card.defense})"
        else:
            text += f" ({'set' if not card.face_up else 'face-up'}, zone {card.seq + 1})"
        return text

    remaining = list(actual)
    missing = []
    for want in expected:
        match = next((c for c in remaining if _card_matches(c, want)), None)
        if match is None:
            missing.append(want)
        else:
            remaining.remove(match)
    if not missing and not remaining:
        return []
    wanted = [w.card + (f" ({w.position})" if w.position else "") + (f" zone {w.zone}" if w.zone else "")
              + (f" owned by {w.owner}" if w.owner else "")
              + (f" {w.atk if w.atk is not None else '-'}/{w.def_ if w.def_ is not None else '-'}" if w.atk is not None or w.def_ is not None else "")
              for w in expected]
    return [f"{side_word}.{what}: expected {wanted}, found {[describe(c) for c in actual]}"]


def _card_matches(card: Any, want: ExpectCard) -> bool:
    if card.name.casefold() != want.card.casefold():
        return False
    if want.position is not None and card.loc == Loc.MZONE and _POS_WORDS[card.pos] != want.position:
        return False
    if want.zone is not None and card.seq + 1 != want.zone:
        return False
    if want.face_down is not None and card.face_up == want.face_down:
        return False
    if want.owner is not None and card.owner != SIDES[want.owner]:
        return False
    if want.atk is not None and card.atk != want.atk or want.def_ is not None and card.defense != want.def_:
        return False
    return True

