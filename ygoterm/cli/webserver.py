"""The web server of `ygoterm serve`: textual-serve's `Server` with the gates a shared machine needs.

textual-serve (1.1) answers anyone: any page may open its websocket (a site the user visits
could play and read their screen), every websocket starts a process, a message may be 4 MB and
a terminal 20000×20000, and a process that does not answer "quit" outlives its tab and the
server. Here:

- The page needs the run's token (`?token=`, printed with the address) and the websocket needs
  it too, in its path: the page is given `ws://HOST:PORT/ws/TOKEN` (textual.js appends
  `?width=…&height=…` to that URL, so a query parameter would be mangled). The websocket must
  also come from the server's own origin (a browser always sends the page's Origin with a
  websocket), and every request must name the server's own host (a DNS-rebound name does not).
  All three are checked before a process is started; a refusal is HTTP 403.
- At most `max_sessions` sessions; a websocket message at most 64 KiB (aiohttp closes the
  socket, 1009); a terminal at most 500×200 (a larger resize is clamped, a malformed one
  ignored). Input beyond 4 KiB a second (after a 64 KiB burst) is dropped: the app digests
  about 8 KiB of keys a second with a whole core, and what it cannot digest piles up in its
  memory (60 KiB a second of keys took it to 1 GB in 30 s). Typing, the mouse and resizing
  stay far below that; a paste arrives in one message.
- Each session is one process (no shell) in its own process group, with $YGOTERM_SESSION=web-N
  (N: the lowest free number: paths.session_home, its own settings and autosaves) and
  $YGOTERM_SERVE_PID (cli/menu.py: it ends itself if the server dies). When its websocket closes
  or the server stops it is asked to quit, then after 3 s sent SIGTERM, then SIGKILL.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import os
import shlex
import signal
import time
from typing import Any
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from rich.console import Console
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

log = logging.getLogger("textual-serve")

MAX_MESSAGE = 64 * 1024  # bytes in one websocket message: a key, a paste or a resize is far less
MAX_COLUMNS, MAX_ROWS = 500, 200  # the largest terminal a session gets (a 20000×20000 one took 2 GB)
INPUT_RATE, INPUT_BURST = 4 * 1024, 64 * 1024  # bytes of messages for the app a second, and at once
MESSAGE_COST = 16  # the least a message counts for: many tiny messages are work too
GRACE = 3.0  # seconds a session's process has to quit, and then to end after SIGTERM
LOOPBACK = ("127.0.0.1", "localhost", "::1")  # names a browser on this machine (or at an ssh -L tunnel) may use
WILDCARD = ("0.0.0.0", "::")
PAGE_HEADERS = {
    "Referrer-Policy": "no-referrer",  # the token is in the page's address
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",  # no other site may frame the page and have the user type into it
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
}


def origin(url: str) -> str:
    """A URL's origin as a browser sends it: scheme://host[:port], lower case, no default port.
    Raises ValueError for a URL with no host or a bad port."""
    parts = urlsplit(url)
    scheme, host, port = parts.scheme.lower(), (parts.hostname or "").lower(), parts.port
    if scheme not in ("http", "https") or not host:
        raise ValueError(f"not an http(s) address: {url}")
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}" + (f":{port}" if port and port != {"http": 80, "https": 443}[scheme] else "")


def http_url(host: str, port: int) -> str:
    """http://HOST:PORT, the address of a server listening on `host` (an IPv6 one in brackets)."""
    return origin(f"http://{f'[{host}]' if ':' in host else host}:{port}")


def allowed_origins(host: str, port: int, public_url: str | None) -> set[str]:
    """The origins a page may be served from: the server's own (on loopback or every interface:
    also as localhost, 127.0.0.1 and [::1]), and `public_url`'s."""
    hosts = {host, *LOOPBACK} if host in LOOPBACK or host in WILDCARD else {host}
    found = {http_url(h, port) for h in hosts}
    if public_url:
        found.add(origin(public_url))
    return found


def terminal_size(width: object, height: object) -> tuple[int, int] | None:
    """The terminal size a browser asked for (numbers, or digits from a query string), at most
    MAX_COLUMNS × MAX_ROWS; None if it is not two positive whole numbers."""
    def whole(value: object) -> int | None:
        if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 6:
            return int(value)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    w, h = whole(width), whole(height)
    if w is None or h is None or w < 1 or h < 1:
        return None
    return min(w, MAX_COLUMNS), min(h, MAX_ROWS)


