"""Reading what an effect does: the clauses of a resolution ("destroy that target", "draw 2
cards", "inflict 800 damage to your opponent") as operations of the card vocabulary.

Each clause is matched by the verb it opens with; its object is read by `nouns.read_noun` or is a
reference ("it", "that target", "this card"). "X, and if you do, Y" nests Y in `if_you_do`,
"X, then Y" in `then` (docs/cards.md). A clause no verb reads is returned as untranslated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .nouns import Noun, read_noun

Op = dict[str, Any]


@dataclass
class Ctx:
    """What a clause's pronouns can mean: the effect's target, what an earlier operation chose,
    this card (its event is about itself) or the event's card."""

    has_target: bool = False
    about_self: bool = True
    event_card: bool = False
    cost: bool = False
    chose: bool = False
    unknown: list[str] = field(default_factory=list)  # phrases read only in part

    def pronoun(self) -> str:
        if self.has_target:
            return "target"
        if self.chose:
            return "chosen"
        if self.event_card and not self.about_self:
            return "event"
        return "self"


_REFS = r"(?:it|them|this card|that target|those targets|the target|that card|that monster|those monsters|that monster\(s\)|" \
        r"those monster\(s\)|that face-up monster|the first target|the equipped monster|the attacking monster|that attacking monster)"


def ref(phrase: str, ctx: Ctx) -> str | None:
    """The selection a reference names, or None if the phrase names cards anew."""
    p = phrase.strip().lower()
    if p == "this card":
        return "self"
    if p == "the equipped monster":
        return "equipped"
    if p in ("the attacking monster", "that attacking monster"):
        return "target" if ctx.has_target else "attacker"
    if re.fullmatch(_REFS, p):
        return ctx.pronoun()
    return None


def selection(phrase: str, ctx: Ctx, default: dict[str, Any] | None = None) -> Any:
    """A selection for an operation's `what`: a reference, {all: …} or {choose: …}."""
    found = ref(phrase, ctx)
    if found is not None:
        return found
    noun = read_noun(phrase, default)
    if noun.unknown:
        ctx.unknown.append(phrase.strip())
    if noun.count == "all":
        return {"all": noun.where}
    ctx.chose = True
    choose: dict[str, Any] = {"where": noun.where}
    if noun.count != "1":
        choose["count"] = "1-99" if noun.count == "any" else noun.count
    if noun.pick:
        choose["pick"] = noun.pick
    return {"choose": choose}


def _player(who: str | None) -> str | None:
    w = (who or "").lower().strip()
    if w in ("your opponent", "they", "their opponent"):
        return "opponent"
    if w in ("each player", "both players", "each"):
        return "each"
    return None


def _with_player(op: str, params: dict[str, Any], who: str | None, short: Any) -> Op:
    player = _player(who)
    if player is None and len(params) == 1:
        return {op: short}
    return {op: {**params, **({"player": player} if player else {})}}


_POSITIONS = {"face-down defense": "facedown", "face-up defense": "defense", "defense": "defense",
              "face-up attack": "attack", "attack": "attack"}


_FIELD = {"zone": "field"}
_HAND = {"zone": "hand", "side": "you"}
_DECK = {"zone": "deck", "side": "you"}


def _destroy(m: re.Match[str], ctx: Ctx) -> Op:
    return {"destroy": selection(m.group(1), ctx, _FIELD)}


def _draw(m: re.Match[str], ctx: Ctx) -> Op:
    n = 1 if m.group(2) in ("a", "1") else int(m.group(2))
    return _with_player("draw", {"count": n}, m.group(1), n)


def _amount(m: re.Match[str], ctx: Ctx, op: str, who: str | None) -> Op | None:
    amount, per, equal = m.group("n"), m.group("per"), m.group("equal")
    params: dict[str, Any] = {}
    if amount:
        params["amount"] = int(amount)
    elif equal:
        stat = re.search(r"\b(ATK|DEF)\b", equal)
        if stat is None or (of := ref(re.sub(r"(?:'s)? (?:original )?(?:ATK|DEF)$", "", equal.replace("its ", "it ")).strip(), ctx)) is None:
            return None
        params["amount"] = ("original_atk_of" if "original" in equal else "atk_of") if stat.group(1) == "ATK" else "def_of"
        params["of"] = of
    if per:
        params["per"] = read_noun(per, _FIELD).where
    player = _player(who)
    default = "opponent" if op == "damage" else "you"
    if player and player != default:
        params["player"] = player
    return {op: params["amount"]} if set(params) == {"amount"} else {op: params}


