"""core/jsondecode.py: one strict decoder for inputs and reports, each in its own words."""

from __future__ import annotations

import json

import pytest

from pytest_rubric.core.jsondecode import DECODER, StrictDecoder
from pytest_rubric.reports.merge import MergeRefused, parse


def _words(text: str) -> str:
    return f"said {text}"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"a": 1, "b": 2, "a": 3}', "said a"),
        ('{"rows": [{"x": NaN}]}', "said NaN"),
        ("[-Infinity]", "said -Infinity"),
    ],
)
def test_a_strict_decoder_refuses_in_the_words_its_reader_gives(text: str, words: str) -> None:
    decoder = StrictDecoder(repeated=_words, constant=_words)
    with pytest.raises(ValueError, match=f"^{words}$"):
        decoder.decode(text)
    with pytest.raises(ValueError, match=f"^{words}$"):
        json.loads(text, cls=StrictDecoder, repeated=_words, constant=_words)


def test_a_strict_decoder_reads_what_json_reads_otherwise() -> None:
    text = '{"a": [1, 2.5, "x", null, true, {"b": {}}], "c": 1e999}'
    assert StrictDecoder(repeated=_words, constant=_words).decode(text) == json.loads(text)


def test_inputs_and_reports_each_refuse_a_repeated_key_and_nan_in_their_own_words() -> None:
    with pytest.raises(ValueError, match=r"^duplicate key 'a'; keep one of them$"):
        DECODER.decode('{"a": 1, "a": 2}')
    with pytest.raises(ValueError, match=r"^NaN is not JSON; write a number or a string$"):
        DECODER.decode("[NaN]")
    for content, words in [
        (b'{"a": 1, "a": 2}', 'it gives the key "a" twice in one object'),
        (b"[NaN]", "it holds NaN, which JSON does not have"),
        # A BOM left after the one UTF-8-sig takes: json.loads' own words.
        (
            "\ufeff\ufeff{}".encode(),
            "not JSON (line 1, column 1: unexpected utf-8 bom (decode using utf-8-sig))",
        ),
    ]:
        with pytest.raises(MergeRefused) as refused:
            parse("r.json", content, "0")
        assert str(refused.value) == f"r.json is not a pytest-rubric report: {words}"
