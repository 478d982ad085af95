"""Case files: strict YAML in, validated cases with their positions out.

The entry points: read a case file's bytes, load them as strict YAML
(:mod:`~pytest_rubric.casefiles.yamlstrict`), check them as a case file
(:mod:`~pytest_rubric.casefiles.validate`) and name them by their digest.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_rubric.casefiles.cases import CaseFile
from pytest_rubric.casefiles.validate import Validator
from pytest_rubric.casefiles.yamlstrict import PARSER, StrictYAMLError
from pytest_rubric.casefiles.yamlstrict import decode as decode_text
from pytest_rubric.casefiles.yamlstrict import load as load_yaml
from pytest_rubric.core.errors import CaseFileError
from pytest_rubric.inputs.inputpaths import InputFiles


def load_case_file(
    path: Path, display: str, parser: type[Any] = PARSER, root: Path | None = None
) -> CaseFile:
    """Read and validate the case file at ``path``; ``display`` is how messages name it.

    ``input_file`` paths are resolved beside the case file and must stay inside
    ``root`` (the repository), when it is given.
    """
    return parse_case_file(
        read_case_file(path, display), display, parser, InputFiles(path, display, root)
    )


def read_case_file(path: Path, display: str) -> bytes:
    """The bytes of the case file at ``path``, or the error that names why not."""
    try:
        return path.read_bytes()
    except OSError as exc:
        raise CaseFileError(
            display,
            1,
            1,
            f"cannot be read: {exc.strerror or exc}; check the path and its permissions",
        ) from None


def digest_of(data: bytes) -> str:
    """How :attr:`CaseFile.digest` names these bytes."""
    return hashlib.sha256(data).hexdigest()


def parse_case_file(
    data: bytes,
    display: str,
    parser: type[Any] = PARSER,
    files: InputFiles | None = None,
    digest: str | None = None,
) -> CaseFile:
    """Validate a case file's bytes (``digest``: their :func:`digest_of`, when known)."""
    try:
        document = load_yaml(decode_text(data), parser, ends=False, json_values=True)
    except StrictYAMLError as exc:
        raise CaseFileError(display, exc.line, exc.col, exc.message) from None
    case_file = Validator(display, document, files).case_file()
    return replace(case_file, digest=digest_of(data) if digest is None else digest)