def _damage(m: re.Match[str], ctx: Ctx) -> Op | None:
    return _amount(m, ctx, "damage", "your opponent")


def _take_damage(m: re.Match[str], ctx: Ctx) -> Op | None:
    op = _amount(m, ctx, "damage", None)
    if op is not None:
        params = op["damage"] if isinstance(op["damage"], dict) else {"amount": op["damage"]}
        op = {"damage": {**params, "player": "you"}}
    return op


def _gain(m: re.Match[str], ctx: Ctx) -> Op | None:
    return _amount(m, ctx, "gain_lp", m.group("who"))


def _pay(m: re.Match[str], ctx: Ctx) -> Op:
    return {"pay_lp": "half" if m.group(1).startswith("half") else int(m.group(1))}


_IN_POSITION = re.compile(r",?\s*\bin ((?:face-up |face-down )?(?:attack|defense)) position(?: or (face-down )?defense position)?", re.I)


def _special(m: re.Match[str], ctx: Ctx) -> Op:
    obj, position = m.group(1), None
    if found := _IN_POSITION.search(obj):
        obj = (obj[:found.start()] + obj[found.end():]).strip()
        words = found.group(1).lower()
        position = "attack_or_facedown" if found.group(2) else _POSITIONS[words]
    bare = re.sub(r"\s+from (?:the|your) GY$", "", obj)
    what = selection(bare if ref(bare, ctx) else obj, ctx, _HAND)
    return {"special_summon": what if position is None else {"what": what, "position": position}}


def _add(m: re.Match[str], ctx: Ctx) -> Op:
    obj = re.sub(r"\s+from (?:the|your) GY$", "", m.group(1))
    return {"add_to_hand": selection(obj if ref(obj, ctx) else m.group(1), ctx, _DECK)}


def _send(m: re.Match[str], ctx: Ctx) -> Op:
    return {"send_to_gy": selection(m.group(1), ctx, _FIELD)}


def _tribute(m: re.Match[str], ctx: Ctx) -> Op:
    obj = m.group(1)
    if ref(obj, ctx) is None and not re.search(r"\b(?:you control|on the field|your opponent controls)\b", obj):
        obj += " you control"
    return {"send_to_gy": selection(obj, ctx, _FIELD)}


def _banish(m: re.Match[str], ctx: Ctx) -> Op:
    what = selection(m.group(1), ctx, _FIELD)
    return {"banish": {"what": what, "face_down": True} if m.group(2) else what}


def _discard(m: re.Match[str], ctx: Ctx) -> Op | None:
    who, obj = m.group(1), m.group(2).strip()
    if obj.lower() == "this card":
        return {"discard": "self"}
    if re.fullmatch(r"(?:their|your) (?:entire|whole) hands?", obj, re.I):
        return {"discard": {"whole_hand": True, "player": _player(who) or "you"}}
    random = bool(re.search(r"\brandom\b|\bat random\b", obj))
    obj = re.sub(r"\s*\b(?:at )?random\b\s*", " ", obj).strip()
    noun = read_noun(obj, _HAND)
    n = int(noun.count) if noun.count.isdigit() else 1
    where = {k: v for k, v in noun.where.items() if k not in ("zone", "side")}
    if noun.unknown:
        ctx.unknown.append(obj)
    params: dict[str, Any] = {"count": n, **({"random": True} if random else {}), **({"where": where} if where else {})}
    return _with_player("discard", params, who, n)


def _change(m: re.Match[str], ctx: Ctx) -> Op:
    to = _POSITIONS[m.group(2).lower()]
    return {"change_position": {"what": selection(m.group(1), ctx, _FIELD), "to": to}}


def _toggle(m: re.Match[str], ctx: Ctx) -> Op:
    what = selection(m.group(1), ctx, _FIELD)
    return {"change_position": what}


def _flip_up(m: re.Match[str], ctx: Ctx) -> Op:
    return {"change_position": {"what": selection(m.group(1), ctx, _FIELD), "to": "face_up"}}


def _modify(m: re.Match[str], ctx: Ctx) -> Op:
    subject, sign, n, stats = m.group(1), m.group(2), int(m.group(3)), m.group(4)
    amount = n if sign.startswith("gain") else -n
    what = selection(subject, ctx, _FIELD)
    params: dict[str, Any] = {"what": what}
    if "ATK" in stats:
        params["atk"] = amount
    if "DEF" in stats:
        params["def"] = amount
    return {"modify": params}


