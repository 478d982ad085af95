"""Classic slips for a boolean (``"true"``, ``yes``, ``1``), and how to write it instead."""

from __future__ import annotations

from pytest_rubric.core.shown import show

#: The words YAML 1.1 readers (PyYAML's own loaders among them) take as booleans, and
#: which are text in YAML 1.2, JSON and CSV alike: the boolean each was meant as.
YAML_11_BOOLEANS = {
    **dict.fromkeys(("y", "Y", "yes", "Yes", "YES", "on", "On", "ON"), True),
    **dict.fromkeys(("n", "N", "no", "No", "NO", "off", "Off", "OFF"), False),
}


def boolean_slip(value: object) -> tuple[bool, str] | None:
    """The boolean ``value`` most likely meant, and how to write it, when ``value``
    is a classic slip for one; ``None`` for anything else. The one place both
    invalid-input messages and mismatch hints find these slips, worded so that the fix
    is right whichever format the value came from (YAML, JSON, a CSV cell):

    - the text ``true``/``false`` itself, which only quotes make text: remove them;
    - another casing or spacing of it (``TRUE``, ``" false "``), as a CSV cell or a
      quoted value: only the lowercase word is a boolean;
    - a YAML 1.1 boolean (``yes``, ``no``, ``on``, ``off``, ``y``, ``n``), which is text
      here;
    - the number ``1`` or ``0``.
    """
    if isinstance(value, str):
        word = value.strip().lower()
        if value in ("true", "false"):
            return value == "true", f"write {value} without quotes"
        if word in ("true", "false"):
            return word == "true", (
                f"write {word}: only true and false, in lowercase and with nothing around "
                "them, are booleans (unquoted in YAML and JSON)"
            )
        meant = YAML_11_BOOLEANS.get(value.strip())
        if meant is not None:
            written = "true" if meant else "false"
            return meant, (
                f"YAML 1.1 readers take {value.strip()} as a boolean, but here it is text: "
                f"write {written}"
            )
    elif isinstance(value, (int, float)) and type(value) is not bool and value in (0, 1):
        meant = value == 1
        return meant, f"write {'true' if meant else 'false'}, not {show(value)}"
    return None
