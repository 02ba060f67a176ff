"""`ygoterm serve`: the main menu in a web browser, served by textual-serve.

textual-serve runs a command line per browser session (each tab gets its own `ygoterm` process,
driven over a websocket by xterm.js in the page); the command is this interpreter's
`-m ygoterm` with the `--cards` / `--decks` folders given to `serve`, as absolute paths."""

from __future__ import annotations

import argparse
import shlex
import socket
import sys
from pathlib import Path

from .common import EXIT_OK, UsageError, card_pool, deck_dirs, err


def add_parser(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("serve", help="play in a web browser: serve the main menu over HTTP (textual-serve)",
                       description="Serve the main menu over HTTP: open the printed address in a browser; each "
                                   "browser tab runs its own ygoterm. Over SSH: `ssh -L 8000:localhost:8000 HOST`, "
                                   "run `ygoterm serve` there and open http://localhost:8000 here.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=8000, help="the port to listen on (default: 8000)")
    p.add_argument("--public-url", metavar="URL",
                   help="the address the browser reaches the server by, when it differs from http://HOST:PORT "
                        "(a tunnel to another local port, a proxy)")
    p.set_defaults(run=run_serve)


def session_command(args: argparse.Namespace) -> str:
    """The shell command textual-serve starts for each browser session: the menu with the same
    interpreter, cards and decks (paths made absolute: the sessions need not share a folder)."""
    argv = [sys.executable, "-m", "ygoterm"]
    for flag, values in (("--cards", args.cards), ("--decks", args.decks)):
        for value in values or []:
            argv += [flag, str(Path(value).expanduser().resolve())]
    return shlex.join(argv)


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
        from textual_serve.server import Server
    except ImportError:
        raise UsageError("textual-serve is not installed", "pip install textual-serve") from None
    _check_address(args.host, args.port)
    card_pool(args), deck_dirs(args)  # bad --cards/--decks: refused here, not in every browser tab
    server = Server(session_command(args), host=args.host, port=args.port, title="ygoterm", public_url=args.public_url)
    try:
        server.serve()
    except OSError as e:  # taken between the check and the server's bind
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there ({e.strerror or e})") from None
    err.print("ygoterm serve: stopped.")
    return EXIT_OK
