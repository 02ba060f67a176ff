"""The tags the engine gives equal option labels (`engine/board/labels.py`): "Smashing Ground@H6", "attack X -> Sheep
Token@M4->M1". Typed commands use them; a list that says where each card is drops them. Its own module: the menu's
dialogs read it before the engine is loaded (tests/test_cold_start.py)."""

from __future__ import annotations

import re

# one place: "Smashing Ground@H6" (H: hand, M, S, GY, BAN, EX …), or inside a label: "switch Sheep Token@M1 to attack"
PLACE_TAG = re.compile(r"@([A-Z]+)(\d*)(?=\s|$)")
ATTACK_TAGS = re.compile(r"@[^\s@]*->[^\s@]*$")  # an attacker's and a target's places: "Sheep Token@M4->M1"
