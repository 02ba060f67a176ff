"""The fixed word lists of the game: attributes, monster types, frames, rarities.

Kept as data (R-CARD-2: "keep both lists as data") so that a new Type is one line here.
"""

from __future__ import annotations

ATTRIBUTES: tuple[str, ...] = ("LIGHT", "DARK", "EARTH", "WATER", "FIRE", "WIND", "DIVINE")

# R-CARD-2: the 26 official monster Types.
MONSTER_TYPES: tuple[str, ...] = (
    "Aqua", "Beast", "Beast-Warrior", "Creator God", "Cyberse", "Dinosaur", "Divine-Beast",
    "Dragon", "Fairy", "Fiend", "Fish", "Illusion", "Insect", "Machine", "Plant", "Psychic",
    "Pyro", "Reptile", "Rock", "Sea Serpent", "Spellcaster", "Thunder", "Warrior",
    "Winged Beast", "Wyrm", "Zombie",
)
# the Types printed after the 2005 format (Psychic 2008, Creator God 2009, Wyrm 2010, Cyberse 2017, Illusion 2022): a
# GOAT duel's "declare 1 Type" offers the others (Tribe-Infecting Virus, DNA Surgery)
TYPES_AFTER_2005: frozenset[str] = frozenset({"Psychic", "Creator God", "Wyrm", "Cyberse", "Illusion"})

# R-CARD-3 frames. A monster has one base frame; "pendulum" may be added to most of them.
BASE_FRAMES: tuple[str, ...] = (
    "normal", "effect", "ritual", "fusion", "synchro", "xyz", "link", "token",
)
EXTRA_DECK_FRAMES: frozenset[str] = frozenset({"fusion", "synchro", "xyz", "link"})

SPELL_SUBTYPES: tuple[str, ...] = ("normal", "quick-play", "continuous", "equip", "field", "ritual")
TRAP_SUBTYPES: tuple[str, ...] = ("normal", "continuous", "counter")

# R-RARITY-1..14 (print metadata only; never affects play). SCR is accepted as SER.
RARITIES: dict[str, str] = {
    "N": "Normal",
    "NR": "Normal Rare",
    "NPR": "Normal Parallel Rare",
    "R": "Rare",
    "SR": "Super Rare",
    "UR": "Ultra Rare",
    "SER": "Secret Rare",
    "PR": "Parallel Rare",
    "UTR": "Ultimate Rare",
    "USR": "Ultra Secret Rare",
    "HR": "Holographic Rare",
    "GR": "Gold Rare",
    "GUTR": "Gold Ultimate Rare",
    "GGR": "Gold Ghost Rare",
}
RARITY_ALIASES: dict[str, str] = {"SCR": "SER", "GUR": "GR", "SP": "NR"}

LINK_ARROWS: tuple[str, ...] = (
    "top-left", "top", "top-right", "left", "right", "bottom-left", "bottom", "bottom-right",
)
