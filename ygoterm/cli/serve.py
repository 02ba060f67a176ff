"""`ygoterm serve`: the main menu in a web browser, served by textual-serve.

textual-serve runs a command line per browser session (each tab gets its own `ygoterm` process,
driven over a websocket by xterm.js in the page); the command is this interpreter's
`-m ygoterm` with the `--cards` / `--decks` folders given to `serve`, as absolute paths. What
guards the server — a token, the origin check, the limits, ending the processes — is
cli/webserver.py."""

from __future__ import annotations

import argparse
import secrets
import shlex
import socket
import sys
from pathlib import Path

from .common import EXIT_OK, UsageError, card_pool, deck_dirs, err, out

MAX_SESSIONS = 4  # browser tabs at once, by default: each is a ygoterm process of ~100 MB


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("serve", help="play in a web browser: serve the main menu over HTTP (textual-serve)",
                       description="Serve the main menu over HTTP: open the printed address (it holds this run's "
                                   "token) in a browser; each browser tab runs its own ygoterm, with its own settings "
                                   "and autosaves. Over SSH: `ssh -L 8000:localhost:8000 HOST`, run `ygoterm serve` "
                                   "there and open the printed address here.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address the browser reaches the server by, when it differs from http://HOST:PORT "
                        "(a tunnel to another local port, a proxy, another machine); pages are accepted from it "
                        "and from http://HOST:PORT only (default: none)")
    p.add_argument("--max-sessions", type=_positive, default=MAX_SESSIONS, metavar="N",
                   help=f"browser tabs that may play at once; the next is refused until one closes (default: {MAX_SESSIONS})")
    p.add_argument("--no-token", action="store_true",
                   help="serve without the token (default: a new random token each run, in the printed address): "
                        "anyone who can reach the port can play, so only on a network you trust")
    p.set_defaults(run=run_serve)


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError("at least 1")
    return n


def session_argv(args: argparse.Namespace) -> list[str]:
    """The command started for each browser session: the menu with the same interpreter, cards
    and decks (paths made absolute: the sessions need not share a folder)."""
    argv = [sys.executable, "-m", "ygoterm"]
    for flag, values in (("--cards", args.cards), ("--decks", args.decks)):
        for value in values or []:
            argv += [flag, str(Path(value).expanduser().resolve())]
    return argv


def session_command(args: argparse.Namespace) -> str:
    """`session_argv` as one shell command line (as textual-serve shows it)."""
    return shlex.join(session_argv(args))


def _check_address(host: str, port: int) -> None:
    """Refuse a port out of range, a host that does not resolve or a port already taken with a
    message (UsageError: exit 2) rather than the server's traceback."""
    if not 0 < port < 65536:
        raise UsageError(f"--port {port}: not a port number", "a port is 1…65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        raise UsageError(f"--host {host}: cannot listen there ({e})", "try 127.0.0.1, or 0.0.0.0 for every interface") from None
    for family, kind, proto, _, address in infos:
        with socket.socket(family, kind, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will (a port in TIME_WAIT is free)
            try:
                s.bind(address)
            except OSError as e:
                if e.errno in (98, 48, 10048):  # EADDRINUSE on Linux, macOS, Windows
                    raise UsageError(f"port {port} on {host} is in use", "choose another one with --port") from None
                raise UsageError(f"--host {host} --port {port}: cannot listen there ({e.strerror})",
                                 "try 127.0.0.1, or 0.0.0.0 for every interface") from None


def run_serve(args: argparse.Namespace) -> int:
    try:
        from .webserver import GuardedServer, origin
    except ImportError:
        raise UsageError("textual-serve is not installed", "pip install textual-serve") from None
    _check_address(args.host, args.port)
    if args.public_url:
        try:
            origin(args.public_url)
        except ValueError:
            raise UsageError(f"--public-url {args.public_url}: not an http:// or https:// address",
                             "e.g. --public-url http://localhost:9000") from None
    card_pool(args), deck_dirs(args)  # bad --cards/--decks: refused here, not in every browser tab
    server = GuardedServer(session_argv(args), host=args.host, port=args.port, public_url=args.public_url,
                           token=None if args.no_token else secrets.token_urlsafe(), max_sessions=args.max_sessions)
    if args.no_token:
        err.print("[bold red]ygoterm serve --no-token: anyone who can reach this port can play and see the screen. "
                  "Only on a network you trust.[/]", soft_wrap=True)
    if args.host in ("0.0.0.0", "::") and not args.public_url:
        err.print(f"From another machine, pass the address it uses: --public-url http://THIS-MACHINE:{args.port}",
                  soft_wrap=True)
    err.print(f"ygoterm serve: up to {args.max_sessions} browser tabs at once; Ctrl+C stops. Open:", soft_wrap=True)
    out.print(server.address, soft_wrap=True, markup=False)
    out.file.flush()
    try:
        server.serve()
    except OSError as e:  # taken between the check and the server's bind
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there ({e.strerror or e})") from None
    finally:
        server.kill_leftovers()
    err.print("ygoterm serve: stopped.")
    return EXIT_OK
