"""Draft shaping: the request's structure, placeholders said as such, and no network fetch in a task script."""

from __future__ import annotations

import pytest

from runshepherd.errors import UsageError
from runshepherd.experts.draft import network_fetches, parse_cues, shape

BASE = """workflow:
  name: prep
  tasks:
  - name: main
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["python prep.py"]
"""


def test_cues_from_a_request_with_real_values() -> None:
    c = parse_cues("process s3://raw/day1/ and write results to s3://clean/day1/ on the gpu-clique topology")
    assert c.inputs == ["s3://raw/day1/"] and c.outputs == ["s3://clean/day1/"]
    assert c.topology_key == "gpu-clique" and c.wants_topology


def test_given_values_are_used_and_nothing_is_a_placeholder() -> None:
    r = shape(BASE, parse_cues("read s3://raw/day1/ and save outputs to s3://clean/day1/"))
    assert "- url: s3://raw/day1/" in r.text and "- url: s3://clean/day1/" in r.text
    assert r.placeholders == [] and "python prep.py" in r.text  # a real command is kept


def test_a_fetch_inside_a_task_is_refused() -> None:
    fetching = BASE.replace("python prep.py", "curl -O https://example.com/data.tar && python prep.py")
    assert network_fetches(__import__("yaml").safe_load(fetching))
    with pytest.raises(UsageError, match="input:0"):
        shape(fetching, parse_cues("prep the data"))


def test_writing_to_a_url_makes_it_an_output() -> None:
    c = parse_cues("a job reading s3://raw/ writing s3://out/ on nvcr.io/nvidia/pytorch:24.08-py3")
    assert c.inputs == ["s3://raw/"] and c.outputs == ["s3://out/"] and c.image == "nvcr.io/nvidia/pytorch:24.08-py3"
