"""The playground's "try it" shows the lab's plots (those of ``compare --report``), drawn in the trial's thread.

With matplotlib (the ``report`` extra, which CI's ``test`` extra also installs) the
finished trial's result carries every plot of :data:`rummydsl.lab.report.PLOTS` as a PNG
``data:`` URI; without it, no plots and a note saying how to get them, the figures as before.
"""

from __future__ import annotations

import base64
import sys
import time
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from rummydsl.web.app import create_app  # noqa: E402
from rummydsl.web.trials import NO_PLOTS  # noqa: E402

HOUSE = "id: house\nname: House Gin\nextends: gin_rummy\nknock: {limit: 5}\n"


@pytest.fixture()
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def _result(client: TestClient) -> dict[str, Any]:
    started = client.post("/api/compare", json={"text": HOUSE, "games": 2, "seed": 3}).json()
    for _ in range(6000):  # a bound against hanging, not a timing assert
        found: dict[str, Any] = client.get(f"/api/compare/{started['id']}").json()
        if found["state"] in ("done", "failed"):
            assert found["state"] == "done", found
            return found["result"]  # type: ignore[no-any-return]
        time.sleep(0.05)
    raise AssertionError("the trial did not finish")


def test_a_finished_trial_carries_the_labs_plots(client: TestClient) -> None:
    pytest.importorskip("matplotlib")
    from rummydsl.lab.report import PLOTS

    result = _result(client)
    assert [p["id"] for p in result["plots"]] == list(PLOTS) and "plots_note" not in result
    for plot in result["plots"]:
        assert plot["alt"] == PLOTS[plot["id"]]
        prefix = "data:image/png;base64,"
        assert plot["src"].startswith(prefix)
        assert base64.b64decode(plot["src"][len(prefix):])[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_matplotlib_the_figures_come_without_plots(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    result = _result(client)
    assert result["plots"] == [] and result["plots_note"] == NO_PLOTS
    assert any(f["key"] == "win.P1" for f in result["figures"])
