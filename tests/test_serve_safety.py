"""`ygoterm serve` on a shared machine: only its own pages with the printed token open a session,
sessions are limited in number and size, and no session process outlives its tab or the server.

Each test runs a real `ygoterm serve` (a subprocess, on a free port, with a home of its own) and
talks to it with aiohttp's websocket client as textual.js would. The session processes are
found as the server's children in /proc (Linux only) and checked gone with /proc too."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import pytest

pytest.importorskip("textual_serve", reason="textual-serve is not installed")
aiohttp = pytest.importorskip("aiohttp")

from tests.test_serve import _listening  # noqa: E402
from tests.test_serve import _wait_for as wait_until  # noqa: E402
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the session processes in /proc")

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------------- processes


def _stat(pid: int) -> list[str] | None:
    """/proc/PID/stat's fields after the name (state, ppid, …); None for no such process."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def alive(pid: int) -> bool:
    fields = _stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")  # (a zombie has ended)


def children(pid: int) -> list[int]:
    """The live processes whose parent is `pid` (the server's session processes)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat(int(entry))) and fields[1] == str(pid) and fields[0] not in ("Z", "X"):
            found.append(int(entry))
    return found


def environ(pid: int) -> dict[str, str]:
    pairs = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(p.decode(errors="replace").split("=", 1) for p in pairs if b"=" in p)


def rss_mb(pid: int) -> float:
    m = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return int(m.group(1)) / 1024 if m else 0.0


async def await_until(predicate, timeout: float, what: str, poll: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := predicate():
            return value
        await asyncio.sleep(poll)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


# ---------------------------------------------------------------------- the server


@dataclass
class Served:
    proc: subprocess.Popen
    port: int
    address: str  # what the server printed: the page, with its token
    log: Path
    seen: set[int] = field(default_factory=set)  # every session process found (checked gone at the end)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def token(self) -> str:
        m = re.search(r"\?token=(\S+)$", self.address)
        return m.group(1) if m else ""

    def ws_url(self, token: str | None = None) -> str:
        token = self.token if token is None else token
        return f"ws://127.0.0.1:{self.port}/ws" + (f"/{token}" if token else "")

    def sessions(self) -> list[int]:
        found = children(self.proc.pid)
        self.seen.update(found)
        return found

    def stderr(self) -> str:
        return self.log.read_text(errors="replace")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(tmp_path: Path, *flags: str) -> Iterator[Served]:
    """A `ygoterm serve` subprocess; whatever it leaves running is killed (and the test fails)."""
    port = _free_port()
    env = {**os.environ, "YGOTERM_HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    log = tmp_path / "serve.log"
    proc = subprocess.Popen([sys.executable, "-m", "ygoterm", "serve", "--port", str(port), *flags],
                            stdout=subprocess.PIPE, stderr=log.open("w"), env=env, cwd=tmp_path, text=True)
    served = Served(proc, port, "", log)
    try:
        served.address = proc.stdout.readline().strip()  # (printed before the server starts; "" if it failed)
        assert served.address.startswith(f"http://127.0.0.1:{port}/"), log.read_text()
        wait_until(lambda: _listening(port) or proc.poll() is not None, 15, "ygoterm serve to listen")
        assert proc.poll() is None, log.read_text()
        yield served
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        left = [pid for pid in served.seen if alive(pid)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"session processes outlived the server: {left}"


async def connect(http, served: Served, *, origin: str | None = None, token: str | None = None, path: str = ""):
    """A websocket to the server as the page opens it (its own Origin, the token in the path)."""
    headers = {"Origin": served.origin if origin is None else origin} if origin != "" else {}
    return await http.ws_connect(served.ws_url(token) + path, headers=headers, max_msg_size=0, autoping=True)


async def first_output(ws, timeout: float = 30) -> bytes:
    """Wait for the app's first output (its process is up and drawing)."""
    while True:
        msg = await ws.receive(timeout=timeout)
        if msg.type == aiohttp.WSMsgType.BINARY:
            return msg.data
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            pytest.fail(f"the session closed before it drew anything: {msg}")


async def closed_with(ws, timeout: float = 15) -> tuple[int | None, str]:
    """Read until the server closes the websocket: its close code and reason."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        msg = await ws.receive(timeout=left)
        if msg.type == aiohttp.WSMsgType.CLOSE:
            return msg.data, msg.extra or ""
        if msg.type in (aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
            return ws.close_code, ""
    pytest.fail("the server did not close the websocket")


async def refused(http, served: Served, **kwargs) -> int:
    """The HTTP status a refused websocket got (fails if it was let in)."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as caught:
        ws = await connect(http, served, **kwargs)
        await ws.close()
    return caught.value.status


# ---------------------------------------------------------------------- who may open a session


