"""A case's input files, read when the case runs: :func:`~.reading.open_input` is the one
entry point. The formats (``.json``, ``.jsonl``, ``.csv``, each also gzip'd, and
``.parquet``, :mod:`.formats`), the ``ledger:`` description of an export
(:mod:`.ledgerspec`, its vocabulary in :mod:`.labels`), the readers the formats use
(:mod:`.jsonl`, :mod:`.csvrows`, :mod:`.parquet`; a whole input in :mod:`.wholejson`),
label blocks where they can be read (:mod:`.textblocks`, :mod:`.blocks`), the mapping of
an export's rows into ledger rows (:mod:`.ledgermaps`), and what reading found, as typed
notes (:mod:`.notes`); :mod:`.rows` puts them together, each pass a value
(:mod:`.passes`).

Imports the core only. The loader reads a ``ledger:`` block with it at collection.
"""
