"""An option a backend never reads is refused naming the closest one. Before, `backends: slurm: partitoin: gpu`
ran every job on the default partition without a word (and `executabel:` for OSMO was ignored the same way)."""

from __future__ import annotations

from pathlib import Path

import pytest

import runshepherd.backends as backends
from runshepherd.config import Settings, load_settings
from runshepherd.errors import ConfigError


def _settings(tmp_path: Path, text: str, backend: str) -> Settings:
    (tmp_path / "c.yaml").write_text(text)
    return load_settings(tmp_path / "c.yaml", environ={}, flags={"backend": backend, "state_dir": str(tmp_path)})


@pytest.mark.parametrize(
    ("text", "backend", "said"),
    [
        (
            "backends:\n  slurm:\n    partitoin: gpu\n",
            "slurm",
            "backends.slurm.partitoin: the slurm backend has no option 'partitoin' — did you mean 'partition'?",
        ),
        ("backends:\n  osmo:\n    executabel: /opt/osmo\n", "osmo", "did you mean 'executable'?"),
    ],
)
def test_a_typo_in_a_backend_option_is_refused(tmp_path: Path, text: str, backend: str, said: str) -> None:
    with pytest.raises(ConfigError) as err:
        backends.make_backend(_settings(tmp_path, text, backend))
    assert said in str(err.value) and err.value.exit_code == 2
    assert str(err.value).startswith(f"{tmp_path / 'c.yaml'}:3: ")  # the file and the line of the key


def test_a_key_the_local_backend_does_not_read_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    """`backends: local: pool: gpu-a` was accepted and every run went to the one local pool without a word."""
    with pytest.raises(ConfigError) as err:
        _settings(tmp_path, "cadence:\n  short: 5\nbackends:\n  local:\n    pool: gpu-a\n", "local")
    assert str(err.value) == (
        f"{tmp_path / 'c.yaml'}:5: backends.local.pool: the local backend has no option 'pool' "
        "(the local backend takes no options: remove it)"
    )
    assert err.value.exit_code == 2


def test_an_unknown_backend_setting_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as err:
        load_settings(environ={"RUNSHEPHERD_BACKENDS__SLURM__PARTITON": "gpu"}, flags={"state_dir": str(tmp_path)})
    assert str(err.value).startswith(
        "environment variable RUNSHEPHERD_BACKENDS__SLURM__PARTITON: backends.slurm.partiton: the slurm backend has "
        "no option 'partiton' — did you mean 'partition'?"
    )


def test_a_backend_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"c.yaml:2: there is no backend 'kubernetes' under 'backends' — use one of"):
        _settings(tmp_path, "backends:\n  kubernetes:\n    namespace: x\n", "local")


def test_the_documented_osmo_options_are_accepted(tmp_path: Path) -> None:
    text = (
        "backends:\n  osmo:\n    executable: osmo\n    pool: p\n    capture_timeout: 3\n    retries: 2\n"
        "    datasets: true\n    labels: false\n"
    )
    be = backends.make_backend(_settings(tmp_path, text, "osmo"))
    assert be.name == "osmo"
