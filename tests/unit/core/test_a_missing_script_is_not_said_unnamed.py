"""A request that names a script which is not here is never told no script was named. Before: "train gpt2 on
wikitext with train.py" (no train.py) said 'script train.py (not in …)' and then 'model/dataset gpt2, wikitext (no
script was named to train it; … say which script, e.g. 'with train.py')': the very words the person had typed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from runshepherd.cli.main import main


def test_the_model_line_names_the_missing_script(
    here: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["run", "train gpt2 on wikitext with train.py", "--no-input"]) == 3
    out = capsys.readouterr()
    said = " ".join((out.out + out.err).split())
    assert f"missing: script train.py (not in {here})" in said
    assert f"model/dataset gpt2, wikitext (the bundled demo cannot train it — put train.py in {here}" in said
    assert "no script was named" not in said
