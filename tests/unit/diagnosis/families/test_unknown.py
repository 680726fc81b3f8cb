"""The unknown family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import diagnose_dev


def test_an_error_no_family_explains_is_unknown_with_the_line_quoted() -> None:
    d = diagnose_log_text("step 3 loss 0.4\nERROR ~ Error executing process > 'STAR_mapping (S31)'\n")
    assert d.label == "unknown" and d.evidence == ["ERROR ~ Error executing process > 'STAR_mapping (S31)'"]
    assert d.fix.kind == "none" and "full log" in d.fix.description


def test_an_error_field_in_a_retried_status_line_is_never_healthy() -> None:
    # k-0026 (Ray Train's FailurePolicy line): the controller retried a failed start and the log ends retrying; the
    # line after it names the cause (a start-up timeout, see test_timeout). Without it, the error field is quoted.
    d, text, record = diagnose_dev("k-0026")
    assert record["label"] != "healthy" and d.label == record["label"]
    policy = next(ln for ln in text.splitlines() if "Error: Training failed due to controller error" in ln)
    d = diagnose_log_text(text.split(policy)[0] + policy + "\n")
    assert d.label == "unknown" and d.evidence and "Error: Training failed due to controller error" in d.evidence[0]
    # a metric named "Error" is no error
    assert diagnose_log_text("epoch 3 step 200 loss 0.41\nTop-1 Error: 23.1\nepoch 4 step 300 loss 0.38\n").label == (
        "healthy"
    )


@pytest.mark.parametrize(
    ("case_id", "quoted"),
    [("w-0006", "* E0530 23:11:46.299486 1 logging.cc:43]"), ("w-0008", "E 11-26 17:52:19 backend_utils.py:992]")],
)
def test_a_bulleted_glog_error_and_skypilots_error_header_are_quoted_and_read(case_id: str, quoted: str) -> None:
    """w-0006 pastes TensorRT Serving's glog lines as a markdown list ("* E0530 …"); w-0008 has SkyPilot's own
    "E mm-dd hh:mm:ss file.py:N]" error header. Before, the verdict said the log "shows no error"; now the unexplained
    error is quoted. No rule knows these wordings, so the verdict is the root-line reading (rootline.py): the line's
    own words ("not compatible with this version", "to be provisioned") name the family, weakly."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] and d.confidence <= 0.65 and "reading of one line" in d.explanation
    assert any(e.startswith(quoted) for e in d.evidence), d.evidence
