"""Key presses per turn (devtools/presses.py drives the real screens like a player): the
figures docs/design.md reports, kept from growing back.

Before the response-window work of #35 (0d3122f): hot-seat 14/19/23/22 presses for an empty,
a Summon, an attack and a chain turn (5/9/10/15 with s); the AI's turn in solo, holding
Mystical Space Typhoon and a Set Castle Walls: 15 "respond or pass" prompts."""

from ygoterm.devtools.presses import count_all


async def test_presses_per_turn(pool):
    figures = await count_all(pool)
    solo, skipping = figures.pop("solo vs AI"), figures.pop("solo vs AI, s")
    assert figures == {"empty": 5, "summon": 8, "attack": 9, "chain": 14,
                       "empty, s": 5, "summon, s": 7, "attack, s": 8, "chain, s": 13}
    # the AI's turn: its Summon, each attack, its End Phase ask; the other windows pass by themselves
    assert solo <= 6 and skipping <= solo
