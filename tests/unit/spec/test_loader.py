"""The spec loader: every real spec loads, every broken one says file:line field and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.spec import SpecError, load_spec_file, load_spec_text, parse_set_values, spec_diff
from runshepherd.spec.model import format_duration, format_size, parse_duration, parse_size
from runshepherd.spec.tokens import TokenError, substitute_tokens

HELLO = """\
workflow:
  name: hello
  resources:
    default:
      cpu: 1
      memory: 1Gi
  tasks:
  - name: hello
    image: ubuntu:24.04
    command: ["echo"]
    args: ["hi", 3]
"""


DATA = Path(__file__).resolve().parents[2] / "data"
COOKBOOK = DATA / "osmo_cookbook"  # four of OSMO's own cookbook specs, vendored (see its README)
EVALS = DATA / "osmo_evals"  # the OSMO skill's eval suite, vendored (see its README)


def test_the_four_cookbook_examples_load() -> None:
    examples = {p.stem: p.read_text() for p in sorted(COOKBOOK.glob("*.yaml"))}
    assert len(examples) == 4
    loaded = {}
    for key, text in examples.items():
        try:
            loaded[key] = load_spec_text(text, source=f"{key}.yaml")
        except SpecError as exc:
            # Examples A and B need `--set storage_url=…` exactly as their READMEs say.
            assert "storage_url" in str(exc) and "--set storage_url=" in str(exc)
            loaded[key] = load_spec_text(text, source=f"{key}.yaml", set_values={"storage_url": "s3://b/p"})
    names = sorted(d.name for d in loaded.values())
    assert names == ["hello-osmo", "serial-tasks", "train-multi-gpu", "train-single-gpu"]
    multi = next(d for d in loaded.values() if d.name == "train-multi-gpu")
    group = multi.workflow.task_groups()[0]
    assert [t.name for t in group.tasks if t.lead] == ["master"]
    assert "{{host:master}}" in multi.rendered_text  # special tokens survive Jinja
    serial = next(d for d in loaded.values() if d.name == "serial-tasks")
    assert serial.workflow.group_dependencies() == {"task1-group": set(), "task2-group": {"task1-group"}}
    single = next(d for d in loaded.values() if d.name == "train-single-gpu")
    assert "s3://b/p/my-trained-model/{{workflow_id}}/" in single.rendered_text


def test_every_eval_yaml_loads_or_explains_itself() -> None:
    files = sorted((EVALS / "files").rglob("*.yaml"))
    assert len(files) >= 8
    outcomes = {}
    for f in files:
        try:
            outcomes[f.name] = load_spec_file(f).name
        except SpecError as exc:
            for p in exc.problems:
                assert p.source == f.name and p.line is not None and p.message, str(p)
            outcomes[f.name] = str(exc)
    assert outcomes["workflow.yaml"] == "hello-world"
    assert outcomes["oversized.yaml"] == "oversized"
    assert "default-values:` (line 34) is indented under `workflow:`" in outcomes["jinja_workflow.yaml"]
    assert outcomes["jinja_workflow.yaml"].startswith("jinja_workflow.yaml:9:")
    assert "write the URL directly" in outcomes["workflow_spec_private_image.yaml"]


def test_jinja_values_and_set_override(tmp_path: Path) -> None:
    spec = tmp_path / "t.yaml"
    spec.write_text(
        "workflow:\n  name: t\n  tasks:\n  - name: a\n    image: i\n    command: [python]\n"
        "    args: [--epochs, '{{ epochs }}', --out, '{{output}}']\n"
        "default-values:\n  epochs: 3\n"
    )
    assert load_spec_file(spec).workflow.tasks[0].args == ["--epochs", "3", "--out", "{{output}}"]
    doc = load_spec_file(spec, set_values=parse_set_values(["epochs=7"]))
    assert doc.workflow.tasks[0].args[1] == "7"
    assert doc.values == {"epochs": 7}
    assert "default-values" in doc.template_text and "{{ epochs }}" in doc.template_text


@pytest.mark.parametrize(
    ("mutation", "expected"),
    [
        (
            ("memory: 1Gi", "memory: 10GB"),
            'm.yaml:6 workflow.resources.default.memory: "10GB" is not a size — use Gi or Mi',
        ),
        (("cpu: 1", "cpu: lots"), "m.yaml:5 workflow.resources.default.cpu:"),
        (('command: ["echo"]', "command: echo hi"), "m.yaml:10 workflow.tasks[0].command: must be a list"),
        (
            ("image: ubuntu:24.04", "imag: ubuntu:24.04"),
            "m.yaml:9 workflow.tasks[0].imag: unknown field — did you mean `image`?",
        ),
        (
            ("  name: hello\n  resources", "  name: 9lives\n  resources"),
            "m.yaml:2 workflow.name: '9lives' is not a valid name",
        ),
        (
            ("  tasks:", "  timeout:\n    exec_timeout: 10h5m\n  tasks:"),
            'm.yaml:8 workflow.timeout.exec_timeout: "10h5m" is not a duration',
        ),
        (  # validated before: the task then failed to start and was diagnosed as preempted by the platform
            ('args: ["hi", 3]', 'args: ["hi", 3]\n    environment:\n      "A=B": "1"'),
            "m.yaml:13 workflow.tasks[0].environment: 'A=B' is not an environment variable name",
        ),
        (('args: ["hi", 3]', 'args: ["hi\\0", 3]'), "m.yaml:11 workflow.tasks[0].args: holds a NUL character"),
    ],
)
def test_bad_fields_name_file_line_field_and_fix(tmp_path: Path, mutation: tuple[str, str], expected: str) -> None:
    spec = tmp_path / "m.yaml"
    spec.write_text(HELLO.replace(*mutation))
    with pytest.raises(SpecError) as err:
        load_spec_file(spec)
    assert expected in str(err.value)


def test_structure_errors_are_plain() -> None:
    both = HELLO + "  groups: []\n"
    with pytest.raises(SpecError, match="exactly one of `tasks:` or `groups:`"):
        load_spec_text(both)
    with pytest.raises(SpecError, match="unknown task 'nope'"):
        load_spec_text(HELLO + "    inputs:\n    - task: nope\n")
    with pytest.raises(SpecError, match=r"<spec>:\d+: YAML syntax error"):
        load_spec_text(HELLO + "    environment: {A: 1\n")
    with pytest.raises(SpecError, match="file not found"):
        load_spec_file("/nonexistent/train.yaml")
    with pytest.raises(SpecError, match="empty"):
        load_spec_text("   \n")


def test_scalars_are_coerced_to_strings_like_a_person_expects() -> None:
    doc = load_spec_text(HELLO + "    environment:\n      EPOCHS: 3\n      DEBUG: true\n")
    task = doc.workflow.tasks[0]
    assert task.args == ["hi", "3"]
    assert task.environment == {"EPOCHS": "3", "DEBUG": "true"}


def test_outputs_typo_is_kept_and_warned() -> None:
    text = HELLO.replace('args: ["hi", 3]', 'args: ["{{outputs}}/model.npz"]')
    doc = load_spec_text(text)
    assert doc.workflow.tasks[0].args == ["{{outputs}}/model.npz"]
    assert any("did you mean {{output}}" in w for w in doc.warnings)


def test_sizes_durations_roundtrip() -> None:
    assert parse_size("512Mi") == 512 * 1024**2
    assert format_size(parse_size("8Gi") * 2) == "16Gi"
    assert parse_duration("30m") == 1800 and format_duration(7200) == "2h"
    with pytest.raises(ValueError):
        parse_size("10GB")


def test_substitute_tokens() -> None:
    text = "cp {{input:0}}/a {{ output }}/b # {{workflow_id}} {{host:master}}"
    out = substitute_tokens(text, output="/o", inputs=["/i"], workflow_id="w-1", hosts={"master": "127.0.0.1"})
    assert out == "cp /i/a /o/b # w-1 127.0.0.1"
    with pytest.raises(TokenError, match="input 1"):
        substitute_tokens("{{input:1}}", output="/o", inputs=["/i"], workflow_id="w")


def test_diff_shows_the_change() -> None:
    new = HELLO.replace("memory: 1Gi", "memory: 2Gi")
    d = spec_diff(HELLO, new, "train.yaml")
    assert "-      memory: 1Gi" in d and "+      memory: 2Gi" in d and d.startswith("--- a/train.yaml")


def test_largest_request_and_total_gpus_are_computed_once_for_every_caller() -> None:
    from runshepherd.spec import load_spec_text

    wf = load_spec_text(
        """\
