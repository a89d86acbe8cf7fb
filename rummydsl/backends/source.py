"""A variant as a worker on another machine can load it: a shipped id, or the text of its files."""

from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass

from ..errors import BackendError

__all__ = [
    "VariantSource",
]




@dataclass(frozen=True)
class VariantSource:
    """A variant as a worker on another machine can load it.

    A shipped variant travels as its id (every node has rummydsl installed); a
    file travels as the text of every file of its ``extends`` chain, laid out in
    their folders relative to one another, so a parent named by a relative path is
    found beside it on the worker.

    >>> from rummydsl.variant import find_variant_path
    >>> VariantSource.of(find_variant_path("ginski")).shipped
    'ginski'
    """

    shipped: str | None = None
    """The shipped variant's id, or ``None`` for a file."""
    files: tuple[tuple[str, str], ...] = ()
    """Each file of the chain, child first: its path relative to the chain's common
    folder, and its text."""

    @classmethod
    def of(cls, path: str) -> VariantSource:
        """The source of the variant file ``path`` (found with ``find_variant_path``).

        :raises VariantError: if the variant cannot be loaded.
        :raises BackendError: if a file of its chain cannot be read.
        """
        from .. import resources
        from ..variant import load_variant

        absolute = os.path.realpath(path)
        shipped_dir = os.path.realpath(resources.variants_dir())
        folder, name = os.path.split(absolute)
        if folder == shipped_dir and name.endswith(".yaml"):
            return cls(shipped=name[: -len(".yaml")])
        chain = [os.path.realpath(file) for file in load_variant(path).chain] or [absolute]
        texts: list[tuple[str, str]] = []
        for file in chain:
            try:
                with open(file, encoding="utf-8") as stream:
                    text = stream.read()
            except (OSError, UnicodeDecodeError) as problem:
                raise BackendError(f"cannot read {file!r} to send it to the workers: {problem}") from None
            texts.append((file, text))
            if _extends_an_id(text):  # the rest of the chain is shipped: the worker has it
                break
        common = os.path.commonpath([os.path.dirname(file) for file, _ in texts])
        return cls(files=tuple((os.path.relpath(file, common), text) for file, text in texts))

    def materialise(self) -> str:
        """A path or id on this machine that ``load_variant`` loads as this variant.

        Files are written once per process into a temporary folder (removed when the
        process exits) named after their content.
        """
        if self.shipped is not None:
            return self.shipped
        digest = hashlib.sha256(repr(self.files).encode("utf-8")).hexdigest()[:16]
        known = _MATERIALISED.get(digest)
        if known is not None:
            return known
        root = tempfile.mkdtemp(prefix=f"rummydsl-variant-{digest}-")
        atexit.register(shutil.rmtree, root, True)
        child = self.write_into(root)
        _MATERIALISED[digest] = child
        return child

    def write_into(self, root: str) -> str:
        """Write the chain's files under the folder ``root`` as they lay relative to each
        other, and return the path of the variant itself (the chain's first file)."""
        for relative, text in self.files:
            target = os.path.join(root, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as stream:
                stream.write(text)
        return os.path.join(root, self.files[0][0])


def _extends_an_id(text: str) -> bool:
    """Whether a variant file's ``extends`` names a shipped variant by id (not a file).

    >>> _extends_an_id("id: a\\nextends: gin_rummy\\n"), _extends_an_id("extends: ../base.yaml\\n")
    (True, False)
    """
    import yaml

    from ..variant import is_variant_id

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    parent = data.get("extends") if isinstance(data, dict) else None
    return isinstance(parent, str) and is_variant_id(parent)


_MATERIALISED: dict[str, str] = {}
"""Variant sources already written in this (worker) process, by content digest."""
