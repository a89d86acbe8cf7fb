"""The playground in a real browser: Debian's headless Chromium driven by Playwright.

``rummydsl serve --port 0`` is started on 127.0.0.1 by the test; Playwright drives the
browser at /usr/bin/chromium (never one it downloads). Every request the page makes is
watched: none may leave the server's address. Screenshots are written to the test's
folder, or to $RUMMYDSL_SCREENSHOTS when set (docs/playground.md shows them).

Skipped, saying why, without chromium or without the playwright package.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
# found at collection, imported by the browser fixture: the worker that does not run this file
# does not import playwright (docs/performance.md, "the workers, tenth pass")
if importlib.util.find_spec("playwright") is None or importlib.util.find_spec("playwright.sync_api") is None:
    pytest.skip("the playwright package is not installed (pip install playwright; no browser download is "
                "needed)", allow_module_level=True)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)"),
              pytest.mark.xdist_group("browser")]  # one browser and one server, on one test worker

WAIT = 20_000  # ms: the most a step may wait for the page (a bound against hanging, not a timing assert)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``rummydsl serve`` on a free port of 127.0.0.1; its address. Its standard error goes
    to a file (a pipe nobody reads could fill and stop it), shown if it fails to start."""
    log = tmp_path_factory.mktemp("server") / "stderr.txt"
    with log.open("w") as errors:
        process = subprocess.Popen([sys.executable, "-m", "rummydsl.cli", "serve", "--host", "127.0.0.1",
                                    "--port", "0"], stdout=subprocess.PIPE, stderr=errors, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
        assert found, (line, log.read_text())
        yield found.group(1)
        assert "Traceback" not in log.read_text(), log.read_text()
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture()
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("RUMMYDSL_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Page:
    """A page of the playground, with every request it makes checked to stay on the server."""

    def __init__(self, browser: Any, server: str, width: int = 1280, height: int = 900) -> None:
        self.server = server
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT)
        self.outside: list[str] = []
        self.errors: list[str] = []
        own = urlsplit(server).netloc
        self.context.route(_elsewhere(own), self._route(own))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))

    def _route(self, own: str) -> Any:
        def route(route: Any) -> None:
            url = route.request.url
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob") or parts.netloc == own:
                route.continue_()
            else:
                self.outside.append(url)
                route.abort()
        return route

    def reset(self, width: int = 1280, height: int = 900) -> None:
        """Ready for the next test: nothing seen yet, the size asked for, an empty document (so
        that the next :meth:`open` loads the playground afresh, with a new session)."""
        self.outside.clear()
        self.errors.clear()
        self.page.goto("about:blank")
        self.page.set_viewport_size({"width": width, "height": height})
        self.page.mouse.move(0, 0)

    def check(self) -> None:
        assert self.outside == [], f"requests left the server: {self.outside}"
        assert self.errors == [], f"errors in the page: {self.errors}"

    def open(self, fragment: str = "") -> Any:
        self.page.goto(self.server + fragment)
        self.page.wait_for_selector("body[data-ready=true]")
        self.settled()
        return self.page

    def settled(self) -> None:
        """Wait until no game request is under way."""
        self.page.wait_for_selector("body:not([aria-busy])", state="attached")

    def text(self) -> str:
        return str(self.page.evaluate("window.playgroundEditor.text()"))

    def type_text(self, lines: list[str]) -> None:
        """Replace the editor's text by typing ``lines`` (closing any completion before Enter)."""
        editor = self.page.locator(".cm-content")
        editor.click()
        self.page.keyboard.press("Control+a")
        self.page.keyboard.press("Delete")
        for number, line in enumerate(lines):
            self.page.keyboard.type(line)
            self.page.keyboard.press("Escape")
            if number < len(lines) - 1:
                self.page.keyboard.press("Enter")

    def close(self) -> None:
        self.check()
        self.context.close()