async def test_only_the_servers_own_pages_with_the_token_open_a_session(tmp_path):
    with serving(tmp_path) as served:
        assert len(served.token) >= 40
        async with aiohttp.ClientSession() as http:
            # the page: only with the token, only under the server's own name
            for url, status in ((f"{served.origin}/", 403), (f"{served.origin}/?token=wrong", 403),
                                (served.address, 200)):
                async with http.get(url) as r:
                    assert r.status == status, url
                    page = await r.text()
            assert f'data-session-websocket-url="ws://127.0.0.1:{served.port}/ws/{served.token}"' in page
            assert r.headers["X-Frame-Options"] == "DENY" and r.headers["Referrer-Policy"] == "no-referrer"
            async with http.get(served.address, headers={"Host": f"evil.example.com:{served.port}"}) as r:
                assert r.status == 403  # a DNS-rebound name
            # the websocket: the token, and the server's own Origin
            assert await refused(http, served, origin="http://evil.example.com") == 403
            assert await refused(http, served, origin=f"http://127.0.0.1:{served.port + 1}") == 403
            assert await refused(http, served, origin="null") == 403
            assert await refused(http, served, origin="") == 403  # (no Origin at all)
            assert await refused(http, served, token="") == 403
            wrong = ("y" if served.token[0] == "x" else "x") + served.token[1:]  # (one token in 64 starts with "x")
            assert await refused(http, served, token=wrong) == 403
            assert served.sessions() == [], "a refused websocket started a process"
            ws = await connect(http, served)
            await first_output(ws)
            (pid,) = served.sessions()
            assert environ(pid)["YGOTERM_SESSION"] == "web-1"
            async with http.ws_connect(served.ws_url(), headers={"Origin": f"http://localhost:{served.port}"}) as other:
                await first_output(other)  # (localhost is this machine too: an ssh -L tunnel's page)
            await ws.close()
    assert "refused a websocket (Origin http://evil.example.com)" in served.stderr()


async def test_no_token_serves_without_one_but_still_checks_the_origin(tmp_path):
    with serving(tmp_path, "--no-token") as served:
        assert served.address == f"{served.origin}/"
        assert "--no-token: anyone who can reach this port can play" in served.stderr()
        async with aiohttp.ClientSession() as http:
            async with http.get(served.address) as r:
                assert r.status == 200 and f'"ws://127.0.0.1:{served.port}/ws"' in await r.text()
            assert await refused(http, served, origin="http://evil.example.com") == 403
            ws = await connect(http, served)
            await first_output(ws)
            await ws.close()


# ---------------------------------------------------------------------- limits


async def test_sessions_beyond_max_sessions_are_refused_until_one_ends(tmp_path):
    with serving(tmp_path, "--max-sessions", "2") as served:
        async with aiohttp.ClientSession() as http:
            first, second = await connect(http, served), await connect(http, served)
            await asyncio.gather(first_output(first), first_output(second))
            third = await connect(http, served)
            code, reason = await closed_with(third)
            assert code == 1013 and "2 sessions are running (--max-sessions)" in reason
            assert len(served.sessions()) == 2
            async with http.get(served.address) as r:  # the page says so too
                assert r.status == 503 and "as many as --max-sessions allows" in await r.text()
            sessions = {environ(pid)["YGOTERM_SESSION"]: pid for pid in served.sessions()}
            assert set(sessions) == {"web-1", "web-2"}
            await first.close()
            await await_until(lambda: not alive(sessions["web-1"]), 15, "the closed tab's process to end")
            for _ in range(50):  # (its slot is free once the server has seen its process end)
                async with http.get(served.address) as r:
                    if r.status == 200:
                        break
                await asyncio.sleep(0.1)
            again = await connect(http, served)
            await first_output(again)  # the freed slot is taken again
            assert {environ(pid)["YGOTERM_SESSION"] for pid in served.sessions()} == {"web-1", "web-2"}
            await again.close()
            await second.close()


async def test_a_huge_message_closes_its_session_and_ends_its_process(tmp_path):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, served)
            await first_output(ws)
            (pid,) = served.sessions()
            try:
                await ws.send_str(json.dumps(["stdin", "x" * 3_000_000]))
                cut_off = False
            except (ConnectionError, aiohttp.ClientError):
                cut_off = True  # (a loaded machine: the server closed while the 3 MB were still being written)
            code, _ = await closed_with(ws)
            assert code == 1009 or (cut_off and code in (None, 1006)), code  # message too big: it never reached the app
            await await_until(lambda: not alive(pid), 10, "the session's process to end")


