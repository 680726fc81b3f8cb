"""`orchestrate watch` on jobs submitted with plain `sbatch` (a real one-node Slurm): state, diagnosis and the
artifact, with the job's own output file read in place and never written to."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_helpers import env_for, orchestrate_bin

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "backends" / "slurm"))
from slurm_available import slurm_conf_or_skip  # noqa: E402

JOB = """\
#!/bin/sh
#SBATCH --job-name=plainjob
#SBATCH --output={out}
echo "epoch 1 loss 0.5"
sleep 2
echo "Traceback (most recent call last):"
echo '  File "train.py", line 3, in <module>'
echo "ModuleNotFoundError: No module named 'flash_attn'"
exit 1
"""


def _env(tmp: Path) -> dict[str, str]:
    env = env_for(tmp)
    env["SLURM_CONF"] = str(slurm_conf_or_skip())
    return env


def _sbatch(tmp: Path, *args: str) -> str:
    done = subprocess.run(["sbatch", "--parsable", *args], env=_env(tmp), capture_output=True, text=True, check=True)
    return done.stdout.strip().split(";")[0]


def _watch(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*orchestrate_bin(), "watch", *args, "--backend", "slurm", "--cadence", "1", "--json"],
        cwd=tmp,
        env=_env(tmp),
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.slow
def test_watch_a_plain_sbatch_job_reports_its_state_and_diagnosis(tmp_path: Path) -> None:
    out = tmp_path / "plain.out"
    script = tmp_path / "job.sh"
    script.write_text(JOB.format(out=out))
    # Both CPUs taken first, as on a busy cluster: the job pends (Reason=Resources or Priority), then runs and
    # fails. Having waited is not why it failed: the diagnosis must come from its log (this flaked under load).
    _sbatch(tmp_path, "-c", "2", "--output=/dev/null", "--wrap", "sleep 3")
    job = _sbatch(tmp_path, str(script))
    res = _watch(tmp_path, job)
    assert res.returncode == 1, res.stderr  # the watched job failed: exit 1, as README's exit codes say
    seen = [json.loads(line) for line in res.stdout.splitlines()]
    last = seen[-1]
    assert last["workflow_id"] == f"sbatch-{job}" and last["status"] == "FAILED"
    assert last["label"] == "missing_dependency", last
    artifact = Path(last["artifact"]).read_text()
    assert "State: failed" in artifact and "flash_attn" in artifact
    # The job's own output is the user's: read, never appended to.
    assert out.read_text().splitlines()[-1] == "ModuleNotFoundError: No module named 'flash_attn'"
    # Once adopted, the other commands know it too.
    diag = subprocess.run(
        [*orchestrate_bin(), "diagnose", f"sbatch-{job}", "--backend", "slurm", "--json"],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(diag.stdout.splitlines()[0])["label"] == "missing_dependency"
    # The bare job id names the workflow it is followed as (before: "no workflow '4711' … run orchestrate list").
    bare = subprocess.run(
        [*orchestrate_bin(), "diagnose", job, "--backend", "slurm"],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bare.returncode == 2 and f"followed here as workflow sbatch-{job}: use that id" in bare.stderr


@pytest.mark.slow
def test_watch_a_plain_sbatch_array_follows_every_element(tmp_path: Path) -> None:
    """Four elements on a node that runs fewer at once: some start as a pending range, then split."""
    job = _sbatch(
        tmp_path,
        "--array=1-4",
        f"--output={tmp_path}/arr-%A_%a.out",
        "--wrap",
        "sleep 1; echo hello $SLURM_ARRAY_TASK_ID",
    )
    res = _watch(tmp_path, job)
    assert res.returncode == 0, res.stderr
    last = json.loads(res.stdout.splitlines()[-1])
    assert last["status"] == "COMPLETED"
    status = subprocess.run(
        [*orchestrate_bin(), "status", f"sbatch-{job}", "--backend", "slurm", "--json"],
        env=_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=60,
    )
    tasks = json.loads(status.stdout)["tasks"]
    assert sorted(t["name"] for t in tasks) == ["wrap_1", "wrap_2", "wrap_3", "wrap_4"]
    assert all(t["status"] == "COMPLETED" for t in tasks)


@pytest.mark.slow
def test_a_job_with_a_separate_error_file_is_diagnosed_from_it(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/sh\n#SBATCH --job-name=splitjob\n"
        f"#SBATCH --output={tmp_path}/split.out\n#SBATCH --error={tmp_path}/split.err\n"
        'echo "epoch 1 loss 0.5"\n'
        "echo \"ModuleNotFoundError: No module named 'flash_attn'\" >&2\nexit 1\n"
    )
    job = _sbatch(tmp_path, str(script))
    res = _watch(tmp_path, job)
    assert res.returncode == 1, res.stderr  # the watched job failed
    last = json.loads(res.stdout.splitlines()[-1])
    assert last["status"] == "FAILED" and last["label"] == "missing_dependency"


def test_an_id_slurm_does_not_know_is_one_clear_line(tmp_path: Path) -> None:
    res = _watch(tmp_path, "999999")
    assert res.returncode == 2 and "Slurm does not know job 999999" in res.stderr and "Traceback" not in res.stderr


def test_cancel_reads_a_bare_job_id_as_watch_does(tmp_path: Path) -> None:
    """`cancel 104` of a plain sbatch job cancels it, as `watch 104` follows it (was: exit 2, "use sbatch-104")."""
    job = _sbatch(tmp_path, "--output=/dev/null", "--wrap", "sleep 120")
    try:
        res = subprocess.run(
            [*orchestrate_bin(), "cancel", job, "--backend", "slurm", "--yes"],
            cwd=tmp_path,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert res.returncode == 0 and res.stdout.strip() == f"● cancel requested for sbatch-{job}", res
        for _ in range(20):  # scontrol keeps an ended job a while (no accounting storage here)
            shown = subprocess.run(["scontrol", "show", "job", "-o", job], env=_env(tmp_path), capture_output=True)
            if b"JobState=CANCELLED" in shown.stdout:
                break
            time.sleep(0.5)
        assert b"JobState=CANCELLED" in shown.stdout, shown.stdout
    finally:
        subprocess.run(["scancel", job], env=_env(tmp_path), check=False)
