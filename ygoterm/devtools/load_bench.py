"""How fast a large card pool loads: cold (parse + validate) and warm (from the cache)."""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..schema.cardpool import CardPool
from ..schema.vocab import ATTRIBUTES, MONSTER_TYPES

CARDS_PER_FILE = 1000


@dataclass
class LoadFigures:
    cards: int
    files: int
    megabytes: float
    cold_s: float
    warm_s: list[float]

    @property
    def warm_best(self) -> float:
        return min(self.warm_s)


def generate_pool(folder: Path, count: int, seed: int = 0) -> None:
    """Write `count` plausible cards (monsters, spells, traps) as YAML files into `folder`."""
    rng = random.Random(seed)
    for start in range(0, count, CARDS_PER_FILE):
        lines: list[str] = []
        for i in range(start, min(count, start + CARDS_PER_FILE)):
            passcode = 10_000_000 + i
            kind = rng.choices(("monster", "spell", "trap"), (6, 3, 2))[0]
            lines += [f"- id: {passcode}", f"  name: Generated Card {i}", f"  kind: {kind}"]
            if kind == "monster":
                lines += [f"  frame: {rng.choice(('normal', 'effect'))}", f"  attribute: {rng.choice(ATTRIBUTES[:6])}",
                          f"  type: {rng.choice(MONSTER_TYPES)}", f"  level: {rng.randint(1, 12)}",
                          f"  atk: {rng.randrange(0, 3100, 50)}", f"  def: {rng.randrange(0, 3100, 50)}"]
            else:
                sub = rng.choice(("normal", "continuous") if kind == "trap" else ("normal", "quick-play", "equip", "field"))
                lines.append(f"  subtype: {sub}")
            lines.append(f"  text: \"Generated card number {i}; it exists to measure loading speed.\"")
        (folder / f"pool-{start // CARDS_PER_FILE:03d}.yaml").write_text("\n".join(lines) + "\n")


def measure_load(count: int, warm_runs: int = 5) -> LoadFigures:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "cards"
        folder.mkdir()
        generate_pool(folder, count)
        old = os.environ.get("YGOTERM_CACHE")
        os.environ["YGOTERM_CACHE"] = str(Path(tmp) / "cache")
        try:
            size = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
            t0 = time.perf_counter()
            pool = CardPool.load([folder])
            cold = time.perf_counter() - t0
            warm = []
            for _ in range(warm_runs):
                t0 = time.perf_counter()
                CardPool.load([folder])
                warm.append(time.perf_counter() - t0)
        finally:
            if old is None:
                os.environ.pop("YGOTERM_CACHE", None)
            else:
                os.environ["YGOTERM_CACHE"] = old
        return LoadFigures(len(pool), len(list(folder.iterdir())), size, cold, warm)


@dataclass
class ImportFigures:
    cards: int
    imported: int
    megabytes: float
    import_s: float
    cold_s: float
    warm_s: list[float]
    search_s: list[float]
    # `ygoterm cards show NAME` as a user runs it (a new process), best of 3, and its peak memory:
    # with the imported cards, and with the shipped cards only
    show_s: float = 0.0
    show_mb: float = 0.0
    show_shipped_s: float = 0.0
    show_shipped_mb: float = 0.0