workflow:
  name: two
  resources:
    default: {cpu: 2, memory: 4Gi, gpu: 1}
    big: {cpu: 1, memory: 16Gi, gpu: 2, storage: 10Gi}
  tasks:
  - {name: a, image: x, command: [true]}
  - {name: b, image: x, command: [true], resource: big}
"""
    ).workflow
    need = wf.largest_request()
    assert (need.cpu, need.gpu, need.memory_gi, need.storage_gi) == (2.0, 2, 16.0, 10.0)  # per field, not one task
    assert wf.total_gpus() == 3


def test_a_set_value_the_spec_never_reads_is_refused_not_ignored() -> None:
    plain = (
        "workflow:\n  name: w\n  tasks:\n  - name: t\n    image: python\n    command: [python, -m, x, --epochs, '3']\n"
    )
    with pytest.raises(SpecError) as exc:
        load_spec_text(plain, source="plain.yaml", set_values={"epochs": 5})  # was: ran with 3, silently
    assert "--set epochs" in str(exc.value) and "default-values" in str(exc.value)
    templated = "default-values:\n  epochs: 3\n" + plain.replace("'3'", "'{{ epochs }}'")
    with pytest.raises(SpecError, match="--set epoch:"):
        load_spec_text(templated, source="t.yaml", set_values={"epoch": 5})  # a typo of the key
    assert "'5'" in load_spec_text(templated, set_values={"epochs": 5}).rendered_text
    no_default = plain.replace("'3'", "'{{ epochs }}'")  # a variable with no default is given by --set (OSMO)
    assert "'7'" in load_spec_text(no_default, set_values={"epochs": 7}).rendered_text


def test_a_localpath_outside_the_specs_folder_is_warned_about(tmp_path: Path) -> None:
    """A shared spec with `localpath: ~/.ssh/id_rsa`-style files would ship them into the job: the plan says so."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text("print(1)\n")
    (tmp_path / "id_test").write_text("private\n")
    spec = project / "job.yaml"
    spec.write_text(
        "workflow:\n  name: lp\n  tasks:\n  - name: t\n    image: x\n    command: [sh, /tmp/a]\n    files:\n"
        "    - path: /tmp/a\n      localpath: train.py\n    - path: /tmp/b\n      localpath: ../id_test\n"
    )
    warnings = load_spec_file(spec).warnings
    assert any("localpath '../id_test' is outside the spec's folder" in w for w in warnings), warnings
    assert not any("'train.py'" in w for w in warnings)  # a file beside the spec is what localpath is for


