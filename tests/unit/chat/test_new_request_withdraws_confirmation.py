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


def test_a_question_asked_while_a_cancel_is_unanswered_shows_the_cancel_again_last(
    submitted_chat: tuple[Any, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """A run's question can arrive between "cancel it" and the answer (a failure's fix question, a download): the
    next "yes" still answers the cancel, so the cancel is the last question shown. Before: the run's question was
    shown last and a "yes" meant for it canceled the run."""
    convo, first = submitted_chat
    convo.handle("cancel it")
    capsys.readouterr()
    convo._on_question(first.session, {"kind": "download", "text": "Download the outputs?", "choices": ["yes", "no"]})
    shown = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("? ")]
    assert shown[0].startswith("? download: Download the outputs?"), shown
    assert shown[-1].startswith(f"? Cancel {first.workflow_id}") and "answered first" in shown[-1], shown
