"""The playground's sessions: ``extends:`` reaches the texts the same session posted, and no other's.

Through Starlette's TestClient, as tests/web/test_api.py: a session's token from
``GET /api/variants``, texts posted with it as ``"session"``; within a session, across
sessions, the bounds (number, texts, bytes, age), a chain of two posted texts, a cycle.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rummydsl.web.app import create_app  # noqa: E402
from rummydsl.web.sessions import Sessions  # noqa: E402

BASE = "id: base\nname: Base\nextends: gin_rummy\nknock: {limit: 5}\n"
HOUSE = "id: house\nname: House\nextends: base\nknock: {limit: 3}\n"
MISSING = "cannot find parent 'base': no shipped variant or file of that name"


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _session(client: TestClient) -> str:
    token = client.get("/api/variants").json()["session"]
    assert isinstance(token, str) and len(token) >= 16
    return token


def _check(client: TestClient, text: str, session: str | None) -> list[dict[str, Any]]:
    body: dict[str, Any] = {"text": text, "name": "house.yaml"}
    if session is not None:
        body["session"] = session
    response = client.post("/api/check", json=body)
    assert response.status_code == 200, response.text
    return response.json()["diagnostics"]  # type: ignore[no-any-return]


def _messages(found: list[dict[str, Any]]) -> list[str]:
    return [d["message"] for d in found if d["severity"] == "error"]


def test_a_text_posted_in_a_session_is_reached_by_its_later_texts(client: TestClient) -> None:
    session = _session(client)
    assert _messages(_check(client, HOUSE, session)) == [MISSING]  # not posted yet
    assert _check(client, BASE, session) == []
    assert _check(client, HOUSE, session) == []
    explained = client.post("/api/explain", json={"text": HOUSE, "session": session}).json()["markdown"]
    assert "## Changed from base" in explained and "knock.limit: 5 -> 3" in explained
    game = client.post("/api/games", json={"text": HOUSE, "session": session, "seed": 3, "hand": True}).json()
    assert game["view"]["to_move"] == "P1"


def test_another_session_and_no_session_never_reach_it(client: TestClient) -> None:
    mine, theirs = _session(client), _session(client)
    assert mine != theirs
    assert _check(client, BASE, mine) == []
    assert _messages(_check(client, HOUSE, theirs)) == [MISSING]
    assert _messages(_check(client, HOUSE, None)) == [MISSING]
    refused = client.post("/api/games", json={"text": HOUSE, "session": theirs})
    assert refused.status_code == 400 and MISSING in refused.json()["error"]
    named = _check(client, HOUSE.replace("extends: base", "extends: posted:base.yaml"), mine)
    assert [d["rule"] for d in named] == ["extends-reach"]  # the name a posted parent is shown by is no way in


def test_a_posted_text_never_shadows_a_shipped_id(client: TestClient) -> None:
    session = _session(client)
    fake = "id: gin_rummy\nname: Not Gin\nextends: oklahoma_gin\n"
    assert _check(client, fake, session) == []
    found = client.post("/api/explain", json={"text": HOUSE.replace("base", "gin_rummy"), "session": session})
    assert "## Changed from gin_rummy" in found.json()["markdown"]
    assert list(client.app.state.server.sessions.texts(session)) == ["house"]  # not gin_rummy


def test_a_text_with_errors_is_not_kept(client: TestClient) -> None:
    session = _session(client)
    assert _messages(_check(client, BASE + "knok: 3\n", session))
    assert _messages(_check(client, HOUSE, session)) == [MISSING]


def test_a_chain_of_two_posted_texts(client: TestClient) -> None:
    session = _session(client)
    third = "id: third\nname: Third\nextends: house\nknock: {limit: 1}\n"
    for text in (BASE, HOUSE, third):
        assert _check(client, text, session) == []
    explained = client.post("/api/explain", json={"text": third, "session": session}).json()["markdown"]
    assert "## Changed from house" in explained and "knock.limit: 3 -> 1" in explained
    problem = "id: fourth\nname: Fourth\nextends: third\nknock: {limt: 1}\n"
    found = _check(client, problem, session)
    assert [d["rule"] for d in found] == ["schema-unknown-key"] and found[0]["line"] == 4


def test_a_cycle_of_posted_texts_is_refused_with_checks_message(client: TestClient) -> None:
    session = _session(client)
    assert _check(client, BASE, session) == []
    assert _check(client, HOUSE, session) == []
    # base again, now extending house (which extends the base kept before): clean, and kept
    assert _check(client, "id: base\nname: Base\nextends: house\n", session) == []
    found = _check(client, "id: c\nname: C\nextends: base\n", session)
    assert [(d["line"], d["rule"]) for d in found] == [(3, "extends-cycle")]
    assert "extends cycle: posted:base.yaml -> posted:house.yaml -> posted:base.yaml" in found[0]["message"]


def test_an_unknown_or_malformed_session_is_refused_with_json(client: TestClient) -> None:
    for token in ("nope", 7):
        response = client.post("/api/check", json={"text": BASE, "session": token})
        assert response.status_code == 400 and "session" in response.json()["error"]
        assert "Traceback" not in response.text


def test_sessions_are_bounded_in_number_texts_bytes_and_age() -> None:
    now = [0.0]
    sessions = Sessions(limit=2, texts=2, size=3 * len(BASE), age=60, clock=lambda: now[0])
    with TestClient(create_app(sessions=sessions)) as client:
        first = _session(client)
        now[0] += 1
        second = _session(client)
        now[0] += 1
        _session(client)  # a third: the least recently used (the first) is forgotten
        assert len(sessions) == 2
        response = client.post("/api/check", json={"text": BASE, "session": first})
        assert response.status_code == 400 and "forgotten" in response.json()["error"]
        for variant_id in ("one", "two", "base"):  # at most two texts: 'one' goes
            assert _check(client, BASE.replace("id: base", f"id: {variant_id}"), second) == []
        assert list(sessions.texts(second)) == ["two", "base"]
        assert _check(client, HOUSE, second) == []
        sessions.remember(second, "big", "#" * (3 * len(BASE)))  # bytes: the older texts go
        assert list(sessions.texts(second)) == ["big"]
        now[0] += 61
        response = client.post("/api/check", json={"text": HOUSE, "session": second})
        assert response.status_code == 400 and "forgotten after 1 minutes" in response.json()["error"]
        assert len(sessions) == 0


def test_compare_reaches_the_sessions_parent(client: TestClient) -> None:
    session = _session(client)
    assert _check(client, BASE, session) == []
    started = client.post("/api/compare", json={"text": HOUSE, "session": session, "games": 2, "seed": 4})
    assert started.status_code == 202, started.text
    for _ in range(600):
        trial = client.get(f"/api/compare/{started.json()['id']}").json()
        if trial["state"] in ("done", "failed"):
            break
        time.sleep(0.1)
    assert trial["state"] == "done", trial
    assert trial["result"]["variants"] == [{"label": "base", "id": "base"}, {"label": "house", "id": "house"}]


def test_completion_offers_the_names_of_a_sessions_parent(client: TestClient) -> None:
    session = _session(client)
    assert _messages(_check(client, "id: base\nname: Base\nextends: gin_rummy\noptions:\n  house_bonus: 7\n", session)) == []
    text = 'id: h\nname: H\nextends: base\nknock: {limit: "house_b"}\n'
    body = {"text": text, "line": 3, "column": len('knock: {limit: "house_b')}
    assert [i["label"] for i in client.post("/api/complete", json={**body, "session": session}).json()["items"]] == [
        "house_bonus"]
    assert client.post("/api/complete", json=body).json()["items"] == []  # no session: no parent, no names
