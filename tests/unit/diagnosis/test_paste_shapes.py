"""benchmarks/paste_shapes.py counts a paste's shapes by the reader's own definitions (paste.py, errorblock.py)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SHAPES = Path(__file__).resolve().parents[3] / "benchmarks" / "paste_shapes.py"


def _shapes(text: str) -> set[str]:
    spec = importlib.util.spec_from_file_location("paste_shapes", SHAPES)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.shapes(text)  # type: ignore[no-any-return]


def test_a_person_s_paste_shows_its_command_sentence_and_fence() -> None:
    text = (
        "I get this error when I start training:\n"
        "```\n"
        "(venv) me@box:~/proj$ python train.py\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "ValueError: bad\n"
        "```\n"
    )
    assert _shapes(text) == {"prose", "command", "markdown"}


def test_a_programs_own_lines_are_no_paste_shape() -> None:
    # docker BuildKit's step line, a trainer's banner and a warning's wrapped sentence are the program's, as the
    # reader reads them: no markdown quote, no emphasis, no person's prose
    text = (
        " > [1/7] FROM nvcr.io/nvidia/pytorch:23.05-py3\n"
        "***** train metrics *****\n"
        "Please update your GPU driver by downloading and installing a new\n"
        "version from the URL: http://www.nvidia.com/Download/index.aspx\n"
    )
    assert _shapes(text) == set()
