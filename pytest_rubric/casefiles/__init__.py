"""Case files: strict YAML, the loader, marks and the cache of loaded files.

Importing this package imports nothing: a run with no case file loads no YAML.
"""
