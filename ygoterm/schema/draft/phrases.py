"""Reading a card text's structure: which sentences make one effect, and the condition, cost and
resolution of each (the Problem-Solving Card Text: "When …: COST; RESOLUTION", R-TERM-4).

Shared by the drafter (`ygoterm cards draft`) and the script audit (tests/test_script_audit.py),
so that both read a text the same way. 2005 wordings ("Graveyard", "remove from play", "Select
1 … and destroy it") are rewritten to today's words first (`modern`), so one grammar reads both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

# "target 1 …", "Target the attacking monster", "by targeting 1 …" — not "targets", "targeted"
TARGET = re.compile(r"\btarget(?:ing)?\s+(?:up to \d+|\d+|the|that|this|those|a|an)\b", re.I)
# a sentence that only announces "●" bullets, each an effect of its own ("Select and activate 1 of the following effects:":
# Formation Union, Pyramid Energy)
BULLETS_HEADER = re.compile(r"[^;]*\b1 of the following effects\s*:", re.I)
# "Activate 1 of these effects: … Or: …", "Once per turn, you can either: …, OR: …" (a Union)
HEADER = re.compile(r"^(.*\b(?:1 of these effects|you can either))\s*[:.]\s*", re.I)
OR = re.compile(r",?\s*\bOR:\s*")
# a sentence that goes on with the effect before it ("Then …", "It cannot attack", a coin's "If you call it right, …")
CONTINUES = re.compile(r"^(?:Then|It|Its|That|Those|They|Their|If you call it)\b|^\("
                       # what an excavation found: "Add that card …", "Special Summon it …" (Magical Merchant, Monster Gate)
                       r"|^(?:Add that card|Special Summon (?:it|the excavated|the picked up))\b")
LABEL = re.compile(r"^(?:Pendulum|Monster) Effect:\s*")  # a Pendulum card's two texts


@dataclass
class Part:
    """The text of one effect; `header` is the "… 1 of these effects" sentence over alternatives."""

    text: str
    header: str = ""

    @property
    def full(self) -> str:
        return f"{self.header}: {self.text}" if self.header else self.text


def effect_texts(text: str) -> list[Part]:
    """Split a card text into the texts of its effects: sentences, with the sentences that go on
    with the effect before ("Then …", "It …", "(…)") joined to it, "●" bullets apart, "Or:"
    alternatives under their "… 1 of these effects:" header, and without a Pendulum card's
    "Pendulum Effect:" labels. A sentence may end in ".)": "(This card is always treated as an
    "Archfiend" card.)" before "FLIP: …" (Shadow Tamer)."""
    parts: list[Part] = []
    header = ""
    for sentence in re.split(r"(?:(?<=\.)|(?<=\.\)))\s+(?=[A-Z(])|\s*●\s*", text.strip()):
        sentence = LABEL.sub("", sentence)
        if BULLETS_HEADER.fullmatch(sentence):
            continue
        m = HEADER.match(sentence)
        if m:
            header, sentence = m.group(1), sentence[m.end():]
        elif sentence.startswith("Or:"):
            sentence = sentence[3:].strip()
        elif parts and CONTINUES.match(sentence):
            parts[-1].text += " " + sentence
            continue
        else:
            header = ""
        parts += [Part(alternative, header) for alternative in (OR.split(sentence) if header else [sentence])]
    return parts


def split_effect(text: str) -> tuple[str, str, str]:
    """(condition, cost, resolution) of 'FLIP: / When …: COST; RESOLUTION' (R-TERM-4). The cost
    part is empty without a ";" — and is the target alone in "Target 1 monster; destroy it"."""
    text = re.sub(r"^FLIP:\s*", "", text)
    colon, semi = text.find(":"), text.find(";")
    condition = ""
    if colon >= 0 and (semi < 0 or colon < semi):
        condition, text = text[:colon], text[colon + 1:]
    cost, _, resolution = text.partition(";") if ";" in text else ("", "", text)
    return condition.strip(), cost.strip(), resolution.strip()


# 2005 wording → today's (whole-word, case-sensitive where the game word is capitalised)
_MODERN: list[tuple[str, str | Callable[[re.Match[str]], str]]] = [
    (r"\bFlip Effect:\s*", "FLIP: "),
    (r"\bFusion Deck\b", "Extra Deck"),
    (r"\bGraveyards\b", "GYs"), (r"\bGraveyard\b", "GY"),
    (r"\b[Rr]emoved? from play\b", "banish"), (r"\b[Rr]emoving from play\b", "banishing"),
    (r"\bbanish (\d+ [^.;,]*?) from play\b", r"banish \1"),
    (r"\b([Oo])ffer (\d+|this card|[a-z]+ monsters?)\s+(monsters?\s+)?as (?:a )?Tributes?\b", lambda m: f"{'T' if m.group(1) == 'O' else 't'}ribute {m.group(2)}" + (f" {m.group(3).strip()}" if m.group(3) else "")),
    (r"\binflict (\d+) points of damage to your opponent's Life Points\b", r"inflict \1 damage to your opponent"),
    (r"\b(\d+) points of damage\b", r"\1 damage"),
    (r"\bincrease your Life Points by (\d+)(?: points)?\b", r"gain \1 LP"),
    (r"\bLife Points\b", "LP"),
    (r"\b(\d+) points\b", r"\1"),
    (r"\bwith an? (ATK|DEF) of (\d+) or (less|more)\b", r"with \2 or \3 \1"),
    (r"\b(on|from) your opponent's side of the field\b", "your opponent controls"),
    (r"\bon your side of the field\b", "you control"),
    (r"\bto your side of the field\b", ""),
    (r"\b(sent to|in) the GY as a result of battle\b", r"destroyed by battle and sent to the GY"),
    (r"\bdestroyed as a result of battle\b", "destroyed by battle"),
    (r"(\w)-Type\b", r"\1"),
    (r"\bhis/her\b", "their"), (r"\bhe/she\b", "they"),
    (r"\bSpell and Trap Cards\b", "Spells and Traps"), (r"\bSpell or Trap Cards?\b", "Spell/Trap"),
    # "Select 1 monster on the field and destroy it" (2005: "select" a card on the field = target it)
    (r"\b[Ss]elect (\d+ [^.;]+?) and (destroy|banish|return|special summon|change|take control of|equip) (it|them)\b",
     lambda m: f"Target {m.group(1)}; {m.group(2)} {m.group(3)}"),
    (r"\b[Ss]elect (\d+ [^.;]+? from [^.;,]+), show it to your opponent, and add it to your hand\b", r"add \1 to your hand"),
    (r"\s+\.", "."), (r"\s{2,}", " "),
]
_MODERN_RX = [(re.compile(rx), to) for rx, to in _MODERN]


def modern(text: str) -> str:
    """The text in today's words: "Graveyard" → "GY", "remove from play" → "banish", "Fusion
    Deck" → "Extra Deck", "Offer 1 monster as a Tribute" → "Tribute 1 monster", "an ATK of 1500
    or less" → "1500 or less ATK", "X-Type" → "X" … so one grammar reads both eras' texts."""
    for rx, to in _MODERN_RX:
        text = rx.sub(to, text)
    return text.strip()
