"""The save format: what a saved duel holds, how it is written, and how a save is read back.

A duel is its card pool, decks (or starting position), rules, seed and the list of answers,
so the save file *is* the replay (DESIGN.md §2). Answers are option keys; a forced answer
(the only option) is kept with a leading '=' so that a replay stops exactly where the duel
was, whatever prompt modes the two runs used. Rebuilding the duel from a record is
engine/duel/replay.py.
"""

from __future__ import annotations

import hashlib
import json
import re
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterator, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ...schema.cards import Card
from ...schema.decks import Deck
from ...schema.problems import MAX_PASSCODE, DataError, Problem, display_path
from ...schema.rules import Rules
from ...schema.scenario import PileCard, Scenario, SideSetup
from ...schema.yamlio import write_atomically

if TYPE_CHECKING:
    from ...schema.cardpool import CardPool
    from ...schema.yamlio import Locator

FORMAT = "ygoterm-replay"
VERSION = 1
MAX_SAVE_BYTES = 16 * 1024 * 1024


def pool_digest(cards: list[Card]) -> str:
    """A digest of the definitions of the given cards: a save refuses to load if they changed."""
    h = hashlib.sha256()
    for card in sorted({c.id: c for c in cards}.values(), key=lambda c: c.id):
        h.update(_card_json(card))
    return h.hexdigest()[:16]


# definition id → (a weak reference to it, its JSON): every Duel.new digests its decks' cards,
# and serialising them again each time cost a tenth of a random duel's setup
_JSON: dict[int, tuple[Any, bytes]] = {}


def _card_json(card: Card) -> bytes:
    entry = _JSON.get(id(card))
    if entry is None or entry[0]() is not card:
        forget = lambda _, key=id(card), cache=_JSON: cache.pop(key, None)  # noqa: E731 (the cache is bound: at exit the global is gone)
        entry = _JSON[id(card)] = (weakref.ref(card, forget), _digest_json(card))
    return entry[1]


