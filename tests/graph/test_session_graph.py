"""The session graph end to end on the local backend: success, questions, fixes, caps, pending, fan-out."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import pytest
from graph_helpers import EXAMPLES, HELLO, MANY, Session, make_deps, spec_file
from langgraph.checkpoint.memory import InMemorySaver
from quick_examples import quick_example

from runshepherd.graph.routes import after_monitor
from runshepherd.graph.runner import Emitted, Question, SessionRunner
from runshepherd.render.session import done_event


def test_success_path_asks_then_downloads(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path))
    out = s.run(
        {"request": "say hello", "spec_path": spec_file(tmp_path, HELLO)},
        answers={"submit": "yes", "download": "yes", "save_app": "yes"},
    )
    assert out["outcome"] == "COMPLETED"
    assert [q["kind"] for q in s.questions] == ["submit", "download", "save_app"]
    assert s.kinds("planned")[0]["spec_name"] == "hello"
    assert [e["to"] for e in s.kinds("status")][-1] == "COMPLETED"
    downloaded = [Path(p) for p in out["downloaded"]]
    assert any(p.name == "result.txt" and p.read_text() == "done\n" for p in downloaded)
    assert out["app"]["name"] == "hello" and out["app"]["version"] == 1
    assert Path(out["report_path"]).read_text().count("State: succeeded") == 1
    # the state stays small: no raw log lines in the checkpointed values
    assert len(json.dumps(out, default=str)) < 20_000


def test_declining_submit_ends_without_a_workflow(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path))
    out = s.run({"request": "x", "spec_path": spec_file(tmp_path, HELLO)}, answers={"submit": "no"})
    assert out["outcome"] == "CANCELED"
    assert backend.list_workflows() == []


def test_yes_never_asks_and_defaults_skip_the_app(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "say hello", "spec_path": spec_file(tmp_path, HELLO)})
    assert s.questions == []
    assert out["outcome"] == "COMPLETED" and out.get("app") is None and out["downloaded"]
    assert {e["kind"] for e in s.kinds("answered")} == {"submit", "download", "save_app"}


@pytest.mark.slow
def test_oom_is_fixed_by_raising_memory(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "oom", "spec_path": str(EXAMPLES / "fail-oom.yaml")})
    assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
    assert out["fix_attempts"] == 1 and len(out["workflow_ids"]) == 2
    assert s.kinds("diagnosis")[0]["label"] == "host_oom"
    diff = s.kinds("fix")[0]["diff"]
    assert "-" in diff and "512Mi" in diff


@pytest.mark.slow
def test_nan_is_fixed_by_lowering_lr(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    # the nan comes at step 3 whatever the step delay; the fixed run only has to finish
    out = s.run({"request": "nan", "spec_path": str(quick_example(tmp_path, "fail-nan.yaml"))})
    assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
    assert s.kinds("diagnosis")[0]["label"] == "nan_loss"
    assert out["fix_attempts"] == 1


UNFIXABLE_OOM = """\
workflow:
  name: hog
  resources:
    default: {cpu: 1, memory: 64Mi}
  tasks:
  - name: hog
    image: python:3.11-slim
    command: [python, -c]
    args: ["b = bytearray(8 * 1024**3); print('never')"]
