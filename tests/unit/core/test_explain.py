"""`orchestrate explain`: what runs is said as it is — a script copied from disk is not "a 0-line script"."""

from __future__ import annotations

from runshepherd.reports.explain import explain_spec

SPEC = """\
workflow:
  name: train
  tasks:
  - name: train
    image: python:3.11-slim
    command: [python, /tmp/train.py]
    args: ["--epochs", "2"]
    files:
    - path: /tmp/train.py
      {file}
"""


def test_a_script_from_localpath_is_named_not_counted_as_empty() -> None:
    text = explain_spec(SPEC.format(file="localpath: train.py")).text
    assert "0-line" not in text
    assert "the script train.py from the submitter's disk" in text


def test_an_inline_script_is_counted() -> None:
    inline = "contents: |\n        import sys\n        print(sys.argv)\n"
    assert "a 2-line Python script from the spec" in explain_spec(SPEC.format(file=inline)).text
