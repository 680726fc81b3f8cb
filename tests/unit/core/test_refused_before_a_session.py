"""What `orchestrate run` refuses is refused the same way where no terminal is left to say it on later:
`run --detach` (before the background process starts) and MCP `start_run` (before a session id is returned).

Before: `run "train…" --pool nope --detach` printed "runs in the background", then `attach` said "ended without a
result"; `run "drain gpu-node-7" --detach` did the same with an empty log; MCP `start_run` planned all three
(pool nope, "drain gpu-node-7", "cancel tiny-1") and asked to submit or to run the demo instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.context import CliContext
from runshepherd.cli.main import main
from runshepherd.errors import UsageError
from runshepherd.nodes.common import refusal

CASES = [
    (["train a small classifier", "--pool", "nope"], "no pool 'nope' on the local backend"),
    (["drain gpu-node-7"], "outside what RunShepherd does"),
    (["cancel tiny-1"], "use: orchestrate cancel tiny-1"),
    (["train a small classifier", "--set", "epochs=2"], "--set fills a spec's default-values"),
]


@pytest.fixture
def state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path / "state"


@pytest.mark.parametrize(("args", "said"), CASES)
def test_run_detach_refuses_before_anything_runs_in_the_background(
    state: Path, args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", *args, "--detach"]) == 2
    out = capsys.readouterr()
    assert said in out.err and "runs in the background" not in out.out
    assert not (state / "detached").exists()  # no background session was started


@pytest.mark.parametrize(("args", "said"), CASES)
def test_mcp_start_run_refuses_it_and_no_session_exists(state: Path, args: list[str], said: str) -> None:
    from runshepherd.mcpserver.sessions import Sessions

    request, *rest = args
    options = dict(zip(rest[::2], rest[1::2], strict=True))
    ctx = CliContext.create(config=None, state_dir=state, backend="local")
    with pytest.raises(UsageError, match=said.replace("'", ".")):
        Sessions(ctx).start(
            request,
            pool=options.get("--pool"),
            set_values=[options["--set"]] if "--set" in options else None,
        )
    assert not list(state.glob("sessions.sqlite*"))


def test_a_refused_answer_is_echoed_redacted_and_cut() -> None:
    token = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    assert token not in refusal(f"  {token} ", ["yes", "no"]) and "[REDACTED" in refusal(token, ["yes", "no"])
    long = refusal("y" * 50_000, ["yes", "no"])
    assert len(long) < 200 and long.endswith("answer one of: yes, no") and "…" in long


@pytest.mark.parametrize(
    ("path", "said"),
    [("/dev/zero", "holds more than 1,000,000 bytes"), ("adir", "is a folder"), ("nope.yaml", "file not found")],
)
def test_mcp_validate_says_what_is_wrong_with_the_path(state: Path, path: str, said: str) -> None:
    """Before: every one of them was "spec file not found" (/dev/zero exists; a folder exists)."""
    from runshepherd.mcpserver import tools as t
    from runshepherd.spec import SpecError

    (state.parent / "adir").mkdir()
    ctx = CliContext.create(config=None, state_dir=state, backend="local")
    with pytest.raises(SpecError, match=said):
        t.validate(ctx, path)
