"""The command palette's entries on the duel screen: its commands (concede, leave), listed
before anything is typed, and the manual actions (DESIGN.md §4) where the duel allows them."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from ...engine import Manual


@runtime_checkable
class CommandsScreen(Protocol):
    """What the palette asks of the duel screen."""

    asking: bool
    session: Any

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None: ...
    def manual_commands(self) -> list[tuple[str, Manual]]: ...
    def run_manual(self, action: Manual) -> None: ...
    def action_concede(self) -> None: ...
    def action_quit_duel(self) -> None: ...


def _screen(provider: Provider) -> CommandsScreen | None:
    """The duel screen, unless a question is open over its board (it comes first)."""
    screen = provider.screen
    if not isinstance(screen, CommandsScreen) or screen.asking:
        return None
    return screen


class ManualCommands(Provider):
    """The command palette's manual actions, when the duel allows them."""

    async def search(self, query: str) -> Hits:
        screen = _screen(self)
        if screen is None:
            return
        matcher = self.matcher(query)
        for label, action in screen.manual_commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(screen.run_manual, action), help="manual action")


class DuelCommands(Provider):
    """The command palette's duel commands (concede, leave), listed before anything is typed."""

    def _commands(self) -> list[tuple[str, Callable[[], None], str]]:
        screen = _screen(self)
        if screen is None:
            return []
        commands = []
        if screen.check_action("concede", ()):
            who = screen.session.at_keyboard()
            name = screen.session.duel.names[who] if who is not None else "you"
            commands.append((f"Concede the duel ({name})", screen.action_concede, "R-WIN-5: counts as a loss; asks first"))
        commands.append(("Back to the menu", screen.action_quit_duel, "asks first while the duel is on"))
        return commands

    async def discover(self) -> Hits:
        for label, run, help_text in self._commands():
            yield DiscoveryHit(label, run, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, run, help_text in self._commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), run, help=help_text)
