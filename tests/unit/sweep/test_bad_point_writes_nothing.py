"""A sweep value that is a secret, or a point that does not render into a valid spec, is exit 2 before anything is
written to the state dir, naming the flag or the point. Before: each point's spec was written first, then checked —
an `hf_…` token sat in `sweeps/<id>/p1-….yaml` after the refusal, and the error named that internal file
(`p2-job.yaml:10: YAML syntax error`), leaving a sweep folder with no record behind."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

SPEC = """\
workflow:
  name: job
  tasks:
  - name: train
    image: x
    command: [bash, -c]
    args: ["echo step 1/1 using {{ note }}"]
default-values:
  note: nothing
"""
TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123"


@pytest.mark.parametrize(
    ("values", "said"),
    [
        (f"x,{TOKEN}", "--sweep note: value 2 is a secret (hf_token) and would be written into the specs"),
        ('a,b"]', 'job.yaml rendered for point 2 (note=b"]):10: YAML syntax error'),
    ],
)
def test_a_bad_sweep_value_is_refused_before_any_point_is_written(
    here: Path, capsys: pytest.CaptureFixture[str], values: str, said: str
) -> None:
    (here / "job.yaml").write_text(SPEC, encoding="utf-8")
    assert main(["run", "--spec", "job.yaml", "--sweep", f"note={values}", "--no-input"]) == 2
    err = capsys.readouterr().err
    assert said in err and TOKEN not in err, err
    assert not (here / "state" / "sweeps").exists() or not any((here / "state" / "sweeps").iterdir())
    assert not any(TOKEN in p.read_text(errors="replace") for p in (here / "state").rglob("*") if p.is_file())