# Fields the card schema gained after saves existed, at any depth: left out of the digest while
# unset, so that those saves still open (tests/test_saves.py fails when a new field is missing here).
_LATER_FIELDS = frozenset({"user", "materials_to",  # goat batch j2
                           "goat", "copy_of", "level_at_most_of", "reverses_stat_changes", "phase_start", "swap_current", "ends_with_this",  # goat batch v2
                           "atk_within_lp", "level_matches", "same_level_as", "side", "chosen_is", "affected_is",
                           "direct_attack", "destroyed_when_targeted", "destroyed_by_battle_this_turn", "control_cannot_switch",
                           "only_one", "while_card", "your_turns_face_up",  # goat batch f2
                           "named_in_text_of", "more_per",
                           "flip_summon_if", "or_none_if", "opponent_monsters_more", "declared_by_self", "hand_empty_last_turn", "fusion_material", "negates_gy_effects", "with_self", "tribute",  # goat batch d3
                           "attacks_each_monster", "as_returned",
                           "atk_above_self", "atk_at_most_of", "atk_reaches", "attacking_set_monster", "banish_if_leaves", "cannot_summon",
                           "damage_calculation", "deck_top", "destroyed_in_defense", "destroyed_unless", "cannot_be_tributed_for_summon", "count_heads", "sent_this_turn_by", "flipped_by_attack", "cannot_be_destroyed_by", "all", "equip_card", "halves_battle_damage", "battle_damage_as_effect", "each_player", "stats_of_selected", "selected_gone", "has_counter",
                           "holds_counter", "left_in_position", "locks_gy_banishing", "max_counters", "must_attack",
                           "negates_battle_destroyed", "negates_battle_victims", "negates_opponent_spells_targeting",
                           "negates_traps_targeting", "no_battle_damage_involving", "no_effect_damage", "no_special_summon_from", "not_name", "opponent_lp_at_most", "or_none",
                           "call", "battle_destroyed_this_turn", "can_equip_self", "locks_traps_on_summon", "shows_hands", "negates_monsters_targeting_it_alone", "negates_targeting_on_roll", "gains_battling_original_atk", "normal_summon_if",  # goat batch b2
                           "reflects_battle_damage", "rolled", "set_def", "set_only", "special_summoned", "summoned_by", "summoned_how",
                           "summoned_or_flipped_this_turn", "to", "unaffected_by_opponent_spells", "unaffected_by_spells",
                           "all", "remember", "any_number", "atk_at_most_removed", "attack_only", "equipped", "fusion_substitute", "heads_at_least", "targets_self", "tosses",  # goat batch b1
                           "also_attributes", "atk_below_self", "original_atk_below_self", "cannot_be_destroyed_by_battle_with",
                           "indestructible_unless_targeted", "negates_targeting_on_roll", "give",  # b3
                           "negates_opponent_traps_targeting", "summon_if", "allows_direct_attacks", "locks_discard_costs", "battle_destroyed_to_deck", "equipped_to_self", "your_turns_here", "battle_wins", "multiply_atk",  # c1
                           "atk_equal_self", "take", "in_selection", "count_as", "set_attribute", "sent_by_battle", "untargetable_by",  # c2
                           "doubles_battle_damage", "equipped_with",  # c5
                           "same_name_count",  # s3
                           "any_of", "taker", "only_if", "until_monsters", "rest",  # goat batch c4
                           "until_hand", "heads", "locks_opponent_draws", "until_end_phase", "keep_one_of", "any_special_summon",  # d1
                           "doubles_damage_to_attacker", "next_turns", "who", "left_flipped", "flipped_after_self", "leave_as_many_as", "attacked_since_self", "gain_before_battle_damage", "at_least", "reroll", "zone_number", "negates_spells_targeting_once", "also_archetypes",  # d2
                           "def_at_most_self", "revive_tribute", "battled_self", "together",  # e1
                           "banish", "face_down", "destroys_same_names", "field_treated_as", "atk_of_tributes", "summon_to", "no_normal_summon_turn",  # c3
                           "level_below_of", "level_exceeds", "tributed_self", "face_down_monsters",  # goat batch e2
                           "up_to", "sent_from_field_this_turn",  # goat batch s1
                           "left_equipped",  # goat batch s2
                           "opponent_hand_at_least", "about", "union_partner_of", "union_can_equip", "as_union", "during", "keep_moved", "level_below_by", "decks_upside_down", "as_monster",  # goat batch h3
                           "owner", "battle_damage_at_least", "no_hand_limit", "atk_equal_battling", "indestructible_if_targeted", "upon", "one_way", "bound",  # goat batch s4
                           "no_spell_lp_costs", "single_attacker", "keeps_spirits", "spirits_kept", "cannot_be_negated", "original",  # goat batch s6
                           "no_monster_sets", "locks_tributes", "normal_summons_after_self", "shows_drawn", "highest_atk", "destroys_on_leaving", "unaffected_by_opponent_monsters",  # goat batch h4
                           "opponent_hand_limit", "every", "count_per", "effect_damage", "lp_behind", "retarget_candidate", "targets_one", "destroys_flip_summoned", "attacked", "destroys_drawn", "opponent_turns",  # goat batch t2
                           "in_all", "opponent_lp_at_least", "cannot_be_tributed", "distinct_names", "equipped_destroyed_by_battle", "guards_gy", "unguards_gy", "not_frame", "tributes_taken", "battle_damage_becomes", "tributable_by_opponent", "this_turn", "forbids_use", "new_since_self", "redoes_coin_tosses",  # goat batch s5
                           "spells_set_first", "direct", "same_name_on_field", "opponent_gains_become_damage", "def_at_most_atk_of", "highest_atk_on_field", "targets_card", "name_of", "for_duel", "direct_damage_becomes", "keep", "doubles_damage_to_attacker", "equip_fits", "any_monster",  # goat batch t1
                           "level_change", "set_level", "switch_original_atk", "atk_by", "def_by", "set_type", "gains_attack_target_atk", "level_offset", "later_arrivals",  # goat batch v1
                           "counter_count", "direct", "atk_at_most_paid", "one_type_per_player", "other_type_than", "draws_attacks", "must_be_attacked", "remember", "selected_by_self", "control_to_owners",  # goat batch t4
                           "each_time", "about", "per_this_turn", "level_total_from", "level_total", "chooses_attack_targets", "negates_traps", "spares_controller", "activated_as", "by_card",  # goat batch h2
                           "hand_play_lp_cost", "chosen_by",  # goat batch j3
                           "battled_this_turn", "doubled_each_turn", "fusion_material_of", "atk_below_target_def", "summon_only", "shield", "add", "sole_attacker", "battling_with", "was_equipped", "has_attacked", "equipped_to",  # goat batch h1
                           "level_is_removed", "how_many", "opponent_pays_too",  # goat batch h5
                           "no_battle_phase", "field_total", "would_destroy"})  # goat batch j1


