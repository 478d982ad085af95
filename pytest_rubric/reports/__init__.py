"""What a run tells people and tools: failure text, the terminal summary, case records,
the JSON report, shard merges, the review page and the case-file schema. Never pytest."""
