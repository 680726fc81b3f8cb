"""Text a person reads on a pipe or an 80-column terminal is wrapped at words, never cut off mid-word."""

from __future__ import annotations

import io

from rich.console import Console

from runshepherd.events import Report
from runshepherd.render.session import Renderer

LONG = (
    "- **Stage / progress**: ended COMPLETED; last logged: uploading; epoch 3/3 — 100% complete; "
    "loss 0.0922, eval_loss 0.1048, accuracy 0.968, eval_accuracy 0.957"
)


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_a_long_digest_line_is_wrapped_not_cropped_at_80_columns() -> None:
    buf = io.StringIO()
    out = Console(file=buf, width=80, highlight=False, soft_wrap=True, force_terminal=False)
    Renderer(session="s1", as_json=False, out=out).event(
        Report(workflow_id="wf-1", artifact=None, digest="Task: train\n\n" + LONG).wire()
    )
    text = buf.getvalue()
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())
    assert "eval_loss 0.1048, accuracy 0.968, eval_accuracy 0.957" in _flat(text), text  # the end survives
