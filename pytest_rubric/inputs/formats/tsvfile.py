"""``.tsv``: CSV with tabs between the cells (as Label Studio, spreadsheets and pandas'
``to_csv(sep="\\t")`` write it), read by the CSV format (:mod:`.csvfile`) told its
delimiter: quotes, booleans, headers and blocks alike."""

from __future__ import annotations

from pytest_rubric.inputs.formats.csvfile import Csv

TSV = Csv(suffix=".tsv", delimiter="\t")
