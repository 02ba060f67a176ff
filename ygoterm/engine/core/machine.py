"""Pending work as data (DESIGN.md §2): the flow is a stack of frames, not suspended generators.

A frame is a small record of one piece of work the rules are in the middle of — a turn, a
phase, a response window, an attack, a chain — with the values it needs as plain fields (card
uids, counts, enums, tuples). `at` names the frame's method that runs when it resumes; a step
method receives the duel and the value it waited for, and returns what happens next:

- a `Decision`: a player must choose; the answer is passed to the step named by `at`;
- a child `Frame`: run it first, then resume with its result;
- `Return(value)`: this frame is finished.

So the whole duel, flow included, is a data structure: copying the stack (`Frame.clone`) and
the state copies a duel at any pending decision without replaying it (engine/state/copying.py).

Calls that may or may not need to ask — an operation, a handler, the cards of a selection
(engine/effects/registry.py) — return their result at once, or a Frame that works it out: `follow` takes
either. The engine's own flow is all frames. A step may still return a generator (a handler or
a test written that way): it runs inside a `GenFrame`, and a duel whose stack holds one cannot
be copied as data and is copied by replay.
"""

from __future__ import annotations

from types import GeneratorType
from typing import Any, Callable, Generator, Union

from .decision import Decision

# A frame's steps receive the duel (state/duel_state.py's DuelState, a layer above this one, so
# typed Any here; the frames themselves, in the layers above, annotate it).
AnyDuel = Any


class Return:
    """A frame's last step: its result goes to the frame below."""

    __slots__ = ("value",)

    def __init__(self, value: Any = None) -> None:
        self.value = value


DONE = Return(None)
Next = Union[Decision, "Frame", Return, Generator[Any, Any, Any]]
Step = Callable[[Any, Any], Next]  # a frame's step method: (the duel, the value it waited for) → what next


class Frame:
    """A record of pending work. Subclasses are dataclasses of plain values; `at` is the step
    that runs next ("start" for a new frame)."""

    at = "start"

    def start(self, d: AnyDuel, _: Any) -> Next:
        raise NotImplementedError

    def __iter__(self) -> Generator[Any, Any, Any]:
        """`result = yield from frame` inside a generator: the machine runs the frame."""
        return (yield self)

    def ask(self, step: str, decision: Decision) -> Decision:
        """Ask a player; the answer goes to `step`."""
        self.at = step
        return decision

    def then(self, d: AnyDuel, step: str, child: "Frame | Generator[Any, Any, Any] | None | tuple[()]") -> Next:
        """Run `child` first and give its result to `step`; with no child (a window no one
        can use, `windows.window`), go on to `step` at once."""
        self.at = step
        if child is None or isinstance(child, tuple):
            return self._step(step)(d, None)
        return child

    def follow(self, d: AnyDuel, step: str, out: Any) -> Next:
        """Give `out` to `step`: at once when it is a result, after running it when it is a
        Frame (or a generator) — for calls that return "a result or a Frame" (operations,
        handlers, `Ctx.cards` of effects/context.py)."""
        self.at = step
        if isinstance(out, (Frame, GeneratorType)):
            child: Next = out
            return child
        return self._step(step)(d, out)

    def _step(self, name: str) -> Step:
        step: Step = getattr(self, name)
        return step

    def finish(self, d: AnyDuel, _: Any) -> Next:
        """A last step that only ends the frame (after a last child: `then(d, "finish", …)`)."""
        return DONE

    def clone(self, remap: Any) -> "Frame":
        """A copy for a copied duel: plain values are shared, cards and state objects remapped."""
        new = object.__new__(type(self))
        new.__dict__.update({k: remap.value(v) for k, v in self.__dict__.items()})
        return new


class GenFrame(Frame):
    """A generator returned as a child (not the engine's own flow): it runs, but cannot be copied."""

    def __init__(self, gen: Generator[Any, Any, Any]) -> None:
        self.gen = gen
        self.at = "send"

    def send(self, d: AnyDuel, value: Any) -> Next:
        try:
            out: Next = self.gen.send(value)
            return out
        except StopIteration as stop:
            return Return(stop.value)

    def clone(self, remap: Any) -> "Frame":
        raise TypeError("a generator cannot be copied")


def advance(d: AnyDuel, stack: list[Frame], value: Any) -> Decision | None:
    """Run the flow until a player must decide (the Decision) or it has nothing left (None)."""
    push, pop = stack.append, stack.pop
    while stack:
        frame = stack[-1]
        try:
            out: Any = getattr(frame, frame.at)(d, value)
        except _BUGS as e:
            for below in reversed(stack):  # the innermost frame that reports bugs (effects/resolve.py: ResolveLink)
                report = getattr(below, "failed", None)
                if report is not None:
                    raise report(d, e) from e
            raise
        kind = type(out)
        if kind is Decision:
            decision: Decision = out
            return decision
        if kind is Return:
            pop()
            value = out.value
            continue
        if kind is GeneratorType:
            out = GenFrame(out)
        push(out)
        value = None
    return None


# Python errors that mean an engine bug (not DuelOver or IllegalChoice): a frame with a `failed(d,
# error)` method turns them into an error that says what was resolving (errors.EffectError).
_BUGS = (AssertionError, AttributeError, KeyError, IndexError, TypeError, ValueError, ZeroDivisionError)


def copyable(stack: list[Frame]) -> bool:
    """Can this flow be copied as data (no part of it is a generator)?"""
    return not any(type(f) is GenFrame for f in stack)


def close(stack: list[Frame]) -> None:
    """Abandon the flow (a concession, a manual action that ended the duel)."""
    for frame in reversed(stack):
        if isinstance(frame, GenFrame):
            frame.gen.close()
    stack.clear()
