"""The playground's ASGI application (Starlette): the page, its files and the JSON API.

The API is the contract of ../shared/DESIGN.md ("Environments and servers"), written
out in docs/playground.md:

- ``POST /api/check {"text", "name", "session"}`` -> ``{"diagnostics": [{"line", "column", "message", "rule", "severity"}]}``
- ``POST /api/explain {"text"}`` -> ``{"markdown"}``
- ``POST /api/games {"variant" or "text", "seed", "agents", "seat"}`` -> ``{"id", "view"}``
- ``GET /api/games/ID`` -> ``{"view"}``; ``POST /api/games/ID/actions {"action"}`` ->
  ``{"view"}``; ``POST /api/games/ID/undo`` -> ``{"view"}``
- ``POST /api/compare {"text", "games", "seed"}`` -> 202 ``{"id", "state", "done", "total"}``
  (the rule against its parent by the lab, played in a thread of its own:
  :mod:`rummydsl.web.trials`); ``GET /api/compare/ID`` -> the same, with ``"result"``
  (``compare --json``'s object plus its ``"text"`` table and the lab's ``"plots"``, drawn in the
  trial's thread where matplotlib is installed) once done
- and for the page: ``GET /api/variants`` (the presets and the agents' names) and ``POST /api/complete
  {"text", "line", "column"}`` and ``POST /api/hover`` (the language server's completions
  and hover words, 0-based position).

A posted text may carry ``"session"``, the token ``GET /api/variants`` gave the page: a
text of a session that has no error is kept (:mod:`rummydsl.web.sessions`), and the later
texts of that session may ``extends:`` its id.

Every request body is read to at most :data:`MAX_BODY` bytes (413 past it) and parsed
with the bounded JSON reader (:func:`rummydsl.jsonbound.loads`). Every error is a JSON
object ``{"error": message}`` with a 4xx status (a variant's problems also as
``"diagnostics"``, the messages ``check`` prints), never a traceback. The work of a
request (checking, building, playing the agents' moves) runs in worker threads, at
most :data:`WORKERS` at once, so the event loop keeps answering other browsers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import RummyDslError, VariantError
from ..jsonbound import loads
from ..limits import MAX_REQUEST_BYTES
from .games import GameProblem, Table, Tables
from .sessions import Sessions
from .trials import Trials
from .texts import TextProblem, build_text, check_text, complete_text, hover_text, shipped_variant, text_id

__all__ = [
    "MAX_BODY",
    "WORKERS",
    "STATIC",
    "create_app",
]

MAX_BODY = MAX_REQUEST_BYTES
"""The most bytes of a request body (:data:`rummydsl.limits.MAX_REQUEST_BYTES`); a bigger
body is refused (413) before it is all read."""

WORKERS = 4
"""The most requests whose work runs at once (in threads); others wait their turn."""

STATIC = Path(__file__).resolve().parent / "static"
"""The page and its files (the editor bundle built once: web/build.sh)."""

_SECURITY_HEADERS = {
    # the page talks to this server only: no other origin for scripts, data or fetches
    "Content-Security-Policy": ("default-src 'self'; script-src 'self'; connect-src 'self'; "
                                "img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class ApiError(Exception):
    """A request refused: the status and the JSON body to answer with."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("error"))
        self.status = status
        self.body = body


def _variant_error(problem: VariantError) -> ApiError:
    from .texts import diagnostics_json

    diagnostics = list(problem.diagnostics)
    message = "\n".join(str(d) for d in diagnostics if d.severity == "error") or str(problem)
    return ApiError(400, {"error": message, "diagnostics": diagnostics_json(diagnostics)})


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read to at most :data:`MAX_BODY` bytes."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise ApiError(413, {"error": f"the request is too large: at most {MAX_BODY:,} bytes"})
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ApiError(413, {"error": f"the request is too large: at most {MAX_BODY:,} bytes"})
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = loads(raw.decode("utf-8")) if raw.strip() else {}
    except UnicodeDecodeError:
        raise ApiError(400, {"error": "the request body is not UTF-8 text"}) from None
    except json.JSONDecodeError as problem:
        raise ApiError(400, {"error": f"the request body is not JSON: line {problem.lineno} column "
                                      f"{problem.colno}: {problem.msg}"}) from None
    if not isinstance(data, dict):
        raise ApiError(400, {"error": "the request body must be a JSON object"})
    return data


