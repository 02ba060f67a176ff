"""The duel screen: both fields, hands, piles, the chain and the log; every prompt.

The screen holds no rule. It draws `session.view()`, offers the pending decision's options
(and the engine's explanations for what is not allowed), and hands answers to the session.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any, Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from ..engine import (EMZ_LEFT, FIELD_ZONE, SEPARATE_PENDULUM_ZONES, CardView, ChainLinkAdded, ChainResolves,
                      DuelView, IllegalChoice, Kind, Loc, Manual, Negated, Option, PhaseChange, Pos, SideView, Step)
from .prompts import (ChoicePrompt, ConfirmScreen, CurtainScreen, DuelOverScreen, HelpScreen, InputPrompt, MessageScreen,
                      PileScreen, Question, SharedResponse, prompt_for)
from .render import card_detail
from .session import PUBLIC, EngineBug, Session
from .widgets import (EMZ_WIDTH, HAND_MIN, HAND_SLOTS, CardSlot, ChainPanel, DetailPanel, FieldRow, KeyBar, LogPanel, PlainNotifications, SideLine,
                      StatusBar)

ROWS = ("top-hand", "top-st", "top-m", "emz", "bottom-m", "bottom-st", "bottom-hand")
_BOARD_KINDS = (Kind.COMMAND, Kind.BATTLE)  # your move: answered from the board (keys, c, a), never a waiting prompt


class ManualCommands(Provider):
    """The command palette's manual actions (DESIGN.md §4), when the duel allows them."""

    async def search(self, query: str) -> Hits:
        screen = self.screen
        if not isinstance(screen, DuelScreen) or screen.asking:  # (a question open over the board comes first)
            return
        matcher = self.matcher(query)
        for label, action in screen.manual_commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), partial(screen.run_manual, action), help="manual action")


class DuelCommands(Provider):
    """The command palette's duel commands (concede, leave), listed before anything is typed."""

    def _commands(self) -> list[tuple[str, Any, str]]:
        screen = self.screen
        if not isinstance(screen, DuelScreen) or screen.asking:  # (a question open over the board comes first)
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