class InputBudget:
    """A token bucket: `rate` bytes a second, at most `burst` at once."""

    def __init__(self, rate: int = INPUT_RATE, burst: int = INPUT_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.left, self.at = float(burst), time.monotonic()

    def take(self, n: int) -> bool:
        now = time.monotonic()
        self.left, self.at = min(self.burst, self.left + (now - self.at) * self.rate), now
        if n > self.left:
            return False
        self.left -= n
        return True


class SessionProcess(AppService):
    """One tab's ygoterm: started from an argument list (no shell in between) in a process group
    of its own, with its session's environment; `end` makes sure the group is gone."""

    def __init__(self, argv: list[str], env: dict[str, str], **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv, self.env = argv, env
        self._ending: asyncio.Future[None] | None = None

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        return {**super()._build_environment(width, height), **self.env}

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        pipe = asyncio.subprocess.PIPE
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=pipe, stdout=pipe, stderr=pipe, env=self._build_environment(width, height),
            start_new_session=os.name == "posix")  # (Ctrl+C reaches the server, which ends the sessions)
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        await self.end()

    async def end(self) -> None:
        """Quit the app; SIGTERM its group if it has not ended GRACE seconds later, then SIGKILL.
        Safe to call twice and from two tasks; a cancelled caller does not stop it halfway."""
        if self._ending is None:
            self._ending = asyncio.ensure_future(self._end())
        await asyncio.shield(self._ending)

    async def _end(self) -> None:
        process = self._process
        if process is None:
            return
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        for step in ("quit", "terminate", "kill"):
            if process.returncode is not None:
                break
            try:
                await asyncio.wait_for(self._ask(process, step), GRACE)
            except TimeoutError:
                log.warning("session %s did not %s within %.0f s", process.pid, step, GRACE)
        if self._task is not None:  # (it reads the app's output: at its end it is done)
            try:
                await asyncio.wait_for(self._task, GRACE)
            except TimeoutError:
                self._task.cancel()
            self._task = None

    async def _ask(self, process: asyncio.subprocess.Process, step: str) -> None:
        if step == "quit":
            await self.send_meta({"type": "quit"})  # (may wait: an app that reads nothing fills the pipe)
        else:
            try:
                if os.name == "posix":  # the whole group: whatever the app started goes too
                    os.killpg(process.pid, signal.SIGTERM if step == "terminate" else signal.SIGKILL)
                elif step == "terminate":
                    process.terminate()
                else:
                    process.kill()
            except ProcessLookupError:
                pass
        await process.wait()


class GuardedServer(Server):
    """textual-serve's server behind a token, an origin check and limits (see the module's docstring)."""

    def __init__(self, argv: list[str], *, host: str, port: int, public_url: str | None,
                 token: str | None, max_sessions: int) -> None:
        public = (public_url or http_url(host, port)).rstrip("/")
        super().__init__(shlex.join(argv), host=host, port=port, title="ygoterm", public_url=public)
        self.argv, self.token, self.max_sessions = argv, token, max_sessions
        self.console = Console(stderr=True)  # (its log; stdout has the address alone)
        self.origins = allowed_origins(host, port, public_url)
        self.hosts = {urlsplit(o).netloc for o in self.origins}
        self.sessions: dict[int, SessionProcess | None] = {}  # slot → its process (None: starting)
        self.sockets: set[web.WebSocketResponse] = set()
        self.pids: set[int] = set()  # every session process not known to have ended

    @property
    def address(self) -> str:
        """The address to open: the page, with the token when there is one."""
        return f"{self.public_url}/" + (f"?token={self.token}" if self.token else "")

    def initialize_logging(self) -> None:
        super().initialize_logging()
        logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # (its lines hold the token)

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([  # (no /download: ygoterm never delivers files)
            web.get("/", self.handle_index, name="index"),
            web.get("/ws", self.handle_websocket),
            web.get("/ws/{token}", self.handle_websocket),
            web.static("/static", self.statics_path, name="static"),
        ])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def refusal(self, request: web.Request, *, websocket: bool) -> str:
        """Why a request is refused ("": let it in)."""
        if request.host.lower() not in self.hosts:
            return f"this server answers at {self.public_url} only (pass that address with --public-url)"
        sent = request.headers.get("Origin")
        if (websocket or sent is not None) and (sent or "").lower() not in self.origins:
            return f"a page from {sent or 'an unknown origin'} may not open a session"
        if self.token is not None:
            given = request.match_info.get("token", "") if websocket else request.query.get("token", "")
            if not hmac.compare_digest(given.encode(), self.token.encode()):
                return "open the address `ygoterm serve` printed, with its token"
        return ""

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if why := self.refusal(request, websocket=False):
            return web.Response(status=403, text=f"ygoterm serve: {why}.\n", headers=PAGE_HEADERS)
        if self.free_slot() is None:
            return web.Response(status=503, headers=PAGE_HEADERS,
                                text=f"ygoterm serve: {self.max_sessions} sessions are running, as many as "
                                     "--max-sessions allows. Close a tab, then reload this page.\n")
        scheme, rest = self.public_url.split(":", 1)
        websocket_url = f"{'wss' if scheme == 'https' else 'ws'}:{rest}/ws" + (f"/{self.token}" if self.token else "")
        context = {"font_size": to_int(request.query.get("fontsize", "16"), 16), "app_websocket_url": websocket_url,
                   "config": {"static": {"url": f"{self.public_url}/static/"}}, "application": {"name": self.title}}
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers.update(PAGE_HEADERS)
        return response

    def free_slot(self) -> int | None:
        """The lowest session number not in use (1…max_sessions), or None when all are."""
        return next((n for n in range(1, self.max_sessions + 1) if n not in self.sessions), None)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if why := self.refusal(request, websocket=True):
            log.warning("refused a websocket (Origin %s): %s", request.headers.get("Origin"), why)
            raise web.HTTPForbidden(text=f"ygoterm serve: {why}.\n")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        slot = self.free_slot()
        if slot is None:
            why = f"{self.max_sessions} sessions are running (--max-sessions): close one and reload"
            await websocket.prepare(request)
            await websocket.send_json(["log", f"ygoterm serve: {why}"])  # (textual.js logs it to the console)
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=why.encode())
            return websocket
        self.sessions[slot] = None  # (taken before the first await: two sockets never get one slot)
        size = terminal_size(request.query.get("width"), request.query.get("height")) or (80, 24)
        service = SessionProcess(self.argv, {"YGOTERM_SESSION": f"web-{slot}", "YGOTERM_SERVE_PID": str(os.getpid())},
                                 write_bytes=websocket.send_bytes, write_str=websocket.send_str, close=websocket.close,
                                 download_manager=self.download_manager, debug=self.debug)
        pid = None
        try:
            self.sockets.add(websocket)
            await websocket.prepare(request)
            self.sessions[slot] = service
            await service.start(*size)
            if pid := service.pid:
                self.pids.add(pid)
            await self._process_messages(websocket, service)
        except Exception as error:
            log.exception(error)
        finally:
            await service.end()
            self.pids.discard(pid or 0)
            del self.sessions[slot]
            self.sockets.discard(websocket)
            await websocket.close()
        return websocket

    async def _process_messages(self, websocket: web.WebSocketResponse, app_service: AppService) -> None:
        """Hand the browser's messages to the app: input, resizes (clamped), focus; a message that
        is not one of these is ignored, and one beyond the input budget dropped."""
        budget, warned = InputBudget(), False
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind != "ping" and not budget.take(max(len(message.data), MESSAGE_COST)):
                if not warned:
                    log.warning("session sends more than %d bytes a second: dropping what is over", INPUT_RATE)
                    warned = True
                continue
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                if size := terminal_size(data.get("width"), data.get("height")):
                    await app_service.set_terminal_size(*size)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    async def on_startup(self, app: web.Application) -> None:
        pass  # (`ygoterm serve` prints the address itself, before the server starts)

    async def on_shutdown(self, app: web.Application) -> None:
        """The server stops (SIGINT, SIGTERM): end every session before the sockets go."""
        await asyncio.gather(*(s.end() for s in list(self.sessions.values()) if s is not None))
        for websocket in list(self.sockets):
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=b"ygoterm serve stopped")

    def kill_leftovers(self) -> None:
        """After the server's loop is gone: SIGKILL any session process still running (none, unless
        the loop died before it could end them). Only a child not yet waited for: its pid is not
        anyone else's."""
        for pid in self.pids:
            try:
                if os.name != "posix":
                    os.kill(pid, signal.SIGTERM)
                elif os.waitpid(pid, os.WNOHANG) == (0, 0):
                    os.killpg(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
            except OSError:  # (ChildProcessError: waited for already, it is gone)
                pass
