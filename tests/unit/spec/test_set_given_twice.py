"""`--set epochs=1 --set epochs=2` ran silently with 2: which value the person meant is theirs to say. The same
value twice is harmless and kept."""

from __future__ import annotations

import pytest

from runshepherd.errors import RunShepherdError
from runshepherd.spec import parse_set_values


def test_a_key_set_twice_to_different_values_is_refused_naming_both() -> None:
    with pytest.raises(RunShepherdError, match=r"--set epochs is given twice \(1, then 2\); give it once") as err:
        parse_set_values(["epochs=1", "lr=0.1", "epochs=2"])
    assert err.value.exit_code == 2


def test_the_same_value_twice_is_kept() -> None:
    assert parse_set_values(["epochs=3", "epochs=3", "name=a b"]) == {"epochs": 3, "name": "a b"}