"""


@pytest.mark.slow
def test_fix_cap_stops_after_three_attempts(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "hog", "spec_path": spec_file(tmp_path, UNFIXABLE_OOM)})
    assert out["outcome"] == "NEEDS_INPUT"
    assert out["fix_attempts"] == 3
    assert len(backend.list_workflows()) == 4  # the first run and three fixes, never a fifth
    assert "gave up after 3 fix attempts" in out["outcome_reason"]


def test_unfixable_failure_asks_the_person(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path))
    out = s.run(
        {"request": "x", "spec_path": str(EXAMPLES / "fail-missing-input.yaml")},
        answers={"submit": "yes"},
        stop_at_question=False,
    )
    # A missing input has no safe automatic fix: the person is asked, and the default ("stop") is final.
    assert [(q["kind"], q["default"]) for q in s.questions] == [("submit", "yes"), ("no_fix", "stop")]
    assert out["outcome"] == "NEEDS_INPUT" and out["outcome_reason"].startswith("no safe automatic fix")
    assert out["fix_attempts"] == 0 and len(backend.list_workflows()) == 1  # nothing resubmitted
    assert s.kinds("diagnosis")[0]["label"] == "file_not_found"


def test_a_gpu_request_no_node_can_hold_is_never_submitted(saver, backend, tmp_path: Path) -> None:
    """Before: submitted under --yes, then PENDING for ever until the node_fit question canceled it."""
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "gpu", "spec_path": str(EXAMPLES / "fail-gpu.yaml")})
    assert out["outcome"] == "FAILED" and not out.get("workflow_ids") and backend.list_workflows() == []
    assert out["outcome_reason"].startswith("no node in pool local can hold one task: it asks for gpu 2")
    assert "is not submitted — ask for at most what one node has (gpu 0," in out["outcome_reason"]
    assert s.questions == []  # nothing to answer: no answer could make it start


def test_twelve_tasks_fan_out_to_three_readers(saver, backend, tmp_path: Path) -> None:
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True, max_fixes=0))
    s.run({"request": "many", "spec_path": spec_file(tmp_path, MANY)})
    ev = s.kinds("logs_readers")[0]
    assert ev["tasks"] == 12 and ev["readers"] == 3
    cap = [e for e in s.kinds("answered") if e["kind"] == "continue_after_cap"]
    assert cap and ".." not in cap[0]["text"]  # the reason's own full stop is not doubled before "Allow …"


def test_router_is_pure_and_total() -> None:
    assert after_monitor({}) == "monitor"  # type: ignore[typeddict-item]
    assert after_monitor({"last_status": {"status": "RUNNING"}, "needs_pending_explanation": True}) == "explain_pending"  # type: ignore[typeddict-item]
    assert after_monitor({"last_status": {"status": "FAILED"}}) == "collect_tasks"  # type: ignore[typeddict-item]
    # a cancel by the person ends the session: no log reading, no diagnosis, no retry
    assert after_monitor({"last_status": {"status": "FAILED_CANCELED"}}) == "finish"  # type: ignore[typeddict-item]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("example", "label", "changed", "quick"),
    [
        ("fail-timeout.yaml", "timeout", "+    exec_timeout: 8s", False),  # its step delay is what times out
        ("fail-outputs-typo.yaml", "output_missing", '--output-dir, "{{output}}"]', True),
    ],
)
def test_more_fix_rules_end_to_end(
    backend, tmp_path: Path, example: str, label: str, changed: str, quick: bool
) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    s = Session(InMemorySaver(), make_deps(backend, tmp_path, auto_yes=True))
    spec = quick_example(tmp_path, example) if quick else EXAMPLES / example
    out = s.run({"request": label, "spec_path": str(spec)})
    assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
    assert s.kinds("diagnosis")[0]["label"] == label
    assert changed in s.kinds("fix")[0]["diff"]
    assert out["fix_attempts"] == 1 and out["outputs"]


INFRA = """\
workflow:
  name: infra
  resources:
    default: {cpu: 1, memory: 128Mi}
  tasks:
  - name: main
    image: ubuntu:24.04
    command: [bash, -c]
    args: ["echo step 1/1; for i in $(seq 1 1200); do [ -e GO ] && break; sleep 0.1; done; echo ok > {{output}}/ok.txt"]
"""


@pytest.mark.slow
def test_infrastructure_failure_resubmits_unchanged_on_its_own_budget(backend, tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import os
    import signal
    import threading
    import time

    from langgraph.checkpoint.memory import InMemorySaver

    from runshepherd.backends.base import WorkflowNotFound
    from runshepherd.backends.local.store import WorkflowDir

    def kill_first_supervisor() -> None:
        wf = WorkflowDir(backend.state_dir / "workflows" / "infra-1")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if backend.query("infra-1").status.value == "RUNNING":
                    sup = wf.read_supervisor()
                    if sup is not None:
                        os.kill(sup.pid, signal.SIGKILL)
                        (tmp_path / "go").touch()  # the resubmission then finishes at once
                        return
            except WorkflowNotFound:  # not submitted yet
                pass
            time.sleep(0.05)

    killer = threading.Thread(target=kill_first_supervisor, daemon=True)
    killer.start()
    import runshepherd.nodes.diagnose_fix as diagnose_fix

    waits: list[float] = []
    real_pause = diagnose_fix.pause

    def recorded_pause(seconds: float, stopping: Any) -> bool:
        waits.append(seconds)
        return real_pause(seconds, stopping)

    monkeypatch.setattr(diagnose_fix, "pause", recorded_pause)
    deps = make_deps(backend, tmp_path, auto_yes=True)
    deps.settings.fixes.infra_backoff_seconds = 0.25
    s = Session(InMemorySaver(), deps)
    # the task runs until its supervisor has been killed (a fixed `sleep 2` ran again in the resubmission)
    out = s.run({"request": "infra", "spec_path": spec_file(tmp_path, INFRA.replace("GO", str(tmp_path / "go")))})
    killer.join(timeout=1)
    assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
    assert out["infra_retries"] == 1 and out["fix_attempts"] == 0
    assert out["workflow_ids"] == ["infra-1", "infra-2"]
    assert not s.kinds("fix")  # resubmitted unchanged
    assert waits == [0.25]  # the configured backoff before the first infra retry, and only before a retry


def _kilo(n: int) -> str:
    tasks = "".join(
        f"""  - name: t{i}
    image: busybox
    command: [bash, -c]
    args: ["echo task {i} step 1/1; {"echo RuntimeError: shard broken >&2; exit 1" if i % 250 == 3 else "exit 0"}"]
