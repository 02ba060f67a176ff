"""`ygoterm serve`: the main menu in a real (headless) Chromium, and clear refusals of bad addresses.
(What keeps the server safe — token, origin, limits, no process left behind — is tests/test_serve_safety.py.)

The page draws the terminal with xterm.js on canvases, so its DOM holds no menu text. The test
checks instead that (1) the browser's websocket session started a ygoterm that mounted the menu
under textual's web driver ($YGOTERM_MENU_SHOWN_FILE, written by the menu), and (2) a screenshot
of the page shows the menu's title colour (#e8c170) — the terminal was really drawn. Chromium
is driven over the DevTools protocol (aiohttp, which textual-serve brings) so that the
screenshot is taken once the app is up rather than after a fixed delay."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TITLE_RGB = (0xE8, 0xC1, 0x70)  # the menu title's colour (MenuScreen)

# In the page: decode the screenshot and count the pixels of the title's colour (±6 per channel).
COUNT_TITLE_PIXELS = """
new Promise(resolve => {
  const img = new Image();
  img.onload = () => {
    const c = document.createElement("canvas");
    c.width = img.width; c.height = img.height;
    const g = c.getContext("2d"); g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - %d) <= 6 && Math.abs(d[i + 1] - %d) <= 6 && Math.abs(d[i + 2] - %d) <= 6) n++;
    resolve(n);
  };
  img.src = "data:image/png;base64," + %s;
})"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(predicate, timeout: float, what: str, poll: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(poll)
    pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


class DevTools:
    """Just enough of the Chrome DevTools protocol: call a method on one page and get its result."""

    def __init__(self, ws) -> None:
        self.ws, self.n = ws, 0

    async def call(self, method: str, **params):
        self.n += 1
        await self.ws.send_json({"id": self.n, "method": method, "params": params})
        while True:
            msg = await self.ws.receive_json()
            if msg.get("id") == self.n:
                assert "error" not in msg, msg
                return msg["result"]


async def _screenshot_when_drawn(devtools_port: int, shot: Path, timeout: float) -> int:
    """Screenshots of the page until one shows the title's colour; saves the last to `shot` and
    returns how many pixels of that colour it has (0: never drawn within `timeout`)."""
    import aiohttp

    async with aiohttp.ClientSession() as http:
        targets = await (await http.get(f"http://127.0.0.1:{devtools_port}/json/list")).json()
        page = next(t for t in targets if t["type"] == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            tools = DevTools(ws)
            deadline = time.monotonic() + timeout
            while True:
                data = (await tools.call("Page.captureScreenshot", format="png"))["data"]
                shot.write_bytes(base64.b64decode(data))
                counted = await tools.call("Runtime.evaluate", awaitPromise=True, returnByValue=True,
                                           expression=COUNT_TITLE_PIXELS % (*TITLE_RGB, json.dumps(data)))
                pixels = counted["result"]["value"]
                if pixels or time.monotonic() > deadline:
                    return pixels
                await asyncio.sleep(0.3)


def test_serve_shows_the_main_menu_in_a_browser(tmp_path):
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("chromium is not installed (apt-get install chromium); .ci/run installs it")
    pytest.importorskip("textual_serve", reason="textual-serve is not installed")
    shown = tmp_path / "menu-shown.json"
    env = {**os.environ, "YGOTERM_MENU_SHOWN_FILE": str(shown), "YGOTERM_HOME": str(tmp_path / "home"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    port = _free_port()
    log = (tmp_path / "serve.log").open("w")
    server = subprocess.Popen([sys.executable, "-m", "ygoterm", "--decks", str(ROOT / "decks"), "serve", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=log, env=env, cwd=tmp_path, text=True)
    browser = None
    try:
        address = server.stdout.readline().strip()  # the page with this run's token: without it, 403
        assert re.fullmatch(rf"http://127\.0\.0\.1:{port}/\?token=[\w-]{{40,}}", address), (tmp_path / "serve.log").read_text()
        _wait_for(lambda: _listening(port) or server.poll() is not None, 15, "ygoterm serve to listen")
        assert server.poll() is None, (tmp_path / "serve.log").read_text()
        browser = subprocess.Popen([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                    "--remote-debugging-port=0", f"--user-data-dir={tmp_path / 'chromium'}",
                                    "--window-size=1200,900", address],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        devtools_port = None
        for line in browser.stderr:  # "DevTools listening on ws://127.0.0.1:PORT/devtools/browser/…"
            if m := re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line):
                devtools_port = int(m.group(1))
                break
        assert devtools_port, "chromium did not open its DevTools port"
        # the page's websocket started a ygoterm, which mounted the main menu under textual's web driver
        _wait_for(shown.is_file, 20, "the served app to show the main menu", poll=0.2)
        report = json.loads(_wait_for(lambda: shown.read_text(), 2, "the menu report"))
        assert report["driver"] == "WebDriver"
        assert {"Hot-seat duel", "Solo test", "Settings", "Quit"} <= set(report["items"])
        # …and xterm.js drew it in the page: the title's colour is on screen
        shot = tmp_path / "page.png"
        pixels = asyncio.run(_screenshot_when_drawn(devtools_port, shot, timeout=8))
        assert pixels > 20, f"the page never showed the menu's title (screenshot: {shot})"
    finally:
        for proc in (browser, server):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    proc.kill()
        log.close()
    server.stdout.close()
    assert server.returncode == 0, (tmp_path / "serve.log").read_text()  # SIGTERM: a clean stop


def test_serve_refuses_a_port_in_use(cli):
    pytest.importorskip("textual_serve", reason="textual-serve is not installed")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _, err = cli("serve", "--port", port)
    assert code == 2
    assert f"port {port} on 127.0.0.1 is in use" in err and "Traceback" not in err


@pytest.mark.parametrize("host", ["no-such-host.invalid", "203.0.113.7"])  # unknown name; an address not on this machine
def test_serve_refuses_a_bad_host(cli, host):
    pytest.importorskip("textual_serve", reason="textual-serve is not installed")
    code, _, err = cli("serve", "--host", host, "--port", _free_port())
    assert code == 2
    assert f"--host {host}" in err and "cannot listen there" in err and "Traceback" not in err


def test_serve_runs_each_session_with_this_python_and_the_given_folders(tmp_path):
    from ygoterm.cli import build_parser
    from ygoterm.cli.serve import session_command

    args = build_parser().parse_args(["--cards", str(tmp_path / "my cards"), "--decks", "decks", "serve"])
    command = session_command(args)
    assert command.startswith(f"{sys.executable} -m ygoterm ") or command.startswith(f"'{sys.executable}' -m ygoterm ")
    assert f"--cards '{tmp_path / 'my cards'}'" in command
    assert f"--decks {Path('decks').resolve()}" in command
