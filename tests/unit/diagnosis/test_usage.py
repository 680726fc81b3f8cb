"""A program that refuses its command line: diagnosed from the usage error, fixed by dropping unknown options."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.fixes import propose_fix

LOG = """2026/11/30 04:33:40 [train][osmo] Running command: python train.py --epochs 4 --model X
2026/11/30 04:33:40 [train] usage: train.py [-h] [--epochs EPOCHS] [--lr LR]
2026/11/30 04:33:40 [train] train.py: error: unrecognized arguments: --model X
2026/11/30 04:33:40 [train][osmo] Task exited with code 2
"""
SPEC = """workflow:
  name: x
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, /tmp/train.py]
    args: [--epochs, "4", --model, X]
"""


def test_usage_errors_are_diagnosed_from_the_usage_line() -> None:
    d = diagnose_log_text(LOG)
    assert (d.label, d.origin, d.fix.kind) == ("validation_error", "config", "fix_code")
    assert d.evidence == ["2026/11/30 04:33:40 [train] train.py: error: unrecognized arguments: --model X"]
    missing = diagnose_log_text(
        "usage: t.py [-h] --data DATA\nt.py: error: the following arguments are required: --data"
    )
    assert missing.label == "validation_error"


def test_the_fix_removes_only_the_unknown_options() -> None:
    fix = propose_fix(diagnose_log_text(LOG), SPEC)
    assert fix.patch is not None
    assert '-    args: [--epochs, "4", --model, X]' in fix.patch and '+    args: [--epochs, "4"]' in fix.patch
    block = SPEC.replace(
        '    args: [--epochs, "4", --model, X]', '    args:\n    - --epochs\n    - "4"\n    - --model\n    - X'
    )
    patch = propose_fix(diagnose_log_text(LOG), block).patch or ""
    assert "-    - --model" in patch and "-    - X" in patch and "-    - --epochs" not in patch
