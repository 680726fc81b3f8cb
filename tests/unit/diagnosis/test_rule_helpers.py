"""rules/base.py's `raised` and `line_above`: the one loop of the rules that read an exception and the frame just
above it (missing_dependency's installed-module and model-type rules, validation_error's setting-never-given)."""

from __future__ import annotations

import re

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.rules.base import Context, line_above, raised

KEY = re.compile(r"^(?:\w+\.)*KeyError: '(?P<key>[\w\-]+)'\s*$")

LOG = """\
Traceback (most recent call last):
  File "train.py", line 3, in <module>
    cfg = AutoConfig.from_pretrained(path)
  File "/venv/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", line 710, in __getitem__
    raise KeyError(key)
KeyError: 'qwen2'
"""


def test_raised_yields_the_exceptions_the_pattern_matches_with_the_frame_that_raised_them() -> None:
    ctx = Context.build(log_lines=LOG.splitlines())
    ((idx, line, m),) = list(raised(ctx, KEY))
    assert line.text.strip() == "KeyError: 'qwen2'" and m.group("key") == "qwen2"
    frame = line_above(ctx, idx)
    assert frame is not None and "configuration_auto.py" in frame.text  # the deepest frame, not train.py's
    assert line_above(ctx, idx, within=1) is None  # only the source line is within one line above
    assert not list(raised(ctx, re.compile(r"ValueError")))


def test_the_rules_built_on_them_still_name_the_model_type() -> None:
    d = diagnose_log_text(LOG)
    assert d.label == "missing_dependency" and "qwen2" in d.explanation
