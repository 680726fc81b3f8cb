"""`explain WF` says what the run ran. Before, a run submitted with `--set epochs=7 --set lr=0.3` was explained
from its template alone: "runs `… --epochs 3 --lr 0.5 …`", "parameters: epochs=3, lr=0.5" (CLI, chat and MCP)."""

from __future__ import annotations

from pathlib import Path

from runshepherd.reports.explain import explain_workflow
from runshepherd.spec.loader import load_spec_file

TEMPLATED = Path(__file__).parents[3] / "examples" / "templated.yaml"


class _Stored:
    """A backend's two views of one workflow: the template as submitted and the spec it was rendered to."""

    def __init__(self, values: dict[str, object]) -> None:
        doc = load_spec_file(TEMPLATED, set_values=values)
        self.template, self.rendered = doc.template_text, doc.rendered_text

    def spec(self, workflow_id: str, *, template: bool = False) -> str:
        return self.template if template else self.rendered

    def pools(self) -> list[object]:
        return []


def test_a_run_submitted_with_other_values_is_explained_with_them() -> None:
    got = explain_workflow(_Stored({"epochs": 7, "lr": 0.3}), "train-templated-5")
    assert "--epochs 7 --lr 0.3" in got.tasks[0].runs and "--epochs 3" not in got.text
    assert "parameters: " not in got.text and got.parameters_are_template_defaults
    assert "template defaults: epochs=3, lr=0.5" in got.text and "its command above is what ran" in got.text


def test_a_run_with_the_defaults_is_explained_as_before() -> None:
    got = explain_workflow(_Stored({}), "train-templated-1")
    assert "--epochs 3 --lr 0.5" in got.tasks[0].runs
    assert "parameters: epochs=3, lr=0.5" in got.text and not got.parameters_are_template_defaults
