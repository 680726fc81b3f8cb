"""Bad settings are one clear line and exit 2, before any session exists — never an "internal error", never a
`session X (resume with …)` line for a session that was never made.

Before: a state dir that is a file and `--config` naming a folder were internal errors (FileExistsError,
IsADirectoryError); a config with `notify: [ftp://x]` or `expert: llm` printed "session … (resume with: orchestrate
resume …)" and then the error, and `resume` of that id said "no session"."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main

SPEC = str(Path(__file__).parents[3] / "examples" / "train-classifier.yaml")


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("argv", [["list"], ["submit", SPEC], ["sessions"]])
def test_a_state_dir_that_is_a_file_is_named(
    home: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "afile").write_text("x")
    monkeypatch.setenv("RUNSHEPHERD_STATE_DIR", str(home / "afile"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"state dir {home / 'afile'} is a file, not a folder" in err and "internal error" not in err


def test_config_naming_a_folder_is_named(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (home / "cfg").mkdir()
    assert main(["list", "--config", str(home / "cfg")]) == 2
    err = capsys.readouterr().err
    assert "cfg: is a folder — give the config file itself" in err and "internal error" not in err


@pytest.mark.parametrize(
    ("setting", "said"),
    [("notify: [ftp://x]", "notify target 'ftp://x' not understood"), ("expert: llm", "expert 'llm': use")],
)
@pytest.mark.parametrize("detach", [False, True])
def test_a_bad_setting_fails_before_a_session_is_announced(
    home: Path, setting: str, said: str, detach: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    (home / "c.yaml").write_text(setting + "\n")
    argv = ["run", "--spec", SPEC, "--yes", "--config", str(home / "c.yaml"), *(["--detach"] if detach else [])]
    assert main(argv) == 2
    out = capsys.readouterr()
    assert said in out.err
    assert "resume with" not in out.out and "runs in the background" not in out.out
    assert not (home / "state" / "detached").exists()


TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
TEMPLATED = str(Path(__file__).parents[3] / "examples" / "templated.yaml")


def test_an_error_quoting_a_mistyped_secret_is_redacted(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `--set lr=$HF_TOKEN` (the wrong variable) printed "got 'hf_…'" on the terminal (and CI logs)."""
    assert main(["run", "--spec", TEMPLATED, "--set", f"lr={TOKEN}", "--no-input"]) == 2
    err = capsys.readouterr().err
    assert "--set lr expects a number" in err and "[REDACTED:hf_token]" in err and TOKEN not in err


def test_an_mcp_tool_error_is_redacted_too(home: Path) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from runshepherd.cli.context import CliContext
    from runshepherd.mcpserver import tools as t
    from runshepherd.mcpserver.server import _guard

    ctx = CliContext.create(config=None, state_dir=home / "state", backend="local")
    with pytest.raises(ToolError) as err:
        _guard(t.validate, ctx, TEMPLATED, [f"lr={TOKEN}"])
    assert "[REDACTED:hf_token]" in str(err.value) and TOKEN not in str(err.value)


