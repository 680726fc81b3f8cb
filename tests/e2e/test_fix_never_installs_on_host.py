"""A fix that would install system packages is never applied on a backend that runs tasks on the host: the fixer
is told where tasks run (`runs_on_host`), and there it proposes the install for the person to decide."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import EXAMPLES, run

from runshepherd.backends.base import runs_on_host
from runshepherd.diagnosis import Diagnosis
from runshepherd.diagnosis.fixes import propose_fix

SPEC = (EXAMPLES / "fail-command.yaml").read_text()
MISSING = Diagnosis(
    label="missing_dependency",
    origin="user",
    confidence=0.9,
    evidence=["entry.sh: line 3: torchrun-missing: command not found"],
    explanation="The script calls the program 'torchrun-missing'.",
    task="train",
)


def test_missing_program_on_local_is_proposed_not_installed(tmp_path: Path) -> None:
    res = run(
        tmp_path,
        "run",
        "--spec",
        str(EXAMPLES / "fail-command.yaml"),
        "--yes",
        "--json",
        "--cadence",
        "0.5",
        timeout=120,
    )
    events = [json.loads(line) for line in res.stdout.splitlines() if line.startswith("{")]
    submitted = [e for e in events if e.get("event") == "submitted"]
    assert len(submitted) == 1, res.stdout  # no second submission with an apt-get step
    assert not [e for e in events if e.get("event") == "fix_proposed"], res.stdout
    (question,) = [e for e in events if e.get("event") in ("question", "answered") and e.get("kind") == "no_fix"]
    suggested = question["text"].split("Proposed: ", 1)[1]
    assert suggested.startswith("install the program 'torchrun-missing' on the machine the tasks run on")
    assert "Not applied automatically" in suggested and "image" not in suggested
    (diag,) = [e for e in events if e.get("event") == "diagnosis"]
    assert "image" not in diag["fix"]["description"]


def test_the_fixer_is_told_where_tasks_run() -> None:
    from runshepherd.backends.local.backend import LocalBackend
    from runshepherd.backends.osmo.backend import OsmoBackend
    from runshepherd.backends.slurm.backend import SlurmBackend

    assert runs_on_host(LocalBackend) and runs_on_host(SlurmBackend) and not runs_on_host(OsmoBackend)
    assert runs_on_host(object())  # a backend that does not say is on the host: nothing installs by itself
    host = propose_fix(MISSING, SPEC, on_host=True)
    assert host.patch is None and "Not applied automatically" in host.description
    image = propose_fix(MISSING, SPEC, on_host=False)  # a container image: the seed's automatic step stays
    assert image.patch is not None and "apt-get update && apt-get install -y torchrun-missing" in image.patch


def test_a_python_package_is_still_added_on_the_host() -> None:
    mod = MISSING.model_copy(update={"evidence": ["ModuleNotFoundError: No module named 'einops'"]})
    fix = propose_fix(mod, SPEC, on_host=True)
    assert fix.patch is not None and "pip install --no-cache-dir einops" in fix.patch
