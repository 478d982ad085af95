"""The input formats, one module each, behind one protocol (:class:`.base.Format`), in one
table (:mod:`.registry`): ``.json`` (the whole input, or with ``ledger:`` a document of
rows), ``.jsonl``, ``.csv``, ``.tsv`` (the CSV format with tabs), each of these gzip'd
(:mod:`.gzipped`), ``.parquet`` and ``.xlsx``.

Importing a format imports none of its readers (only how text files are opened,
:mod:`..textfiles`, which imports gzip when a gzip'd file is read): each is imported when
a file of its format is read, so a run of inline cases loads only this table.
"""