class _Server:
    """The state of one application: its games and its worker limit."""

    def __init__(self, tables: Tables | None, workers: int, trials: Trials | None = None,
                 sessions: Sessions | None = None) -> None:
        self.tables = tables if tables is not None else Tables()
        self.trials = trials if trials is not None else Trials()
        self.sessions = sessions if sessions is not None else Sessions()
        self.limiter = anyio.CapacityLimiter(workers)

    def parents(self, body: dict[str, Any]) -> dict[str, str] | None:
        """The texts of the request's ``"session"`` (None without one), by id.

        :raises TextProblem: for a token the server did not give or has forgotten.
        """
        return self.sessions.texts(body["session"]) if body.get("session") is not None else None

    def remember(self, body: dict[str, Any], variant_id: str | None) -> None:
        """Keep the request's text in its session, if it has one (called once the text has no error)."""
        if body.get("session") is not None and isinstance(body.get("text"), str):
            self.sessions.remember(body["session"], variant_id, body["text"])

    async def run(self, work: Callable[[], Any]) -> Any:
        """``work()`` in a worker thread; its refusals turned into :class:`ApiError`."""
        def guarded() -> Any:
            try:
                return work()
            except VariantError as problem:
                return _variant_error(problem)
            except (TextProblem, GameProblem) as problem:
                return ApiError(getattr(problem, "status", 400), {"error": str(problem)})
            except RummyDslError as problem:
                return ApiError(400, {"error": str(problem)})

        result = await anyio.to_thread.run_sync(guarded, limiter=self.limiter)
        if isinstance(result, ApiError):
            raise result
        return result

    # ------------------------------------------------------------------ endpoints

    async def check(self, request: Request) -> Response:
        body = await _body(request)

        def work() -> dict[str, Any]:
            found = check_text(body.get("text"), body.get("name"), self.parents(body))
            if not any(d["severity"] == "error" for d in found["diagnostics"]):
                self.remember(body, text_id(str(body.get("text"))))
            return found

        return JSONResponse(await self.run(work))

    async def explain(self, request: Request) -> Response:
        body = await _body(request)

        def work() -> dict[str, Any]:
            from ..explainer import explain

            if "text" not in body and "variant" in body:
                variant = shipped_variant(body["variant"])
            else:
                variant = build_text(body.get("text"), body.get("name"), self.parents(body))
                self.remember(body, variant.id)
            return {"markdown": explain(variant, markdown=True)}

        return JSONResponse(await self.run(work))

    async def variants(self, request: Request) -> Response:
        def work() -> list[dict[str, Any]]:
            from .. import resources
            from ..variant import load_variant, shipped_variant_ids

            found = []
            for variant_id in shipped_variant_ids():
                variant = load_variant(variant_id)
                text = (resources.variants_dir() / f"{variant_id}.yaml").read_text(encoding="utf-8")
                found.append({"id": variant_id, "name": variant.name, "parent": variant.parent,
                              "players": variant.players, "players_range": list(variant.players_range),
                              "text": text})
            return found

        from ..agents import AGENT_NAMES

        return JSONResponse({"variants": await self.run(work), "agents": list(AGENT_NAMES),
                             "session": self.sessions.new()})

    async def complete(self, request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(await self.run(lambda: complete_text(body.get("text"), body.get("line"),
                                                                 body.get("column"), self.parents(body))))

    async def new_game(self, request: Request) -> Response:
        body = await _body(request)

        def work() -> dict[str, Any]:
            if "text" in body:
                variant = build_text(body["text"], body.get("name"), self.parents(body))
                self.remember(body, variant.id)
            else:
                variant = shipped_variant(body.get("variant", "gin_rummy"))
            one_hand = body.get("hand", False)
            if not isinstance(one_hand, bool):
                raise GameProblem("'hand' must be true (a single hand) or false (a whole game)")
            table = Table.new(variant, seed=body.get("seed"), agents=body.get("agents"),
                              seat=body.get("seat"), players=body.get("players"), one_hand=one_hand)
            return {"id": self.tables.add(table), "view": table.view()}

        return JSONResponse(await self.run(work))

    async def hover(self, request: Request) -> Response:
        body = await _body(request)
        return JSONResponse(await self.run(lambda: hover_text(body.get("text"), body.get("line"), body.get("column"),
                                                              self.parents(body))))

    async def new_trial(self, request: Request) -> Response:
        body = await _body(request)

        def work() -> dict[str, Any]:
            key, trial = self.trials.start(body.get("text"), body.get("name"), body.get("games"), body.get("seed"),
                                           self.parents(body))
            self.remember(body, text_id(str(body.get("text"))))
            return {"id": key, **trial.as_json()}

        return JSONResponse(await self.run(work), status_code=202)

    async def trial(self, request: Request) -> Response:
        return JSONResponse(await self.run(lambda: self.trials.get(str(request.path_params["trial"])).as_json()))

    def _table(self, request: Request) -> Table:
        return self.tables.get(str(request.path_params["game"]))

    async def _locked(self, request: Request, step: Callable[[Table], dict[str, Any]]) -> Response:
        def work() -> dict[str, Any]:
            table = self._table(request)
            if not table.lock.acquire(timeout=30):
                raise GameProblem("this game is busy with another request; try again", 409)
            try:
                return {"view": step(table)}
            finally:
                table.lock.release()

        return JSONResponse(await self.run(work))

    async def game(self, request: Request) -> Response:
        return await self._locked(request, lambda table: table.view())

    async def action(self, request: Request) -> Response:
        body = await _body(request)
        return await self._locked(request, lambda table: table.act(body.get("action")))

    async def undo(self, request: Request) -> Response:
        await _body(request)
        return await self._locked(request, lambda table: table.undo())


async def _page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", media_type="text/html")


async def _api_error(request: Request, problem: Exception) -> Response:
    assert isinstance(problem, ApiError)
    return JSONResponse(problem.body, status_code=problem.status)


async def _http_error(request: Request, problem: Exception) -> Response:
    assert isinstance(problem, HTTPException)
    words = {404: "no such page or API endpoint", 405: "this endpoint does not take that method"}
    return JSONResponse({"error": words.get(problem.status_code, str(problem.detail))},
                        status_code=problem.status_code, headers=problem.headers)


async def _internal_error(request: Request, problem: Exception) -> Response:
    # A fault of the server's own: said in one line, the details left to its log.
    return JSONResponse({"error": f"internal error ({type(problem).__name__}); the server's log has "
                                  "the details"}, status_code=500)


class _SecurityHeaders:
    """ASGI middleware adding :data:`_SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.extra = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in _SECURITY_HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *self.extra]}
            await send(message)

        await self.app(scope, receive, sending)


def create_app(*, tables: Tables | None = None, workers: int = WORKERS, trials: Trials | None = None,
               sessions: Sessions | None = None) -> Starlette:
    """The playground application; ``tables`` (the games' store), ``trials``, ``sessions`` and
    ``workers`` for tests.

    >>> app = create_app()
    >>> "/api/games/{game}/undo" in [route.path for route in app.routes]
    True
    """
    server = _Server(tables, workers, trials, sessions)
    routes = [
        Route("/", _page),
        Route("/api/check", server.check, methods=["POST"]),
        Route("/api/explain", server.explain, methods=["POST"]),
        Route("/api/variants", server.variants, methods=["GET"]),
        Route("/api/complete", server.complete, methods=["POST"]),
        Route("/api/hover", server.hover, methods=["POST"]),
        Route("/api/compare", server.new_trial, methods=["POST"]),
        Route("/api/compare/{trial}", server.trial, methods=["GET"]),
        Route("/api/games", server.new_game, methods=["POST"]),
        Route("/api/games/{game}", server.game, methods=["GET"]),
        Route("/api/games/{game}/actions", server.action, methods=["POST"]),
        Route("/api/games/{game}/undo", server.undo, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={
        ApiError: _api_error, HTTPException: _http_error, Exception: _internal_error})
    app.state.server = server
    app.add_middleware(_SecurityHeaders)
    return app
