"""A download into a folder nothing can be written in (a read-only mount, /proc, /sys) is one line, exit 2,
naming the folder and why. Before: `download URL /proc/self` was "internal error: FileNotFoundError", and
/sys/kernel/x told the person to "point --state-dir at a folder you own"."""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path

import pytest

from runshepherd.downloads import fetch
from runshepherd.errors import UsageError


class _NeverCalled:
    def download(self, url: str, dest: Path) -> None:
        raise AssertionError("nothing is fetched when nothing can be written")


def test_a_folder_that_cannot_be_written_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def read_only(*args: object, **kwargs: object) -> str:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(tempfile, "mkdtemp", read_only)
    with pytest.raises(UsageError) as err:
        fetch(_NeverCalled(), ["file:///store/wf-1/train/model.npz"], tmp_path / "out")
    assert str(err.value) == (
        f"cannot write in {tmp_path.resolve()} (Read-only file system); nothing was written — choose a folder you "
        "can write to as DEST"
    )
    assert err.value.exit_code == 2 and not (tmp_path / "out").exists()
