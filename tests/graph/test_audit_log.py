"""Every side effect of a session leaves one audit line: when, session, workflow, what, and who approved it."""

from __future__ import annotations

from pathlib import Path

from graph_helpers import Session, make_deps
from test_session_graph import HELLO

from runshepherd.audit import read


def _spec(tmp_path: Path) -> str:
    p = tmp_path / "spec.yaml"
    p.write_text(HELLO)
    return str(p)


def test_each_side_effect_is_audited_with_the_person_as_approver(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, session_id="a1"), thread="a1")
    out = s.run(
        {"request": "say hello", "spec_path": _spec(tmp_path)},
        answers={"submit": "yes", "download": "yes", "save_app": "yes"},
    )
    wid = out["workflow_ids"][0]
    lines = read(tmp_path / "state")
    assert [(e["what"], e["approved_by"], e["workflow"], e["session"]) for e in lines] == [
        ("submit", "person", wid, "a1"),
        ("download", "person", wid, "a1"),
        ("app create", "person", wid, "a1"),
    ]
    assert all(e["time"] for e in lines) and lines[1]["files"] == len(out["downloaded"])


def test_yes_is_recorded_as_the_approver(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True, session_id="a2"), thread="a2")
    s.run({"request": "say hello", "spec_path": _spec(tmp_path)})
    assert [(e["what"], e["approved_by"]) for e in read(tmp_path / "state")] == [
        ("submit", "--yes"),
        ("download", "--yes"),
    ]
