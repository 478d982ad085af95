"""A case's input files: the formats (``.json``, ``.jsonl``, ``.csv``, each also gzip'd,
and ``.parquet``), the ``ledger:`` description of an export, and the rows read as it says.

Imports the core only. The loader reads a ``ledger:`` block with it at collection; the
runner reads a case's input with it when the case runs.
"""
