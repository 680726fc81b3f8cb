"""Python's chained tracebacks: which exception of the chain names the failure (diagnosis/chains.py)."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.chains import handled_spans
from runshepherd.diagnosis.errorblock import prepare

from .families.real import diagnose_dev

# https://docs.python.org/3/tutorial/errors.html#exception-chaining: a handler that fails with a generic error
TUTORIAL_DURING = """Traceback (most recent call last):
  File "<stdin>", line 2, in <module>
FileNotFoundError: [Errno 2] No such file or directory: 'database.sqlite'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "<stdin>", line 4, in <module>
RuntimeError: unable to handle error
"""

# a handled HTTP 404 (requests' raise_for_status wording), then the handler's own refusal (Python's PermissionError)
HANDLED_404 = """Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/requests/models.py", line 1021, in raise_for_status
    raise HTTPError(http_error_msg, response=self)
requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://example.org/api/runs

{link}

Traceback (most recent call last):
  File "/home/u/train.py", line 12, in upload
    open("/shared/results/run.json", "w")
PermissionError: [Errno 13] Permission denied: '/shared/results/run.json'
"""


def test_a_handler_failing_generically_leaves_the_handled_error_the_cause() -> None:
    d = diagnose_log_text(TUTORIAL_DURING)
    assert d.label == "file_not_found"
    assert "database.sqlite" in d.evidence[0]


def test_the_handlers_own_failure_of_another_family_is_the_verdict() -> None:
    during = diagnose_log_text(
        HANDLED_404.format(link="During handling of the above exception, another exception occurred:")
    )
    assert during.label == "permission_or_auth"
    assert "PermissionError" in during.evidence[0]


def test_a_direct_cause_keeps_the_first_exception() -> None:
    cause = diagnose_log_text(
        HANDLED_404.format(link="The above exception was the direct cause of the following exception:")
    )
    assert cause.label != "permission_or_auth"
    assert "404" in cause.evidence[0]


def test_wandb_permission_refused_while_handling_a_404() -> None:
    # zm-0025: W&B's internal log: a 404 retried ("entity … not found during upsertBucket", the server's way of
    # refusing an entity the key may not write to), then CommError("Permission denied") raised in the handler
    d, _, record = diagnose_dev("zm-0025")
    assert d.label == record["label"] == "permission_or_auth"
    assert "not found during upsertBucket" in d.evidence[0]
    assert any(e.startswith("wandb.errors.CommError: Permission denied") for e in d.evidence)


def test_a_handled_traceback_without_its_header_reaches_back_only_to_its_exception() -> None:
    # an earlier, unrelated failure far above a chain whose handled traceback lost its header keeps its reading
    lines = ["slurmstepd: error: Detected 1 oom_kill event in StepId=7.0. Some of your processes may have been killed."]
    lines += [f"epoch 1 step {i} loss 0.5" for i in range(3)]
    lines += HANDLED_404.format(
        link="During handling of the above exception, another exception occurred:"
    ).splitlines()[1:]
    spans = handled_spans(prepare(lines).lines)
    assert len(spans) == 1
    start, mark, end = spans[0]
    assert lines[start].startswith("requests.exceptions.HTTPError")
    assert lines[end].startswith("PermissionError")
