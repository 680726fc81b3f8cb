"""A key event line says what the log said: a count is of lines of that kind, and a cut line says it was cut."""

from __future__ import annotations

from runshepherd.logs import read_log
from runshepherd.logs.markdown import task_markdown

LOG = [
    "2026/11/30 17:48:10 [train] Training complete in 3.7s",
    "2026/11/30 17:48:10 [train][osmo] Uploading outputs from /state/workflows/train-classifier-1/tasks/train/output"
    " to file:///state/objects/train-classifier-1/train",
    "2026/11/30 17:48:10 [train][osmo] Uploaded 5 file(s)",
]


def test_two_upload_lines_are_not_five_files_uploaded_twice() -> None:
    text = task_markdown(read_log(LOG))
    uploaded = next(ln for ln in text.splitlines() if "Uploaded 5 file(s)" in ln)
    assert "×2" not in uploaded and "latest of 2" in uploaded, text


def test_a_long_line_cut_for_the_digest_ends_with_an_ellipsis() -> None:
    text = task_markdown(read_log(LOG))
    uploading = next(ln for ln in text.splitlines() if "Uploading outputs" in ln)
    assert uploading.rstrip().endswith("…"), text
