"""A spec whose task inputs form a loop is refused naming the loop in the person's own words: the tasks they wrote
(before: OSMO's implicit `a-group → b-group → a-group`, names that appear nowhere in the spec), and only the loop
(not the task that leads into it)."""

from __future__ import annotations

import pytest

from runshepherd.spec import SpecError, load_spec_text

LOOP = """\
workflow:
  name: loop
  tasks:
  - {name: a, image: x, command: [echo], inputs: [{task: b}]}
  - {name: b, image: x, command: [echo], inputs: [{task: c}]}
  - {name: c, image: x, command: [echo], inputs: [{task: b}]}
"""


def test_a_loop_of_task_inputs_names_the_tasks_of_the_loop() -> None:
    with pytest.raises(SpecError) as err:
        load_spec_text(LOOP, source="loop.yaml")
    said = str(err.value)
    assert "task inputs form a cycle: b → c → b" in said, said
    assert "-group" not in said and "a →" not in said, said
