"""``rummydsl lsp`` on an install without the ``lsp`` extra says how to get it
(this runs whether pygls is installed or not)."""

from __future__ import annotations

import io
import sys

import pytest

from rummydsl.cli import main


def test_lsp_without_pygls_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rummydsl.lsp.server", None)  # importing it raises ImportError
    out, err = io.StringIO(), io.StringIO()
    assert main(["lsp"], stdout=out, stderr=err) == 1
    assert "pip install 'rummydsl[lsp]'" in err.getvalue()
    assert out.getvalue() == ""