def _control(m: re.Match[str], ctx: Ctx) -> Op:
    what = selection(m.group(1), ctx, _FIELD)
    return {"take_control": what if m.group(2) else {"what": what, "until": "permanent"}}


def _negate(m: re.Match[str], ctx: Ctx) -> Op:
    words = m.group(1).lower()
    what = "summon" if "summon" in words else "attack" if "attack" in words else "effect" if "effect" in words else "activation"
    return {"negate": what}


def _return_hand(m: re.Match[str], ctx: Ctx) -> Op:
    return {"return_to_hand": selection(m.group(1), ctx, _FIELD)}


def _return_deck(m: re.Match[str], ctx: Ctx) -> Op:
    what = selection(m.group(1), ctx, _FIELD)
    return {"return_to_deck": {"what": what, "position": "top"} if m.group(2) else what}


def _skip(m: re.Match[str], ctx: Ctx) -> Op:
    player = _player(m.group(1)) or "opponent"
    params: dict[str, Any] = {"phase": m.group(3).lower()}
    if m.group(2):
        params["count"] = int(m.group(2))
    if player != "opponent":
        params["player"] = player
    return {"skip": params["phase"] if len(params) == 1 else params}


def _equip(m: re.Match[str], ctx: Ctx) -> Op:
    to = ref(m.group(2), ctx) or "target"
    what = ref(m.group(1), ctx) or "self"
    return {"equip": to if what == "self" else {"what": what, "to": to}}


def _ritual(m: re.Match[str], ctx: Ctx) -> Op:
    return {"ritual_summon": {"where": {"name": m.group(1)}}}


def _counter(m: re.Match[str], ctx: Ctx) -> Op:
    n, counter = int(m.group(2)), m.group(3)
    params: dict[str, Any] = {"counter": counter, **({"count": n} if n > 1 else {})}
    return {"remove_counter" if m.group(1).lower() == "remove" else "add_counter": counter if len(params) == 1 else params}


# (a clause, opening with its verb) → its reader; the first that matches wins
VERBS: list[tuple[str, Callable[[re.Match[str], Ctx], Op | None]]] = [
    (r"destroy (.+)", _destroy),
    (r"(?:(your opponent|each player|they|each) )?draws? (\d+|a) cards?", _draw),
    (r"(?:(each player|each|they) )?draws? as many cards as (?:they|you) discarded", lambda m, c: {"draw": {"player": _player(m.group(1)) or "you", "as_discarded": True}}),
    (r"inflict (?:(?P<n>\d+) damage to your opponent|damage to your opponent equal to (?P<equal>.+?))(?: for each (?P<per>.+))?", _damage),
    (r"(?:you )?takes? (?:(?P<n>\d+) damage|damage equal to (?P<equal>.+?))(?: for each (?P<per>.+))?", _take_damage),
    (r"(?:(?P<who>your opponent|they) )?gains? (?:(?P<n>\d+) LP|LP equal to (?P<equal>.+?))(?: for each (?P<per>.+))?", _gain),
    (r"pay (\d+|half your) LP", _pay),
    (r"special summon (.+)", _special),
    (r"add (.+?) to your hand", _add),
    (r"send (.+?) to the GY", _send),
    (r"tribute (.+)", _tribute),
    (r"banish (.+?)( face-down)?", _banish),
    (r"(?:(your opponent|each player|both players|they) )?discards? (.+)", _discard),
    (r"change (.+?) to ((?:face-up |face-down )?(?:attack|defense)) position", _change),
    (r"change (?:the battle positions? of )?(.+?)(?:'s)?(?: battle positions?)?", _toggle),
    (r"switch (.+?) between attack and defense position", _toggle),
    (r"flip (.+?) face-up", _flip_up),
    (r"(.+?) (gains?|loses?) (\d+) (ATK and DEF|ATK/DEF|ATK|DEF)(?: until the end of (?:this|the) turn)?", _modify),
    (r"take control of (.+?)( until the end phase)?", _control),
    (r"negate (?:the|that|its) (activation|attack|summon|effect|summon or activation)", _negate),
    (r"return (.+?) to (?:the|its owner's|their owners'|your|their|its) hands?", _return_hand),
    (r"(?:return|shuffle|put|place) (.+?) (?:(on top of|to the top of)|into|to|on the bottom of) (?:the|your|its owner's|their) Deck", _return_deck),
    (r"(?:(your opponent|they) )?skips? (?:their|your|the) next (\d+ )?(draw|battle|standby|main1|main2) phases?", _skip),
    (r"equip (this card|it) to (.+)", _equip),
    (r'ritual summon "([^"]+)" from your hand.*', _ritual),
    (r"(place|remove) (\d+) (\w+ Counter)s? (?:on|from) (?:this card|it)(?: \(max\. \d\))?", _counter),
]
_VERB_RX = [(re.compile(rx + r"\s*$", re.I), read) for rx, read in VERBS]

