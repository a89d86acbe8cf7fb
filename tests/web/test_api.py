"""The playground's JSON API (DESIGN.md, "Environments and servers") through Starlette's TestClient.

Every endpoint with good input and bad: oversized bodies, broken JSON and YAML, a
hostile ``extends:``, illegal actions, unknown ids. The client raises any exception
the server did not turn into an answer, so a traceback anywhere fails the test; every
refusal is checked to be a JSON ``{"error"}`` with a 4xx status.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rummydsl.web.app import MAX_BODY, create_app  # noqa: E402
from rummydsl.web.games import Tables  # noqa: E402

HOUSE = "rummydsl: 1\nid: house\nname: House Gin\nextends: gin_rummy\nknock: {limit: 5}\n"


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _refused(response: Any, status: int, *words: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert isinstance(body["error"], str) and body["error"]
    assert "Traceback" not in response.text
    for word in words:
        assert word in body["error"], body["error"]
    return body  # type: ignore[no-any-return]


# -- check ------------------------------------------------------------------------

def test_check_gives_checks_problems_at_their_line_and_column(client: TestClient) -> None:
    text = HOUSE + "knok: 3\n"
    found = client.post("/api/check", json={"text": text, "name": "house.yaml"}).json()["diagnostics"]
    assert found == [{"line": 6, "column": 1, "rule": "schema-unknown-key", "severity": "error",
                      "message": "unknown key 'knok' in the top level; did you mean 'knock'?"}]
    assert client.post("/api/check", json={"text": HOUSE}).json() == {"diagnostics": []}


def test_check_of_broken_yaml_is_a_diagnostic_not_a_failure(client: TestClient) -> None:
    found = client.post("/api/check", json={"text": "id: [\nname: x\n"}).json()["diagnostics"]
    assert found and found[0]["rule"] == "yaml" and found[0]["line"] >= 1


def test_check_of_a_shipped_variant_text_is_clean(client: TestClient) -> None:
    variants = client.get("/api/variants").json()["variants"]
    gin = next(v for v in variants if v["id"] == "gin_rummy")
    assert gin["name"] and "id: gin_rummy" in gin["text"]
    assert [d for d in client.post("/api/check", json={"text": gin["text"]}).json()["diagnostics"]
            if d["severity"] == "error"] == []


@pytest.mark.parametrize("target", ["../../etc/passwd.yaml", "/etc/hosts", "./beside.yaml", "x\\..\\y.yml",
                                    "/proc/self/environ"])
def test_a_hostile_extends_never_names_a_server_file(client: TestClient, target: str) -> None:
    text = f"id: h\nname: H\nextends: {target!r}\n"
    found = client.post("/api/check", json={"text": text}).json()["diagnostics"]
    assert [d["rule"] for d in found] == ["extends-reach"]
    assert found[0]["line"] == 3 and "only a shipped variant id" in found[0]["message"]
    body = _refused(client.post("/api/games", json={"text": text}), 400, "only a shipped variant id")
    assert body["diagnostics"][0]["rule"] == "extends-reach"
    _refused(client.post("/api/explain", json={"text": text}), 400, "only a shipped variant id")


def test_an_unknown_parent_is_named_with_a_suggestion(client: TestClient) -> None:
    found = client.post("/api/check", json={"text": "id: h\nname: H\nextends: gin_rumy\n"}).json()["diagnostics"]
    assert found[0]["rule"] == "extends-missing" and "did you mean 'gin_rummy'" in found[0]["message"]


def test_a_text_past_the_file_limit_is_refused_as_a_file_is(client: TestClient) -> None:
    text = "# " + "x" * (256 * 1024) + "\n" + HOUSE
    found = client.post("/api/check", json={"text": text}).json()["diagnostics"]
    assert [d["rule"] for d in found] == ["limit-size"]


def test_deep_yaml_is_refused_with_the_files_limit(client: TestClient) -> None:
    text = "id: h\nname: H\nx: " + "[" * 200 + "]" * 200 + "\n"
    found = client.post("/api/check", json={"text": text}).json()["diagnostics"]
    assert found and all(d["severity"] in ("error", "warning") for d in found)
    assert any("deep" in d["message"] or "nest" in d["message"] for d in found), found


@pytest.mark.parametrize("body, words", [
    ({"text": 3}, "'text' must be"),
    ({"text": HOUSE, "name": "../x.yaml"}, "'name' must be a file name"),
    ({"text": HOUSE, "name": "house.txt"}, "'name' must be a file name"),
])
def test_check_refuses_a_request_it_cannot_use(client: TestClient, body: dict[str, Any], words: str) -> None:
    _refused(client.post("/api/check", json=body), 400, words)


@pytest.mark.parametrize("raw, status, words", [
    (b"x" * (MAX_BODY + 1), 413, "too large"),
    (b"{\"text\": ", 400, "not JSON"),
    (b"[1, 2]", 400, "JSON object"),
    (b"\xff\xfe", 400, "UTF-8"),
    (b"[" * 100 + b"]" * 100, 400, "nested too deeply"),
])
def test_bad_bodies_are_refused_with_json(client: TestClient, raw: bytes, status: int, words: str) -> None:
    for path in ("/api/check", "/api/explain", "/api/games"):
        _refused(client.post(path, content=raw, headers={"content-type": "application/json"}), status, words)


def test_a_body_without_a_length_is_still_bounded(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 65536 + 2):
            yield b" " * 65536

    _refused(client.post("/api/check", content=chunks()), 413, "too large")


# -- explain ----------------------------------------------------------------------

def test_explain_gives_the_rules_and_what_the_house_rule_changes(client: TestClient) -> None:
    markdown = client.post("/api/explain", json={"text": HOUSE}).json()["markdown"]
    assert markdown.startswith("# House Gin") and "extends `gin_rummy`" in markdown
    assert "at most 5 deadwood" in markdown


def test_explain_of_a_broken_text_gives_checks_messages(client: TestClient) -> None:
    body = _refused(client.post("/api/explain", json={"text": HOUSE + "knok: 1\n"}), 400, "unknown key 'knok'")
    assert body["error"].startswith("playground.yaml:6:1: ")
    assert body["diagnostics"][0]["line"] == 6


def test_explain_of_a_shipped_variant_by_id(client: TestClient) -> None:
    assert client.post("/api/explain", json={"variant": "skarney_gin"}).json()["markdown"].startswith("# Skarney")
    _refused(client.post("/api/explain", json={"variant": "../gin_rummy"}), 400, "shipped variant")


# -- games ------------------------------------------------------------------------

def _play_to_the_end(client: TestClient, game: str, view: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(2000):
        if view["over"]:
            return view
        assert view["to_move"] == view["seat"] and view["legal"]
        view = client.post(f"/api/games/{game}/actions", json={"action": rng.choice(view["legal"])}).json()["view"]
    raise AssertionError("the hand did not end")


def test_a_hand_of_gin_against_greedy_to_the_end_with_undo(client: TestClient) -> None:
    started = client.post("/api/games", json={"variant": "gin_rummy", "seed": 5, "agents": "greedy",
                                              "seat": "P1", "hand": True}).json()
    game, view = started["id"], started["view"]
    assert view["to_move"] == "P1" and view["legal"] and not view["over"] and len(view["hand"]) == 10
    assert client.get(f"/api/games/{game}").json()["view"] == view
    first = view["legal"][0]
    moved = client.post(f"/api/games/{game}/actions", json={"action": first}).json()["view"]
    assert moved["can_undo"] and first in moved["log"]
    assert client.post(f"/api/games/{game}/undo").json()["view"]["legal"] == view["legal"]
    end = _play_to_the_end(client, game, view, seed=5)
    assert end["over"] and end["legal"] == [] and len(end["rounds"]) == 1
    summary = end["rounds"][0]
    assert [s["seat"] for s in summary["seats"]] == ["P1", "P2"]
    assert all("melds" in s and "deadwood" in s and "points" in s for s in summary["seats"])
    _refused(client.post(f"/api/games/{game}/actions", json={"action": first}), 400, "over")
    back = client.post(f"/api/games/{game}/undo").json()["view"]
    assert not back["over"] and back["rounds"] == [] and back["legal"]


def test_a_game_of_a_posted_house_rule(client: TestClient) -> None:
    view = client.post("/api/games", json={"text": HOUSE, "seed": 2, "hand": True}).json()["view"]
    assert view["variant"] == "house" and view["knock_limit"] == 5


def test_a_hand_of_skarney_gin_played_through_the_api(client: TestClient) -> None:
    started = client.post("/api/games", json={"variant": "skarney_gin", "seed": 3, "seat": 1,
                                              "hand": True}).json()
    view = _play_to_the_end(client, started["id"], started["view"], seed=3)
    assert view["over"] and view["seat"] == "P2"


@pytest.mark.parametrize("body, words", [
    ({"variant": "no_such_game"}, "shipped variant"),
    ({"variant": "/etc/passwd"}, "shipped variant"),
    ({"variant": "gin_rummy", "agents": "cmd:/bin/sh"}, "built-in agents only"),
    ({"variant": "gin_rummy", "agents": "greedy,wizard"}, "built-in agents only"),
    ({"variant": "gin_rummy", "seat": "P3"}, "'seat' must be"),
    ({"variant": "gin_rummy", "seat": True}, "'seat' must be"),
    ({"variant": "gin_rummy", "seed": -1}, "'seed' must be"),
    ({"variant": "gin_rummy", "seed": "x"}, "'seed' must be"),
    ({"variant": "gin_rummy", "players": 3}, "exactly 2 players"),
    ({"variant": "gin_rummy", "hand": "yes"}, "'hand' must be"),
    ({"text": "id: [\n"}, "malformed YAML"),
])
def test_new_game_refuses_bad_requests(client: TestClient, body: dict[str, Any], words: str) -> None:
    _refused(client.post("/api/games", json=body), 400, words)


def test_illegal_and_malformed_actions_are_refused_and_change_nothing(client: TestClient) -> None:
    started = client.post("/api/games", json={"variant": "gin_rummy", "seed": 1}).json()
    game, view = started["id"], started["view"]
    for action, words in [("P1 discard ZZ", "unknown card"), ("P2 pass", "refused"), ("dance", "refused"),
                          (7, "'action' must be"), ("", "'action' must be"), ("P1 " + "x" * 500, "'action' must be")]:
        _refused(client.post(f"/api/games/{game}/actions", json={"action": action}), 400, words)
    assert client.get(f"/api/games/{game}").json()["view"] == view
    _refused(client.post(f"/api/games/{game}/undo"), 400, "nothing to undo")


@pytest.mark.parametrize("method, path", [
    ("GET", "/api/games/nope"), ("POST", "/api/games/nope/actions"), ("POST", "/api/games/nope/undo"),
    ("GET", "/api/games/" + "x" * 300),
])
def test_unknown_game_ids_are_404_json(client: TestClient, method: str, path: str) -> None:
    _refused(client.request(method, path, json={"action": "P1 pass"}), 404, "no game")


def test_unknown_paths_and_methods_are_json(client: TestClient) -> None:
    _refused(client.get("/api/nothing"), 404, "no such page")
    _refused(client.get("/api/check"), 405, "method")


def test_games_are_bounded_in_number_and_age() -> None:
    now = [0.0]
    tables = Tables(limit=3, age=60, clock=lambda: now[0])
    with TestClient(create_app(tables=tables)) as client:
        ids = []
        for seed in range(4):
            now[0] += 1
            ids.append(client.post("/api/games", json={"variant": "gin_rummy", "seed": seed}).json()["id"])
        assert len(tables) == 3
        _refused(client.get(f"/api/games/{ids[0]}"), 404, "forgotten")  # the least recently used went
        assert client.get(f"/api/games/{ids[3]}").status_code == 200
        now[0] += 61
        _refused(client.get(f"/api/games/{ids[3]}"), 404, "forgotten")
        assert len(tables) == 0


def test_the_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "connect-src 'self'" in policy
    assert client.get("/static/editor.js").status_code == 200
    assert client.get("/static/playground.js").status_code == 200
    _refused(client.get("/static/../app.py"), 404, "no such page")


def test_completion_offers_the_schemas_keys_and_the_shipped_parents(client: TestClient) -> None:
    items = client.post("/api/complete", json={"text": "id: h\nname: H\nkno", "line": 2, "column": 3}).json()["items"]
    assert "knock" in [i["label"] for i in items]
    items = client.post("/api/complete", json={"text": "extends: gin_r", "line": 0, "column": 14}).json()["items"]
    assert [i["label"] for i in items] == ["gin_rummy"]
    hostile = "id: h\nname: H\nextends: ../../x.yaml\noptions:\n  "
    assert client.post("/api/complete", json={"text": hostile, "line": 4, "column": 2}).status_code == 200
    _refused(client.post("/api/complete", json={"text": "x", "line": "1", "column": 0}), 400, "'line' must be")


# -- compare (the lab, as a job) ---------------------------------------------------

def _finished(client: TestClient, trial: str) -> dict[str, Any]:
    import time

    for _ in range(6000):  # a bound against hanging, not a timing assert
        found: dict[str, Any] = client.get(f"/api/compare/{trial}").json()
        if found["state"] in ("done", "failed"):
            return found
        time.sleep(0.05)
    raise AssertionError("the trial did not finish")


def test_compare_plays_the_rule_against_its_parent_with_the_labs_figures(client: TestClient) -> None:
    started = client.post("/api/compare", json={"text": HOUSE, "games": 3, "seed": 2})
    assert started.status_code == 202
    body = started.json()
    assert body["total"] == 3 and body["state"] in ("waiting", "running", "done")
    found = _finished(client, body["id"])
    assert found["state"] == "done" and found["done"] == 3
    result = found["result"]
    assert [v["label"] for v in result["variants"]] == ["gin_rummy", "house"]
    assert "path" not in json_text(result["variants"])
    assert any(f["key"] == "win.P1" for f in result["figures"]) and result["text"].startswith("compare: gin_rummy, house")


def json_text(value: Any) -> str:
    import json

    return json.dumps(value)


def _shipped(variant_id: str) -> str:
    from rummydsl import resources

    return (resources.variants_dir() / f"{variant_id}.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("body, words", [
    ({"text": "id: h\nname: H\nextends: gin_rummy\nx: 1\n"}, "unknown key"),
    ({"text": HOUSE, "games": 0}, "'games' must be"),
    ({"text": HOUSE, "games": 10_000}, "'games' must be"),
    ({"text": HOUSE, "seed": "x"}, "'seed' must be"),
    ({"text": "id: h\nname: H\nextends: ../x.yaml\n"}, "only a shipped variant id"),
])
def test_compare_refuses_what_it_cannot_play(client: TestClient, body: dict[str, Any], words: str) -> None:
    _refused(client.post("/api/compare", json=body), 400, words)
    _refused(client.get("/api/compare/nope"), 404, "no trial")


def test_a_rule_that_extends_nothing_is_played_alone(client: TestClient) -> None:
    alone = _finished(client, client.post("/api/compare", json={"text": _shipped("gin_rummy"), "games": 2}).json()["id"])
    assert alone["state"] == "done" and [v["label"] for v in alone["result"]["variants"]] == ["gin_rummy"]
    assert all(f["comparisons"] == [] for f in alone["result"]["figures"])


def test_a_slow_trial_never_holds_up_a_check_or_a_game() -> None:
    import threading

    from rummydsl.web.trials import Trials

    release = threading.Event()
    entered = threading.Event()

    class Held(Trials):
        def _play(self, trial: Any, text: str, name: str, parent: str) -> None:
            trial.state = "running"
            entered.set()
            release.wait(60)
            trial.state = "failed"
            trial.error = "stopped by the test"

    with TestClient(create_app(trials=Held())) as client:
        trial = client.post("/api/compare", json={"text": HOUSE, "games": 200}).json()["id"]
        assert entered.wait(60)
        try:
            assert client.post("/api/check", json={"text": HOUSE}).json() == {"diagnostics": []}
            assert client.post("/api/games", json={"variant": "gin_rummy", "seed": 1}).status_code == 200
            assert client.get(f"/api/compare/{trial}").json()["state"] == "running"
        finally:
            release.set()


def test_a_game_with_another_player_count_and_the_agents_offered(client: TestClient) -> None:
    view = client.post("/api/games", json={"variant": "ginski", "players": 3, "seed": 1, "seat": "P3",
                                           "agents": "random,greedy"}).json()["view"]
    assert [p["agent"] for p in view["players"]] == ["random", "greedy", "you"] and len(view["hand_sizes"]) == 3
    listed = client.get("/api/variants").json()
    assert "greedy" in listed["agents"] and "cmd:" not in " ".join(listed["agents"])
    assert next(v for v in listed["variants"] if v["id"] == "ginski")["players_range"] == [2, 4]


def test_trials_are_bounded_in_number() -> None:
    import threading

    from rummydsl.web.trials import Trials

    release = threading.Event()

    class Held(Trials):
        def _play(self, trial: Any, text: str, name: str, parent: str) -> None:
            trial.state = "running"
            release.wait(60)
            trial.state = "done"

    trials = Held(limit=1)
    with TestClient(create_app(trials=trials)) as client:
        first = client.post("/api/compare", json={"text": HOUSE, "games": 1}).json()["id"]
        try:
            _refused(client.post("/api/compare", json={"text": HOUSE, "games": 1}), 503, "busy")
        finally:
            release.set()
        for _ in range(6000):  # the held trial ends at once when released; a bound, not a timing
            if client.get(f"/api/compare/{first}").json()["state"] == "done":
                break
            threading.Event().wait(0.01)
        second = client.post("/api/compare", json={"text": HOUSE, "games": 1})
        assert second.status_code == 202  # the finished one was forgotten to make room
        _refused(client.get(f"/api/compare/{first}"), 404, "no trial")


def test_hover_gives_the_language_servers_words_for_a_key(client: TestClient) -> None:
    words = client.post("/api/hover", json={"text": HOUSE, "line": 4, "column": 1}).json()["markdown"]
    assert words.startswith("**knock**")
    assert client.post("/api/hover", json={"text": HOUSE, "line": 99, "column": 0}).json() == {"markdown": None}
    hostile = "id: h\nname: H\nextends: ../../x.yaml\nknock: {limit: 5}\n"
    assert client.post("/api/hover", json={"text": hostile, "line": 3, "column": 1}).json()["markdown"]
    _refused(client.post("/api/hover", json={"text": HOUSE, "line": 0, "column": None}), 400, "'column' must be")