TYPED = """\
workflow:
  name: typed
  resources:
    default: {cpu: 1, memory: 1Gi}
  tasks:
  - name: t
    image: ubuntu:24.04
    command: [echo]
    args: ["{{ lr }}", "{{ epochs }}", "{{ name }}", "{% if fp16 %}fp16{% else %}fp32{% endif %}", "{{ dims }}"]
default-values:
  lr: 0.05
  epochs: 2
  name: run
  fp16: true
  dims: [1, 2]
"""


@pytest.mark.parametrize(
    ("pair", "expected"),
    [
        (
            "lr=abc",
            "typed.yaml:11 default-values.lr: --set lr expects a number like 0.05 (the type of its default), "
            "got 'abc' — pass e.g. --set lr=0.05",
        ),
        ("lr=nan", "--set lr expects a finite number like 0.05 (the type of its default), got 'nan'"),
        ("lr=1e999", "--set lr expects a finite number like 0.05 (the type of its default), got '1e999'"),
        ("epochs=2.5", "typed.yaml:12 default-values.epochs: --set epochs expects a whole number like 2"),
        ("epochs=two", "got 'two'"),
        ("fp16=maybe", "--set fp16 expects true or false like true"),
        ("dims=3", "--set dims expects a list like [1, 2]"),
    ],
)
def test_a_set_value_of_the_wrong_type_for_its_default_is_bad_input(pair: str, expected: str) -> None:
    """`--set lr=abc` for `lr: 0.05` was accepted and the run failed at run time; now it is exit 2 at load."""
    with pytest.raises(SpecError) as err:
        load_spec_text(TYPED, source="typed.yaml", set_values=parse_set_values([pair]))
    assert expected in str(err.value) and err.value.exit_code == 2


def test_set_values_of_the_right_type_are_taken_and_a_boolean_word_is_a_boolean() -> None:
    pairs = ["lr=1e-3", "epochs=5", "name=7", "fp16=false", "dims=[3, 4]"]
    doc = load_spec_text(TYPED, source="typed.yaml", set_values=parse_set_values(pairs))
    args = doc.workflow.tasks[0].args
    assert args == ["0.001", "5", "7", "fp32", "[3, 4]"], args  # "false" no longer reads as a truthy string
    assert load_spec_text(TYPED, source="typed.yaml", set_values={"lr": 1}).workflow.tasks[0].args[0] == "1"
