"""Build the shipped 2005 (GOAT format) card files from public card databases — a developer's
tool, run once per data refresh; its output (`cards/goat/`) is what ships, not the databases.

    python -m ygoterm.devtools.goat_pool --lflist GOAT.lflist.conf --cdb cards.cdb \\
        --versions goat-entries.cdb cards-unofficial.cdb --out cards/goat

1. The cards the format's whitelist names (EDOPro's `GOAT.lflist.conf`) are taken from the main
   database (`--cdb`: a YGOPro/EDOPro `cards.cdb`) and imported with `ygoterm cards import` — so
   they become cards exactly as a user's import would. Cards the shipped pool already has are
   used as they are (`cards import` skips them).
2. The list names some cards by an entry of an add-on database (`--versions`: EDOPro's
   `goat-entries.cdb`, its `(Pre-Errata)` cards): the card as printed in 2005 where errata changed
   its text. Each becomes the `goat:` version of the card it aliases (schema/cards.py: the text a
   `goat` duel plays) and its passcode an alternate passcode of that card, so `.ydk` files and the
   list itself resolve to the one card. Versions of cards the shipped files already hold are
   printed for a person to fold in by hand (their files are written by people).
3. The TCG names of 2005 that were changed later are added as `aka` (decks of the era name them).

The output: `monsters.yaml`, `spells.yaml`, `traps.yaml` (one card per line, as an import writes
them) and `alternates.yaml`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from .. import paths
from ..schema.cardpool import CardPool

# TCG names of 2005 that were later changed (a card's own name today → the names it was printed with)
RENAMED = {
    "Cipher Soldier": ("Kinetic Soldier",),
    "Black Skull Dragon": ("B. Skull Dragon",),
    "Red-Eyes Black Dragon": ("Red-Eyes B. Dragon",),
    "Meteor Black Dragon": ("Meteor B. Dragon",),
    "Red-Eyes Black Chick": ("Red-Eyes B. Chick",),
    "Darklord Marie": ("Marie the Fallen One",),
    "Sky Scout": ("Harpie's Brother",),
    "Dark Scorpion - Cliff the Trap Remover": ("Cliff the Trap Remover",),
    "Darkfall": ("Dark Trap Hole",),
    "Dark Assailant": ("Dark Assassin",),
    "Hidden Spellbook": ("Hidden Book of Spell",),
    "Slime Toad": ("Frog The Jam",),
    "Wattkid": ("Oscillo Hero #2",),
    "Vampire Baby": ("Red-Moon Baby",),
}
_SUFFIX = re.compile(r"\s*\((GOAT|Pre-Errata)\)\s*$")
OUTPUT = {"monsters.yaml", "spells.yaml", "traps.yaml", "alternates.yaml"}


def whitelist(path: Path) -> list[int]:
    """The passcodes a `$whitelist` lflist names."""
    return [int(m[1]) for line in path.read_text(encoding="utf-8").splitlines() if (m := re.match(r"^(\d+)\s+-?\d+", line))]


def _rows(db: Path) -> dict[int, tuple[int, str, str]]:
    """passcode → (alias, name, text) of a card database."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {r[0]: (r[1], r[2], r[3]) for r in con.execute("select d.id, d.alias, t.name, t.desc from datas d join texts t on d.id = t.id")}
    finally:
        con.close()


def _plan(listed: list[int], main: dict[int, tuple[int, str, str]], addons: dict[int, tuple[int, str, str]]
          ) -> tuple[set[int], dict[int, list[tuple[int, str]]]]:
    """The main database's cards to import, and per card the 2005 versions the list names
    (base passcode → [(the version's passcode, its text)])."""
    base: set[int] = set()
    versions: dict[int, list[tuple[int, str]]] = {}
    for code in listed:
        if code in main:
            alias, name, _ = main[code]
            same = alias and alias in main and main[alias][1] == name  # an alternate artwork
            base.add(alias if same else code)
        elif code in addons:
            alias, _, text = addons[code]
            if alias not in main:
                raise SystemExit(f"{code}: a version of {alias}, which {main and 'the main database'} lacks")
            base.add(alias)
            versions.setdefault(alias, []).append((code, text))
        else:
            raise SystemExit(f"{code}: in no database given")
    return base, versions


def _subset(cdb: Path, keep: set[int], out: Path) -> None:
    shutil.copy(cdb, out)
    con = sqlite3.connect(out)
    try:
        # the kept cards and their alternate artworks (rows aliasing a kept card under its name)
        names = dict(con.execute("select id, name from texts"))
        alts = {i for i, alias in con.execute("select id, alias from datas") if alias in keep and names.get(i) == names.get(alias)}
        wanted = ",".join(map(str, keep | alts))
        con.execute(f"delete from datas where id not in ({wanted})")
        con.execute(f"delete from texts where id not in ({wanted})")
        con.commit()
    finally:
        con.close()


