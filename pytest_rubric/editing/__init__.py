"""``--rubric-update`` without pytest: which cases write their answer, and the text
surgery that writes it into a case file, leaving every other byte as it was."""
