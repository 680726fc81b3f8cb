"""`diagnose --log` of a log that is one enormous line (a whole run printed without line breaks) names the error
at its start or its end — before: a 100 MB one-line log with the CUDA OOM at its start said `unknown` (the head was
dropped as a partial line, only the tail's filler was read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

OOM = b"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
FILLER = b"x" * 9_000_000  # past the 1 MiB head + 6 MiB tail the file is read by


@pytest.mark.parametrize(
    "name,data",
    [
        ("start.log", OOM + b" " + FILLER + b"\n"),  # the error at the start of the one line
        ("end.log", FILLER + b" " + OOM + b"\n"),  # … at its end
        ("after.log", b"epoch 1 loss 0.3\n" * 5 + OOM + b" " + FILLER),  # a few lines, then the line, unfinished
        ("small.log", OOM + b" " + FILLER[:2_000_000] + b"\n"),  # a file read whole: its one line is cut too
    ],
)
def test_the_error_in_an_enormous_line_is_named(
    here: Path, capsys: pytest.CaptureFixture[str], name: str, data: bytes
) -> None:
    (here / name).write_bytes(data)
    assert main(["diagnose", "--log", name]) == 0
    out = capsys.readouterr().out
    assert "gpu_oom" in out and "unknown" not in out
    assert len(out) < 20_000  # the evidence is the line's cut end, not megabytes of it


def test_a_key_the_cut_splits_is_not_shown_in_part(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Half a key matches no redaction rule: the word the cut splits is left out of what is read."""
    key = b"AKIAABCDEFGHIJKLMNOP"
    head = OOM + b" " + b"y" * (2000 - len(OOM) - 1 - 1 - 8) + b" "  # the key starts 8 bytes before the head's end
    (here / "key.log").write_bytes(head + key + b" " + FILLER[:20_000] + b" " + key + b" tail\n")
    assert main(["diagnose", "--log", "key.log", "--json"]) == 0
    out = capsys.readouterr().out
    assert "gpu_oom" in out and "AKIA" not in out and "ABCDEFG" not in out


@pytest.mark.parametrize("label,verdict", [("Loading weights", "unknown"), ("Epoch 1", "healthy")])
def test_a_bar_redrawn_in_place_is_cut_between_its_frames(
    here: Path, capsys: pytest.CaptureFixture[str], label: str, verdict: str
) -> None:
    """A progress bar redrawn with carriage returns is one enormous line; cut mid-frame, its last frame lost its
    label and a log that stopped while loading weights read as a run making progress (zzzt-0023: healthy 0.8 through
    the CLI, unknown in the function)."""
    frames = [
        f"{label}:  {n * 100 // 447:2d}%|█▍        | {n}/447 [00:00<00:10, 38.19it/s, param=layers.{n}.q]"
        for n in range(64)
    ]
    (here / "bar.log").write_bytes(b"Loading model...\n" + "\r".join(frames).encode() + b"\n")
    assert len("\r".join(frames).encode()) > 4000  # longer than the CLI reads of one line
    assert main(["diagnose", "--log", "bar.log", "--json"]) == 0
    out = capsys.readouterr().out
    assert f'"label": "{verdict}"' in out