async def test_a_flood_of_input_is_dropped_beyond_what_the_app_can_digest(tmp_path):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, served)
            await first_output(ws)
            (pid,) = served.sessions()
            for _ in range(16):  # 1 MB of keys at once: in 63 kB messages, each within the size limit
                await ws.send_str(json.dumps(["stdin", "x" * 63_000]))
            peak = 0.0
            for _ in range(25):  # (all of it reaching the app took it past 1 GB)
                await asyncio.sleep(0.2)
                peak = max(peak, rss_mb(pid))
            assert peak < 400, f"the session grew to {peak:.0f} MB"
            await ws.send_str(json.dumps(["ping", "still there?"]))
            while (msg := await ws.receive(timeout=10)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert json.loads(msg.data) == ["pong", "still there?"]
            await ws.close()
    assert "dropping what is over" in served.stderr()


async def test_a_huge_resize_does_not_make_a_huge_terminal(tmp_path):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession() as http:
            ws = await connect(http, served)
            await first_output(ws)
            (pid,) = served.sessions()
            await ws.send_str(json.dumps(["resize", {"width": 20000, "height": 20000}]))
            for junk in (["resize", {"width": "wide", "height": 5}], ["resize", {"width": -3, "height": 5}],
                         ["resize", [1, 2]], ["nonsense"], {"not": "a list"}, "[unclosed"):
                await ws.send_str(junk if isinstance(junk, str) else json.dumps(junk))
            peak = 0.0
            for _ in range(25):  # (unclamped, this session grew past 2 GB within seconds)
                await asyncio.sleep(0.2)
                peak = max(peak, rss_mb(pid))
            assert peak < 600, f"the session grew to {peak:.0f} MB"
            await ws.send_str(json.dumps(["ping", "still there?"]))
            while (msg := await ws.receive(timeout=10)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert json.loads(msg.data) == ["pong", "still there?"]  # the junk closed nothing
            await ws.close()


def test_terminal_sizes_are_clamped_and_junk_is_refused():
    from ygoterm.cli.webserver import terminal_size

    assert terminal_size(20000, 20000) == (500, 200)
    assert terminal_size("120", "40") == (120, 40) and terminal_size(80, 24) == (80, 24)
    for width, height in ((0, 24), (-1, 24), (True, 24), (80.5, 24), ("1e9", "24"), ("9" * 5000, "24"), (None, 24), ("٣", "24")):
        assert terminal_size(width, height) is None, (width, height)


# ---------------------------------------------------------------------- no process outlives its tab or the server

CLIENT = """
import asyncio, sys, aiohttp
async def main():
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(sys.argv[1], headers={"Origin": sys.argv[2]}) as ws:
            while (await ws.receive()).type != aiohttp.WSMsgType.BINARY:
                pass
            print("drawn", flush=True)
            await asyncio.sleep(3600)
asyncio.run(main())
"""


@contextmanager
def drawn_client(served) -> Iterator[subprocess.Popen]:
    """A client in another process (so that it can be killed) whose tab has been drawn."""
    client = subprocess.Popen([sys.executable, "-c", CLIENT, served.ws_url(), served.origin], stdout=subprocess.PIPE, text=True)
    try:
        assert client.stdout.readline().strip() == "drawn"
        yield client
    finally:
        if client.poll() is None:
            client.kill()
        client.wait()
        client.stdout.close()


def test_killing_the_client_ends_its_session(tmp_path):
    with serving(tmp_path) as served, drawn_client(served) as client:
        (pid,) = served.sessions()
        client.kill()  # (no close frame: the browser crashed, the laptop's lid closed)
        client.wait()
        wait_until(lambda: not alive(pid), 20, "the session of a killed client to end")


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_stopping_the_server_ends_every_session(tmp_path, how):
    with serving(tmp_path) as served:
        async with aiohttp.ClientSession() as http:
            tabs = [await connect(http, served) for _ in range(2)]
            await asyncio.gather(*(first_output(ws) for ws in tabs))
            sessions = served.sessions()
            assert len(sessions) == 2
            served.proc.send_signal(how)
            await await_until(lambda: served.proc.poll() is not None, 20, "the server to stop")
            assert served.proc.returncode == 0, served.stderr()
            assert not [pid for pid in sessions if alive(pid)], "a session outlived the server"
            for ws in tabs:
                await ws.close()


def test_a_killed_server_leaves_no_session(tmp_path):
    """Even SIGKILL, which the server cannot answer: each session sees its parent gone and quits."""
    with serving(tmp_path) as served, drawn_client(served):
        (pid,) = served.sessions()
        served.proc.kill()
        served.proc.wait()
        wait_until(lambda: not alive(pid), 20, "an orphaned session to end")


# ---------------------------------------------------------------------- the command line


def _serve_exits(capsys, *args) -> tuple[int, str]:
    from ygoterm.cli import main

    with pytest.raises(SystemExit) as info:
        main(["serve", *map(str, args)])
    captured = capsys.readouterr()
    return info.value.code, " ".join((captured.out + captured.err).split())


def test_serve_help_names_the_safety_flags_with_their_defaults(capsys):
    code, text = _serve_exits(capsys, "--help")
    assert code == 0
    assert "--max-sessions N" in text and "until one closes (default: 4)" in text
    assert "--no-token" in text and "a new random token each run" in text


def test_serve_refuses_bad_flags(cli, capsys):
    code, text = _serve_exits(capsys, "--max-sessions", "0")
    assert code == 2 and "argument --max-sessions: at least 1" in text
    code, _, err = cli("serve", "--port", _free_port(), "--public-url", "localhost:9000")
    assert code == 2 and "not an http:// or https:// address" in err and "Traceback" not in err