def _imported(folder: Path) -> tuple[list[dict[str, Any]], dict[int, list[int]]]:
    cards = [json.loads(line[2:]) for f in sorted(folder.glob("cards-*.yaml"))
             for line in f.read_text(encoding="utf-8").splitlines() if line.startswith("- {")]
    alternates: dict[int, list[int]] = {}
    for line in (folder / "alternates.yaml").read_text(encoding="utf-8").splitlines() if (folder / "alternates.yaml").exists() else []:
        if m := re.match(r"^\s+(\d+): \[([\d, ]+)\]", line):
            alternates[int(m[1])] = [int(x) for x in m[2].split(",")]
    return cards, alternates


def build(args: argparse.Namespace) -> int:
    main = _rows(args.cdb)
    addons: dict[int, tuple[int, str, str]] = {}
    for db in args.versions:
        addons.update(_rows(db))
    listed = whitelist(args.lflist)
    base, versions = _plan(listed, main, addons)
    out: Path = args.out
    if out.exists():  # (generated: rebuilt whole, and the import must not find its own cards in the pool)
        unknown = {p.name for p in out.iterdir()} - OUTPUT
        if unknown:
            raise SystemExit(f"{out} holds files this tool did not write ({', '.join(sorted(unknown))}): choose another --out")
        shutil.rmtree(out)
    with tempfile.TemporaryDirectory() as tmp:
        subset, folder = Path(tmp) / "goat.cdb", Path(tmp) / "imported"
        _subset(args.cdb, base, subset)
        env = {**os.environ, "YGOTERM_HOME": str(Path(tmp) / "home")}  # (only the shipped cards count as the pool)
        done = subprocess.run([sys.executable, "-m", "ygoterm", "cards", "import", str(subset), "--into", str(folder)],
                              capture_output=True, text=True, env=env)
        print(done.stdout.strip())
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return done.returncode
        cards, alternates = _imported(folder)
    pool = CardPool.load([paths.shipped("cards")])  # the cards people wrote; the import skipped them
    by_kind: dict[str, list[str]] = {"monster": [], "spell": [], "trap": []}
    by_name = {c["name"]: c for c in cards}
    for name, old in RENAMED.items():
        if name in by_name:
            by_name[name]["aka"] = list(old)
    by_hand = []
    by_id = {c["id"]: c for c in cards}
    for code, found in sorted(versions.items()):
        text = _SUFFIX.sub("", found[0][1]).strip()
        alternates.setdefault(code, []).extend(v for v, _ in found)
        if code in by_id:
            by_id[code]["goat"] = {"text": text, "note": "the 2005 TCG text (EDOPro's GOAT entry); the effects are today's until scripted apart"}
        else:
            shipped = pool.get(code)
            by_hand.append((code, shipped.name if shipped else "?", text))
    for card in sorted(cards, key=lambda c: c["name"].casefold()):
        by_kind[card["kind"]].append(_line(card))
    out.mkdir(parents=True)
    head = ("# The 2005 (GOAT format) card pool: built by ygoterm/devtools/goat_pool.py with `ygoterm cards import`\n"
            "# from public card databases (facts: names, passcodes, stats, texts). One card per line; a card\n"
            "# that gets scripted moves to a file of its own (docs/cards.md).\n")
    for kind, lines in by_kind.items():
        (out / f"{kind}s.yaml").write_text(head + "".join(line + "\n" for line in lines), encoding="utf-8")
    alt_lines = ["# Other passcodes of the GOAT pool's cards: alternate artworks, and EDOPro's 2005 entries",
                 "# (GOAT / Pre-Errata) of the cards they are (docs/data.md).", "alternates:"]
    for code, others in sorted(alternates.items()):
        name = by_id[code]["name"] if code in by_id else pool.by_id[code].name if code in pool.by_id else ""
        alt_lines.append(f"  {code}: [{', '.join(map(str, sorted(set(others))))}]" + (f"  # {name}" if name else ""))
    (out / "alternates.yaml").write_text("\n".join(alt_lines) + "\n", encoding="utf-8")
    print(f"{len(cards)} cards written to {out} ({', '.join(f'{len(v)} {k}s' for k, v in by_kind.items())}), "
          f"{sum(len(v) for v in versions.values())} 2005 versions folded in")
    if by_hand:
        print(f"{len(by_hand)} 2005 versions of shipped cards to fold in by hand (`goat:` in their files):")
        for code, name, text in by_hand:
            print(f"  {code} {name}: {text}")
    return 0


def _line(card: dict[str, Any]) -> str:
    from ..schema.cardimport import card_line

    return card_line(card)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build cards/goat/ (the 2005 card pool) from public card databases.")
    parser.add_argument("--lflist", type=Path, required=True, help="EDOPro's GOAT.lflist.conf ($whitelist)")
    parser.add_argument("--cdb", type=Path, required=True, help="a YGOPro/EDOPro cards.cdb with the classic cards")
    parser.add_argument("--versions", type=Path, nargs="*", default=[], help="add-on databases with the 2005 versions (goat-entries.cdb …)")
    parser.add_argument("--out", type=Path, default=paths.shipped("cards") / "goat")
    return build(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
