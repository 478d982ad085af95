"""The inspect_ai task behind inspect-log.eval and inspect-log.json beside it: eight
headlines, written and then graded (model_graded_fact) by inspect's scripted
mockllm/model, offline. In a scratch environment (never the project's), in this folder:

    pip install inspect-ai
    inspect eval inspect_headlines.py --log-dir /tmp/logs --max-samples 1
    cp /tmp/logs/*_headline-check_*.eval inspect-log.eval
    inspect log convert inspect-log.eval --to json --output-dir /tmp/json
    cp /tmp/json/inspect-log.json inspect-log.json
"""

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import model_graded_fact
from inspect_ai.solver import generate

STORIES = [
    (
        "The city council voted 7-2 on Tuesday to add protected bike lanes on Main Street.",
        "The council approved protected bike lanes on Main Street.",
        "Council approves protected bike lanes on Main Street",
        "C",
    ),
    (
        "A regional bakery won first prize for sourdough at the state fair.",
        "A local bakery won a sourdough prize at the state fair.",
        "Local bakery takes top sourdough prize at state fair",
        "C",
    ),
    (
        "A study of 200 adults found a small link between coffee and lower blood pressure.",
        "A study found a small link between coffee and lower blood pressure.",
        "Coffee cures high blood pressure, scientists say",
        "I",
    ),
    (
        "Schools in the county will close on Monday because of a forecast storm.",
        "County schools close Monday because of a storm.",
        "Storm forecast closes county schools on Monday",
        "C",
    ),
    (
        "The library will open on Sundays from 10am to 4pm starting in June.",
        "The library adds Sunday opening hours from June.",
        "Library to open on Sundays starting in June",
        "C",
    ),
    (
        "Unemployment in the region fell from 5.1% to 4.9% last quarter.",
        "Regional unemployment fell slightly, to 4.9%.",
        "Unemployment plunges across the region",
        "C",
    ),
    (
        "The mayor announced she will not seek a third term.",
        "The mayor will not run for a third term.",
        "Mayor will not seek third term",
        "C",
    ),
    (
        "A local zoo welcomed twin red panda cubs born last week.",
        "Twin red panda cubs were born at the zoo last week.",
        "Zoo welcomes red panda cub",
        "I",
    ),
]
GRADES = {
    "C": "The submission states the expert fact.\n\nGRADE: C",
    "I": "The submission does not accurately state the expert fact.\n\nGRADE: I",
}


def scripted(text: str) -> ModelOutput:
    """``text`` as the model's reply, its usage given (else mockllm counts tokens with
    tiktoken, which downloads its tables)."""
    output = ModelOutput.from_content("mockllm/model", text)
    words = len(text.split())
    output.usage = ModelUsage(input_tokens=20, output_tokens=words, total_tokens=20 + words)
    return output


@task
def headline_check() -> Task:
    headlines = [scripted(h) for _, _, h, _ in STORIES]
    grades = [scripted(GRADES[g]) for *_, g in STORIES]
    return Task(
        dataset=[
            Sample(input=f"Write a short news headline for this story: {story}", target=target)
            for story, target, _, _ in STORIES
        ],
        solver=generate(),
        model=get_model("mockllm/model", custom_outputs=headlines),
        scorer=model_graded_fact(
            model=get_model("mockllm/model", custom_outputs=grades, memoize=False)
        ),
    )
