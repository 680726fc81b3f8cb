"""A sweep's fix question is asked once for every point that failed the same way, not once per point."""

from __future__ import annotations

import threading

from runshepherd.sweep.questions import OncePerDiagnosis

KEY = ("resubmit", "gpu_oom")


def _ask_together(answer: str | None) -> tuple[list[list[tuple[int, str]]], dict[int, str | None]]:
    q = OncePerDiagnosis(window=30)  # long: it must end because every running point is waiting, not by time
    for _ in range(3):
        q.started()
    asked: list[list[tuple[int, str]]] = []
    got: dict[int, str | None] = {}
    first_in = threading.Event()

    def prompt(group: list[tuple[int, str]]) -> str | None:
        asked.append(list(group))
        return answer

    def point(i: int) -> None:
        if i == 1:
            first_in.set()
        else:
            first_in.wait()
        got[i] = q.ask(KEY, (i, f"bs={i}"), prompt)[0]
        q.finished()

    threads = [threading.Thread(target=point, args=(i,)) for i in (1, 2)]
    for t in threads:
        t.start()
    q.finished()  # the third point completed: nobody else can fail now
    for t in threads:
        t.join(timeout=10)
    assert not any(t.is_alive() for t in threads)
    return asked, got


def test_two_points_failing_the_same_way_get_one_question_and_one_answer() -> None:
    asked, got = _ask_together("yes")
    assert len(asked) == 1 and sorted(asked[0]) == [(1, "bs=1"), (2, "bs=2")]  # ONE question naming both
    assert got == {1: "yes", 2: "yes"}


def test_no_answer_pauses_every_point_of_the_question_and_a_later_one_asks_again() -> None:
    asked, got = _ask_together(None)
    assert len(asked) == 1 and got == {1: None, 2: None}
    q = OncePerDiagnosis(window=0)
    q.started()
    assert q.ask(KEY, (3, "bs=3"), lambda g: None) == (None, [(3, "bs=3")])
    assert q.answered(KEY) is None  # nothing remembered: the next point with this diagnosis is asked


def test_a_later_point_with_the_same_diagnosis_reuses_the_answer_without_asking() -> None:
    q = OncePerDiagnosis(window=0)
    q.started()
    q.started()
    assert q.ask(KEY, (1, "a"), lambda g: "yes")[0] == "yes"
    assert q.answered(KEY) == "yes"
    assert q.ask(KEY, (2, "b"), lambda g: (_ for _ in ()).throw(AssertionError("asked twice"))) == ("yes", [])
    assert q.answered(("resubmit", "host_oom")) is None  # another diagnosis is its own question
