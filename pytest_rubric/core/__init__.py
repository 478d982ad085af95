"""The pure core: JSON values and strict equality, the ``Evaluator`` a plugin hands over,
the errors every layer raises, and the file writes every output shares.

Imports nothing of pytest, pluggy or yaml, and no other layer of this package.
"""
