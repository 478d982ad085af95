"""Writes prodigy-panel.jsonl: what ``prodigy db-out headlines_check`` prints for a dataset
three people annotated in one Prodigy instance, each in a named session. Prodigy is
commercial and cannot be installed here, so the lines are built to the form its own
documentation and its maintainers' answers give (no row is shaped to fit pytest-rubric):

    # prodigy.json: {"feed_overlap": true}          every annotator sees every example
    #   https://prodi.gy/docs/task-routing ("feed_overlap ... set to true ... each example
    #   should be seen by each annotator")
    prodigy textcat.manual headlines_check ./headlines.jsonl --label ACCURATE_HEADLINE
    #   one label: the binary "classification" view, answered accept / reject / ignore
    #   (_view_id "classification"; https://prodi.gy/docs/recipes#textcat-manual)
    # rita, omar and lena open http://localhost:8080/?session=rita (omar, lena): each
    #   answer is saved with the session identifier "<dataset>-<session>", as
    #   "ner_person-alex" for ?session=alex (Prodigy v1.7 README, quoted at
    #   https://support.prodi.gy/t/prodigy-multi-user-session-access/1644/2), in both
    #   _session_id and _annotator_id
    prodigy db-out headlines_check > prodigy-panel.jsonl
    #   one JSON line per saved answer, the task's keys, its hashes, then "answer"
    #   (https://gist.github.com/vanatteveldt/6af3b7ef8a7d22f87ddda828e162fa81), in the
    #   order the sessions' batches were saved, so each session's answers come together

The hashes are the task's, never the annotator's: _input_hash is set from the input keys
(the text) and _task_hash from the input and the label, while _session_id, _annotator_id
and answer are among the keys hashing ignores (IGNORE_HASH_KEYS, printed in
https://support.prodi.gy/t/logic-behind-hash-keys-in-relation-to-review-api/7410; "both
examples will have the same input hash", https://support.prodi.gy/t/difference-between-
input-hash-and-task-hash/3220/2). So every session's answer to an example carries the same
two hashes: here those of prodigy.jsonl beside this file (the same eight examples and label).
Lena pressed ignore on h5 (the third answer button; the answer is saved as "ignore").

    python docs/demos/tools/prodigy_panel.py > docs/demos/tools/prodigy-panel.jsonl
"""

import json
import sys

DATASET = "headlines_check"
LABEL = "ACCURATE_HEADLINE"
# (meta id, text, _input_hash, _task_hash), in the order of headlines.jsonl.
EXAMPLES = [
    ("h1", "Council approves protected bike lanes on Main Street", 1132903364, 1117721339),
    ("h2", "Local bakery takes top sourdough prize at state fair", -1904597345, -1198531357),
    ("h3", "Coffee cures high blood pressure, scientists say", 189963082, -601336390),
    ("h4", "Storm forecast closes county schools on Monday", -1133664809, -338765948),
    ("h5", "Library to open on Sundays starting in June", 527858757, 1727362835),
    ("h6", "Unemployment plunges across the region", 1382782102, -658762267),
    ("h7", "Mayor will not seek third term", -1499591369, 1528748033),
    ("h8", "Zoo welcomes red panda cub", -1173789389, 1968808185),
]
# Each session's answers in example order, and the time of its first answer.
SESSIONS = [
    ("rita", 1742378460, "accept accept reject accept accept reject accept reject"),
    ("omar", 1742378467, "accept accept reject accept accept reject accept accept"),
    ("lena", 1742385660, "accept reject reject accept ignore reject reject reject"),
]


def main() -> None:
    for session, start, answers in SESSIONS:
        named = f"{DATASET}-{session}"
        for n, ((meta_id, text, input_hash, task_hash), answer) in enumerate(
            zip(EXAMPLES, answers.split(), strict=True)
        ):
            line = {
                "text": text,
                "meta": {"id": meta_id},
                "_input_hash": input_hash,
                "_task_hash": task_hash,
                "label": LABEL,
                "_view_id": "classification",
                "answer": answer,
                "_timestamp": start + 60 * n,
                "_annotator_id": named,
                "_session_id": named,
            }
            sys.stdout.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
