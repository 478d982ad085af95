"""The blocks of a case file that describe an input file, read at collection: a case's
``ledger:`` (:mod:`.ledger`; a join's two sides in :mod:`.join`), its ``dataset:``
(:mod:`.dataset`), and the parts they share: key paths (:mod:`.keypaths`), which rows
are read (:mod:`.selection`), label vocabularies (:mod:`.labels`), the error a block
its file does not fit raises (:mod:`.misfits`), where each part of a block is written
(:mod:`.positions`), and what a block is told of its file's format (:mod:`.traits`).

Imports the core only: the loader reads the blocks with it, and :mod:`pytest_rubric.inputs`
reads files as they say.
"""
