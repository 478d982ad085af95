"""The YAML test suite, as the strict loader's tests read it (see README.md)."""
