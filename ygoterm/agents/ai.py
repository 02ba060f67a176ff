"""The AI opponent: rules of thumb, and at the normal and hard levels a search on possible worlds.

At a decision that matters (a Main Phase move, an attack, a response), the AI takes
its best few candidate answers (`Heuristic` ranks them) and plays each out in determinized
worlds (`Observation.world`: its own knowledge, the hidden cards dealt again): the answer, then
both players by the rules of thumb until the turn after next begins (hard: four turns on),
then `evaluate`. It also searches which card to pick, whether to use an optional effect and
which battle position to take. All candidates are played in the same worlds (paired play-outs:
differences between them are not drowned by the luck of the deal), the weaker half is dropped
halfway, and the best mean wins if it beats the heuristic's own answer clearly (more than the
noise of a few dozen play-outs). This is determinized ("perfect information") Monte Carlo over
the AI's own decision, with a heuristic default policy — docs/ai.md says why and what it measured.

The budget is a number of simulated engine decisions, not seconds: the same duel, seed and
answers give the same AI answers on any machine, under any load, in any worker process, and a
decision whose play-outs run long (a Main Phase with many moves) stops after as much work as one
whose play-outs are short — the time per decision is steady. The levels' budgets are set so that
a decision takes at most about 0.3 s (normal) and 2 s (hard) on the classic decks.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from ..engine import Decision, Kind, Option
from .evaluate import evaluate
from .observation import Answer, Observation, mentions, observe
from .policy import Heuristic

if TYPE_CHECKING:
    from ..engine import Duel

# decisions simulated per searched decision, each play-out counting PLAYOUT_COST more. On this
# machine (`ygoterm bench --ai LEVEL`, CPU time per searched decision, Kaiba vs Joey, 2026-12-03)
# normal takes p50 0.11 s, p95 0.13 s and hard p50 0.68 s, p95 0.76 s: within the levels' 0.3 s
# and 2 s, with room (the machine's speed drifts; docs/ai.md has the history)
LEVELS = {"easy": 0, "normal": 1000, "hard": 6500}
# turns a play-out sees (it ends when the turn after them begins): hard's larger budget pays for
# play-outs twice as long, which normal's cannot afford (docs/ai.md)
TURNS = {"easy": 2, "normal": 2, "hard": 4}
# what a level does, as the menus say it (times: `ygoterm bench --ai LEVEL`, docs/ai.md). Not "how
# strong": hard scores about 51% against normal (docs/ai.md, "what bounds the search")
# (2026-12-06: normal p50 0.18 s, hard 1.1 s on Kaiba vs Joey and 1.9 s on two GOAT decks — slower than the 12-03
# figures above; issue notes of that stop)
ABOUT = {"easy": "rules of thumb, instant",
         "normal": "looks 2 turns ahead, 0.2–0.4 s a move",
         "hard": "looks 4 turns ahead, 1–2.5 s a move"}
CANDIDATES = 5  # answers searched at most (the heuristic's best, plus moving on)
MARGIN = 0.25  # how much better (in evaluation units, ~1000 LP) a searched answer must be than the heuristic's
PLAYOUT_COST = 3  # what dealing or copying a world costs, in simulated decisions
HORIZON = 160  # decisions a play-out may take at most
LINE = 6  # moves of the expected line kept for "why?"
# which card (a target, a Tribute, a search), whether (an optional effect) and how (a battle
# position): searched too, among the heuristic's best few picks (docs/ai.md: at normal's budget,
# 298 against 293 of the same 400 duels with the beginner)
_SELECTIONS = frozenset((Kind.CARDS, Kind.YESNO, Kind.POSITION))
_MOVES = frozenset((Kind.COMMAND, Kind.BATTLE, Kind.CHAIN))  # a Main Phase move, an attack, a response
_SEARCHED = _MOVES | _SELECTIONS


Hide = Callable[[int], "str | None"]  # a card's uid -> how a viewer who may not see it calls it (None: they may)


@dataclass
class Thought:
    """Why the AI answered as it did: the candidates it weighed (for the solo screen's "why?").

    Its texts name the AI's own hidden cards (its hand, its Set cards, the cards it expects to
    draw), so `names` keeps every card they mention — (uid, the name it was mentioned under) —
    and `lines(hide)` shows them to a viewer as that viewer may see them (R-TERM-6)."""

    decision: str
    candidates: list[tuple[str, float, int]] = field(default_factory=list)  # (answer, mean value, play-outs)
    chosen: str = ""
    line: list[tuple[int, str]] = field(default_factory=list)  # (whose move, the move): what followed the chosen answer in its last play-out
    names: frozenset[tuple[int, str]] = frozenset()  # the cards the texts above mention
    player: int = 0  # the AI's seat

    def lines(self, hide: Hide | None = None, seats: Sequence[str] = ("Player 1", "Player 2")) -> list[str]:
        """The explanation as text; `hide` masks the cards a viewer may not see (None: names all,
        for the AI's own player or once the duel is over)."""
        said = self._masker(hide)
        decision = said(self.decision).replace("your move", f"{seats[self.player]}'s move")  # (the engine asked the AI)
        out = [f"{decision}: chose {said(self.chosen)}", "   value  play-outs  answer"]
        most = max((visits for _, _, visits in self.candidates), default=0)
        for label, value, visits in sorted(self.candidates, key=lambda c: (c[2] < most, -c[1])):
            dropped = " (dropped halfway)" if visits < most else ""
            out.append(f"  {value:+6.2f}  {visits:>6}     {said(label)}{dropped}")  # (the label last: a long one wraps alone)
        if self.line:
            out.append("  expected (one of its play-outs): " + " → ".join(f"{seats[p]}: {said(move)}" for p, move in self.line))
        return out

    def _masker(self, hide: Hide | None) -> Callable[[str], str]:
        masks = [] if hide is None else sorted(((name, mask) for uid, name in self.names if (mask := hide(uid)) is not None),
                                               key=lambda m: -len(m[0]))  # (longest first: "Dark Magician Girl" before "Dark Magician")

        def said(text: str) -> str:
            for name, mask in masks:
                text = text.replace(name, mask)
            return text
        return said


class AIAgent:
    def __init__(self, level: str = "normal", seed: int = 0, budget: int | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r}: choose one of {', '.join(LEVELS)}")
        self.level = level
        self.budget = LEVELS[level] if budget is None else budget  # engine decisions a search may simulate
        self.policy = Heuristic(seed, careful=True)
        self.rng = random.Random(f"ai:{seed}")
        self.last: Thought | None = None  # the last searched decision's reasoning
        self.turns = TURNS[level]

    def choose(self, obs: Observation | None, decision: Decision) -> Answer:
        heuristic = self.policy.choose(obs, decision)
        if obs is None or self.budget <= 0 or decision.kind not in _SEARCHED or len(decision.options) < 2:
            return heuristic
        candidates: Sequence[Answer]
        if decision.kind in _SELECTIONS:
            candidates = self.selections(obs, decision, heuristic)
        elif decision.kind == Kind.CHAIN and _open_window(obs):
            if not isinstance(heuristic, Option) or heuristic.verb == "pass":
                return heuristic
            candidates = [heuristic, *(o for o in decision.options if o.verb == "pass")]
        else:
            candidates = self.candidates(obs, decision, heuristic)
        if len(candidates) < 2:
            return candidates[0]
        return self.search(obs, decision, candidates)

    def candidates(self, obs: Observation, decision: Decision, heuristic: Answer) -> list[Option]:
        """The heuristic's choice, the best other moves by its values, and the move that goes on."""
        chosen = heuristic if isinstance(heuristic, Option) else decision.options[0]
        policy = self.policy
        def value(o: Option) -> float:
            if decision.kind == Kind.BATTLE and o.verb == "attack":
                return policy.attack_value(obs, o)
            if decision.kind == Kind.COMMAND:
                return policy.command_value(obs, o)
            return policy.activation_value(obs, o, open_state=False) if o.verb == "activate" else 0.0
        ranked = sorted((o for o in decision.options if o is not chosen), key=lambda o: -value(o))
        moving_on = [o for o in decision.options if o.verb in ("end", "main2", "pass", "battle") and o is not chosen]
        out = [chosen]
        for o in moving_on + ranked:
            if o not in out and len(out) < CANDIDATES:
                out.append(o)
        return out

    def selections(self, obs: Observation, decision: Decision, heuristic: Answer) -> list[Answer]:
        """The heuristic's pick and the next best single cards (a selection of exactly one card),
        or every answer of a yes/no or position question."""
        if decision.kind != Kind.CARDS:
            return [heuristic, *(o for o in decision.options if o != heuristic)]
        if decision.sets or decision.min != 1 or decision.max != 1 or isinstance(heuristic, Option) or len(heuristic) != 1:
            return [heuristic]
        ranked = self.policy.ranked_cards(obs, decision)
        picks: list[Answer] = [list(heuristic), *([o] for o in ranked if o != heuristic[0])]
        return picks[:CANDIDATES]

    def search(self, obs: Observation, decision: Decision, candidates: Sequence[Answer]) -> Answer:
        """Rounds of play-outs: each round deals one possible world and plays every remaining
        candidate in it, so candidates are compared on the same cards (paired samples: far less
        noise than each on worlds of its own). Halfway, the weaker half is dropped; the
        heuristic's own answer (candidate 0) stays, as the yardstick: another answer replaces it
        only when it is better by more than `MARGIN` and by more than the noise of the paired
        differences (one standard error). Otherwise a search of a few dozen play-outs would pick
        among near-equal answers by luck — a Trap fired at the Standby Phase for nothing."""
        values: list[list[float]] = [[] for _ in candidates]
        alive = list(range(len(candidates)))
        lines: dict[int, list[tuple[int, str]]] = {}
        names: dict[int, set[tuple[int, str]]] = {}
        spent = 0  # decisions simulated: the budget counts them, not play-outs, so that long play-outs cost their time
        while spent < self.budget or not values[0]:
            world = obs.world(self.rng.randrange(2**31))  # dealt once, copied for each candidate
            for n, i in enumerate(alive):
                lines[i], names[i] = [], set()
                value, steps = self.playout(obs, world if n == len(alive) - 1 else world.copy(), candidates[i], lines[i], names[i])
                values[i].append(value)
                spent += steps + PLAYOUT_COST
            if len(alive) > 2 and spent >= self.budget // 2:
                ranked = sorted(alive[1:], key=lambda k: -_mean(values[k]))
                alive = [0, *sorted(ranked[:max(1, len(alive) // 2)])]
        means = [_mean(v) if v else float("-inf") for v in values]
        best = max(alive, key=lambda k: (means[k], -k))
        if best != 0 and not _clearly_better(values[best], values[0]):
            best = 0
        weighed = [c for c, v in zip(candidates, values) if v]
        self.last = Thought(decision.prompt, [(_label(c), m, len(v)) for c, m, v in zip(candidates, means, values) if v],
                            _label(candidates[best]), lines.get(best, []),
                            frozenset(obs.mentions(weighed, decision.subject) | names.get(best, set())), obs.player)
        return candidates[best]

    def playout(self, obs: Observation, world: "Duel", answer: Answer, line: list[tuple[int, str]] | None = None,
                names: set[tuple[int, str]] | None = None) -> tuple[float, int]:
        """Play `answer` in a possible `world` (it is played on), then both sides by rules of
        thumb, and evaluate the position when `turns` turns have begun; returns the value and
        the decisions it took. `line` collects the first moves that were choices (as the AI saw
        them in that world: its guess, never the real cards) and `names` the cards they name."""
        me, start = obs.player, world.turn
        world.apply(answer)
        steps = 1
        for steps in range(1, HORIZON + 1):
            pending = world.pending
            if pending is None or world.turn >= start + self.turns:
                break
            reply = self.policy.choose(observe(world, pending.player, obs.pool), pending)
            if line is not None and len(line) < LINE and len(pending.options) > 1 and pending.kind in _MOVES \
                    and isinstance(reply, Option) and reply.verb not in ("pass", ""):
                line.append((pending.player, reply.label))
                if names is not None:
                    names |= mentions(world, (reply,))
            world.apply(reply)
        return evaluate(world, me), steps


def _open_window(obs: Observation) -> bool:
    """A response window with nothing to answer: no chain, no attack, no Summon being declared.
    The rules of thumb know when such a moment is worth a card (removal on the opponent's turn,
    a helper before their End Phase is over); a search there only ever found reasons to fire a
    card early — a combat trick in the opponent's Draw Phase, Call of the Haunted into their
    stronger monsters — that were the play-outs' quirks (two turns seen, a heuristic opponent
    that fears an ATK boost lasting one turn). So at such a window the search may hold back a
    card the rules of thumb would use, never fire one they keep."""
    view = obs.view
    return not view.chain and view.attacker is None and not view.summoning


def _label(answer: Answer) -> str:
    return answer.label if isinstance(answer, Option) else ", ".join(o.label for o in answer)


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _clearly_better(values: list[float], baseline: list[float]) -> bool:
    """Whether `values` beat `baseline` on the same worlds (the first len(values) rounds) by more
    than MARGIN and more than one standard error of the paired differences."""
    diffs = [v - b for v, b in zip(values, baseline)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean > MARGIN
    spread = (sum((x - mean) ** 2 for x in diffs) / (n - 1) / n) ** 0.5
    return mean > MARGIN and mean > spread
