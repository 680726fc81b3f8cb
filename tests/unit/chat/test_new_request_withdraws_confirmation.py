"""A "yes" answers the question shown last. "cancel it" asks "Cancel X?"; when the person types a new request
instead of answering, the new run asks "Submit …?", and the person's "yes" is meant for that submit.

Before: the chat kept its cancel confirmation open under the new run's question, so that "yes" canceled the
first run (and the new run's submit question stayed open)."""

from __future__ import annotations

from typing import Any

import pytest

from runshepherd.backends.base import Status


def test_a_new_request_withdraws_the_unanswered_cancel_and_yes_submits_the_new_run(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    convo, first = submitted_chat
    convo.handle("cancel it")
    assert f"? Cancel {first.workflow_id}" in capsys.readouterr().out
    convo.handle("train a small classifier for 1 epochs")
    second = convo.current
    assert second is not first and second.wait(60, until=lambda: second.waiting)
    out = capsys.readouterr().out
    assert f"not confirmed, so not done: Cancel {first.workflow_id}" in out, out
    convo.handle("yes")
    assert second.wait(60, until=lambda: second.workflow_id is not None), "the yes did not submit the new run"
    out = capsys.readouterr().out
    assert "canceled" not in out, out
    assert convo.ctx.backend.query(first.workflow_id).status != Status.FAILED_CANCELED
    assert first.busy  # the first run goes on
