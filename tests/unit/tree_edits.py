"""Random edits of a variant tree, for the property tests that feed the checker
trees it has never seen (imported by test_fast_paths.py and test_check_fuzz.py)."""

from __future__ import annotations

import copy
from typing import Any, Sequence

from hypothesis import strategies as st


def key_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The key path of every node of a tree, the root ``()`` first."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += key_paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += key_paths(value, prefix + (index,))
    return found


def edited(tree: Any, data: st.DataObject, values: st.SearchStrategy[Any],
           new_keys: Sequence[str]) -> Any:
    """A copy of ``tree`` with 1 to 3 random edits: a node replaced by a drawn value
    (twice as likely as the others), deleted, or a key or item added beside it."""
    tree = copy.deepcopy(tree)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(key_paths(tree)[1:]))
        parent = tree
        for part in path[:-1]:
            parent = parent[part]
        action = data.draw(st.sampled_from(["replace", "replace", "delete", "add"]))
        if action == "replace":
            parent[path[-1]] = data.draw(values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[data.draw(st.sampled_from(list(new_keys)))] = data.draw(values)
        else:
            parent.append(data.draw(values))
    return tree