class DuelScreen(PlainNotifications, Screen):
    """One duel, hot-seat or solo."""

    COMMANDS = {DuelCommands, ManualCommands}
    AUTO_FOCUS = ""  # (the board takes no focus; the app's "*" would focus a hidden question kept for the next one)
    # The key bar shows the bindings with a description that `check_action` allows now, in this
    # order; `_KEEP` says which stay longest when the terminal is too narrow for all of them.
    BINDINGS = [
        Binding("question_mark", "help", "help"),
        Binding("enter", "act", "card", key_display="Enter"),
        Binding("c", "commands", "commands"),
        Binding("space", "commands", show=False),
        Binding("n", "next", "next"),
        Binding("a", "attack", "attack"),
        Binding("p", "pass_", "pass"),
        Binding("g", "pile('gy')", "GY"),
        Binding("shift+g,G", "pile('gy', True)", show=False),
        Binding("b", "pile('banished')", "banished", show=False),
        Binding("shift+b,B", "pile('banished', True)", show=False),
        Binding("x", "pile('extra')", "Extra", show=False),
        Binding("d", "detail", "card text", show=False),
        Binding("u", "undo", "undo"),
        Binding("r", "restart", "restart", show=False),
        Binding("r", "rematch", "rematch"),  # (the same key once the duel is over: check_action picks one)
        Binding("t", "test_hand", "new hand", show=False),
        Binding("f", "toggle_first", show=False),
        Binding("s", "save", "save", show=False),
        Binding("w", "why", "why?"),
        Binding("ctrl+p", "manual", "manual"),  # (disabled, ctrl+p falls through to the app: the palette with concede)
        Binding("ctrl+x", "concede", "concede"),
        Binding("q", "quit_duel", "menu"),
        Binding("left,h", "move(0,-1)", show=False),
        Binding("right,l", "move(0,1)", show=False),
        Binding("up,k", "move(-1,0)", show=False),
        Binding("down,j", "move(1,0)", show=False),
    ]
    _KEEP = ("help", "quit_duel", "act", "commands", "next", "attack", "rematch", "undo", "concede", "pass_", "manual",
             "why", "pile")

    def __init__(self, session: Session, *, title: str = "", solo: bool = False, briefing: str = "") -> None:
        super().__init__()
        self.session = session
        self.title_text = title
        self.solo = solo
        self.briefing = briefing  # shown once before the first decision (a puzzle's task)
        self.asking = False
        self.refused = ""  # why the last answer was refused (shown when the question is asked again)
        self.attack_next = False  # a in Main Phase 1 went to battle: the Battle Step asks for the attack
        self.bottom = 0
        self.last_lp: list[int] = [p.lp for p in session.duel.players]
        self.lp_change = [0, 0]
        self.logged = 0  # events of the duel's log written to the log panel
        self.log_last: Any = None  # the last of them (is the log still the one written?)
        self.log_viewer: int | None = None
        self.chain_memory: list[list[Any]] = []
        self.prefer_first = True
        self.cursor: CardSlot | None = None  # the board's own cursor (see CardSlot)
        self.rows: list[list[CardSlot]] = []
        self.autosave_warned = ""  # the autosave failure last shown
        self.left_open: Any = None  # a question the player stepped back from with Escape (asked again with c)
        self.thinking = False  # the AI is thinking in a worker thread: the board shows, actions wait
        self.keys_mode: tuple[Any, ...] = ()  # what the key bar was drawn for (`_sync_keys`)
        self.over_shown = False  # the end-of-duel screen came up once (r and q work on the board after it)
        self.ready = False  # mounted: the board's widgets exist, keys may act
        self.picked: int | None = None  # the card of the option highlighted in an open prompt (marked on the board)
        self.question: Question | None = None  # the question open over the board (`_ask`)
        self.kept: dict[type, Question] = {}  # a question of each class that can be asked again, kept mounted (`_pose`)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="duel"):
            with Vertical(id="board"):
                yield StatusBar(id="status")
                yield SideLine(id="top-line")
                for row in ROWS:
                    yield self._field_row(row)
                yield SideLine(id="bottom-line")
            with Vertical(id="side"):
                yield DetailPanel(id="detail")
                yield ChainPanel(id="chain")
                yield LogPanel(id="log", wrap=True, markup=False, min_width=10)
            yield Vertical(id="questions")  # (a layer over the board: the duel's questions, `_ask`)
        yield KeyBar(id="keys")

    def _field_row(self, row: str) -> FieldRow:
        """One row of places: a hand, the Extra Monster Zones, or a field row (`_places`)."""
        pool = self.session.pool
        if row.endswith("hand"):
            return FieldRow([CardSlot(pool, "H", i, "", id=f"{row}-{i}") for i in range(HAND_SLOTS)], id=row, classes="hand")
        if row == "emz":
            return FieldRow([CardSlot(pool, "M", EMZ_LEFT + i, "Extra Monster Zone", id=f"emz-{i}") for i in range(2)],
                            id=row, fixed=EMZ_WIDTH)
        return FieldRow(list(self._places(row)), id=row)

    def _places(self, row: str) -> Iterable[CardSlot]:
        """Seven places. Yours: Field|M1..M5|GY and Extra|S1..S5|Deck; the opponent's mirrored."""
        pool = self.session.pool
        top = row.startswith("top")
        if row.endswith("-m"):
            ends = (("gy", "GY"), ("field", "Field")) if top else (("field", "Field"), ("gy", "GY"))
            zone, labels = "M", [f"M{i + 1}" for i in range(5)]
        else:
            ends = (("deck", "Deck"), ("extra", "Extra")) if top else (("extra", "Extra"), ("deck", "Deck"))
            zone, labels = "S", [f"S{i + 1}" for i in range(5)]
        seqs = list(range(5))[::-1] if top else list(range(5))
        # separate Pendulum Zones (V-06) sit at the ends of the Spell & Trap row, shown only when the rules have them
        left, right = SEPARATE_PENDULUM_ZONES[::-1] if top else SEPARATE_PENDULUM_ZONES
        yield CardSlot(pool, ends[0][0], FIELD_ZONE, ends[0][1], id=f"{row}-a")
        if zone == "S":
            yield CardSlot(pool, "S", left, "Pendulum", id=f"{row}-pl", pendulum=True)
        for col, seq in enumerate(seqs):
            yield CardSlot(pool, zone, seq, labels[seq], id=f"{row}-{col}")
        if zone == "S":
            yield CardSlot(pool, "S", right, "Pendulum", id=f"{row}-pr", pendulum=True)
        yield CardSlot(pool, ends[1][0], FIELD_ZONE, ends[1][1], id=f"{row}-b")

    def on_mount(self) -> None:
        # the places and widgets every refresh touches, looked up once (DOM queries cost more than drawing)
        self.slots = {row: self.query_one(f"#{row}", FieldRow).slots for row in ROWS}
        self.rows = [self.slots[row] for row in ROWS]
        self.emz_slots = self.slots["emz"]
        separate = self.session.duel.players[0].pendulum_zones == SEPARATE_PENDULUM_ZONES
        for slot in (slot for row in self.rows for slot in row if slot.pendulum):
            slot.set_display(separate)
        self.panels = {name: self.query_one(f"#{name}") for name in ("status", "top-line", "bottom-line", "chain", "log", "detail", "emz")}
        self.key_bar = self.query_one(KeyBar)
        self.questions = self.query_one("#questions", Vertical)
        self.bindings_updated_signal.subscribe(self, self._show_keys)
        self.ready = True
        reason = self.manual_reason()
        if reason:
            self.notify(reason, timeout=15)
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.set_class(self.size.height < 32, "compact")
        self.log_viewer = None  # re-flow the log to the new width
        self.call_after_refresh(self.refresh_board)

    # ------------------------------------------------------------------ drawing

    def refresh_board(self) -> None:
        s = self.session
        view = s.view()
        viewer = s.viewer
        if viewer != PUBLIC:
            self.bottom = viewer
        elif not self.solo:
            self.bottom = view.turn_player
        me, foe = view.sides[self.bottom], view.sides[1 - self.bottom]
        for p in (0, 1):
            lp = s.duel.players[p].lp
            self.lp_change[p] = lp - self.last_lp[p] if lp != self.last_lp[p] else self.lp_change[p]
            self.last_lp[p] = lp
        actionable = self._actionable()
        marks = self._marks(view)
        self._fill_side("bottom", me, actionable, marks)
        self._fill_side("top", foe, actionable, marks)
        for i, seq in enumerate((EMZ_LEFT, EMZ_LEFT + 1)):
            occupant = me.monsters[seq] or foe.monsters[seq]
            owner = self.bottom if me.monsters[seq] else 1 - self.bottom
            self.emz_slots[i].show(owner, occupant, highlight=bool(occupant and occupant.uid in actionable),
                                   foe=bool(occupant) and owner != self.bottom, mark=marks.get(occupant.uid, "") if occupant else "")
        emz = self.panels["emz"]
        if emz.display != (s.duel.rules.ruleset != "mr3"):
            emz.display = s.duel.rules.ruleset != "mr3"
        names = s.duel.names
        if s.autosave_error != self.autosave_warned:  # shown at once, once per new failure
            self.autosave_warned = s.autosave_error
            if s.autosave_error:
                self.notify(f"{s.autosave_error}. Play on, but save with s (to another folder if needed).",
                            severity="error", timeout=30)
        self.panels["status"].show(view, names, self._deciding_text(), self._extra_status(),
                                   "AUTOSAVE FAILING" if s.autosave_error else "")
        self.panels["top-line"].show(foe, self.lp_change[1 - self.bottom], view.turn_player != self.bottom, foe=True)
        self.panels["bottom-line"].show(me, self.lp_change[self.bottom], view.turn_player == self.bottom,
                                        "✎ manual actions on" if self.manual_reason() else "")
        self._update_chain(view)
        self._update_log()
        self._update_detail()
        self._sync_keys()

    def _sync_keys(self) -> None:
        """When what `check_action` depends on changes (besides the seats, fixed for a duel),
        the key bar follows (`refresh_bindings` → `_show_keys`)."""
        s = self.session
        mode = self.thinking, s.duel.outcome is not None, s.duel.pending is not None, s.at_keyboard()
        if mode != self.keys_mode:
            self.keys_mode = mode
            self.refresh_bindings()

    def _show_keys(self, _: Any = None) -> None:
        """The key bar: this screen's described bindings that work now (`check_action`), or,
        while a question is open over the board, the question's (the board's wait for it)."""
        items = []
        owner = self.question if self.question is not None else self
        for active in self.active_bindings.values():
            binding = active.binding
            if active.node is not owner or not binding.show or not binding.description or not active.enabled:
                continue
            action = binding.action.split("(")[0]
            keep = self._KEEP.index(action) if action in self._KEEP else len(self._KEEP)
            items.append((self.app.get_key_display(binding), binding.description, keep))
        self.key_bar.show(items)

    def _fill_side(self, where: str, side: SideView, actionable: set[int], marks: dict[int, str]) -> None:
        top = where == "top"
        owner = side.name if top else ""
        for row, zones in ((f"{where}-m", side.monsters), (f"{where}-st", side.spells)):
            for slot in self.slots[row]:
                if slot.zone in ("M", "S"):
                    view = zones[slot.seq]
                elif slot.zone == "field":
                    view = side.spells[FIELD_ZONE]
                else:
                    pile = {"gy": side.gy, "extra": side.extra}.get(slot.zone)
                    count = side.deck if slot.zone == "deck" else len(pile or ())
                    top_card = pile[-1] if pile else None
                    slot.show(side.player, top_card, count=count, highlight=bool(top_card and top_card.uid in actionable), foe=top)
                    continue
                slot.show(side.player, view, highlight=bool(view and view.uid in actionable), foe=top,
                          mark=marks.get(view.uid, "") if view else "", owner_name=owner)
        hand = side.hand
        for i, slot in enumerate(self.slots[f"{where}-hand"]):
            # At least HAND_MIN places stay on screen (the unused ones blank): showing or hiding a
            # place redraws the whole row, a blank place only itself.
            slot.in_use = i < len(hand) or (i == 0 and not hand)
            slot.set_display(i < max(len(hand), HAND_MIN))
            if i < len(hand):
                view = hand[i]
                slot.label = f"+{len(hand) - HAND_SLOTS + 1}" if i == HAND_SLOTS - 1 and len(hand) > HAND_SLOTS else ""
                slot.show(side.player, view, highlight=view.uid in actionable, foe=top, mark=marks.get(view.uid, ""))
            else:
                slot.label = "" if i else f"({side.name}: no cards in hand)" if top else "(your hand is empty)"
                slot.show(side.player, None, foe=top, mark="" if slot.in_use else "unused")

    def _actionable(self) -> set[int]:
        d = self.session.pending
        if d is None or d.player != self.session.viewer or d.kind not in _BOARD_KINDS:
            return set()
        return {o.card for o in d.options if o.card is not None}

    def _marks(self, view: DuelView) -> dict[int, str]:
        """What the board marks: the attacker and its target during a battle (public), and the
        cards the viewer's own open question offers ("option"; the highlighted one "picked")."""
        marks: dict[int, str] = {}
        d = self.session.pending
        if d is not None and d.player == self.session.viewer and d.kind not in _BOARD_KINDS:
            marks.update((o.card, "option") for o in d.options if o.card is not None)
            if self.picked is not None and self.picked in marks:
                marks[self.picked] = "picked"
        if view.attacker is not None:
            marks[view.attacker] = "attacker"
        if view.attack_target is not None:
            marks[view.attack_target] = "target"
        return marks

    def _deciding_text(self) -> str:
        s = self.session
        d = s.pending
        names = s.duel.names
        if s.duel.outcome is not None:
            return s.duel.outcome.text(names)
        if d is None:
            return ""
        if s.hot_seat and s.is_shared_prompt():
            return "anyone responding?" + (" (c to answer)" if d is self.left_open else "")
        if d.player != s.viewer and s.hot_seat:
            return f"{names[d.player]} to decide"
        prompt = d.prompt
        duel = s.duel
        for where in (duel.step.title if duel.step else None, duel.phase.title):
            if where and prompt.startswith(where + ": "):
                prompt = prompt[len(where) + 2:]  # the status line already names the phase and step
        return f"{names[d.player]}{' (c to answer)' if d is self.left_open else ''}: {prompt}"

    def _extra_status(self) -> str:
        parts: list[str] = []  # (a failing autosave is the status line's alert, never shortened away)
        if self.solo:
            parts.append(f"seed {self.session.duel.seed}")
        if self.title_text:
            parts.append(self.title_text)
        return " · ".join(parts)

    def _update_chain(self, view: DuelView) -> None:
        names = self.session.duel.names
        if view.chain:
            links = [(link.number, link.name, names[link.player], link.speed, ", ".join(link.targets)) for link in view.chain]
            self.panels["chain"].show(links)
            return
        # the chain that just resolved, link by link (R-CHAIN-1: last in, first out)
        panel = self.panels["chain"]
        if not self.chain_memory:
            panel.show([])
            return
        text = Text("Last chain\n", style="bold")
        for number, name, who, speed, state in self.chain_memory:
            mark = {"resolved": "✓", "negated": "✗"}.get(state, "·")
            text.append(f"{mark} CL{number} {name} ", style="bold" if state != "negated" else "strike dim")
            text.append(f"({who}, speed {speed}) {state}\n", style="dim")
        panel.update(text)

    def _remember_chain(self, events: list[Any]) -> None:
        names = self.session.duel.names
        for event in events:
            if isinstance(event, ChainLinkAdded):
                if event.number == 1:
                    self.chain_memory = []
                self.chain_memory.append([event.number, event.name, names[event.player], event.speed, "waiting"])
            elif isinstance(event, ChainResolves):
                for link in self.chain_memory:
                    if link[0] == event.number and link[4] == "waiting":
                        link[4] = "resolved"
            elif isinstance(event, Negated) and event.what == "activation":
                for link in self.chain_memory:
                    if link[1] == event.name and link[4] == "waiting":
                        link[4] = "negated"

    def _update_log(self) -> None:
        """Write the events not written yet; the whole log again only for another viewer, a new
        width, or a log that is no longer the one written (undo, an action taken back after
        something was logged). Writing it all costs a frame once the log is long."""
        s = self.session
        log = self.panels["log"]
        events = s.duel.log
        written = self.logged <= len(events) and (self.logged == 0 or events[self.logged - 1] is self.log_last)
        if self.log_viewer != s.viewer or not written:
            log.clear()
            self.logged = 0
            self.log_viewer = s.viewer
        names = s.duel.names
        viewer = s.viewer
        for event in events[self.logged:]:
            seen = event.for_player(viewer)
            if isinstance(seen, PhaseChange) and seen.step in (Step.DAMAGE_START, Step.BEFORE_DAMAGE, Step.AFTER_DAMAGE):
                continue
            style = "dim" if isinstance(seen, PhaseChange) else "bold yellow" if isinstance(seen, ChainLinkAdded) else ""
            log.write(Text(seen.text(names), style=style))
        self.logged = len(events)
        self.log_last = events[-1] if events else None

    def _update_detail(self) -> None:
        focused = self.cursor
        panel = self.panels["detail"]
        if focused is not None:
            if focused.count is not None and focused.view is None:
                panel.update(Text(f"{focused.label}: {focused.count} card{'s' if focused.count != 1 else ''}", style="bold"))
            else:
                panel.update(card_detail(self.session.pool, focused.view, focused.label or "Empty"))
        else:
            panel.update(Text("Move with the arrow keys; ? lists every key.", style="dim"))

    def _card_view(self, uid: int) -> CardView | None:
        """Card `uid` as the screen's viewer sees it (None: not on the board or in a pile)."""
        view = self.session.view()
        for side in view.sides:
            for pile in (side.monsters, side.spells, side.hand, side.gy, side.banished, side.extra):
                for card in pile:
                    if card is not None and card.uid == uid:
                        return card
        return None

    def describe(self, option: Option) -> str:
        """Whose card an option concerns, where it is and its stats, for prompt lists: "Player 2's
        M3 · 1400/1200 ATK". An option that names a target too (an attack) says whose details
        they are and where the target is: "attacker: Player 1's M1 · 1900/1200 ATK · target:
        Player 2's M2" (only the target's place: the label already names it as far as the viewer
        may know it). Only what the viewer may see (the view)."""
        card = self._card_view(option.card) if option.card is not None else None
        if card is None:
            return ""
        parts = [self._place(card)]
        if card.loc == Loc.MZONE and card.atk is not None:
            parts.append(f"{card.atk}/{card.defense} {'DEF' if card.pos in (Pos.DEFENSE, Pos.FACEDOWN_DEFENSE) else 'ATK'}")
        elif card.hidden:
            parts.append("face-down")
        if option.target is None:
            return " · ".join(parts)
        parts[0] = f"{'attacker' if option.verb == 'attack' else 'card'}: {parts[0]}"
        target = self._card_view(option.target)
        if target is not None:
            parts.append(f"target: {self._place(target)}")
        return " · ".join(parts)

    def _place(self, card: CardView) -> str:
        """Whose card and where, as the viewer sees it: "Player 2's M3", "Player 1's hand"."""
        where = {Loc.MZONE: f"M{card.seq + 1}" if card.seq < EMZ_LEFT else "EMZ", Loc.SZONE: "Field Zone" if card.seq == FIELD_ZONE else f"S{card.seq + 1}",
                 Loc.HAND: "hand", Loc.GY: "GY", Loc.BANISHED: "banished", Loc.EXTRA: "Extra Deck"}.get(card.loc, card.loc.name.lower())
        return f"{self.session.duel.names[card.controller]}'s {where}"

    def show_option(self, option: Option | None) -> None:
        """The highlighted option's card fills the detail panel (as the viewer sees it)."""
        panel = self.panels["detail"]
        uid = option.card if option is not None else None
        if uid != self.picked:
            self.picked = uid
            self.refresh_board()  # the board marks the highlighted option's card
        card = self._card_view(uid) if uid is not None else None
        if card is None and uid is not None and option is not None:
            real = self.session.duel.cards.get(uid)  # a card only this question shows (a Deck search): named in the option
            if real is not None and real.name in option.label:
                card = CardView(uid, real.name, real.owner, real.controller, real.loc, real.seq, True)
        if card is None:
            self._update_detail()
            return
        panel.update(card_detail(self.session.pool, card, "Empty"))

    def select(self, slot: CardSlot) -> None:
        """Move the board cursor to `slot`."""
        if self.cursor is not slot:
            if self.cursor is not None:
                self.cursor.select(False)
            self.cursor = slot
            slot.select(True)
        self._update_detail()

    # ------------------------------------------------------------------ asking

    def advance(self) -> None:
        """Draw the duel and ask whatever the pending decision needs."""
        s = self.session
        if s.needs_curtain() or s.is_shared_prompt():
            s.cover()  # nothing private on screen while the device changes hands
        self.refresh_board()
        if self.asking or self.thinking:
            return
        if s.ai_seat() is not None and s.duel.outcome is None:
            self._think()
            return
        if self.briefing:
            briefing, self.briefing = self.briefing, ""
            self._ask(MessageScreen(self.title_text, briefing), lambda _: self.advance())
            return
        d = s.pending
        if s.duel.outcome is not None:
            if not self.over_shown:
                self.over_shown = True
                self.action_duel_over()
            return
        if d is None:
            return
        names = s.duel.names
        if d is self.left_open:
            self._focus_default()  # the player stepped back from this question: the board stays usable (c asks again)
        elif s.needs_curtain():
            why = "to respond" if s.responding == d.player else d.prompt
            self._ask(CurtainScreen(names[d.player], why), self._after_curtain)
        elif s.is_shared_prompt():
            self._ask(SharedResponse(names, s.window_context(), in_damage_step=s.in_damage_step(),
                                     auto_continue=self._auto_continue()), self._after_shared)
        elif d.kind in _BOARD_KINDS:
            self._focus_default()
            if self.attack_next and d.kind == Kind.BATTLE:
                self.action_attack()
            self.attack_next = False
        else:
            refused, self.refused = self.refused, ""
            context = s.window_context() if d.kind == Kind.CHAIN else ()
            self._ask(prompt_for(d, refused, context=context, describe=self.describe, on_highlight=self.show_option,
                                 responding=s.responding == d.player), self._answer)

    def _auto_continue(self) -> float:
        """The Settings' auto-continue delay for shared response prompts (0: off, the default)."""
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "auto_continue", 0) or 0)

    # ------------------------------------------------------------------ the AI

    _WHILE_THINKING = frozenset(("help", "pile", "detail", "move", "quit_duel", "why"))
    _WHILE_ON = frozenset(("commands", "next", "attack", "pass_", "concede", "restart", "manual"))  # not once it is over

    def why_lines(self) -> list[str] | None:
        """The AI's last searched move: the candidates it weighed, their values and play-outs
        (its own moves only: nothing it could not see); None before its first search."""
        thoughts = [seat.agent.last for seat in self.session.seats if getattr(seat.agent, "last", None) is not None]
        return thoughts[0].lines() if thoughts else None

    def action_why(self) -> None:
        """w on the board (a question open over it answers w itself: ChoicePrompt.action_why)."""
        if self.asking:
            return
        lines = self.why_lines()
        if not lines:
            self.notify("The AI has not weighed a move yet (easy plays by rules of thumb).", timeout=4)
            return
        self._ask(MessageScreen("Why the AI did that", "\n".join(lines)), lambda _: self.advance())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Which keys work now (False also hides a key from the key bar): while the AI thinks
        only looking around and leaving; undo, restart and test hands in solo testing only;
        manual actions where the duel allows them; rematch once the duel is over."""
        if not self.ready or (self.thinking and action not in self._WHILE_THINKING):
            return False  # (keys typed ahead reach a new duel's screen before it is mounted)
        s = self.session
        over = s.duel.outcome is not None
        if over and action in self._WHILE_ON:
            return False
        if action == "rematch":
            return over
        if action == "undo":
            return not s.hot_seat
        if action in ("restart", "test_hand", "toggle_first"):
            return self.solo
        if action == "why":
            return any(seat.kind.startswith("ai:") for seat in s.seats)
        if action == "manual":
            return self._manual_allowed()
        if action == "concede":
            return s.at_keyboard() is not None
        return True

    def _think(self) -> None:
        """Ask the AI in a worker thread; the screen stays responsive and says so."""
        self.thinking = True
        self._sync_keys()
        seat = self.session.ai_seat()
        self.notify(f"{seat.name if seat else 'The AI'} is thinking…", timeout=1.5)
        self.run_worker(self._thought_in_worker, thread=True, exclusive=True, group="ai", exit_on_error=False)

    def _thought_in_worker(self) -> None:
        try:
            answer = self.session.ai_answer()
        except Exception as e:  # (a bug in the AI must not take the screen with it)
            self.app.call_from_thread(self._thought_failed, e)
            return
        self.app.call_from_thread(self._thought, answer)

    def _thought(self, answer: Any) -> None:
        self.thinking = False
        try:
            events = self.session.apply_ai(answer)
        except EngineBug as e:
            where = f" A replay that shows it is in {e.report}; please attach it to a bug report." if e.report else ""
            self._ask(MessageScreen("Sorry: an internal error", f"{e}{where}"), lambda _: self.advance())
            return
        self._remember_chain(events)
        self.advance()

    def _thought_failed(self, error: Exception) -> None:
        self.thinking = False
        self._sync_keys()
        self._ask(MessageScreen("Sorry: the AI failed", f"{type(error).__name__}: {error}\n\nThe duel is as it was; q goes back to the menu."),
                  lambda _: None)

    def _ask(self, asked: Any, callback: Any) -> None:
        """Ask a question over the board (a `Question`), or push a modal screen (a curtain, a
        message, a pile …); `callback` gets the answer."""
        self.asking = True

        def done(result: Any) -> None:
            self.asking = False
            self.picked = None
            callback(result)

        if isinstance(asked, Question):
            self._pose(asked, done)
        else:
            self.app.push_screen(asked, done)

    def _pose(self, question: Question, done: Any) -> None:
        """Show `question` over the board, left of the card text and the chain panel, in this
        screen: a modal screen would draw the whole board again under it, which was most of
        what opening a question cost. The widgets of a ChoicePrompt and of a shared response
        window are kept for the next one of their class (`Question.ask`): composing and
        styling them anew costs more than changing them."""
        kept = self.kept.get(type(question))
        if kept is not None and kept.can_ask(question):
            kept.ask(question)
            shown: Question = kept
            shown.display = True
            shown.start()
        else:
            if question.ASKED:
                if kept is not None:
                    kept.remove()
                self.kept[type(question)] = question
            shown = question
            self.questions.mount(question)  # (it starts itself once mounted: `Question.on_mount`)

        def answered(result: Any) -> None:
            self.question = None
            if self.kept.get(type(shown)) is shown:
                shown.display = False
            else:
                shown.remove()
            self.set_focus(None)
            done(result)  # (at once: the next question then opens in the same frame)

        shown.on_answer = answered
        self.question = shown

    def _after_curtain(self, _: Any) -> None:
        self.session.lift_curtain()
        self.log_viewer = None
        self.advance()
        self._focus_default(home=True)  # the board is now the other player's: start on your own hand

    def _after_shared(self, result: Any) -> None:
        """The table's answer to "Anyone responding?" (`SharedResponse`), handed to the session,
        which answers the engine's chain decisions of both players accordingly."""
        s = self.session
        d = s.pending
        if result is None:  # Escape: look at the (public) board; c asks again
            self.left_open = d
            self.notify("The response window is still open: press c to answer it.", timeout=6)
            self.advance()
            return
        if isinstance(result, str) and result.startswith("respond:"):
            player = int(result.split(":")[1])
            if not self._safely(lambda: s.respond(player)):
                self.notify(f"{s.duel.names[player]} cannot respond here.", timeout=4)
            self.advance()
            return
        if result == "skip":
            s.skip_windows()
        elif result == "skip-damage-step":
            s.pass_damage_step()
        self._safely(s.continue_window)
        self.advance()

    def _safely(self, run: Any) -> Any:
        """Run a session call that answers the engine; an engine bug is reported as in `_answer`."""
        try:
            result = run()
        except EngineBug as e:
            where = f" A replay that shows it is in {e.report}; please attach it to a bug report." if e.report else ""
            self._ask(MessageScreen("Sorry: an internal error", f"{e}\n\nThe duel went back to before that answer.{where}"),
                      lambda _: self.advance())
            return None
        if isinstance(result, list):
            self._remember_chain(result)
        return result

    def _answer(self, answer: Any) -> None:
        if answer is None and self.session.can_back_out():  # Escape while an action's costs/targets are chosen
            taken_back = self.session.back_out()
            self.notify(f"Taken back: {taken_back}. The duel is as it was before it.", timeout=5)
            self.advance()
            return
        if answer is None:  # Escape: back to the board
            d = self.session.pending
            if d is not None and d.kind not in _BOARD_KINDS:  # a question: it stays open (undo, save, q, help … work)
                self.left_open = d
                self.notify("The question is still open: press c to answer it (or u to undo, q for the menu).", timeout=8)
            self.advance()
            return
        try:
            events = self.session.answer(answer)
        except IllegalChoice as e:
            self.refused = f"{e.message} ({e.rule})"  # shown in the prompt that asks again
            self.notify(self.refused, severity="error", timeout=6)
            self.advance()
            return
        except EngineBug as e:
            where = f" A replay that shows it is in {e.report}; please attach it to a bug report." if e.report else ""
            self._ask(MessageScreen("Sorry: an internal error", f"{e}\n\nThe duel went back to before that answer.{where}"),
                      lambda _: self.advance())
            return
        self._remember_chain(events)
        self.advance()

    def _focus_default(self, home: bool = False) -> None:
        """The cursor on your hand's first card, unless it is somewhere useful already (`home`: always)."""
        cursor = self.cursor
        if not home and cursor is not None and cursor.display and cursor.in_use and not (cursor.id or "").startswith("top-hand"):
            return
        for slot in self.slots["bottom-hand"]:
            if slot.display and slot.in_use:
                self.select(slot)
                return

    def _my_decision(self) -> bool:
        d = self.session.pending
        return d is not None and d.player == self.session.viewer and not self.asking

    # ------------------------------------------------------------------ acting on cards

    @on(FieldRow.Chosen)
    def card_chosen(self, event: FieldRow.Chosen) -> None:
        if self.asking:
            return  # (a click on the board while a question is open over it)
        self.select(event.slot)
        self.act_on(event.slot)

    def action_act(self) -> None:
        if self.cursor is not None:
            self.act_on(self.cursor)

    def act_on(self, slot: CardSlot) -> None:
        """Enter on a place: a pile opens its viewer; a card lists its actions (and why not)."""
        if self.asking:
            return
        if slot.zone in ("gy", "extra", "banished"):
            self.action_pile(slot.zone, slot.player != self.bottom)
            return
        if slot.zone == "deck":
            self.notify(f"{slot.count} cards in the Deck.")
            return
        if slot.uid is None or self.session.pending is None:
            self.notify("Nothing to do here now.")
            return
        self.card_menu(slot.uid, slot.view.name if slot.view and slot.view.name else "this card")

    def _card_actions(self, uid: int) -> tuple[list[Option], list[tuple[str, Manual]]]:
        """What the player at the keyboard may do with a card now: its options in the open
        decision and its manual actions."""
        d = self.session.pending
        options = [o for o in d.options if o.card == uid] if d is not None and self._my_decision() else []
        return options, self.card_manual_actions(uid)

    def card_menu(self, uid: int, name: str) -> None:
        """A card's menu: its actions (and why not), from the board or a pile viewer."""
        options, manual = self._card_actions(uid)
        refusals = self.session.duel.explain(self.session.viewer, uid) if self.session.viewer != PUBLIC else []
        options += [Option(f"manual:{i}", label, card=uid) for i, (label, _) in enumerate(manual)]
        if not options and not refusals:
            self.notify("No actions for this card now.")
            self.advance()
            return

        def chosen(answer: Any) -> None:
            if isinstance(answer, Option) and answer.key.startswith("manual:"):
                self.run_manual(manual[int(answer.key[len("manual:"):])][1])
            else:
                self._answer(answer)

        # nothing chosen yet: a second Enter (typed ahead, or mashed) never acts by itself
        self._ask(ChoicePrompt(f"{name}: what now?", options, refusals=refusals, nothing_chosen=True), chosen)

    # ------------------------------------------------------------------ keys

    def action_help(self) -> None:
        if not self.asking:
            self._ask(HelpScreen(), lambda _: self.advance())

    def action_commands(self) -> None:
        d = self.session.pending
        if d is not None and d is self.left_open:
            self.left_open = None  # ask the open question again
            self.advance()
            return
        if d is None or not self._my_decision():
            return
        self._ask(ChoicePrompt(d.prompt, d.options, describe=self.describe, on_highlight=self.show_option), self._answer)

    def _pick_verb(self, *verbs: str) -> Option | None:
        d = self.session.pending
        if d is None or not self._my_decision():
            return None
        for verb in verbs:
            for o in d.options:
                if o.key == verb or o.verb == verb:
                    return o
        return None

    def action_next(self) -> None:
        option = self._pick_verb("battle", "main2", "end", "pass")
        if option is not None:
            self._answer(option)

    def action_pass_(self) -> None:
        option = self._pick_verb("pass")
        if option is not None:
            self._answer(option)

    def action_attack(self) -> None:
        d = self.session.pending
        if d is None or not self._my_decision():
            return
        attacks = [o for o in d.options if o.verb == "attack"]
        battle = self._pick_verb("battle") if d.kind == Kind.COMMAND else None
        if not attacks and battle is not None and any(
                m is not None and m.face_up and m.pos == Pos.ATTACK for m in self.session.view().sides[d.player].monsters):
            self.attack_next = True  # into the Battle Phase; its Battle Step asks which attack
            self._answer(battle)
            return
        if not attacks:
            self.notify("No monster can attack now.")
            return
        self._ask(ChoicePrompt("Declare an attack", attacks, describe=self.describe, on_highlight=self.show_option), self._answer)

    def action_pile(self, which: str, opponent: bool = False) -> None:
        if self.asking:
            return
        view = self.session.view()
        side = view.sides[1 - self.bottom if opponent else self.bottom]
        cards = {"gy": side.gy, "banished": side.banished, "extra": side.extra}[which]
        title = {"gy": "Graveyard", "banished": "Banished", "extra": "Extra Deck"}[which]

        def acts(view: CardView) -> bool:  # (the refusals are read only when a card's menu opens)
            return any(self._card_actions(view.uid))  # type: ignore[arg-type]

        def closed(uid: int | None) -> None:
            if uid is None:
                self.advance()
            else:
                self.card_menu(uid, self.session.duel.cards[uid].name)

        self._ask(PileScreen(self.session.pool, f"{side.name}'s {title} ({len(cards)})", list(reversed(cards)), acts), closed)

    def action_detail(self) -> None:
        focused = self.cursor
        if focused is not None and focused.view is not None and not self.asking:
            self._ask(PileScreen(self.session.pool, focused.view.name or "Card", [focused.view]), lambda _: self.advance())

    def action_move(self, drow: int, dcol: int) -> None:
        if self.asking:
            return
        rows = [[s for s in row if s.display and s.in_use] for row in self.rows]
        rows = [r for r in rows if r]
        current = self.cursor
        position = next(((r, c) for r, row in enumerate(rows) for c, s in enumerate(row) if s is current), None)
        if position is None:
            self.select(rows[-1][0])
            return
        r, c = position
        if dcol:
            c = max(0, min(len(rows[r]) - 1, c + dcol))
        else:
            ratio = c / max(1, len(rows[r]) - 1)
            r = max(0, min(len(rows) - 1, r + drow))
            c = round(ratio * (len(rows[r]) - 1))
        self.select(rows[r][c])

    def action_undo(self) -> None:
        if self.asking:
            return
        if self.session.hot_seat:
            self.notify("Undo is for solo testing.")
            return
        if self.session.undo():
            self.over_shown = False
            self.log_viewer = None
            self.chain_memory = []
            self.notify("Undone.")
        else:
            self.notify("Nothing to undo.")
        self.advance()

    def action_restart(self) -> None:
        if self.solo and not self.asking:
            self.session.restart()
            self.over_shown = False
            self._after_new_duel("Restarted (same seed).")

    def action_test_hand(self) -> None:
        if self.solo and not self.asking:
            import random

            seed = random.SystemRandom().randrange(10**6)
            self.session.prefer_first = self.prefer_first
            self.session.restart(seed)
            self.over_shown = False
            self._after_new_duel(f"New test hand: seed {seed}, going {'first' if self.prefer_first else 'second'}.")

    def action_toggle_first(self) -> None:
        if self.solo:
            self.prefer_first = not self.prefer_first
            self.notify(f"New test hands go {'first' if self.prefer_first else 'second'} (t deals one).")

    def _after_new_duel(self, message: str) -> None:
        self.log_viewer = None
        self.chain_memory = []
        self.last_lp = [p.lp for p in self.session.duel.players]
        self.lp_change = [0, 0]
        self.notify(message)
        self.advance()

    def action_save(self) -> None:
        if self.asking:
            return

        def saved(name: Any) -> None:
            if name:
                try:
                    path = self.session.save(str(name))
                    self.notify(f"Saved to {path}")
                except OSError as e:
                    self.notify(f"Could not save: {e.strerror or e}. Check that the saves folder "
                                f"({self.session.save_dir}) exists and is writable, or free some disk space.", severity="error", timeout=20)
            self.advance()

        duel = self.session.duel
        self._ask(InputPrompt("Save the duel as", f"seed{duel.seed}-turn{duel.turn}"), saved)

    def action_quit_duel(self) -> None:
        """q: back to the menu, after a yes while the duel is on (it stays autosaved)."""
        if self.asking:
            return
        s = self.session
        if s.duel.outcome is not None:
            self.app.pop_screen()
            return
        s.save_auto()
        if not s.autosave:
            body = "This duel is not saved: answer n, then s saves it under a name."
        elif s.autosave_error:
            body = f"The autosave is failing ({s.autosave_error}): answer n, then s saves the duel under a name."
        else:
            body = ("The duel is autosaved: \"Resume the last duel\" on the menu plays on from here (until another "
                    "duel starts). s saves it under a name to keep it longer.")
        self._ask(ConfirmScreen("Leave the duel?", body, yes="leave", no="play on"),
                  lambda yes: self.app.pop_screen() if yes else self.advance())

    def action_concede(self) -> None:
        """R-WIN-5: the player at the keyboard concedes, after a yes that names them."""
        s = self.session
        who = s.at_keyboard()
        if self.asking or who is None or s.duel.outcome is not None:
            return
        names = s.duel.names

        def answered(yes: Any) -> None:
            if yes and s.duel.outcome is None and s.at_keyboard() == who:
                s.concede(who)
            self.advance()

        self._ask(ConfirmScreen(f"{names[who]}: concede the duel?", f"{names[who]} loses and {names[1 - who]} wins (R-WIN-5).",
                                yes=f"{names[who]} concedes", no="play on"), answered)

    def action_duel_over(self) -> None:
        """The end-of-duel screen (r on the board brings it back): the board, a rematch in which
        the loser chooses to go first or second (R-MATCH-3), or the menu. A puzzle's position
        can only be tried again."""
        s = self.session
        if self.asking or s.duel.outcome is None:
            return
        names = s.duel.names
        again: list[Option] = []
        note = ""
        if s.can_rematch():
            chooser = s.rematch_chooser()
            assert chooser is not None
            why = "lost" if s.duel.outcome.winner is not None else "chose last time"
            if s.seats[chooser].kind == "human":
                again = [Option(f"rematch:{chooser}", f"Rematch: {names[chooser]} goes first"),
                         Option(f"rematch:{1 - chooser}", f"Rematch: {names[chooser]} goes second")]
                note = f"A rematch: the same decks, a new seed. {names[chooser]} {why}, so chooses to go first or second (R-MATCH-3)."
            else:  # an agent that lost takes the first turn
                again = [Option(f"rematch:{chooser}", f"Rematch: {names[chooser]} goes first")]
                note = f"A rematch: the same decks, a new seed. {names[chooser]} {why} and goes first (R-MATCH-3)."
        elif s.duel.record is not None:
            again = [Option("restart", "Try again: the same position")]

        def chosen(key: Any) -> None:
            if isinstance(key, str) and key.startswith("rematch:"):
                self.rematch(int(key.split(":")[1]))
            elif key == "restart":
                s.restart()
                self.over_shown = False
                self._after_new_duel("The same position again.")
            elif key == "menu":
                self.app.pop_screen()

        self._ask(DuelOverScreen(s.duel.outcome.text(names), again, note), chosen)

    def action_rematch(self) -> None:
        """r once the duel is over: the end-of-duel screen again, where the loser chooses."""
        self.action_duel_over()

    def rematch(self, first: int) -> None:
        """The same decks again on a new screen, `first` going first (`Session.rematch`)."""
        s = self.session
        if self.asking or not s.can_rematch():
            return
        title = "rematch" if self.title_text.startswith("resumed") else self.title_text
        self.app.switch_screen(DuelScreen(s.rematch(first), title=title, solo=self.solo))

    # ------------------------------------------------------------------ manual actions

    def action_manual(self) -> None:
        """ctrl+p where manual actions are allowed: the palette (they are listed in it)."""
        self.app.action_command_palette()

    def _manual_allowed(self) -> bool:
        d = self.session.duel
        return (d.solo or d.rules.manual_actions) and d.pending is not None

    def manual_reason(self) -> str:
        """Why manual actions are on in this duel, for a note and the status line ('' when they
        are off, or in a solo test without cards to play by hand). In a two-player duel it names
        whose deck has cards without scripts, never which cards (the decks stay private)."""
        d = self.session.duel
        if not (d.solo or d.rules.manual_actions):
            return ""
        cached = getattr(self, "_manual_reason", None)
        if cached is not None and cached[0] is d:
            return cached[1]
        reason = self._manual_reason_of(d)
        self._manual_reason = (d, reason)  # (asked at every refresh; the decks do not change)
        return reason

    @staticmethod
    def _manual_reason_of(d: Any) -> str:
        unscripted = [c for c in d.cards.values() if getattr(c.data, "play", "") == "manual"]
        if d.solo:
            names = sorted({c.name for c in unscripted})
            return (f"Manual actions are on (solo test): cards without scripts (✎), played by hand: {', '.join(names)}. "
                    "Enter on a ✎ card offers its manual actions; ctrl+p lists them all.") if names else ""
        owners = sorted({c.owner for c in unscripted})
        if owners:
            whose = " and ".join(f"{d.names[p]}'s deck" for p in owners)
            return (f"Manual actions are on for this duel: {whose} {'have' if len(owners) > 1 else 'has'} cards without scripts (✎), "
                    "played by hand. Enter on a ✎ card offers its manual actions; ctrl+p lists them all.")
        return "Manual actions are on for this duel (the rules switch 'manual_actions'): ctrl+p lists them."

    def card_manual_actions(self, uid: int) -> list[tuple[str, Manual]]:
        """The manual actions a card's Enter menu offers: for a card without scripts (✎) of the
        player at the keyboard, where manual actions are allowed; only those the engine would
        take now (`engine.manual.check`). Each goes through `Duel.manual` (and the replay)."""
        s = self.session
        d = s.duel
        card = d.cards.get(uid)
        if card is None or s.viewer == PUBLIC or not self._manual_allowed() or getattr(card.data, "play", "") != "manual":
            return []
        who = s.viewer
        if (card.controller if card.loc.on_field else card.owner) != who:
            return []
        home = "extra" if card.is_extra_deck else "hand"
        moves: list[tuple[str, Manual]] = []
        if card.loc != Loc.MZONE and card.is_monster:
            moves += [("place it in a Monster Zone in Attack Position", Manual("move", uid, to="monster", position="attack")),
                      ("place it in a Monster Zone in Defense Position", Manual("move", uid, to="monster", position="defense")),
                      ("Set it in a Monster Zone (face-down Defense)", Manual("move", uid, to="monster", position="set"))]
        if card.loc != Loc.SZONE and not card.is_monster:
            if getattr(card.data, "subtype", "") == "field":
                moves += [("place it face-up in the Field Zone (activate it by hand)", Manual("move", uid, to="field")),
                          ("Set it in the Field Zone", Manual("move", uid, to="field", position="set"))]
            else:
                moves += [("place it face-up in a Spell & Trap Zone (activate it by hand)", Manual("move", uid, to="spell")),
                          ("Set it in a Spell & Trap Zone", Manual("move", uid, to="spell", position="set"))]
        if card.loc != Loc.GY:
            moves.append(("send it to the GY", Manual("move", uid, to="gy")))
        if card.loc != Loc.BANISHED:
            moves += [("banish it", Manual("move", uid, to="banished")), ("banish it face-down", Manual("move", uid, to="banished-face-down"))]
        if card.loc != Loc.HAND and home == "hand":
            moves.append(("return it to the hand", Manual("move", uid, to="hand")))
        if card.loc != Loc.EXTRA and home == "extra":
            moves.append(("return it to the Extra Deck", Manual("move", uid, to="extra")))
        if home == "hand":
            moves += [("put it on top of the Deck", Manual("move", uid, to="deck-top")),
                      ("put it on the bottom of the Deck", Manual("move", uid, to="deck-bottom"))]
        if card.loc.on_field:  # (first: what a card on the field is most often given by hand)
            tweaks: list[tuple[str, Manual]] = []
            if card.loc == Loc.MZONE and card.face_up:
                tweaks += [(f"{amount:+d} {stat.upper()}", Manual(stat, uid, amount=amount))
                           for stat in ("atk", "def") for amount in (500, -500)]
                tweaks += [(f"change its {stat.upper()} by …", Manual(stat, uid)) for stat in ("atk", "def")]  # (amount asked)
            tweaks.append(("add a counter to it", Manual("counter", uid, name="counter", amount=1)))
            if card.counters.get("counter", 0):
                tweaks.append(("remove a counter from it", Manual("counter", uid, name="counter", amount=-1)))
            tweaks.append((f"flip it {'face-down' if card.face_up else 'face-up'}", Manual("flip", uid)))
            moves = tweaks + moves
        if card.loc == Loc.HAND:
            moves.append(("reveal it", Manual("reveal", uid)))
        allowed = []
        for label, action in moves:
            try:
                d.check_manual(who, action)
            except IllegalChoice:
                continue
            allowed.append((f"✎ manual: {label}", action))
        return allowed

    def manual_commands(self) -> list[tuple[str, Manual]]:
        s = self.session
        d = s.duel
        who = s.viewer if s.viewer != PUBLIC else (d.pending.player if d.pending else 0)
        if not self._manual_allowed():
            return []
        commands: list[tuple[str, Manual]] = []
        focused = self.cursor
        card = d.cards.get(focused.view.uid) if focused is not None and focused.view is not None else None
        if card is not None and (card.controller if card.loc.on_field else card.owner) == who:
            for to in ("hand", "gy", "banished", "banished-face-down", "deck-top", "deck-bottom", "monster", "spell"):
                commands.append((f"Move {card.name} to {to.replace('-', ' ')}", Manual("move", card.uid, to=to)))
            commands.append((f"Flip {card.name}", Manual("flip", card.uid)))
            commands.append((f"Add a counter to {card.name}", Manual("counter", card.uid, name="counter", amount=1)))
            commands.append((f"Remove a counter from {card.name}", Manual("counter", card.uid, name="counter", amount=-1)))
            commands.append((f"Reveal {card.name}", Manual("reveal", card.uid)))
            if card.loc == Loc.MZONE and card.face_up:
                for stat in ("atk", "def"):
                    for amount in (100, 500, -100, -500):
                        commands.append((f"{amount:+d} {stat.upper()} to {card.name}", Manual(stat, card.uid, amount=amount)))
        for amount in (-1000, -500, -100, 100, 500, 1000):
            commands.append((f"LP {amount:+d} ({d.names[who]})", Manual("lp", amount=amount)))
        commands.append((f"LP change by … ({d.names[who]})", Manual("lp")))
        commands += [("Draw 1 card", Manual("draw", amount=1)), ("Mill 1 card (top of Deck to GY)", Manual("mill", amount=1)),
                     ("Shuffle the Deck", Manual("shuffle")), ("Create a Token (0 ATK, Attack)", Manual("token", name="Token"))]
        return [(f"Manual: {label}", action) for label, action in commands]

    def run_manual(self, action: Manual) -> None:
        """Take a manual action; one without an amount (ATK/DEF/LP "by …") asks for it first."""
        if action.kind in ("atk", "def", "lp") and not action.amount:
            what = "LP" if action.kind == "lp" else action.kind.upper()

            def typed(text: str | None) -> None:
                if text is None:
                    self.advance()
                    return
                try:
                    amount = int(text.strip().replace(" ", ""))
                except ValueError:
                    amount = 0
                if not amount or abs(amount) > 1_000_000:
                    self.notify(f"'{text}' is not a change of {what}: type a whole number such as +800 or -1000.", severity="error")
                    self.advance()
                    return
                self.run_manual(replace(action, amount=amount))

            self._ask(InputPrompt(f"Change {what} by (+800 raises, -1000 lowers)", "", "+800"), typed)
            return
        s = self.session
        who = s.viewer if s.viewer != PUBLIC else (s.duel.pending.player if s.duel.pending else 0)
        if action.card is not None:
            card = s.duel.cards.get(action.card)
            if card is not None:
                who = card.controller if card.loc.on_field else card.owner
        try:
            s.manual(who, action)
            s.save_auto()
        except IllegalChoice as e:
            self.notify(f"{e.message} ({e.rule})", severity="error")
        self.advance()

