"""Typed commands: a human writes what an option's label shows.

`summon Celtic Guardian`, `attack Gemini Elf -> direct`, `tribute Celtic Guardian, Mystical Elf`.
A command matches an option whose label equals it (ignoring case and spacing), or equals it
once '@' location tags are dropped, or begins with it at a word boundary. A command that
matches nothing is refused with the rule that forbids it (via `legality.refusal_for`).
Grammar: docs/scenarios.md.
"""

from __future__ import annotations


from ..state.card import CardInst
from ..state.duel_state import DuelState
from ..core.decision import Decision, IllegalChoice, Kind, Option, Refusal
from .legality import refusal_for
from ..core.types import Loc

_ALIASES = {Kind.BATTLE: {"end": "main2", "end battle": "main2"}}
_SELECT_RULES = {"tribute": "R-SUMMON-3", "discard": "R-TERM-13", "target": "R-TERM-17"}


def norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def base_label(label: str) -> str:
    """A label without its '@' location tags: 'summon Celtic Guardian@H2' → 'summon Celtic Guardian'."""
    return label.split("@", 1)[0]


def match_command(d: DuelState, decision: Decision, text: str) -> Option:
    """The option a typed command names, or IllegalChoice with the refusing rule."""
    wanted = norm(text)
    wanted = _ALIASES.get(decision.kind, {}).get(wanted, wanted)
    if decision.multi:
        verb = norm(decision.verb)
        if verb and wanted.startswith(verb + " "):
            wanted = wanted[len(verb) + 1:]
    for o in decision.options:
        if norm(o.label) == wanted:
            return o
    for o in decision.options:
        if norm(base_label(o.label)) == wanted:
            return o
    for o in decision.options:
        label = norm(o.label)
        if label.startswith(wanted + " ") or norm(base_label(o.label)).startswith(wanted + " "):
            return o
    raise _refusal(d, decision, text)


def split_selection(decision: Decision, text: str) -> list[str]:
    """'tribute Celtic Guardian, Mystical Elf' → ['Celtic Guardian', 'Mystical Elf']."""
    body = " ".join(text.split())
    verb = decision.verb
    for word in (verb, "select", "choose"):
        if word and body.casefold().startswith(word.casefold() + " "):
            body = body[len(word) + 1:]
            break
    parts = [part.strip() for part in body.split(",") if part.strip()]
    labels = {norm(base_label(o.label)) for o in decision.options} | {norm(o.label) for o in decision.options}
    out: list[str] = []
    i = 0
    while i < len(parts):  # a name with a comma ("Lich Lord, King of the Underworld") is one part
        j = next((j for j in range(len(parts), i + 1, -1) if norm(", ".join(parts[i:j])) in labels), i + 1)
        out.append(", ".join(parts[i:j]))
        i = j
    return out


def _refusal(d: DuelState, decision: Decision, text: str) -> IllegalChoice:
    choices = "; ".join(o.label for o in decision.options[:12]) + (" …" if len(decision.options) > 12 else "")
    if decision.multi:
        rule = decision.rule or _SELECT_RULES.get(decision.verb, "PROTOCOL")
        return IllegalChoice(rule, f"'{text}' cannot be chosen to {decision.verb or 'select'}; choose from: {choices}")
    text_norm = norm(text)
    for kind in ("special", "synchro", "xyz", "link", "gemini"):
        if text_norm.startswith(f"{kind} summon "):
            text_norm = f"{kind} " + text_norm[len(f"{kind} summon "):]
    words = text_norm.split(" ", 1)
    verb = words[0]
    rest = words[1] if len(words) > 1 else ""
    name, _, target = (part.strip() for part in rest.partition("->"))
    direction = ""
    if verb == "switch":  # the long form 'switch NAME to defense'
        for word in ("attack", "defense"):
            if name.endswith(f" to {word}"):
                name, direction = name[:-len(f" to {word}")], word
    label = ""
    if verb == "activate" and name.endswith(")") and " (" in name:  # 'activate Solemn Judgment (negate a Summon)'
        name, label = name[:-1].rsplit(" (", 1)
    card = _find_card(d, decision.player, name) if name else None
    refusal = _labelled_refusal(d, decision.player, card, label) if card is not None and label else None
    refusal = refusal or refusal_for(d, decision.player, verb, card, target)
    if refusal is not None:
        return IllegalChoice(refusal.rule, f"{refusal.action}: {refusal.message}")
    if direction and card is not None and card.loc == Loc.MZONE and card.pos.is_attack == (direction == "attack"):
        return IllegalChoice("R-SUMMON-5", f"Change position: {card.name} is already in {direction.title()} Position")
    if card is None and name and verb in ("summon", "set", "flip", "switch", "attack", "activate", "special", "gemini"):
        return IllegalChoice("PROTOCOL", f"no card named '{name}' that you could {verb}; options: {choices}")
    return IllegalChoice("PROTOCOL", f"'{text}' is not a legal answer now; options: {choices}")


def _labelled_refusal(d: DuelState, player: int, card: CardInst, label: str) -> Refusal | None:
    """Why the effect of `card` with this label cannot be activated now (None if it can)."""
    from .activation import activation_refusal

    for index, effect, *_ in card.chosen:
        if effect.label is not None and norm(effect.label) == label:
            return activation_refusal(d, player, card, index, open_state=d.idle)
    return None


def _find_card(d: DuelState, player: int, name: str) -> CardInst | None:
    """The player's card with this name, looking where commands usually point: hand, then field."""
    side = d.players[player]
    name = norm(base_label(name))
    for pile in (side.hand, side.mzone, side.szone):
        for card in pile:
            if card is not None and norm(card.name) == name:
                return card
    for card in d.cards.values():
        if norm(card.name) == name and card.owner == player and card.loc != Loc.DECK:
            return card
    if "shared_effects" in d.index.flags:  # an opponent's card whose effect either player may use (Royal Oppression)
        for card in d.players[1 - player].szone:
            if card is not None and norm(card.name) == name and any(e.user is not None for e in card.effects):
                return card
    return None