# clauses that are said by the operation before them or by the rules: nothing to write
_SILENT = re.compile(r"^(?:shuffle your Deck|then shuffle your Deck|show it to your opponent|reveal it)$", re.I)
_FIXED: dict[str, Op] = {
    "roll a six-sided die": {"roll_die": {}},
    "you take no battle damage from that battle": {"no_battle_damage": "you"},
    "declare 1 monster type": {"declare": "type"},
    "declare 1 attribute": {"declare": "attribute"},
    "shuffle your deck": {"shuffle": {}},
    "end the battle phase": {"_end_battle_phase": True},
    "fusion summon 1 fusion monster from your extra deck, using monsters from your hand or field as fusion material": {"fusion_summon": {}},
}


def read_clause(clause: str, ctx: Ctx) -> Op | None:
    """One clause as one operation, or None if no verb reads it."""
    text = re.sub(r"^(?:you can|then|also|and)\s+", "", clause.strip().rstrip(".").strip(), flags=re.I)
    fixed = _FIXED.get(text.lower())
    if fixed is not None:
        return fixed
    for rx, read in _VERB_RX:
        m = rx.match(text)
        if m:
            before = len(ctx.unknown)
            op = read(m, ctx)
            if op is not None:
                return op
            del ctx.unknown[before:]
    return None


_SPLIT = re.compile(r",? and if you do,\s*|,? then\s+|,? also\s+|;\s*|, and (?=(?:destroy|draw|inflict|gain|special summon|add|send|banish|discard|change|return|take|negate|equip)\b)", re.I)


def read_ops(text: str, ctx: Ctx) -> tuple[list[Op], list[str]]:
    """The operations of a resolution, in order, and the clauses no verb reads (verbatim).
    "and if you do" nests what follows in `if_you_do`, "then" in `then`."""
    pieces = _SPLIT.split(text.strip().rstrip("."))
    links = [m.group(0).strip(" ,;").lower() for m in _SPLIT.finditer(text.strip().rstrip("."))]
    ops: list[Op] = []
    untranslated: list[str] = []
    stack: list[list[Op]] = [ops]
    for i, piece in enumerate(pieces):
        if not piece.strip() or _SILENT.match(piece.strip().rstrip(".")):
            continue
        link = links[i - 1] if i > 0 else ""
        op = read_clause(piece, ctx)
        if op is None:
            untranslated.append(piece.strip())
            continue
        if _carried(op, link, stack[-1]):
            continue
        target = stack[-1]
        if link.startswith("and if you do") or link.startswith("then"):
            inner: list[Op] = [op]
            target.append({"if_you_do": inner} if link.startswith("and if you do") else {"then": inner})
            stack.append(inner)
        else:
            target.append(op)
    return ops, untranslated


def _carried(op: Op, link: str, ops: list[Op]) -> bool:
    """"negate the activation, and if you do, destroy it" is one operation (`negate: {destroy:
    true}`), as is "negate the attack, then end the Battle Phase"; True if `op` went into the one before."""
    if not ops or "negate" not in ops[-1]:
        return False
    if "_end_battle_phase" in op:
        what = ops[-1]["negate"]
        ops[-1]["negate"] = {"what": what if isinstance(what, str) else what["what"], "end_battle_phase": True}
        return True
    if not link.startswith("and if you do"):
        return False
    if "destroy" in op and op["destroy"] in ("target", "event", "chosen", "self"):
        what = ops[-1]["negate"]
        ops[-1]["negate"] = {"what": what if isinstance(what, str) else what["what"], "destroy": True}
        return True
    return False


def noun_of(phrase: str, default: dict[str, Any] | None = None) -> Noun:
    """`read_noun` for the effect-level readers (targets, conditions)."""
    return read_noun(phrase, default)
