"""The inspect_ai task behind inspect-epochs.eval and inspect-epochs.json beside it: four
samples whose IDs are text ("1", "2", "10", "11", as a CSV dataset gives them), two
epochs, scored by includes(), on inspect's scripted mockllm/model, offline. As
inspect_headlines.py says, with:

    inspect eval inspect_epochs.py --log-dir /tmp/logs --max-samples 1 --epochs 2
    cp /tmp/logs/*_word-check_*.eval inspect-epochs.eval
    inspect log convert inspect-epochs.eval --to json --output-dir /tmp/json
    cp /tmp/json/inspect-epochs.json inspect-epochs.json
"""

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes
from inspect_ai.solver import generate


def scripted(text: str) -> ModelOutput:
    """``text`` as the model's reply, its usage given (else mockllm counts tokens with
    tiktoken, which downloads its tables)."""
    output = ModelOutput.from_content("mockllm/model", text)
    output.usage = ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)
    return output


@task
def word_check() -> Task:
    replies = [scripted("yes" if n % 3 else "no") for n in range(8)]
    return Task(
        dataset=[
            Sample(id=str(n), input=f"Is {n} a number? Say yes.", target="yes")
            for n in (1, 2, 10, 11)
        ],
        solver=generate(),
        model=get_model("mockllm/model", custom_outputs=replies),
        scorer=includes(),
    )
