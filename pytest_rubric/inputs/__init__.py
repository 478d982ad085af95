"""A case's input files, read when the case runs: :func:`~.reading.open_input` is the one
entry point. The formats (``.json``, ``.jsonl``, ``.csv``, ``.tsv``, each also gzip'd, and
``.parquet``, one module each in :mod:`.formats`), the readers the formats use
(:mod:`.jsonl`, :mod:`.csvrows`, :mod:`.parquet`; a whole input in :mod:`.wholejson`),
label blocks where they can be read (:mod:`.textblocks`, :mod:`.blocks`), the mapping of
an export's rows into ledger rows (:mod:`.ledgermaps`, one row per judgement paired in
:mod:`.pairing`), and what reading found (:mod:`.findings`, :mod:`.readnotes`);
:mod:`.rows` puts them together, each pass a value (:mod:`.passes`).

Reads files as their ``ledger:`` and ``dataset:`` blocks say (:mod:`pytest_rubric.descriptions`);
imports those and the core only.
"""
