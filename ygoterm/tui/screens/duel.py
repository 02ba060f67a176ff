"""The duel screen: the board, the card text, the chain and the log; the duel's questions.

The screen holds no rule. It draws `session.view()`, offers the pending decision's options
(and the engine's explanations for what is not allowed), and hands answers to the session.
What it says about cards and decisions is worked out in `presenters/` (describe, manual_menu);
the keys that end or restart a duel are in `duel_endings.py`.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from ...engine import SEPARATE_PENDULUM_ZONES, CardView, Event, IllegalChoice, Kind, Manual, Option, Pos
from ...scenarios import Puzzle
from ..presenters import manual_menu
from ..presenters.describe import BOARD_KINDS, actionable, board_marks, deciding_text, describe_option, option_card
from ..presenters.render import card_detail
from ..presenters.session import PUBLIC, EngineBug, Session
from ..widgets.board import Board, CardSlot, FieldRow
from ..widgets.panels import ChainPanel, DetailPanel, KeyBar, LogPanel, log_lines
from ..widgets.questions import ChoicePrompt, Question, QuestionLayer, SharedResponse, prompt_for
from .dialogs import CurtainScreen, HelpScreen, LogScreen, MessageScreen, PileScreen
from .duel_ai import AISeat
from .duel_base import Answered
from .duel_commands import DuelCommands, ManualCommands
from .duel_endings import DuelEndings
from .duel_manual import ManualActions

def activate_first(options: Sequence[Option]) -> list[Option]:
    """Options as the other clients list them: a Spell's or Trap's "activate" before its "set",
    a monster's Summons before its Set (the engine's order otherwise)."""
    return sorted(options, key=lambda o: o.verb == "set")


class DuelScreen(AISeat, ManualActions, DuelEndings):
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
        Binding("L", "full_log", "log"),
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
             "why", "pile", "full_log")
    _WHILE_THINKING = frozenset(("help", "pile", "detail", "full_log", "move", "quit_duel", "why"))
    _WHILE_ON = frozenset(("commands", "next", "attack", "pass_", "concede", "restart", "manual"))  # not once it is over

    def __init__(self, session: Session, *, title: str = "", solo: bool = False, briefing: str = "",
                 puzzle: Puzzle | None = None) -> None:
        super().__init__()
        self.session = session
        self.title_text = title
        self.solo = solo
        self.briefing = briefing  # shown once before the first decision (a puzzle's task)
        self.puzzle = puzzle  # a puzzle's goal: told once it is solved or missed
        self.puzzle_told = False
        self.asking = False
        self.refused = ""  # why the last answer was refused (shown when the question is asked again)
        self.attack_next = False  # a in Main Phase 1 went to battle: the Battle Step asks for the attack
        self.bottom = 0  # the player whose side is at the bottom of the board
        self.last_lp: list[int] = [p.lp for p in session.duel.players]
        self.lp_change = [0, 0]
        self.prefer_first = True
        self.autosave_warned = ""  # the autosave failure last shown
        self.left_open: Any = None  # a question the player stepped back from with Escape (asked again with c)
        self.thinking = False  # the AI is thinking in a worker thread: the board shows, actions wait
        self.keys_mode: tuple[Any, ...] = ()  # what the key bar was drawn for (`_sync_keys`)
        self.over_shown = False  # the end-of-duel screen came up once (r and q work on the board after it)
        self.ready = False  # mounted: the board's widgets exist, keys may act
        self.picked: int | None = None  # the card of the option highlighted in an open prompt (marked on the board)
        self._manual_reason: tuple[Any, str] | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Horizontal(id="duel"):
            yield Board(self.session.pool, id="board")
            with Vertical(id="side"):
                yield DetailPanel(id="detail")
                yield ChainPanel(id="chain")
                yield LogPanel(id="log", wrap=True, markup=False, min_width=10)
            yield QuestionLayer(id="questions")  # (over the board: the duel's questions, `ask`)
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        # the widgets every refresh touches, looked up once (DOM queries cost more than drawing)
        self.board = self.query_one(Board)
        duel = self.session.duel
        # (a 2005 duel has no Pendulum Zones to show, unless a Pendulum card was brought into it)
        pendulum = duel.players[0].pendulum_zones == SEPARATE_PENDULUM_ZONES and (
            duel.rules.format != "goat" or any(c.is_monster and c.monster.is_pendulum for c in duel.cards.values()))
        self.board.set_rules(separate_pendulum=pendulum, extra_monster_zones=duel.rules.ruleset != "mr3")
        self.detail = self.query_one(DetailPanel)
        self.chain = self.query_one(ChainPanel)
        self.log_panel = self.query_one(LogPanel)
        self.key_bar = self.query_one(KeyBar)
        self.questions = self.query_one(QuestionLayer)
        self.bindings_updated_signal.subscribe(self, self._show_keys)
        self.ready = True
        reason = self.manual_reason()
        if reason:
            self.notify(reason, timeout=15)
        self.call_after_refresh(self.advance)

    def on_resize(self) -> None:
        self.set_class(self.size.height < 32, "compact")
        self.log_panel.rewrite()  # re-flow the log to the new width
        self.call_after_refresh(self.refresh_board)

    # ------------------------------------------------------------------ drawing

    def refresh_board(self) -> None:
        s = self.session
        view = s.view()
        if s.viewer != PUBLIC:
            self.bottom = s.viewer
        elif not self.solo:
            self.bottom = view.turn_player
        me, foe = view.sides[self.bottom], view.sides[1 - self.bottom]
        for p in (0, 1):
            lp = s.duel.players[p].lp
            self.lp_change[p] = lp - self.last_lp[p] if lp != self.last_lp[p] else self.lp_change[p]
            self.last_lp[p] = lp
        board = self.board
        followed = board.cursor.uid if board.cursor is not None else None
        board.fill(me, foe, self.bottom, actionable(s), board_marks(s, view, self.picked))
        if followed is not None and board.cursor is not None and board.cursor.uid != followed:
            # the card under the cursor moved — Summoned, Set, returned to the hand: the cursor goes
            # with it; else (a Spell activated, on its way to the GY) it stays on the place
            moved_to = next((slot for row in board.slots.values() for slot in row if slot.uid == followed and slot.display
                             and (slot.zone in ("M", "H") or slot.zone == "S" and slot.view is not None and not slot.view.face_up)), None)
            if moved_to is not None:
                board.select(moved_to)
        names = s.duel.names
        if s.autosave_error != self.autosave_warned:  # shown at once, once per new failure
            self.autosave_warned = s.autosave_error
            if s.autosave_error:
                self.notify(f"{s.autosave_error}. Play on, but save with s (to another folder if needed).",
                            severity="error", timeout=30)
        board.status.show(view, names, deciding_text(s, self.left_open), self._extra_status(),
                          "AUTOSAVE FAILING" if s.autosave_error else "")
        board.lines["top"].show(foe, self.lp_change[1 - self.bottom], view.turn_player != self.bottom, foe=True)
        board.lines["bottom"].show(me, self.lp_change[self.bottom], view.turn_player == self.bottom,
                                   "✎ manual actions on" if self.manual_reason() else "")
        self.chain.show(view, names)
        self.log_panel.follow(s.duel.log, s.viewer, names)
        self._update_detail()
        self.sync_keys()

    @property
    def question(self) -> Question | None:
        """The question open over the board (`ask`), if any."""
        return self.questions.question if self.ready else None

    def sync_keys(self) -> None:
        """When what `check_action` depends on changes (besides the seats, fixed for a duel),
        the key bar follows (`refresh_bindings` → `_show_keys`)."""
        s = self.session
        mode = (self.thinking, s.duel.outcome is not None, s.duel.pending is not None, s.at_keyboard(),
                self._pass_option() is not None, self._can_attack(), self._next_option() is not None)
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

    def _extra_status(self) -> str:
        parts: list[str] = []  # (a failing autosave is the status line's alert, never shortened away)
        if self.solo:
            parts.append(f"seed {self.session.duel.seed}")
        if self.title_text:
            parts.append(self.title_text)
        return " · ".join(parts)

    def forget_history(self) -> None:
        """Another duel, or this one taken back: the log is written again, no last chain."""
        self.log_panel.rewrite()
        self.chain.forget()

    def remember(self, events: list[Event]) -> None:
        """The events of an answer: the chain panel follows its links."""
        self.chain.remember(events, self.session.duel.names)

    def _update_detail(self) -> None:
        focused = self.board.cursor
        if focused is None:
            self.detail.update(Text("Move with the arrow keys; ? lists every key.", style="dim"))
        elif focused.count is not None and focused.view is None:
            self.detail.update(Text(f"{focused.label}: {focused.count} card{'s' if focused.count != 1 else ''}", style="bold"))
        else:
            self.detail.update(card_detail(self.session.pool, focused.view, focused.label or "Empty"))

    def describe(self, option: Option) -> str:
        """An option's card for prompt lists, as the viewer sees it (`describe_option`)."""
        return describe_option(self.session.view(), self.session.duel.names, option)

    def show_option(self, option: Option | None) -> None:
        """The highlighted option's card fills the detail panel (as the viewer sees it)."""
        uid = option.card if option is not None else None
        if uid != self.picked:
            self.picked = uid
            self.refresh_board()  # the board marks the highlighted option's card
        card = option_card(self.session, option) if option is not None else None
        if card is None:
            self._update_detail()
            return
        self.detail.update(card_detail(self.session.pool, card, "Empty"))

    def select(self, slot: CardSlot) -> None:
        """Move the board cursor to `slot`; the card text follows."""
        self.board.select(slot)
        self._update_detail()

    # ------------------------------------------------------------------ asking

    def advance(self) -> None:
        """Draw the duel and ask whatever the pending decision needs."""
        s = self.session
        s.keep_device()
        if s.needs_curtain() or s.is_shared_prompt():
            s.cover()  # nothing private on screen while the device changes hands
        self.refresh_board()
        if self.asking or self.thinking:
            return
        if self.briefing:  # (before the AI's first move: it is the task)
            briefing, self.briefing = self.briefing, ""
            self.ask(MessageScreen(self.title_text, briefing), lambda _: self.advance())
            return
        if self.puzzle is not None and self._tell_puzzle():
            return
        if s.ai_seat() is not None and s.duel.outcome is None:
            self._think()
            return
        d = s.pending
        if s.duel.outcome is not None:
            if not self.over_shown:
                self.over_shown = True
                self.action_duel_over()
            return
        if d is None:
            return
        if d is self.left_open:
            self._focus_default()  # the player stepped back from this question: the board stays usable (c asks again)
        elif s.needs_curtain():
            why = "to respond" if s.responding == d.player else d.prompt
            self.ask(CurtainScreen(s.duel.names[d.player], why), self._after_curtain)
        elif s.is_shared_prompt():
            self.ask(SharedResponse(s.duel.names, s.window_context(), in_damage_step=s.in_damage_step(),
                                    auto_continue=self._auto_continue()), self._after_shared)
        elif d.kind in BOARD_KINDS:
            self._focus_default()
            if self.attack_next and d.kind == Kind.BATTLE:
                self.action_attack()
            self.attack_next = False
        else:
            refused, self.refused = self.refused, ""
            context = s.window_context() if d.kind == Kind.CHAIN else ()
            self.ask(prompt_for(d, refused, context=context, describe=self.describe, on_highlight=self.show_option,
                                responding=s.responding == d.player), self._answer)

    def _auto_continue(self) -> float:
        """The Settings' auto-continue delay for shared response prompts (0: off, the default)."""
        settings = getattr(self.app, "settings", None)
        return float(getattr(settings, "auto_continue", 0) or 0)

    def ask(self, asked: Question | Screen[Any], callback: Answered) -> None:
        """Ask a question over the board (a `Question`), or push a modal screen (a curtain, a
        message, a pile …); `callback` gets the answer. Keys pressed before it was asked do not
        answer it (`YgoApp.asking_now`)."""
        self.asking = True
        asking_now = getattr(self.app, "asking_now", None)
        if asking_now is not None:
            asking_now()

        def done(result: Any) -> None:
            self.asking = False
            self.picked = None
            callback(result)

        if isinstance(asked, Question):
            self.questions.pose(asked, done)
        else:
            self.app.push_screen(asked, done)

    def _after_curtain(self, _: Any) -> None:
        self.session.lift_curtain()
        self.log_panel.rewrite()
        self.advance()
        self._focus_default(home=True)  # the board is now the other player's: start on your own hand

    def _after_shared(self, result: Any) -> None:
        """The table's answer to "Anyone responding?" (`SharedResponse`), handed to the session,
        which answers the engine's chain decisions of both players accordingly."""
        s = self.session
        if result is None:  # Escape: look at the (public) board; c asks again
            self.left_open = s.pending
            self.notify("The response window is still open: press c to answer it.", timeout=6)
        elif isinstance(result, str) and result.startswith("respond:"):
            player = int(result.split(":")[1])
            if not self._safely(lambda: s.respond(player)):
                self.notify(f"{s.duel.names[player]} cannot respond here.", timeout=4)
        else:
            if result == "skip":
                s.skip_windows()
            elif result == "skip-damage-step":
                s.pass_damage_step()
            self._safely(s.continue_window)
        self.advance()

    def _report_bug(self, e: EngineBug) -> None:
        where = f" A replay that shows it is in {e.report}; please attach it to a bug report." if e.report else ""
        self.ask(MessageScreen("Sorry: an internal error", f"{e}\n\nThe duel went back to before that answer.{where}"),
                 lambda _: self.advance())

    def _safely(self, run: Callable[[], Any]) -> Any:
        """Run a session call that answers the engine; an engine bug is reported as in `_answer`."""
        try:
            result = run()
        except EngineBug as e:
            self._report_bug(e)
            return None
        if isinstance(result, list):
            self.remember(result)
        return result

    def _answer(self, answer: Any) -> None:
        if answer == ChoicePrompt.SKIP:  # s in a response window: pass, then stop asking until something happens
            self.session.skip_windows()
            answer = "pass"
        if answer is None and self.session.can_back_out():  # Escape while an action's costs/targets are chosen
            taken_back = self.session.back_out()
            self.notify(f"Taken back: {taken_back}. The duel is as it was before it.", timeout=5)
            self.advance()
            return
        if answer is None:  # Escape: back to the board
            d = self.session.pending
            if d is not None and d.kind not in BOARD_KINDS:  # a question: it stays open (undo, save, q, help … work)
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
            self._report_bug(e)
            return
        self.remember(events)
        self.advance()

    def _focus_default(self, home: bool = False) -> None:
        """The cursor on your hand's first card, unless it is somewhere useful already (`home`: always)."""
        slot = self.board.home(always=home)
        if slot is not None:
            self.select(slot)

    def _my_decision(self) -> bool:
        d = self.session.pending
        return d is not None and d.player == self.session.viewer and not self.asking

    def rematch(self, first: int) -> None:
        """The same decks again on a new screen, `first` going first (`Session.rematch`)."""
        s = self.session
        if self.asking or not s.can_rematch():
            return
        title = "rematch" if self.title_text.startswith("resumed") else self.title_text
        self.app.switch_screen(DuelScreen(s.rematch(first), title=title, solo=self.solo))

    # ------------------------------------------------------------------ keys

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
            return manual_menu.manual_allowed(s.duel)
        if action == "concede":
            return s.at_keyboard() is not None
        if action == "pass_":
            return self._pass_option() is not None
        if action == "attack":
            return self._can_attack()
        if action == "next":
            return self._next_option() is not None
        return True

    @on(FieldRow.Chosen)
    def card_chosen(self, event: FieldRow.Chosen) -> None:
        if self.asking:
            return  # (a click on the board while a question is open over it)
        self.select(event.slot)
        self.act_on(event.slot)

    def action_act(self) -> None:
        if self.board.cursor is not None:
            self.act_on(self.board.cursor)

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
        return activate_first(options), manual_menu.card_manual_actions(self.session, uid)

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
        self.ask(ChoicePrompt(f"{name}: what now?", options, refusals=refusals, nothing_chosen=True), chosen)

    def action_help(self) -> None:
        if not self.asking:
            self.ask(HelpScreen(), lambda _: self.advance())

    def action_commands(self) -> None:
        d = self.session.pending
        if d is not None and d is self.left_open:
            self.left_open = None  # ask the open question again
            self.advance()
            return
        if d is None or not self._my_decision():
            return
        self.ask(ChoicePrompt(d.prompt, activate_first(d.options), describe=self.describe, on_highlight=self.show_option),
                 self._answer)

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
        option = self._next_option()
        if option is not None:
            self._answer(option)

    def _next_option(self) -> Option | None:
        """n: on to the next phase (Battle, Main 2, End), or pass in a response window."""
        return self._pick_verb("battle", "main2", "end", "pass")

    def _can_attack(self) -> bool:
        """a does something: an attack can be declared now, or from Main Phase 1 into battle with
        a face-up Attack Position monster."""
        d = self.session.pending
        if d is None or not self._my_decision():
            return False
        return any(o.verb == "attack" for o in d.options) or self._battle_to_attack() is not None

    def _battle_to_attack(self) -> Option | None:
        """In Main Phase 1 with a face-up Attack Position monster: the move into the Battle Phase
        that `a` makes (its Battle Step then asks which attack)."""
        d = self.session.pending
        if d is None or d.kind != Kind.COMMAND:
            return None
        battle = self._pick_verb("battle")
        if battle is None or not any(m is not None and m.face_up and m.pos == Pos.ATTACK
                                     for m in self.session.view().sides[d.player].monsters):
            return None
        return battle

    def action_pass_(self) -> None:
        option = self._pass_option()
        if option is not None:
            self._answer(option)

    def _pass_option(self) -> Option | None:
        """p: "pass" in a response window; in your Main Phase 2 (nothing left but the End Phase),
        the End Phase. None elsewhere (the key is not shown: n moves on)."""
        d = self.session.pending
        if d is None or not self._my_decision():
            return None
        if d.kind == Kind.COMMAND and not any(o.key in ("battle", "main2") for o in d.options):
            return d.option("end")
        return self._pick_verb("pass") if d.kind == Kind.CHAIN else None

    def action_attack(self) -> None:
        d = self.session.pending
        if d is None or not self._my_decision():
            return
        attacks = [o for o in d.options if o.verb == "attack"]
        battle = None if attacks else self._battle_to_attack()
        if battle is not None:
            self.attack_next = True  # into the Battle Phase; its Battle Step asks which attack
            self._answer(battle)
            return
        if not attacks:
            self.notify("No monster can attack now.")
            return
        self.ask(ChoicePrompt("Declare an attack", attacks, describe=self.describe, on_highlight=self.show_option), self._answer)

    def action_pile(self, which: str, opponent: bool = False) -> None:
        if self.asking:
            return
        view = self.session.view()
        side = view.sides[1 - self.bottom if opponent else self.bottom]
        cards = {"gy": side.gy, "banished": side.banished, "extra": side.extra}[which]
        title = {"gy": "Graveyard", "banished": "Banished", "extra": "Extra Deck"}[which]

        def acts(card: CardView) -> bool:  # (the refusals are read only when a card's menu opens)
            return any(self._card_actions(card.uid))

        def closed(uid: int | None) -> None:
            if uid is None:
                self.advance()
            else:
                self.card_menu(uid, self.session.duel.cards[uid].name)

        self.ask(PileScreen(self.session.pool, f"{side.name}'s {title} ({len(cards)})", list(reversed(cards)), acts), closed)

    def action_full_log(self) -> None:
        if not self.asking:
            s = self.session
            self.ask(LogScreen(list(log_lines(s.duel.log, s.viewer, s.duel.names))), lambda _: self.advance())

    def action_detail(self) -> None:
        focused = self.board.cursor
        if focused is not None and focused.view is not None and not self.asking:
            self.ask(PileScreen(self.session.pool, focused.view.name or "Card", [focused.view]), lambda _: self.advance())

    def action_move(self, drow: int, dcol: int) -> None:
        if self.asking:
            return
        slot = self.board.move(drow, dcol)
        if slot is not None:
            self.select(slot)