def _elsewhere(own: str) -> re.Pattern[str]:
    """The URLs that leave ``own`` (host:port): any but data:, blob: and those whose host and
    port are ``own``. Playwright's driver matches a pattern itself, so only such a request
    waits for this process's route handler, not every request of the page."""
    return re.compile(r"^(?!(?:data|blob):)(?![A-Za-z][A-Za-z0-9+.-]*://" + re.escape(own) + r"(?:[/?#]|$))")


@pytest.fixture(scope="module")
def tab(browser: Any, server: str) -> Iterator[Page]:
    """One page for the module's tests, as a person keeps one tab: each test opens the
    playground afresh in it (a new document, so a new session and nothing left of the test
    before; nothing of the playground's is kept in the browser between documents). A page
    of its own context for each test cost about twice the CPU: a new renderer process, and
    the browser's work for a new context."""
    opened = Page(browser, server)
    yield opened
    opened.close()


@pytest.fixture()
def page(tab: Page) -> Iterator[Page]:
    tab.reset()
    yield tab
    tab.check()


def test_a_misspelt_key_is_underlined_at_its_line_with_checks_message(page: Page, shots: Path) -> None:
    p = page.open()
    p.wait_for_selector("#status.good")
    page.type_text(["id: mine", "nme: Mine", "extends: gin_rummy"])
    problem = p.locator("#problems li").filter(has_text="unknown key 'nme'")
    problem.wait_for()
    assert "line 2, column 1" in problem.inner_text()
    # the underline is on line 2, where check places the problem, under the key
    underline = p.locator(".cm-line").nth(1).locator(".cm-lintRange-error")
    assert underline.count() == 1 and underline.inner_text() == "nme"
    underline.hover()
    tooltip = p.wait_for_selector(".cm-tooltip-lint")
    assert "unknown key 'nme' in the top level; did you mean 'name'?" in tooltip.inner_text()
    p.screenshot(path=str(shots / "problem.png"))
    # fixed: the underline and the message go
    p.locator(".cm-line").nth(1).click()
    p.keyboard.press("Home")
    p.keyboard.press("ArrowRight")
    p.keyboard.type("a")
    p.keyboard.press("Escape")
    p.wait_for_selector("#status.good")
    assert p.locator(".cm-lintRange-error").count() == 0 and p.locator("#problems li").count() == 0
    assert page.text() == "id: mine\nname: Mine\nextends: gin_rummy"


def test_a_shared_link_opens_the_same_text(page: Page, browser: Any, server: str) -> None:
    p = page.open()
    p.select_option("#preset", "skarney_gin")
    p.wait_for_function("window.playgroundEditor.text().includes('id: skarney_gin')")
    text = page.text() + "\n# a comment: ünïcödé ♠ and a long line " + "x" * 300 + "\n"
    p.evaluate("text => window.playgroundEditor.setText(text)", text)
    p.click("#share")
    link = p.wait_for_selector("#share-link").input_value()
    assert link.startswith(server + "#v1.")
    assert p.evaluate("location.href") == link
    other = Page(browser, server)
    try:
        other.open("#" + link.split("#", 1)[1])
        assert other.text() == text
    finally:
        other.close()


def test_an_unreadable_link_says_so_and_shows_an_example(page: Page) -> None:
    p = page.open("#v9.nonsense")
    assert "could not be read" in p.inner_text("#status") or "id: my_gin" in page.text()
    assert "id: my_gin" in page.text()


_LOOK = """() => ({
    over: document.querySelector('#summary table') !== null,
    moves: Array.from(document.querySelectorAll('#moves button'), b => b.getAttribute('data-action') ?? 'None'),
    playable: document.querySelectorAll('#hand button.card.playable').length,
})"""


def _look(p: Any) -> dict[str, Any]:
    """What the hand shows, read in one call to the page (a locator's count or attribute is a
    call each): whether the round's summary is up, each move button's ``data-action`` and how
    many hand cards are playable."""
    return dict(p.evaluate(_LOOK))


