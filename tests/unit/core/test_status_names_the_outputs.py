"""`status WF` says where the outputs are, as `orchestrate download` takes them. Before, the URLs were only in
`status --json`, while the chat and the CLI's hints said "orchestrate status WF (its output URLs), then
orchestrate download URL DIR": a person reading `status` had no URL to give `download`."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.backends.base import Links
from runshepherd.reports.status import StatusReport, render_block

STORE = "file:///state/objects/train-classifier-1"


def _report(outputs: list[str]) -> StatusReport:
    return StatusReport(
        workflow_id="train-classifier-1",
        status="COMPLETED",
        state="succeeded",
        pool="local",
        tasks=[],
        links=Links(),
        outputs=outputs,
    )


def test_the_folder_every_output_is_under_is_named_with_the_command() -> None:
    block = render_block(_report([f"{STORE}/train/model.npz", f"{STORE}/prep/data.npz", f"{STORE}/train/c/e1.npz"]))
    assert f"Outputs: 3 file(s) under {STORE} — orchestrate download {STORE} DIR" in block.splitlines()


def test_outputs_in_no_common_folder_name_the_first() -> None:
    block = render_block(_report(["s3://a/x/m.npz", "gs://b/y/n.npz"]))
    assert "Outputs: 2 file(s) under s3://a/x/m.npz — orchestrate download s3://a/x/m.npz DIR" in block


def test_no_outputs_no_line() -> None:
    assert "Outputs:" not in render_block(_report([]))


def test_download_of_a_workflow_id_points_to_status(tmp_path: Path) -> None:
    """`orchestrate download train-classifier-1 ./out`, the first thing a newcomer types, says where the URL is."""
    from runshepherd.backends.files.objects import scoped_source
    from runshepherd.errors import RunShepherdError

    with pytest.raises(RunShepherdError, match="`orchestrate status train-classifier-1` names their URL"):
        scoped_source("train-classifier-1", tmp_path, backend="the local backend")
    for not_an_id in ("/etc/passwd", "", "my outputs"):  # '' said "`orchestrate status ` names their URL"
        with pytest.raises(RunShepherdError) as err:
            scoped_source(not_an_id, tmp_path, backend="the local backend")
        assert "orchestrate status" not in str(err.value), not_an_id