def _digest_json(card: Card) -> bytes:
    """The card's JSON as the first saves digested it: pydantic's compact JSON, minus the unset
    later fields (json.dumps with these separators writes the same bytes for this data)."""
    data = _without_unset_later(card.model_dump(mode="json", by_alias=True))
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def _without_unset_later(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_unset_later(v) for k, v in data.items() if not (v is None and k in _LATER_FIELDS)}
    if isinstance(data, list):
        return [_without_unset_later(v) for v in data]
    return data


@dataclass
class ReplayRecord:
    seed: int
    rules: Rules
    names: tuple[str, str]
    decks: list[dict[str, Any]]  # [{"name", "main": [ids], "extra": [ids], "side": [ids]}] ×2
    digest: str
    position: dict[str, Any] | None = None  # a scenario's starting position, instead of decks
    choices: list[str] = field(default_factory=list)
    solo: bool = False  # solo testing: manual actions allowed
    meta: dict[str, Any] = field(default_factory=dict)  # client notes kept with a save (e.g. who sat where)
    first: int | None = None  # a match's later duel: who went first, chosen before it (R-MATCH-3); else a coin toss
    time_limit: str | None = None  # a duel limited from its start (R-TIME-6's extra duel): its "!time:…" entry
    pool: "CardPool | None" = None  # the pool it was recorded with (not saved)
    source: tuple[str, int] | None = None  # (file, line of choices[0]) when read from a save, for messages

    def where(self, index: int) -> tuple[str, int]:
        """File and line of recorded answer `index`, for an error message."""
        if self.source is None:
            return "replay", 0
        return self.source[0], self.source[1] + index if self.source[1] else 0

    @classmethod
    def for_decks(cls, pool: "CardPool", decks: tuple[Deck, Deck], seed: int, rules: Rules,
                  names: tuple[str, str]) -> "ReplayRecord":
        data = [{"name": d.name, "main": [c.id for c in d.main], "extra": [c.id for c in d.extra],
                 "side": [c.id for c in d.side]} for d in decks]
        cards = [c for d in decks for c in (*d.main, *d.extra)]
        return cls(seed, rules, names, data, pool_digest(cards), pool=pool)

    def to_data(self) -> dict[str, Any]:
        """The save as plain JSON data (a match save nests these, engine/match/record.py)."""
        data = {"format": FORMAT, "version": VERSION, "digest": self.digest, "seed": self.seed,
                "rules": self.rules.model_dump(mode="json"), "names": list(self.names), "decks": self.decks,
                "position": self.position, "solo": self.solo, "meta": self.meta}
        if self.first is not None:
            data["first"] = self.first
        if self.time_limit is not None:
            data["time_limit"] = self.time_limit
        data["choices"] = self.choices
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_data(), indent=1) + "\n"

    def save(self, path: Path) -> None:
        """Write atomically: a crash mid-write never leaves a half save behind."""
        write_atomically(path, self.to_json())

    def card_refs(self) -> list[int | str]:
        """Every card the duel starts with: passcodes of the decks, names of a position."""
        refs: list[int | str] = [i for d in self.decks for key in ("main", "extra") for i in d[key]]
        if self.position:
            refs.extend(position_card_names(self.position))
        return refs


_Passcodes = Annotated[list[Annotated[int, Field(ge=1, le=MAX_PASSCODE)]], Field(max_length=200)]


