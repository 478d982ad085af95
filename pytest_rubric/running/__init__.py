"""Running one case: its input through its evaluator, the answer compared strictly,
and the outcome that says what became of it. Never pytest."""
