"""Case files: strict YAML, the loader, marks, input files (ledgers and the exports a
``ledger:`` block describes) and the cache of loaded files. Imports the core only; never pytest.

Importing this package imports nothing: a run with no case file loads no YAML.
"""
