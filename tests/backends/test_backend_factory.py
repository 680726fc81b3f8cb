"""`make_backend`: every configured backend is built, so an import failure is reported as what it is."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import runshepherd.backends as backends
from runshepherd.backends.local import LocalBackend
from runshepherd.config import load_settings
from runshepherd.errors import NotImplementedYet


def test_local_backend_is_made_with_the_configured_state_dir(tmp_path: Path) -> None:
    settings = load_settings(None, environ={}, flags={"backend": "local", "state_dir": str(tmp_path / "st")})
    be = backends.make_backend(settings)
    assert isinstance(be, LocalBackend)
    assert be.state_dir == (tmp_path / "st").resolve()


def test_a_broken_backend_import_surfaces_as_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A backend module that cannot import a dependency must say which one, not claim it is 'not built yet'."""
    (tmp_path / "rs_broken_backend_probe.py").write_text("import rs_dependency_that_is_not_installed\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(backends._BACKENDS, "slurm", ("rs_broken_backend_probe", "SlurmBackend"))
    monkeypatch.delitem(sys.modules, "rs_broken_backend_probe", raising=False)
    settings = load_settings(None, environ={}, flags={"backend": "slurm", "state_dir": str(tmp_path / "st")})
    with pytest.raises(ModuleNotFoundError) as info:
        backends.make_backend(settings)
    assert not isinstance(info.value, NotImplementedYet)
    assert info.value.name == "rs_dependency_that_is_not_installed"
