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


def test_the_documented_osmo_options_are_accepted(tmp_path: Path) -> None:
    text = (
        "backends:\n  osmo:\n    executable: osmo\n    pool: p\n    capture_timeout: 3\n    retries: 2\n"
        "    datasets: true\n    labels: false\n"
    )
    be = backends.make_backend(_settings(tmp_path, text, "osmo"))
    assert be.name == "osmo"
