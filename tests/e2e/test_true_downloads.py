"""Issue 12: downloads keep DEST/<task>/…, never overwrite without asking, and the count printed is the count
written; a new run whose workflow id was used before (another state dir) never writes into the old folder."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from cli_helpers import json_lines, run, until_status

TWO_TASKS = """\
workflow:
  name: twotask
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: left
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["mkdir -p {{output}}/checkpoints && echo left > {{output}}/model.txt && echo l1 > {{output}}/checkpoints/step1.txt"]
  - name: right
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["mkdir -p {{output}}/checkpoints && echo right > {{output}}/model.txt && echo r1 > {{output}}/checkpoints/step1.txt"]
"""


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_two_tasks_writing_the_same_name_both_land_and_the_count_is_true(tmp_path: Path) -> None:
    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_TASKS)
    res = run(tmp_path, "run", "--spec", str(spec), "--yes", "--json")
    assert res.returncode == 0, res.stdout + res.stderr
    events = json_lines(res.stdout)
    got = next(e for e in events if e["event"] == "downloaded")
    dest = Path(got["dest"])
    assert dest == tmp_path / "home" / "twotask-1"
    assert _files(dest) == [
        "left/checkpoints/step1.txt",
        "left/model.txt",
        "right/checkpoints/step1.txt",
        "right/model.txt",
    ]
    assert got["files"] == 4 == events[-1]["downloaded_count"]
    assert (dest / "left" / "model.txt").read_text() == "left\n"
    assert (dest / "right" / "model.txt").read_text() == "right\n"

    # A fresh state dir numbers from 1 again: the old ~/twotask-1 is kept and the new run gets its own folder.
    (dest / "left" / "model.txt").write_text("mine, edited\n")
    shutil.rmtree(tmp_path / "state")
    again = json_lines(run(tmp_path, "run", "--spec", str(spec), "--yes", "--json").stdout)
    second = next(e for e in again if e["event"] == "downloaded")
    assert second["workflow_id"] == "twotask-1" and Path(second["dest"]) == tmp_path / "home" / "twotask-1-2"
    assert (dest / "left" / "model.txt").read_text() == "mine, edited\n"
    assert len(_files(Path(second["dest"]))) == second["files"] == 4


def test_orchestrate_download_refuses_to_overwrite_unless_told(tmp_path: Path) -> None:
    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_TASKS)
    events = json_lines(run(tmp_path, "run", "--spec", str(spec), "--yes", "--json").stdout)
    url = next(u for u in events[-1]["outputs"] if u.endswith("left/model.txt"))
    out = tmp_path / "out"
    first = run(tmp_path, "download", url, str(out), "--json")
    assert first.returncode == 0 and _files(out) == ["model.txt"]
    (out / "model.txt").write_text("keep me\n")
    second = run(tmp_path, "download", url, str(out))
    assert second.returncode == 2 and "would be overwritten" in second.stderr
    assert (out / "model.txt").read_text() == "keep me\n"
    third = run(tmp_path, "download", url, str(out), "--overwrite")
    assert third.returncode == 0 and (out / "model.txt").read_text() == "left\n"


def test_workflow_ids_are_never_reused_in_a_state_dir(tmp_path: Path) -> None:
    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_TASKS.replace("twotask", "idtest"))
    ids = []
    for _ in range(2):
        res = run(tmp_path, "submit", str(spec), "--json")
        ids.append(json_lines(res.stdout)[0]["workflow_id"])
    end = time.monotonic() + 60  # let both finish: their supervisors write into the folders until then
    for wid in ids:
        until_status(tmp_path, wid, timeout=max(0.0, end - time.monotonic()))
    for d in (tmp_path / "state").rglob("idtest-2"):  # even when the newest run's folders are gone
        if d.is_dir():
            shutil.rmtree(d)
    res = run(tmp_path, "submit", str(spec), "--json")
    ids.append(json_lines(res.stdout)[0]["workflow_id"])
    assert ids == ["idtest-1", "idtest-2", "idtest-3"]


def test_a_download_never_writes_through_a_symlink_placed_in_the_destination(tmp_path: Path) -> None:
    """A link named like the outputs (``~/<workflow-id>``, ``DEST/<task>``) pointing elsewhere: before, the files
    were written through it into the other folder; now the default folder skips the link and an explicit DEST
    refuses, naming the link, with nothing written."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "home").mkdir(exist_ok=True)
    (tmp_path / "home" / "twotask-1").symlink_to(elsewhere)
    spec = tmp_path / "two.yaml"
    spec.write_text(TWO_TASKS)
    events = json_lines(run(tmp_path, "run", "--spec", str(spec), "--yes", "--json").stdout)
    got = next(e for e in events if e["event"] == "downloaded")
    assert Path(got["dest"]) == tmp_path / "home" / "twotask-1-2" and len(_files(Path(got["dest"]))) == 4
    assert list(elsewhere.iterdir()) == []

    url = next(u for u in events[-1]["outputs"] if u.endswith("left/model.txt"))
    out = tmp_path / "out"
    out.mkdir()
    (out / "left").symlink_to(elsewhere)
    for extra in ([], ["--overwrite"]):
        res = run(tmp_path, "download", url.rsplit("/", 1)[0], str(out), *extra)
        assert res.returncode == 2, res.stdout + res.stderr
        assert f"{out / 'left'} is a symbolic link" in res.stderr and "nothing was written" in res.stderr
        assert list(elsewhere.iterdir()) == [] and "Traceback" not in res.stderr
