"""Key presses per turn in a hot-seat duel, prompt mode "always" for both players, and in a
solo duel against the AI, counted by driving the real screens through Textual's pilot
(`python -m ygoterm.devtools.presses`).

Four turns from the same position (turn 3, Player 1's Draw Phase; Player 1 has Gemini Elf on
the field and Celtic Guardian and Dark Hole in hand, Player 2 a Set Royal Decree):

- empty: Player 1 does nothing (`n` at every move of theirs);
- summon: Player 1 Normal Summons Celtic Guardian from the card's menu;
- attack: Player 1's Gemini Elf attacks directly;
- chain: Player 1 activates Dark Hole, Player 2 chains Royal Decree (a 2-link chain).

A turn is counted from its first screen to the first screen of turn 4. The driver presses what a
player would: Enter at curtains and "respond?" prompts, `n` to move on, the card's menu (arrows to
the card, Enter, then the option) to act, `a` to attack, the respond key to chain. It only reads
the screen's state to decide, and it works on older versions of the screens too (it was run on
the commit before the shared response prompt for the "before" figures in docs/design.md).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from .. import paths
from ..engine import Kind
from ..schema.cardpool import CardPool

POSITION = {
    "name": "presses", "turn": 3, "phase": "draw", "prompt": {"A": "always", "B": "always"},
    "A": {"hand": ["Celtic Guardian", "Dark Hole"], "monsters": ["Gemini Elf"],
          "deck": ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]},
    "B": {"hand": ["Silver Fang", "Feral Imp"], "spells": ["Royal Decree"],
          "deck": ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]},
}

# what Player 1 (0) and Player 2 (1) want to do in each turn: option labels, in order
PLANS: dict[str, dict[int, list[str]]] = {
    "empty": {0: [], 1: []},
    "summon": {0: ["summon Celtic Guardian"], 1: []},
    "attack": {0: ["attack Gemini Elf -> direct"], 1: []},
    "chain": {0: ["activate Dark Hole"], 1: ["activate Royal Decree"]},
}
# solo against ai:normal (Player 2), turn 4, the AI's turn: Player 1 holds a quick card
# (Mystical Space Typhoon) and a Set Castle Walls, and passes whenever asked (p), or stops
# being asked until something happens (s) where the screens have that key
SOLO_POSITION = {
    "name": "presses-solo", "turn": 4, "turn_player": "B", "phase": "draw",
    "A": {"hand": ["Mystical Space Typhoon", "Feral Imp"], "monsters": ["Celtic Guardian"], "spells": ["Castle Walls"],
          "deck": ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]},
    "B": {"hand": ["Vorse Raider", "Giant Soldier of Stone", "Mystical Elf"], "monsters": ["Luster Dragon"],
          "deck": ["Giant Soldier of Stone", "Silver Fang", "Feral Imp", "Luster Dragon", "Mystical Elf"]},
}
# the same turns when the table answers each "Anyone responding?" with s (stop asking until
# something happens) instead of Enter — only where the screens have that prompt
SKIPPING = {f"{name}, s": plan for name, plan in PLANS.items()}


def _label(option: Any) -> str:
    return str(getattr(option, "label", option))


def _next_keys(screen: Any, board: Any, wants: dict[int, list[str]], skip: bool) -> list[str]:
    """The keys a player presses next on `screen` (a question, a curtain or the board) to
    follow their plan in `wants` (their next labels, taken off as they are chosen)."""
    from textual.widgets import OptionList

    from ..tui.screens.dialogs import CurtainScreen
    from ..tui.screens.duel import DuelScreen
    from ..tui.widgets.questions import ChoicePrompt, SelectPrompt, SharedResponse

    duel = board.session.duel
    d = duel.pending
    mine = wants.get(d.player, [])
    wanted = next((o for o in d.options if mine and _label(o) == mine[0]), None)
    # who means to respond now: a player whose next step is an activation, once a chain is open
    responder = next((p for p in (0, 1) if wants.get(p) and wants[p][0].startswith("activate") and duel.chain
                      and d.kind == Kind.CHAIN), None)
    if isinstance(screen, SharedResponse):
        return [str(responder + 1) if responder is not None else "s" if skip else "enter"]
    if isinstance(screen, CurtainScreen):
        return ["enter"]
    if isinstance(screen, ChoicePrompt):
        labels = [_label(o) for o in screen.options]
        target = mine[0] if mine and mine[0] in labels else None
        if target is None and "pass" in labels:
            target = "pass"
        if target is not None and target != "pass" and mine and target == mine[0]:
            mine.pop(0)
        index = labels.index(target) if target is not None else 0
        now = screen.query_one("#choices", OptionList).highlighted
        if getattr(screen, "digits", False) and index < 9 and now != index:
            return [str(index + 1)]
        keys = ["down"] if now is None else []
        now = now or 0
        return keys + (["down"] * (index - now) if index >= now else ["up"] * (now - index)) + ["enter"]
    if isinstance(screen, SelectPrompt):
        return [*["space", "down"] * screen.decision.min, "enter"]
    if isinstance(screen, DuelScreen) and d.kind in (Kind.COMMAND, Kind.BATTLE) and d.player == board.session.viewer:
        if wanted is not None and wanted.verb == "attack":
            return ["a"]
        if wanted is not None and wanted.card is not None:
            row = board.board.slots["bottom-hand"]
            slot = next(s for s in row if s.uid == wanted.card)
            here = row.index(board.board.cursor) if board.board.cursor in row else 0
            there = row.index(slot)
            return (["right"] * (there - here) if there >= here else ["left"] * (here - there)) + ["enter"]
        return ["n"]
    return ["enter"]


async def count_turn(pool: CardPool, plan: dict[int, list[str]], size: tuple[int, int] = (120, 40), trace: bool = False,
                     skip: bool = False, timings: dict[str, list[float]] | None = None) -> int:
    """The presses a turn takes. With `timings`, each key is also timed from its sending to the
    first repaint (as `bench --tui` times keys), by what was on screen when it was pressed."""
    from ..engine import build_position
    from ..tui.app import YgoApp
    from ..tui.presenters.session import Seat, Session
    from ..tui.screens.duel import DuelScreen
    from ..tui.widgets.questions import open_question

    wants = {p: list(labels) for p, labels in plan.items()}

    def start(app: YgoApp) -> DuelScreen:
        duel = build_position(pool, POSITION, seed=1)
        seats = (Seat("Player 1", "human", "always"), Seat("Player 2", "human", "always"))
        return DuelScreen(Session.start(duel, pool, seats, hot_seat=True, autosave=False), title="hot-seat")

    app = YgoApp(pool, paths.deck_dirs(), start=start)
    presses = 0
    async with app.run_test(size=size) as pilot:

        async def press(*keys: str) -> None:
            nonlocal presses
            presses += len(keys)
            d = duel.pending
            if trace and d is not None:
                print(f"  {type(app.screen).__name__:16s} P{d.player + 1} {d.kind.value:8s} {d.prompt[:60]:60s} {' '.join(keys)}")
            if timings is None:
                await pilot.press(*keys)
                await pilot.pause()
                return
            from .tui_bench import timed_key

            for key in keys:
                asked = open_question(app)
                kind = "board" if isinstance(asked, DuelScreen) else type(asked).__name__
                latency = await timed_key(app, pilot, key)
                if latency is not None:
                    timings.setdefault(kind, []).append(latency)

        await pilot.pause()
        for _ in range(300):
            await pilot.pause()
            board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
            duel = board.session.duel
            d = duel.pending
            if d is None or duel.turn > 3:
                return presses
            await press(*_next_keys(open_question(app), board, wants, skip))
    raise AssertionError("the turn did not end")


async def count_solo_turn(pool: CardPool, skip: bool = False, trace: bool = False, size: tuple[int, int] = (120, 40)) -> int:
    """The presses the AI's turn costs the human in `SOLO_POSITION` (ai:normal thinks in a worker,
    as in the app; nothing is pressed while it thinks)."""
    from ..engine import build_position
    from ..tui.app import YgoApp
    from ..tui.presenters.session import Seat, Session
    from ..tui.screens.duel import DuelScreen
    from ..tui.widgets.questions import ChoicePrompt, open_question

    def start(app: YgoApp) -> DuelScreen:
        duel = build_position(pool, SOLO_POSITION, seed=1)
        seats = (Seat("Player 1", "human", "auto"), Seat("AI (normal)", "ai:normal", "auto"))
        return DuelScreen(Session.start(duel, pool, seats, hot_seat=False, think_apart=True, autosave=False), title="solo", solo=True)

    app = YgoApp(pool, paths.deck_dirs(), start=start)
    presses = 0
    async with app.run_test(size=size) as pilot:
        for _ in range(3000):
            await pilot.pause(0.02)
            board = next(s for s in app.screen_stack if isinstance(s, DuelScreen))
            duel = board.session.duel
            d = duel.pending
            if d is None or duel.turn > 4:
                return presses
            screen = open_question(app)
            if board.thinking or d.player != 0 or (screen is board and d.kind not in (Kind.COMMAND, Kind.BATTLE)):
                continue  # the AI's move: wait
            if isinstance(screen, ChoicePrompt) and d.kind == Kind.CHAIN:
                keys = ["s"] if skip and getattr(screen, "skippable", False) else ["p"]
            else:
                keys = ["enter"]
            if d.kind in (Kind.COMMAND, Kind.BATTLE):
                return presses  # the human's own turn: the AI's is over
            if trace:
                print(f"  {type(screen).__name__:16s} P{d.player + 1} {d.kind.value:8s} {d.prompt[:60]:60s} {' '.join(keys)}")
            presses += len(keys)
            await pilot.press(*keys)
    raise AssertionError("the AI's turn did not end")


async def count_all(pool: CardPool, trace: bool = False) -> dict[str, int]:
    figures = {}
    plans = {**PLANS, **SKIPPING}
    for name, plan in plans.items():
        if trace:
            print(name)
        figures[name] = await count_turn(pool, plan, trace=trace, skip=name.endswith(", s"))
    for name, skip in (("solo vs AI", False), ("solo vs AI, s", True)):
        if trace:
            print(name)
        figures[name] = await count_solo_turn(pool, skip, trace)
    return figures


async def time_all(pool: CardPool) -> dict[str, list[float]]:
    """Every key of the turns above (`s` ones too), timed to its first repaint, by what was on
    screen when it was pressed (`bench --tui`)."""
    timings: dict[str, list[float]] = {}
    for name, plan in {**PLANS, **SKIPPING}.items():
        await count_turn(pool, plan, skip=name.endswith(", s"), timings=timings)
    return timings


def main() -> None:
    pool = CardPool.load(paths.card_dirs())
    figures = asyncio.run(count_all(pool, trace="-v" in sys.argv))
    for name, presses in figures.items():
        empty = figures["empty, s" if name.endswith(", s") else "empty"]
        extra = f" ({presses - empty:+d} over an empty turn)" if not name.startswith(("empty", "solo")) else ""
        print(f"{name:14s} {presses:3d} presses{extra}")


if __name__ == "__main__":
    main()
