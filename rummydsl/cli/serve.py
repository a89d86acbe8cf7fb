"""``rummydsl serve``: the web playground on this machine (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import socket
from typing import TextIO

from .parser import EXIT_INPUT, EXIT_OK

__all__ = [
    "cmd_serve",
]


def cmd_serve(args: argparse.Namespace, out: TextIO, err: TextIO, inp: TextIO) -> int:
    """``rummydsl serve``: bind the address, print it, and serve the playground until Ctrl-C."""
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as missing:
        print(f"rummydsl serve: the playground needs starlette and uvicorn ({missing}); install them "
              "with pip install 'rummydsl[web]'", file=err)
        return EXIT_INPUT
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((args.host, args.port))
    except (OSError, OverflowError) as problem:
        sock.close()
        print(f"rummydsl serve: cannot listen on {args.host}:{args.port}: "
              f"{getattr(problem, 'strerror', None) or problem}", file=err)
        return EXIT_INPUT
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"rummydsl playground: open http://{shown}:{port}/ (Ctrl-C to stop)", file=out)
    if host not in ("127.0.0.1", "::1", "localhost"):
        print("rummydsl serve: note: listening beyond this machine; anyone who can reach it may use it",
              file=err)
    out.flush()
    server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning", access_log=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
    return EXIT_OK
