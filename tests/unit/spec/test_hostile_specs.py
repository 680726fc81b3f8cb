"""Hostile or clumsy specs cost little and say which limit they hit: aliases, nesting, loops, size, tasks, secrets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runshepherd.spec import SpecError, load_spec_file, load_spec_text

TASK = """\
workflow:
  name: w
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [bash, -c]
    args: [{arg}]
"""


def alias_bomb(levels: int = 9) -> str:
    rows = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    rows += [f"a{i}: &a{i} [{','.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(rows) + "\n" + TASK.format(arg=f"*a{levels - 1}")


def test_an_alias_bomb_is_refused_naming_the_limit() -> None:
    text = alias_bomb()
    assert len(text) < 1024
    with pytest.raises(SpecError, match=r"aliases .* expand this document to more than 200,000 values"):
        load_spec_text(text, source="bomb.yaml")


def test_ordinary_anchors_still_work() -> None:
    two = "  - name: u\n    image: ubuntu:24.04\n    command: [echo]\n    environment: *env\n"
    text = (
        TASK.format(arg='"hi"').replace("    args:", "    lead: true\n    environment: &env {A: '1'}\n    args:") + two
    )
    assert [t.environment for t in load_spec_text(text).model.workflow.all_tasks()] == [{"A": "1"}] * 2


def test_deep_nesting_is_refused_with_its_line() -> None:
    text = TASK.format(arg="[" * 5000 + "]" * 5000)
    with pytest.raises(SpecError, match=r":7: YAML is nested more than 64 levels deep"):
        load_spec_text(text, source="deep.yaml")


def test_nested_template_loops_stop_at_the_loop_budget() -> None:
    text = TASK.format(arg='"{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}"')
    with pytest.raises(SpecError, match=r"deep.yaml:7: template loops ran more than 100,000 iterations"):
        load_spec_text(text, source="deep.yaml")


def test_template_repetition_is_bounded() -> None:
    with pytest.raises(SpecError, match="repeats a value"):
        load_spec_text(TASK.format(arg="\"{{ 'x' * 10000000000 }}\""))
    with pytest.raises(SpecError, match="over 4096 bits"):
        load_spec_text(TASK.format(arg='"{{ 10 ** 100000000 }}"'))


@pytest.mark.parametrize(
    "expr",
    [
        "'x'|center(10000000000)",
        "'a'|indent(99999999999)",
        "'%09999999999d' % 1",
        "'{:>9999999999}'.format(1)",
        "'{a:>9999999999}'.format_map({'a': 1})",
    ],
)
def test_filters_and_formats_cannot_ask_for_gigabytes(expr: str) -> None:
    with pytest.raises(SpecError, match="budget|wide"):
        load_spec_text(TASK.format(arg='"{{ ' + expr.replace('"', "") + ' }}"'))


def test_ordinary_filters_and_formats_still_render() -> None:
    arg = "\"{{ 'x'|center(5) }}|{{ '%3d' % 7 }}|{{ '{:>3}'.format(1) }}|{{ [1, 2]|join(',') }}\""
    assert "  x  |  7|  1|1,2" in load_spec_text(TASK.format(arg=arg)).rendered_text


def test_template_loops_that_fit_still_render() -> None:
    text = TASK.format(arg='"{% for i in range(3) %}{{ i }}{% endfor %}"')
    assert "012" in load_spec_text(text).rendered_text


def test_a_spec_over_one_megabyte_is_refused_before_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(TASK.format(arg='"hi"') + "# " + "x" * 1_100_000 + "\n")
    with pytest.raises(SpecError, match=r"big.yaml: the spec is 1,100,\d+ bytes; the limit is 1,000,000 bytes"):
        load_spec_file(big)


def test_more_than_a_thousand_tasks_is_refused_naming_the_limit() -> None:
    tasks = "".join(
        f"    - name: t{i}\n      image: u\n      command: [echo]\n      lead: {i == 0}\n" for i in range(1001)
    )
    text = "workflow:\n  name: many\n  groups:\n  - name: g\n    tasks:\n" + tasks
    with pytest.raises(SpecError, match="has 1,001 tasks; the limit is 1,000 tasks"):
        load_spec_text(text)


def test_ten_thousand_tasks_are_refused_before_the_yaml_tree_is_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count comes from libyaml's events: the pure-Python node tree (seconds for 10,000 tasks) is never built."""
    import yaml

    from runshepherd.spec import loader

    if not yaml.__with_libyaml__:
        pytest.skip("PyYAML without libyaml: the count is checked after the full read")

    def full_read(text: str) -> None:
        raise AssertionError("the full YAML read ran before the task count was checked")

    monkeypatch.setattr(loader, "load_yaml", full_read)
    many = "".join(f"    - name: t{i}\n      image: u\n      command: [echo]\n" for i in range(10_000))
    with pytest.raises(SpecError, match="has 10,000 tasks; the limit is 1,000 tasks"):
        load_spec_text("workflow:\n  name: many\n  groups:\n  - name: g\n    tasks:\n" + many)


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("workflow:\n  tasks:\n  - {name: a, args: [1, 2]}\n  - name: b\n    x: {tasks: [1, 2, 3]}\n", 2),
        ("workflow:\n  groups:\n  - name: g\n    tasks: [{name: c}, {name: d}]\n  - tasks: [{name: e}]\n", 3),
        ("other:\n  tasks: [1, 2, 3]\nworkflow: {name: w}\n", 0),
        ("workflow:\n  tasks: [\n", None),  # malformed: the full read names the line
        ("a: 1\n---\nb: 2\n", None),
    ],
)
def test_the_task_prescan_counts_only_workflow_tasks(text: str, count: int | None) -> None:
    import yaml

    from runshepherd.spec.limits import prescan_task_count

    if not yaml.__with_libyaml__:
        pytest.skip("PyYAML without libyaml")
    assert prescan_task_count(text) == count


