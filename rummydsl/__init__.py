"""rummydsl: a rules language for rummy card games."""

from __future__ import annotations

__version__ = "0.1.0"
