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


SECRET_SPEC = """\
default-values:
  token: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789
workflow:
  name: leaky
  tasks:
  - name: t
    image: x
    command: [bash, -c]
    args: ["echo 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'; curl -H \\"Authorization: Bearer abcDEF123456ghiJKL789mno\\" x"]
    environment:
      HF_TOKEN: "{{ token }}"
    outputs:
    - url: s3://user:p4ssw0rd@bucket/out
"""
LITERALS = ("hf_AbCdEfGhIjKl", "wJalrXUtnFEMI", "abcDEF123456ghiJKL789mno", "p4ssw0rd")


def test_a_spec_with_quoted_secrets_is_explained_with_every_value_redacted() -> None:
    """Was: the caller redacted the YAML first, the redaction broke its quoting, and `explain` crashed."""
    result = explain_spec(SECRET_SPEC, workflow_id="leaky-1")
    shown = result.text + result.model_dump_json()
    assert "leaky-1: 1 task(s)" in result.text and "bash -c" in result.text
    assert not [s for s in LITERALS if s in shown], shown
