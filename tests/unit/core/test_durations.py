from runshepherd.durations import format_elapsed


def test_one_format_for_every_length_of_time() -> None:
    assert [format_elapsed(s) for s in (0.4, 42, 185, 7620, 90061)] == ["0s", "42s", "3m05s", "2h07m", "25h01m"]
