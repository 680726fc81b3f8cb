"""A config says what the person wrote. YAML reads a bare `yes`/`no` as a boolean, so `approvals: submit: yes`
(or RUNSHEPHERD_APPROVALS__SUBMIT=yes) was refused with "Input should be 'ask', 'yes' or 'no' (got True)". And a
setting that does not exist was shown with its value: `smtp: password: hunter2` printed the password, after
the word "Extra" had been redacted instead ("[REDACTED:password] inputs are not permitted (got 'hunter2')")."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.cli.main import main
from runshepherd.config import load_settings
from runshepherd.errors import ConfigError


def _empty(tmp_path: Path) -> Path:
    (tmp_path / "empty.yaml").write_text("{}\n")
    return tmp_path / "empty.yaml"


def test_yes_and_no_unquoted_in_a_config_file_are_the_words(tmp_path: Path) -> None:
    cfg = tmp_path / "c.yaml"
    cfg.write_text("approvals:\n  submit: yes\n  download: no\n  save_app: off\n")
    approvals = load_settings(cfg, environ={}).approvals
    assert (approvals.submit, approvals.download, approvals.save_app, approvals.resubmit) == ("yes", "no", "no", "ask")


@pytest.mark.parametrize(("value", "expected"), [("yes", "yes"), ("no", "no"), ("ask", "ask")])
def test_yes_and_no_in_an_environment_variable_are_the_words(tmp_path: Path, value: str, expected: str) -> None:
    settings = load_settings(_empty(tmp_path), environ={"RUNSHEPHERD_APPROVALS__SUBMIT": value})
    assert settings.approvals.submit == expected


def test_a_word_that_is_not_a_choice_is_still_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="'ask', 'yes' or 'no'"):
        load_settings(_empty(tmp_path), environ={"RUNSHEPHERD_APPROVALS__SUBMIT": "maybe"})


def test_a_setting_that_does_not_exist_is_named_and_its_value_never_shown(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = here
    cfg = tmp_path / "c.yaml"
    cfg.write_text("smtp:\n  password: hunter2\n")
    assert main(["list", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err
    assert "hunter2" not in err and "REDACTED" not in err
    assert "there is no setting 'smtp.password'" in err and "password_env" in err
