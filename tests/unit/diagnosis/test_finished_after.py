"""`finished_after` fills every position's answer in one backward pass the first time it is asked (it had rescanned the
rest of the log per error line: 2,000 interleaved error lines took 2.5 minutes, `bench_logs.py --error-lines`). The
answer must not depend on which position is asked first."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis.errorblock import prepare
from runshepherd.diagnosis.positive import finished_after

LOG = "\n".join(
    [
        "epoch 1 step 1 loss 0.5",
        "wandb: ERROR Error while calling W&B API: run not found (<Response [404]>)",
        "Training completed. Do not forget to share your model on huggingface.co/models =)",
        "wandb: ERROR Error while calling W&B API: run not found (<Response [404]>)",
        "epoch 1 step 2 loss 0.4",
    ]
)
WANT = {-1: True, 0: True, 1: True, 2: False, 3: False, 4: False, 5: False}


@pytest.mark.parametrize("first", sorted(WANT))
def test_each_position_has_the_same_answer_whichever_is_asked_first(first: int) -> None:
    lines = prepare(LOG.splitlines()).lines
    assert finished_after(lines, first) is WANT[first]
    assert {i: finished_after(lines, i) for i in WANT} == WANT