"""
        for i in range(n)
    )
    return f"workflow:\n  name: kilo\n  resources:\n    default: {{cpu: 0.001, memory: 32Mi}}\n  tasks:\n{tasks}"


@pytest.mark.slow
def test_a_thousand_tasks_fan_out_to_two_hundred_readers(backend, tmp_path: Path) -> None:
    from runshepherd.graph.checkpoint import db_path, open_saver

    deps = make_deps(backend, tmp_path, auto_yes=True, max_fixes=0)
    db = db_path(deps.state_dir)
    with open_saver(deps.state_dir) as saver:  # the production checkpointer, pruned by the runner
        s = Session(saver, deps)
        s.runner.max_concurrency = 16
        out = s.run({"request": "kilo", "spec_path": spec_file(tmp_path, _kilo(1000))})
    ev = s.kinds("logs_readers")[0]
    assert ev["tasks"] == 1000 and ev["readers"] == 200
    assert s.kinds("diagnosis")[0]["label"] in ("user_code_error", "unknown")
    assert out["outcome"] == "NEEDS_INPUT"
    rest = {k: v for k, v in out.items() if k != "spec"}  # the spec itself is 1000 tasks long
    assert len(json.dumps(rest, default=str)) < 20_000  # no per-task digests or task lists kept in state
    assert db.stat().st_size < 40 * 1024**2


def test_a_refused_submission_is_diagnosed_not_dropped(saver, backend, tmp_path: Path) -> None:
    spec = HELLO.replace("    command: [bash, -c]", "    privileged: true\n    command: [bash, -c]")
    s = Session(saver, make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "x", "spec_path": spec_file(tmp_path, spec)})
    diag = s.kinds("diagnosis")[0]
    assert diag["label"] == "validation_error" and "privileged" in " ".join(diag["evidence"]).lower()
    assert out["outcome"] == "NEEDS_INPUT" and backend.list_workflows() == []


def _stub_wheel(folder: Path) -> None:
    """A local stand-in for PyPI's tomli-w: the task's `pip install` reads it with no index (no network)."""
    import base64
    import hashlib
    import zipfile

    files = {
        "tomli_w/__init__.py": "import json\n\ndef dumps(d):\n"
        "    return ''.join(f'{k} = {json.dumps(v)}\\n' for k, v in d.items())\n",
        "tomli_w-1.0.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: tomli-w\nVersion: 1.0.0\n",
        "tomli_w-1.0.0.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append("tomli_w-1.0.0.dist-info/RECORD,,")
    files["tomli_w-1.0.0.dist-info/RECORD"] = "\n".join(record) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / "tomli_w-1.0.0-py3-none-any.whl", "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)


@pytest.mark.slow
def test_missing_module_is_fixed_by_an_install_step(backend, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from langgraph.checkpoint.memory import InMemorySaver

    _stub_wheel(tmp_path / "wheels")
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "wheels"))
    s = Session(InMemorySaver(), make_deps(backend, tmp_path, auto_yes=True))
    out = s.run({"request": "module", "spec_path": str(EXAMPLES / "fail-module.yaml")})
    assert s.kinds("diagnosis")[0]["label"] == "missing_dependency"
    assert "pip install" in s.kinds("fix")[0]["diff"]
    assert out["outcome"] == "COMPLETED", out.get("outcome_reason")
    import importlib.util

    assert importlib.util.find_spec("tomli_w") is None  # installed in the task's folder, not in our environment


def _scripted(replies: dict[str, list[str]]) -> Any:
    """An answerer that gives each kind of question its replies in turn (then the question's default)."""

    def answer(q: Question) -> str:
        left = replies.get(q.kind) or []
        return left.pop(0) if left else q.default

    return answer


@pytest.mark.slow
def test_retry_at_the_cap_adds_one_attempt_and_the_count_stays_true(backend, tmp_path: Path) -> None:
    deps = make_deps(backend, tmp_path, max_fixes=1)
    runner = SessionRunner(deps.state_dir, "s1", deps, saver=lambda: nullcontext(InMemorySaver()))
    answer = _scripted({"submit": ["yes"], "resubmit": ["yes", "yes"], "continue_after_cap": ["retry", "stop"]})
    items = list(runner.run({"request": "hog", "spec_path": spec_file(tmp_path, UNFIXABLE_OOM)}, answer=answer))
    out = items[-1].values
    fixes = [e for e in items if isinstance(e, Emitted) and e.event.get("event") == "fix"]
    assert len(fixes) == 2 and len(backend.list_workflows()) == 3  # the first run and two changed resubmissions
    assert out["fix_attempts"] == 2 and out["extra_fixes"] == 1 and out["unchanged_retries"] == 0
    assert out["outcome"] == "NEEDS_INPUT" and out["outcome_reason"].startswith("gave up after 2 fix attempts")


def test_an_unchanged_resubmit_is_not_counted_as_a_fix(saver, backend, tmp_path: Path) -> None:
    deps = make_deps(backend, tmp_path)
    runner = SessionRunner(deps.state_dir, "s1", deps, saver=lambda: nullcontext(saver))
    answer = _scripted({"submit": ["yes"], "no_fix": ["resubmit", "stop"]})
    first = {"request": "x", "spec_path": str(EXAMPLES / "fail-missing-input.yaml")}
    out = list(runner.run(first, answer=answer))[-1].values
    assert len(backend.list_workflows()) == 2  # resubmitted once, unchanged
    assert out["unchanged_retries"] == 1 and out["fix_attempts"] == 0
    assert out["outcome"] == "NEEDS_INPUT" and out["outcome_reason"].startswith("no safe automatic fix")
    assert done_event(out)["unchanged_retries"] == 1 and done_event(out)["fix_attempts"] == 0


LEARNED = """\
workflow:
  name: renderer
  resources:
    default: {cpu: 1, memory: 256Mi}
  tasks:
  - name: train
    image: ubuntu:24.04
    command: [python3, -c]
    args:
    - |
      import sys
      print('Traceback (most recent call last):')
      print('  File "train.py", line 9, in <module>')
      print("TypeError: frob() got an unexpected keyword argument 'gizmo'")
      sys.exit(1)
"""


def test_an_unsure_code_error_is_asked_about_whatever_a_learned_model_reads(
    saver, backend, tmp_path: Path, monkeypatch
) -> None:  # noqa: ANN001
    """No rule names this failure (a bare TypeError): the rules read a code error they are unsure of, with no change
    to the spec they could make. A learned model reading the error line as a family the session would act on alone
    (host memory: double the request and resubmit) changes nothing: the session shows the rules' reading and asks the
    person, with no patch and no resubmission."""
    import runshepherd.diagnosis.learned as learned

    labels = ("healthy", "host_oom", "user_code_error", "gpu_oom", "file_not_found")
    row = tuple(6.0 if lb == "host_oom" else 0.0 for lb in labels)
    tiny = learned.Model(labels=labels, rows={"R:gizmo": row}, intercepts=(0.0,) * len(labels), trained_on={})
    monkeypatch.setattr(learned, "shipped_model", lambda: tiny)
    s = Session(saver, make_deps(backend, tmp_path))
    out = s.run(
        {"request": "renderer", "spec_path": spec_file(tmp_path, LEARNED)},
        answers={"submit": "yes", "no_fix": "stop"},
    )
    assert out["outcome"] == "NEEDS_INPUT"
    assert [q["kind"] for q in s.questions] == ["submit", "no_fix"]
    diag = s.kinds("diagnosis")[0]
    assert diag["label"] == "user_code_error" and diag["confidence"] < 0.8
    assert not s.kinds("fix") and out["fix_attempts"] == 0 and out["workflow_ids"] == ["renderer-1"]
