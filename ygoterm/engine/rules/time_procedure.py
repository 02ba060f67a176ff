"""The time procedure inside a duel (R-TIME-2…4, R-TIME-6), as the turns go by: narrate a
limit when it is set, say which extra turn is being played, and after the last one let LP decide
(or begin sudden death). The limit itself is a value (state/timelimit.py); sudden death's "the
first LP change decides" is checked where LP change (`DuelState.change_lps`)."""

from __future__ import annotations

from dataclasses import replace

from ..core.decision import EndReason
from ..core.events import TimeProcedure
from ..state.duel_state import DuelState
from ..state.timelimit import EXTRA_DUEL, TimeLimit


def called(d: DuelState, limit: TimeLimit) -> None:
    """Narrate a limit just set."""
    if limit.kind == EXTRA_DUEL:
        text = f"Extra duel: {limit.last_turn} turns from 8000 LP, then the higher LP wins the match (R-TIME-6)"
    elif limit.extra:
        text = (f"Time is called: turn {limit.called_turn} is played to its end, then {limit.extra} extra "
                f"turn{'s' if limit.extra != 1 else ''}, starting with the opponent's (R-TIME-2)")
    else:
        text = f"Time is called: turn {limit.called_turn} is played to its end, then LP decide (R-TIME-3)"
    d.emit(TimeProcedure("called", d.turn, 0, limit.extra, text))


def turn_started(d: DuelState) -> None:
    """At the start of a turn: say which extra turn it is."""
    limit = d.time_limit
    if limit is None or limit.sudden_death:
        return
    n = limit.extra_turn(d.turn)
    if n:
        what = "Extra duel: turn" if limit.kind == EXTRA_DUEL else "Extra turn"
        rule = "R-TIME-6" if limit.kind == EXTRA_DUEL else "R-TIME-2"
        d.emit(TimeProcedure("extra_turn", d.turn, n, limit.extra, f"{what} {n} of {limit.extra}: {d.names[d.turn_player]} ({rule})"))


def turn_ended(d: DuelState) -> None:
    """After a turn: once the last turn is over, LP decide (R-TIME-3) or sudden death begins
    (R-TIME-4) — or, in a custom procedure, equal LP draw the duel."""
    limit = d.time_limit
    if limit is None or limit.sudden_death or d.turn < limit.last_turn:
        return
    a, b = d.players[0].lp, d.players[1].lp
    rule = "R-TIME-6" if limit.kind == EXTRA_DUEL else "R-TIME-3"
    after = f"after turn {d.turn}" if limit.kind == EXTRA_DUEL else f"after the {limit.extra} extra turns" if limit.extra else f"after turn {d.turn}"
    if a != b:
        winner = 0 if a > b else 1
        d.emit(TimeProcedure("judged", d.turn, 0, 0, f"LP {after}: {a} – {b} ({rule})"))
        d.decide(winner, EndReason.TIME, f"more LP {after}: {max(a, b)} vs {min(a, b)} ({rule})")
    if limit.equal_lp == "draw":
        d.emit(TimeProcedure("judged", d.turn, 0, 0, f"LP {after}: {a} – {b}, equal (V-25 custom: a draw)"))
        d.decide(None, EndReason.TIME, f"equal LP {after}: {a} each (custom time procedure)")
    d.time_limit = replace(limit, sudden_death=True)
    d.emit(TimeProcedure("sudden_death", d.turn, 0, 0,
                         f"LP {after}: {a} – {b}, equal: sudden death — the first LP change that leaves them unequal decides (R-TIME-4)"))
