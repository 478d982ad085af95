"""Values at the edges shared by the edge tests of several rooms (test_core_jsonvalues,
test_core_shown, test_core_packed, test_casefiles_edges, test_inputs_edges,
test_running_hostile): an integer too long for ``str()``, a case that passes, and
Hypothesis strategies for hostile values."""

from __future__ import annotations

from hypothesis import strategies as st

BIG = int("1" * 4000) * 10**1000 + 5678  # 5000 digits; str() refuses it
BIG_TEXT = "1" * 4000 + "0" * 996 + "5678"
BIG_SHOWN = "1111…5678 (an integer of 5000 digits)"
GOOD_CASE = """\
  - id: good
    input: {fields: {title: true, source: true}, pass: true, reasons: [all-required-met]}
    expected: {expectedPass: true, expectedReasons: [all-required-met], coherent: true}
"""

huge_integers = st.builds(
    lambda data, sign: sign * (int.from_bytes(data, "big") | 1 << 14_400),  # past 4300 digits
    st.binary(max_size=2000),
    st.sampled_from([1, -1]),
)
hostile_text = st.text(
    st.characters(codec=None, exclude_categories=())  # lone surrogates and control characters
    | st.sampled_from(
        ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\u2028", "\ud800", "\udfff", "\ufeff"]
    ),
    max_size=8,
)
hostile = st.recursive(
    st.none() | st.booleans() | st.integers() | huge_integers | st.floats() | hostile_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(hostile_text, inner, max_size=3),
    max_leaves=10,
)