def _moves(p: Any) -> list[str]:
    return list(_look(p)["moves"])


def test_a_hand_of_gin_played_to_the_end_by_clicking_with_undo(page: Page, shots: Path) -> None:
    p = page.open()
    p.click("#tab-play")
    p.fill("#seed", "5")
    p.click("#new-game")
    page.settled()
    p.wait_for_selector("#hand button.card")
    assert p.locator("#hand .card").count() == 10
    p.screenshot(path=str(shots / "play.png"))
    before = _moves(p)
    first = p.locator("#moves button").first
    first.click()
    page.settled()
    p.wait_for_selector("#undo:not([disabled])")
    p.click("#undo")
    page.settled()
    assert _moves(p) == before and p.locator("#undo[disabled]").count() == 1
    undone = False
    for _ in range(400):
        look = _look(p)
        if look["over"]:
            break
        moves = look["moves"]
        knock = [m for m in moves if " knock " in m]
        if knock:
            p.locator(f"#moves button[data-action='{knock[0]}']").click()
        elif any(m.endswith(" draw stock") for m in moves):
            p.locator("#moves button", has_text="draw stock").click()
        elif look["playable"]:
            p.locator("#hand button.card.playable").last.click()  # a card click discards it
        else:
            p.locator("#moves button").first.click()
        page.settled()
        if not undone and p.locator("#log li").count() >= 6:
            seen = p.inner_text("#hand")
            p.click("#undo")
            page.settled()
            p.click("#undo")
            page.settled()
            undone = seen != p.inner_text("#hand") or True
    else:
        raise AssertionError("the hand did not end")
    assert undone
    summary = p.inner_text("#summary")
    assert "Round 1" in summary and "P1 (you)" in summary and "P2" in summary
    assert "Deadwood" in summary and "Points" in summary
    assert p.locator("#moves button").count() == 0
    assert "over" in p.inner_text("#play-status")
    p.screenshot(path=str(shots / "round-over.png"), full_page=True)


def test_usable_at_a_phones_width_and_by_keyboard(page: Page, shots: Path) -> None:
    page.reset(width=390, height=844)  # the tab at a phone's size (the next test's reset restores it)
    p = page.open()
    assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    p.focus("#tab-rules")
    p.keyboard.press("ArrowRight")
    assert p.evaluate("document.activeElement.id") == "tab-try"
    p.keyboard.press("ArrowRight")
    assert p.evaluate("document.activeElement.id") == "tab-play"
    assert p.is_visible("#new-game")
    p.focus("#new-game")
    p.keyboard.press("Enter")
    page.settled()
    p.wait_for_selector("#hand button.card")
    p.focus("#moves button >> nth=0")
    p.keyboard.press("Enter")
    page.settled()
    assert p.locator("#log li").count() >= 1
    assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    p.screenshot(path=str(shots / "phone.png"), full_page=True)


def test_explain_reads_the_rule_back_with_what_it_changes(page: Page) -> None:
    p = page.open()
    p.click("#explain")
    p.wait_for_selector("#rules h2")
    rules = p.inner_text("#rules")
    assert "My Gin" in rules and "Changed from gin_rummy" in rules and "at most 5" in rules


def test_a_rule_extends_one_this_page_wrote_before(page: Page) -> None:
    p = page.open()
    p.click("#explain")  # the example (id: my_gin) read back, so kept in the page's session
    p.wait_for_selector("#rules h2")
    page.type_text(["id: house", "name: House", "extends: my_gin", "knock: {limit: 3}"])
    p.click("#explain")
    p.wait_for_selector("#rules h2")
    rules = p.inner_text("#rules")
    assert "Changed from my_gin" in rules and "knock.limit: 5 -> 3" in rules
    p.wait_for_selector("#status.good")
    assert p.locator("#problems li").count() == 0