class _SavedDeck(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[str, Field(max_length=200)]
    main: _Passcodes
    extra: _Passcodes = []
    side: _Passcodes = []


_SeatKind = Literal["human", "goldfish", "random", "ai:easy", "ai:normal", "ai:hard"]


class _Meta(BaseModel):
    """Client notes kept with a save; only `seats` is read back (who sat where in a solo test)."""

    model_config = ConfigDict(extra="allow")
    seats: tuple[_SeatKind, _SeatKind] | None = None


# "!concede:P", "!manual:P:{json}", "!time:…" (engine/state/timelimit.py), or option keys (a leading "=": a forced answer)
_ENTRY = re.compile(r"!concede:[01]|!manual:[01]:\{.*\}|!time:(?:extra_turns|extra_duel):\d{1,6}:\d{1,6}:(?:sudden_death|draw)|=?(?:[^!\s=,][^\s]*(?: [^\s]+)*)?")  # "" chooses none


class _ReplayFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str
    version: int = Field(ge=1)
    digest: str
    seed: int
    rules: Rules
    names: tuple[Annotated[str, Field(min_length=1, max_length=60)], Annotated[str, Field(min_length=1, max_length=60)]]
    decks: Annotated[list[_SavedDeck], Field(max_length=2)]
    position: dict[str, Any] | None = None
    solo: bool = False
    meta: _Meta = _Meta()
    first: int | None = Field(None, ge=0, le=1)
    time_limit: Annotated[str, Field(pattern=r"^!time:extra_duel:0:\d{1,6}:(sudden_death|draw)$")] | None = None
    choices: Annotated[list[Annotated[str, Field(max_length=100_000)]], Field(max_length=1_000_000)]


def read_save(path: Path, fmt: str = FORMAT) -> tuple[dict[str, Any], str, str]:
    """A save file's JSON data, its text and its display name; a file that is not JSON or not a
    save of format `fmt` is refused with a clear message."""
    from ...schema.jsonio import loads
    from ...schema.yamlio import read_text

    name = display_path(path)
    text = read_text(path, max_bytes=MAX_SAVE_BYTES)
    try:
        data = loads(text, name)
    except json.JSONDecodeError as e:
        hint = "the file is truncated (was the save interrupted?)" if e.pos >= len(text.rstrip()) else "the file is damaged"
        raise DataError([Problem(name, e.lineno, e.colno, "", f"not a valid save: {e.msg}", hint)]) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        found = data.get("format") if isinstance(data, dict) else None
        other = {FORMAT: "a duel save", "ygoterm-match": "a match save"}.get(found) if isinstance(found, str) else None
        what = {FORMAT: "", "ygoterm-match": "match "}.get(fmt, fmt)
        raise DataError([Problem(name, 1, 1, "format", f"not a ygoterm {what}save file" + (f" (it is {other})" if other else ""),
                                 f"a {what}save starts with {{\"format\": \"{fmt}\"")])
    return data, text, name


def load_record(path: Path, pool: "CardPool") -> ReplayRecord:
    """Read a save; refuse a corrupt, truncated or mismatched one with a clear message."""
    from ...schema.yamlio import Locator

    data, text, name = read_save(path)
    return record_from_data(data, pool, name, Locator(text), first_line=_first_choice_line(text))


def record_from_data(data: Any, pool: "CardPool", name: str, locator: Locator, prefix: tuple[Any, ...] = (),
                     first_line: int = 0) -> ReplayRecord:
    """A duel's replay record from its JSON data (a whole save, or one duel of a match save at
    `prefix`), checked through: entries, decks that could start a duel, the card digest."""
    from ...schema.report import problems_from

    where = ".".join(map(str, prefix)) + "." if prefix else ""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DataError([Problem(name, *locator.position(prefix), where + "format", "not a duel's replay record",
                                 f"each duel starts with {{\"format\": \"{FORMAT}\"")])
    try:
        model = _ReplayFile.model_validate(data)
    except ValidationError as e:
        raise DataError(problems_from(e, file=name, locator=locator, prefix=prefix)) from None
    if model.version > VERSION:
        raise DataError([Problem(name, 1, 1, "version", f"save version {model.version} is newer than this ygoterm ({VERSION})", "update ygoterm")])
    decks = [d.model_dump() for d in model.decks]
    meta = model.meta.model_dump(exclude_none=True)
    record = ReplayRecord(model.seed, model.rules, model.names, decks, model.digest, model.position, model.choices,
                          model.solo, pool=pool, meta=meta, source=(name, first_line), first=model.first,
                          time_limit=model.time_limit)
    for index, entry in enumerate(model.choices):
        if not _ENTRY.fullmatch(entry):
            file, line = record.where(index)
            line = line or locator.position((*prefix, "choices", index))[0]
            raise DataError([Problem(file, line, 0, f"{where}choices[{index}]", f"recorded answer {entry[:60]!r} is not a recorded answer",
                                     "the save is damaged: answers are option keys such as 'summon:12'")])
    if model.position is not None:
        _check_position(model.position, name, locator, prefix)
    elif len(model.decks) != 2:
        raise DataError([Problem(name, *locator.position((*prefix, "decks")), where + "decks", f"a save holds the decks of 2 players, not {len(model.decks)}",
                                 "the save is damaged")])
    side_decks = [i for d in record.decks for i in d.get("side", [])]  # (not in card_refs: outside the digest)
    missing = sorted({str(i) for i in record.card_refs() + side_decks if pool.get(i) is None})
    if missing:
        raise DataError([Problem(name, *locator.position((*prefix, "decks")), where + "decks", f"the save uses card{'s' if len(missing) > 1 else ''} not in the card pool: {', '.join(missing[:5])}",
                                 "load the card folders the duel was played with (--cards)")])
    if model.position is None:
        _check_decks(record, model.rules, pool, name, locator, prefix)
    digest = pool_digest([card for i in record.card_refs() if (card := pool.get(i)) is not None])  # (all present: checked above)
    if digest != model.digest:
        raise DataError([Problem(name, *locator.position((*prefix, "digest")), where + "digest", "the card definitions changed since this duel was saved, so it cannot be replayed faithfully",
                                 "use the card files the duel was played with")])
    return record


def _check_position(position: dict[str, Any], name: str, locator: Locator, prefix: tuple[Any, ...] = ()) -> None:
    from ...schema.report import problems_from
    from ...schema.scenario import Scenario

    try:
        Scenario.model_validate(position)
    except ValidationError as e:
        raise DataError(problems_from(e, file=name, locator=locator, prefix=(*prefix, "position"))) from None


def _check_decks(record: ReplayRecord, rules: Rules, pool: "CardPool", name: str, locator: Locator, prefix: tuple[Any, ...] = ()) -> None:
    """A saved duel's decks must be ones a duel could start with (R-DECK-1…4, R-DECK-7 under the
    save's own rules): an edited save cannot smuggle in a 200-card or an empty deck."""
    from ...schema.validate import check_deck

    for index, data in enumerate(record.decks):
        problems = check_deck(_deck(data, pool), rules.deck)
        if problems:
            first = problems[0]
            raise DataError([Problem(name, *locator.position((*prefix, "decks", index)), ".".join(map(str, prefix)) + ("." if prefix else "") + f"decks[{index}]",
                                     f"deck '{data['name']}' could not start a duel: {first.message}" + (f" [{first.rule}]" if first.rule else ""),
                                     "the save is damaged or was edited")])


def _first_choice_line(text: str) -> int:
    """The line of the first recorded answer in a save written by `to_json` (one per line); 0 if
    the file was written some other way."""
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        if line.strip().startswith('"choices": [') and line.strip() != '"choices": []':
            return number + 1 if line.strip() == '"choices": [' else 0
    return 0


def _deck(data: dict[str, Any], pool: "CardPool") -> Deck:
    """A saved deck (passcodes by section) as cards of the pool."""
    return Deck(data["name"], _cards(data["main"], pool), _cards(data["extra"], pool), _cards(data.get("side", []), pool))


def _cards(refs: list[int], pool: "CardPool") -> list[Card]:
    """The cards of a saved deck section (each was checked to be in the pool when the save loaded)."""
    cards = []
    for ref in refs:
        card = pool.get(ref)
        assert card is not None, "a saved deck's cards are checked before it is read"
        cards.append(card)
    return cards


def _entries(side: SideSetup) -> Iterator[tuple[str, Any]]:
    for pile in ("hand", "deck", "extra", "gy", "banished"):
        for entry in getattr(side, pile):
            yield pile, entry
    for zone in ("monsters", "spells", "pendulum"):
        for entry in getattr(side, zone):
            yield zone, entry
            for material in entry.materials:
                yield "materials", PileCard(card=material)
    if side.field is not None:
        yield "field", side.field


def position_card_names(data: dict[str, Any]) -> list[str]:
    """The card names a position uses (for the pool digest of its replays)."""
    scenario = Scenario.model_validate(data)
    return [entry.card for side in (scenario.A, scenario.B) for _, entry in _entries(side)
            for _ in range(getattr(entry, "count", 1))]
