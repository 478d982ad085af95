"""Strict JSON equality, and the differences between two answers.

Python's ``==`` says ``True == 1`` and ``1 == 1.0``; JSON says ``true`` is not
``1`` but ``2`` is ``2.0``. Here booleans equal only booleans, numbers compare by
value, strings exactly, lists in order, and mappings by their key sets (key
order does not matter).
"""

from __future__ import annotations

from typing import Final


def json_equal(left: object, right: object) -> bool:
    """Whether two JSON-compatible values are equal as JSON values."""
    left_type, right_type = type(left), type(right)
    if left_type is bool or right_type is bool:
        return left_type is right_type and left is right
    if left_type in _NUMBERS:
        return right_type in _NUMBERS and left == right
    if left is None:
        return right is None
    if isinstance(left, str):  # str subclasses too, on either side
        return isinstance(right, str) and str.__eq__(left, right) is True
    if isinstance(left, dict):
        if not isinstance(right, dict) or left.keys() != right.keys():
            return False
        return all(json_equal(value, right[key]) for key, value in left.items())
    if isinstance(left, (list, tuple)):
        if not isinstance(right, (list, tuple)) or len(left) != len(right):
            return False
        return all(json_equal(a, b) for a, b in zip(left, right, strict=True))
    return False


_NUMBERS = (int, float)


def differences(
    expected: object, actual: object, path: str = "", *, subset: bool = False
) -> list[tuple[str, object, object]]:
    """Where ``actual`` differs from ``expected``: ``(key path, expected, actual)``.

    Mappings are compared key by key (nested mappings give dotted paths such as
    ``matrix.aOnly``); anything else that differs is one entry. A key present on
    one side only is reported with :data:`MISSING` on the other. With ``subset``
    (``expected_subset``), only the keys ``expected`` names are compared, each whole.
    """
    if subset:
        if not isinstance(actual, dict):
            return [("(answer)", expected, actual)]
        named = expected if isinstance(expected, dict) else {}
        return [
            found
            for key, value in named.items()
            for found in (
                differences(value, actual[key], str(key))
                if key in actual
                else [(str(key), value, MISSING)]
            )
        ]
    if isinstance(expected, dict) and isinstance(actual, dict):
        found: list[tuple[str, object, object]] = []
        for key, value in expected.items():
            where = f"{path}.{key}" if path else str(key)
            if key not in actual:
                found.append((where, value, MISSING))
            else:
                found.extend(differences(value, actual[key], where))
        for key, value in actual.items():
            if key not in expected:
                found.append((f"{path}.{key}" if path else str(key), MISSING, value))
        return found
    if json_equal(expected, actual):
        return []
    return [(path or "(answer)", expected, actual)]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "(absent)"


#: Marks a key that one side of a comparison does not have.
MISSING: Final = _Missing()
