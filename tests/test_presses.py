"""Key presses per hot-seat turn (tui/presses.py drives the real screens like a player): the
figures docs/design.md reports, kept from growing back."""

from ygoterm.devtools.presses import count_all


async def test_presses_per_turn_in_hot_seat(pool):
    figures = await count_all(pool)
    assert figures == {"empty": 14, "summon": 19, "attack": 23, "chain": 22,
                       "empty, s": 5, "summon, s": 9, "attack, s": 10, "chain, s": 15}