@pytest.mark.parametrize("pattern", ["(a+)+$", r"(\w+\s?)+$", "(?:x*y)+z"])
def test_a_redaction_pattern_with_a_nested_quantifier_is_refused_by_name(
    home: Path, pattern: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: `(a+)+$` was taken, and one near-miss log line ("aaaa…ab") hung every log read in backtracking."""
    (home / "c.yaml").write_text(f"logs:\n  redaction_patterns: ['corp-[0-9]{{6}}', '{pattern}']\n")
    assert main(["list", "--config", str(home / "c.yaml")]) == 2
    err = capsys.readouterr().err
    assert f"{pattern!r} repeats a repeat (a nested quantifier" in err and "internal error" not in err


def test_a_redaction_pattern_without_nested_quantifiers_is_taken(home: Path) -> None:
    (home / "c.yaml").write_text("logs:\n  redaction_patterns: ['corp-[0-9a-f]{12}', '(ab){3}', '(?:sk|pk)_[a-z]+']\n")
    assert main(["list", "--config", str(home / "c.yaml")]) == 0


@pytest.mark.parametrize(
    ("var", "value", "said"),
    [
        # a bad value: the variable, its value, the setting, the problem, what to do (was "configuration: setting
        # 'cadence.short': …", naming no variable)
        (
            "RUNSHEPHERD_CADENCE__SHORT",
            "-1",
            "environment variable RUNSHEPHERD_CADENCE__SHORT='-1': setting 'cadence.short': Input should be greater "
            "than 0 — fix the value or unset RUNSHEPHERD_CADENCE__SHORT",
        ),
        # a variable naming no setting (was "setting 'max_fixes': Extra inputs are not permitted")
        ("RUNSHEPHERD_MAX_FIXES", "5", "RUNSHEPHERD_MAX_FIXES='5': there is no setting 'max_fixes': unset"),
        # a group of settings given one value: its variables are listed
        ("RUNSHEPHERD_FIXES", "5", "'fixes' is a group of settings: set one of them instead (RUNSHEPHERD_FIXES__MAX"),
        # also read as the --backend flag's envvar: still the variable, not '--backend'
        ("RUNSHEPHERD_BACKEND", "k8s", "RUNSHEPHERD_BACKEND='k8s': setting 'backend': Input should be 'local'"),
        ("RUNSHEPHERD_NOTIFY", "ftp://x", "setting 'notify' is a list: give it as YAML or JSON, e.g. RUNSHEPHERD_NOT"),
        # checked at load (were checked later, naming neither the variable nor the setting)
        ("RUNSHEPHERD_EXPERT", "llm", "RUNSHEPHERD_EXPERT='llm': setting 'expert': expert 'llm': use `heuristic`"),
        ("RUNSHEPHERD_NOTIFY", '["ftp://x"]', "setting 'notify': notify target 'ftp://x' not understood — use https"),
    ],
)
def test_a_bad_environment_setting_names_the_variable(
    home: Path, var: str, value: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(var, value)
    assert main(["sessions"]) == 2
    err = capsys.readouterr().err
    assert said in err, err
    assert "internal error" not in err and "Traceback" not in err


def test_the_log_scanner_variable_is_not_a_setting(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RUNSHEPHERD_LOG_SCANNER (logs/scanners.py, read for the whole process) made every command exit 2 with
    "setting 'log_scanner': Extra inputs are not permitted"."""
    monkeypatch.setenv("RUNSHEPHERD_LOG_SCANNER", "numpy")
    assert main(["sessions"]) == 0


def test_a_bad_value_in_the_default_user_file_names_that_file(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = home / ".config" / "runshepherd" / "config.yaml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("cadence: {short: -2}\n")
    assert main(["sessions"]) == 2
    assert f"{cfg}:1: setting 'cadence.short': Input should be greater than 0 (got -2)" in capsys.readouterr().err


def test_a_value_of_the_wrong_type_names_the_file_line_it_is_on(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: `c.yaml: setting 'logs.tail_lines': …` — no line, so a long config had to be searched by hand."""
    cfg = home / "c.yaml"
    cfg.write_text("backends:\n  local: {}\nlogs:\n  tail_lines: lots\n")
    assert main(["list", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert f"{cfg}:4: setting 'logs.tail_lines'" in err and "(got 'lots')" in err


def test_a_bad_list_item_names_its_own_line(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Before: an item of a list was 'configuration: setting …', as if the file had not said it."""
    cfg = home / "c.yaml"
    cfg.write_text("notify:\n  - desktop\n  - 7\n")
    assert main(["list", "--config", str(cfg)]) == 2
    assert f"{cfg}:3: setting 'notify.1': Input should be a valid string (got 7)" in capsys.readouterr().err
