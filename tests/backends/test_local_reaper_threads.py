"""The local backend's supervisor reaper is shared by every thread of one process: a sweep's points submit and
query at once. Two points reaping together both saw the same exited supervisor and the second `list.remove` raised
ValueError; that point stopped "on an error" before its diagnosis and the sweep asked nothing (CI, stop 47)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

import runshepherd.backends.local.backend as local


class _Exited:
    """A supervisor that has exited; `poll` takes a moment, as a real wait on a busy machine does."""

    def poll(self) -> int:
        time.sleep(0.02)
        return 0


class _Running:
    def poll(self) -> None:
        return None


def test_points_reaping_at_once_never_fail_and_keep_the_running_supervisors(monkeypatch: pytest.MonkeyPatch) -> None:
    running = _Running()
    children: list[Any] = [_Exited(), running, _Exited()]
    monkeypatch.setattr(local, "_CHILDREN", children)
    start = threading.Barrier(8)
    errors: list[BaseException] = []

    def point() -> None:
        start.wait()
        try:
            local._reap_children()
        except BaseException as exc:  # noqa: BLE001 - the assertion below names it
            errors.append(exc)

    threads = [threading.Thread(target=point) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert local._CHILDREN == [running]