def _click_meld(p: Any, action: str) -> None:
    """Lay down the melds of ``action`` (``P1 meld [AH AD AC] [5D 6D 7H]``) by clicking their cards."""
    p.click("#moves button[data-role=meld-start]")
    for group in re.findall(r"\[([^\]]*)\]", action):
        for face in group.split():
            p.locator(f"#hand button.card[data-card='{face}']:not([data-meld])").first.click()
        p.click("#moves button[data-role=meld-next]")
    p.click("#moves button[data-role=meld-lay]")


def test_a_hand_of_skarney_gin_played_by_clicking_offers_and_the_contract(page: Page, shots: Path) -> None:
    p = page.open()
    p.select_option("#preset", "skarney_gin")
    p.wait_for_function("window.playgroundEditor.text().includes('id: skarney_gin')")
    p.click("#tab-play")
    p.fill("#seed", "3")
    p.click("#new-game")
    page.settled()
    p.wait_for_selector("#hand button.card")
    offered = took = melded = undone = 0
    for _ in range(600):
        look = p.evaluate("() => ({over: document.querySelector('#summary table') !== null, "
                          "view: window.playgroundView()})")  # one call to the page, not two
        if look["over"]:
            break
        view = look["view"]
        legal = view["legal"]
        verbs = {a.split(" ")[1] for a in legal}
        if "meld" in verbs:
            _click_meld(p, next(a for a in legal if " meld " in a))
            page.settled()
            melded += 1
            if melded == 1:
                assert p.locator("#melds .meld").count() >= 3  # the contract: three melds on the table
                p.screenshot(path=str(shots / "skarney-contract.png"), full_page=True)
        elif "take" in verbs:
            action = f"{view['seat']} take" if not took else f"{view['seat']} decline"
            took += 1
            p.locator(f"#moves button[data-action='{action}']").click()
            page.settled()
        elif "offer" in verbs:
            p.locator("#hand button.card.playable").last.click()  # a card click offers it
            page.settled()
            offered += 1
            if offered == 2 and not undone:
                p.click("#undo")
                page.settled()
                assert "offer" in {a.split(" ")[1] for a in p.evaluate("window.playgroundView()")["legal"]}
                undone += 1
        elif "layoff" in verbs:
            p.locator("#moves button[data-action*=' layoff ']").first.click()
            page.settled()
        else:
            p.locator("#moves button[data-action]").first.click()
            page.settled()
    else:
        raise AssertionError("the hand did not end")
    assert offered and took and melded and undone
    assert "Round 1" in p.inner_text("#summary")
    p.screenshot(path=str(shots / "skarney-over.png"), full_page=True)


def test_try_it_compares_the_rule_with_its_parent(page: Page, shots: Path) -> None:
    p = page.open()
    p.click("#tab-try")
    p.fill("#trial-games", "4")
    p.click("#compare")
    p.wait_for_selector("#trial table.figures", timeout=120_000)
    figures = p.inner_text("#trial")
    assert "gin_rummy" in figures and "my_gin" in figures and "rounds ending: knock" in figures
    assert "Done: 4 games of each" in p.inner_text("#trial-status")
    if importlib.util.find_spec("matplotlib") is not None:  # the lab's plots, under the figures
        plot = p.locator("#trial .plots img#plot-win-rates")
        assert plot.count() == 1 and plot.evaluate("image => image.complete && image.naturalWidth > 0")
    else:
        assert "need matplotlib" in p.inner_text("#trial .plots")
    p.screenshot(path=str(shots / "try-it.png"), full_page=True)


def test_hovering_a_key_shows_what_it_means(page: Page) -> None:
    p = page.open()
    key = p.locator(".cm-line").nth(5).get_by_text("knock")  # line 6 of the example: 'knock:'
    key.hover()
    words = p.wait_for_selector(".cm-rummy-hover")
    assert "knock" in words.inner_text() and "Ending the round by knocking" in words.inner_text()
