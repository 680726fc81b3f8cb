"""benchmarks/label_ceiling.py groups failures by the form of their root error: the same error worded the same way
falls in one group whatever names, paths or numbers it carries, and different errors do not."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))

import label_ceiling  # noqa: E402


def test_names_paths_and_numbers_do_not_split_a_form() -> None:
    a = label_ceiling.form("ModuleNotFoundError: No module named 'keras.engine.topology'")
    b = label_ceiling.form('ModuleNotFoundError: No module named "utils"')
    assert a == b == "ModuleNotFoundError: No module named Q"
    c = label_ceiling.form(
        "ImportError: cannot import name 'toimage' from 'scipy.misc' (/usr/lib/python3/dist-packages/scipy/misc/x.py)"
    )
    assert c == "ImportError: cannot import name Q from Q"  # the first six words
    assert label_ceiling.form("RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)") == (
        label_ceiling.form("RuntimeError: mat7 and mat9 shapes cannot be multiplied (40x30 and 2x1)")
    )


def test_different_errors_and_lines_without_one_are_told_apart() -> None:
    assert label_ceiling.form("KeyError: 'lr'") != label_ceiling.form("NameError: name 'lr' is not defined")
    assert label_ceiling.form("epoch 3/10 loss 0.41") is None
