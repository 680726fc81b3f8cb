"""`app submit NAME:VERSION` with a version that is not a number is exit 2 saying the shape — before: an
"internal error: ValueError: invalid literal for int()" for `NAME:abc` and `NAME:1:2`."""

from __future__ import annotations

from pathlib import Path

import pytest

from runshepherd.apps.registry import AppError, AppRegistry


@pytest.mark.parametrize("ver", ["abc", "1:2", "-1", " 1", "v1"])
def test_a_version_that_is_not_a_number_is_said_with_the_latest(tmp_path: Path, ver: str) -> None:
    reg = AppRegistry(tmp_path)
    reg.save("trainer", "Trains.", "workflow: {}\n")
    with pytest.raises(AppError, match=r"the version after ':' is a number, e\.g\. trainer:1 \(latest is 1\)"):
        reg.spec(f"trainer:{ver}")
    assert reg.spec("trainer:1") == "workflow: {}\n"