def test_tasks_behind_an_alias_are_still_counted_after_the_full_read() -> None:
    rows = "".join(f"  - &t{i} {{name: t{i}, image: u, command: [echo]}}\n" for i in range(600))
    text = "pool:\n" + rows + "workflow:\n  name: w\n  groups:\n  - name: a\n    tasks: &all\n"
    text += "".join(f"    - *t{i}\n" for i in range(600)) + "  - name: b\n    tasks: *all\n"
    with pytest.raises(SpecError, match="has 1,200 tasks"):
        load_spec_text(text)


def test_infinite_cpu_is_rejected_at_validation() -> None:
    text = "workflow:\n  name: w\n  resources:\n    default: {cpu: .inf}\n" + TASK.split("\n", 2)[2]
    with pytest.raises(SpecError, match=r":4 workflow.resources.default.cpu: .*finite"):
        load_spec_text(text, source="inf.yaml")


TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"


def test_a_literal_secret_in_the_spec_is_refused_by_line_and_field_never_echoed() -> None:
    """Before: a warning, and the spec (secret included) went on into the checkpoint and the backend's records."""
    text = TASK.format(arg='"hi"') + f"    environment:\n      HF_TOKEN: {TOKEN}\n"
    with pytest.raises(SpecError) as err:
        load_spec_text(text, source="leaky.yaml")
    msg = str(err.value)
    assert msg.startswith(
        "leaky.yaml:9 workflow.tasks[0].environment.HF_TOKEN value: holds a literal secret (hf_token)"
    )
    assert "export HF_TOKEN" in msg and "orchestrate credential set" in msg and TOKEN not in msg


@pytest.mark.parametrize(
    ("extra", "where"),
    [
        ("    # my token " + TOKEN + "\n", "leaky.yaml:8: holds a literal secret in a comment (hf_token)"),
        ("    environment: {DB_PASSWORD: 'password: s3cr3tValue99'}\n", "leaky.yaml:8 workflow.tasks[0].environment"),
        ("    environment: {AWS_ACCESS_KEY_ID: AKIAIOSFODNN7EXAMPLE}\n", "(aws_key)"),
    ],
)
def test_every_kind_of_literal_secret_is_refused(extra: str, where: str) -> None:
    with pytest.raises(SpecError, match=re.escape(where)):
        load_spec_text(TASK.format(arg='"hi"') + extra, source="leaky.yaml")


def test_a_secret_given_with_set_is_refused_naming_the_option_not_the_value() -> None:
    text = "default-values:\n  tok: none\n" + TASK.format(arg='"{{ tok }}"')
    with pytest.raises(SpecError, match=r"--set tok: is a secret \(hf_token\)") as err:
        load_spec_text(text, source="s.yaml", set_values={"tok": TOKEN})
    assert TOKEN not in str(err.value)


def test_a_placeholder_for_a_password_is_not_a_secret() -> None:
    text = "default-values:\n  pw: ''\n" + TASK.format(arg='"hi"') + '    environment: {DB_PASSWORD: "{{ pw }}"}\n'
    assert load_spec_text(text).model.workflow.tasks[0].environment == {"DB_PASSWORD": ""}


def test_a_spec_the_scheduler_already_holds_is_read_with_a_warning() -> None:
    doc = load_spec_text(TASK.format(arg=f'"{TOKEN}"'), source="wf", secrets="warn")
    assert [w for w in doc.warnings if "literal secret" in w] and TOKEN not in " ".join(doc.warnings)


def test_a_5000_character_name_is_refused_naming_the_limit() -> None:
    text = TASK.replace("name: w", "name: " + "w" * 5000)
    with pytest.raises(SpecError, match=r":2 workflow.name: .*5,000 characters is too long — at most 100"):
        load_spec_text(text, source="long.yaml")


def test_a_spec_whose_size_is_unknown_is_read_only_up_to_the_limit(tmp_path: Path) -> None:
    """A pipe (or /dev/zero) reports size 0: reading it whole took 6.7 GB in 30 s; now it stops past the limit."""
    import os
    import threading

    fifo = tmp_path / "endless.yaml"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write() -> None:
        try:
            with fifo.open("wb") as fh:
                while not stop.is_set():
                    fh.write(b"x" * 65536)
        except BrokenPipeError:  # the reader stopped, as it should
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        with pytest.raises(SpecError, match=r"endless.yaml: holds more than 1,000,000 bytes, the limit for a spec"):
            load_spec_file(fifo)
    finally:
        stop.set()
        writer.join(timeout=5)