def generate_cdb(path: Path, count: int, seed: int = 0) -> None:
    """An EDOPro-style cards.cdb of `count` plausible cards: every frame, scales, Link arrows,
    alternate artworks, and texts as long as real ones (~400 characters)."""
    import sqlite3

    from ..schema import carddb as db

    rng = random.Random(seed)
    words = ("Target", "monster", "your", "opponent", "controls", "destroy", "it", "Special", "Summon", "from", "the", "GY",
             "once", "per", "turn", "you", "can", "banish", "this", "card", "add", "1", "Spell", "Trap", "Deck", "hand")
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE datas(id integer primary key, ot integer, alias integer, setcode integer, type integer, atk integer, "
                "def integer, level integer, race integer, attribute integer, category integer)")
    con.execute("CREATE TABLE texts(id integer primary key, name text, desc text, " + ", ".join(f"str{i} text" for i in range(1, 17)) + ")")
    races, attributes = list(db.RACES), list(db.ATTRIBUTE_FLAGS)
    rows: list[tuple[int, ...]] = []
    texts: list[tuple[int | str, ...]] = []
    for i in range(count):
        code = 20_000_000 + i * 10
        text = " ".join(rng.choice(words) for _ in range(rng.randint(20, 110))) + "."
        alias, atk, def_, level, race, attribute = 0, 0, 0, 0, 0, 0
        kind = rng.choices(("monster", "spell", "trap", "alt"), (60, 22, 16, 2))[0]
        if kind == "alt" and rows:
            alias = rows[-1][0] if rows[-1][2] == 0 else rows[-1][2]
            rows.append((code, 3, alias, 0, rows[-1][4], rows[-1][5], rows[-1][6], rows[-1][7], rows[-1][8], rows[-1][9], 0))
            texts.append((code, texts[-1][1], texts[-1][2]))
            continue
        if kind == "monster":
            frame = rng.choice(("normal", "effect", "effect", "effect", "ritual", "fusion", "synchro", "xyz", "link", "pendulum"))
            type_ = db.TYPE_MONSTER | (db.TYPE_NORMAL if frame == "normal" else db.TYPE_EFFECT)
            type_ |= {"ritual": db.TYPE_RITUAL, "fusion": db.TYPE_FUSION, "synchro": db.TYPE_SYNCHRO, "xyz": db.TYPE_XYZ,
                      "link": db.TYPE_LINK, "pendulum": db.TYPE_PENDULUM}.get(frame, 0)
            atk, race, attribute = rng.randrange(0, 3100, 50), rng.choice(races), rng.choice(attributes)
            if frame == "link":
                rating = rng.randint(1, 4)
                def_ = sum(rng.sample(list(db.LINK_FLAGS), rating))
                level = rating
            else:
                def_, level = rng.randrange(0, 3100, 50), rng.randint(1, 12)
                if frame == "pendulum":
                    scale = rng.randint(0, 13)
                    level |= (scale << 24) | (scale << 16)
        elif kind == "spell":
            type_ = db.TYPE_SPELL | rng.choice((0, db.TYPE_QUICKPLAY, db.TYPE_CONTINUOUS, db.TYPE_EQUIP, db.TYPE_FIELD))
        else:
            type_ = db.TYPE_TRAP | rng.choice((0, db.TYPE_CONTINUOUS, db.TYPE_COUNTER))
        rows.append((code, 3, alias, 0, type_, atk, def_, level, race, attribute, 0))
        texts.append((code, f"Generated Import {i}", text))
    con.executemany("INSERT INTO datas VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    con.executemany("INSERT INTO texts (id, name, desc) VALUES (?,?,?)", texts)
    con.commit()
    con.close()


def measure_import(count: int, warm_runs: int = 5) -> ImportFigures:
    """Import a generated `count`-card cards.cdb into an empty user folder (as `ygoterm cards
    import` does), then load the whole pool cold (no cache) and warm, and search it."""
    from .. import paths
    from ..schema.cardimport import plan_import, write_import
    from ..schema.carddb import read_source
    from ..schema.query import search

    with tempfile.TemporaryDirectory() as tmp:
        cdb = Path(tmp) / "cards.cdb"
        generate_cdb(cdb, count)
        saved = {k: os.environ.get(k) for k in ("YGOTERM_HOME", "YGOTERM_CACHE")}
        os.environ["YGOTERM_HOME"], os.environ["YGOTERM_CACHE"] = str(Path(tmp) / "home"), str(Path(tmp) / "cache")
        try:
            target = paths.user_home() / "cards" / "imported-cards"
            t0 = time.perf_counter()
            pool = CardPool.load(paths.card_dirs(), exclude=[target])
            plan = plan_import(read_source(cdb), pool)
            write_import(plan, pool, target)
            imported = time.perf_counter() - t0
            size = sum(p.stat().st_size for p in target.iterdir()) / 1e6
            t0 = time.perf_counter()
            pool = CardPool.load(paths.card_dirs())
            cold = time.perf_counter() - t0
            warm = []
            for _ in range(warm_runs):
                t0 = time.perf_counter()
                pool = CardPool.load(paths.card_dirs())
                warm.append(time.perf_counter() - t0)
            searches = []
            for query in (["dragon"], ["attribute:dark", "atk>=2000"], ["text:banish", "level:4"], ["import", "99"]):
                t0 = time.perf_counter()
                search(pool, query)
                searches.append(time.perf_counter() - t0)
            show = _command(["cards", "show", "Generated Import 7"])
            os.environ["YGOTERM_HOME"] = str(Path(tmp) / "empty")
            shipped = _command(["cards", "show", "Gemini Elf"])
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        return ImportFigures(count, len(plan.cards), size, imported, cold, warm, searches, *show, *shipped)


def _command(args: list[str], runs: int = 3) -> tuple[float, float]:
    """A ygoterm command in a new process, as a user runs it: best wall time of `runs`, in seconds,
    and the peak resident memory of that run, in MB. A small wrapper process starts it (a child
    forked from this big one would count this one's memory as its own peak)."""
    import json
    import subprocess
    import sys

    wrapper = ("import json, resource, subprocess, sys, time; t = time.perf_counter(); "
               "code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
               "print(json.dumps([code, time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
    best = (float("inf"), 0.0)
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", wrapper, sys.executable, "-m", "ygoterm", *args],
                              capture_output=True, text=True, check=True)
        code, wall, peak_kb = json.loads(done.stdout)
        if code != 0:
            raise RuntimeError(f"ygoterm {' '.join(args)} exited {code}")
        best = min(best, (wall, peak_kb / 1024))
    return best
