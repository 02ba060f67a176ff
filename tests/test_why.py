"""The solo screen's "why?" is fair: what it tells the human about the AI's last move names no
card the human may not see (R-TERM-6) — the AI's hand, its Set cards, the cards it expects to
draw — over many decisions of whole duels; once the duel is over it names them all."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from ygoterm import paths
from ygoterm.agents import AIAgent, GreedyAgent, observe
from ygoterm.engine import Duel, Loc
from ygoterm.schema.decks import find_deck, load_deck
from ygoterm.tui.presenters.describe import why_lines

HUMAN, AI = 0, 1


def _secrets(duel: Duel) -> tuple[set[str], set[str]]:
    """Names only the AI may know now (its cards the human cannot see, less every name the human
    sees anywhere or owns: their own decklist is no secret to them), and the names they may know."""
    view = duel.view(HUMAN)
    seen = {c.name for side in view.sides for pile in (side.hand, side.gy, side.banished, side.extra, side.monsters, side.spells)
            for c in pile if c is not None and c.name is not None}
    mine = {c.name for c in duel.cards.values() if c.owner == HUMAN}
    hidden = {c.name for c in duel.cards.values() if c.owner == AI and not c.seen_by(HUMAN)}
    return hidden - seen - mine, seen | mine


def _told(text: str, secrets: set[str], known: set[str]) -> set[str]:
    """The secret names in `text`, once the known names are taken out ("Luster Dragon #2" on the
    field does not tell "Luster Dragon" in the hand)."""
    for name in sorted(known, key=len, reverse=True):
        text = text.replace(name, "")
    return {name for name in secrets if name in text}


@pytest.mark.parametrize("seed", [3, 8])
def test_why_never_names_a_card_the_human_cannot_see(pool, seed):
    decks = [load_deck(find_deck(n, paths.deck_dirs()), pool)[0] for n in ("joey-warriors", "kaiba-dragons")]
    duel = Duel.new(pool, tuple(decks), seed)
    human, ai = GreedyAgent(seed), AIAgent("normal", seed, budget=200)
    session = SimpleNamespace(seats=[SimpleNamespace(agent=human), SimpleNamespace(agent=ai)], duel=duel, viewer=HUMAN)
    shown = searched_with_secrets = 0
    while (decision := duel.pending) is not None and duel.turn < 9:
        agent = ai if decision.player == AI else human
        ai.last = None
        duel.apply(agent.choose(observe(duel, decision.player, pool), decision))
        if ai.last is None:
            continue
        text = "\n".join(why_lines(session) or [])
        full = "\n".join(ai.last.lines())
        secrets, known = _secrets(duel)
        leaked = _told(text, secrets, known)
        assert not leaked, f"'why?' names {leaked}, which the human cannot see:\n{text}"
        shown += 1
        searched_with_secrets += bool(_told(full, secrets, known))  # (the unmasked text would have told)
        if "expected" in text:  # each move of the line says whose it is
            seats = tuple(f"{side.name}: " for side in duel.view(HUMAN).sides)
            assert all(move.startswith(seats) for move in text.split("play-outs): ")[1].split(" → ")), text
    assert shown >= 10 and searched_with_secrets >= 3


def test_once_the_duel_is_over_why_names_every_card(pool):
    from ygoterm.agents.ai import Thought

    decks = [load_deck(find_deck(n, paths.deck_dirs()), pool)[0] for n in ("joey-warriors", "kaiba-dragons")]
    duel = Duel.new(pool, tuple(decks), 1)
    duel.apply(duel.pending.options[0])  # (going first: the hands are dealt)
    secret = next(c for c in duel.cards.values() if c.owner == AI and c.loc == Loc.HAND)
    thought = Thought("Main Phase 1", [(f"summon {secret.name}", 0.5, 20)], f"summon {secret.name}", [(AI, f"summon {secret.name}")],
                      frozenset({(secret.uid, secret.name)}), AI)
    session = SimpleNamespace(seats=[SimpleNamespace(agent=None), SimpleNamespace(agent=SimpleNamespace(last=thought))], duel=duel, viewer=HUMAN)
    during = "\n".join(why_lines(session) or [])
    assert secret.name not in during and "summon a card in hand" in during and "Player 2: summon a card in hand" in during
    duel.concede(HUMAN)
    assert secret.name in "\n".join(why_lines(session) or [])
