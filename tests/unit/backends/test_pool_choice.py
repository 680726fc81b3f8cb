"""Pool choice on the OSMO skill's pool fixture: type by name (longest match), effective free, fallback, reasons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.backends.osmo.parse import pools_from_json
from runshepherd.backends.pool_choice import choose_pool, parse_auto, pool_gpu_type, requested_gpu_type
from runshepherd.errors import UsageError

POOLS = pools_from_json(
    json.loads(
        (
            Path(__file__).resolve().parents[2]
            / "data"
            / "osmo_evals"
            / "files"
            / "fixtures"
            / "default"
            / "pool_list.json"
        ).read_text()
    )
)


def test_gpu_types_from_pool_names() -> None:
    assert {p.name: pool_gpu_type(p) for p in POOLS} == {
        "default": None,
        "h100-east": "H100",
        "h100-west": "H100",
        "gb200-shared": "GB200",
        "l40s-batch": "L40S",
    }
    assert requested_gpu_type("generate 1000 images using Isaac Sim on H100s") == "H100"
    assert requested_gpu_type("submit to a free pool") is None
    assert parse_auto("auto:h100") == (True, "H100") and parse_auto("auto") == (True, None)
    assert parse_auto("h100-east") == (False, None)
    # `auto:` with no type was taken as `auto` (any pool), unasked; it is a typo: say the shape
    with pytest.raises(UsageError, match=r"pool 'auto: ': name the GPU type after the colon \(auto:H100\)"):
        parse_auto("auto: ")


def test_the_h100_pool_with_room_wins_and_the_full_one_is_named() -> None:
    c = choose_pool(POOLS, "H100", 4)
    assert c.pool == "h100-east" and c.fits
    assert "8 GPUs free now (min of quota free 8, physically free 12)" in c.reason and "h100-west 0 free" in c.reason


def test_none_fits_falls_back_to_the_most_free_and_says_it_is_an_estimate() -> None:
    c = choose_pool(POOLS, "H100", 10)
    assert c.pool == "h100-east" and not c.fits
    assert "no H100 pool has 10 GPUs free" in c.reason and "not a measured wait time" in c.reason
    assert "--priority LOW" in c.reason  # quota 8 free < 10 <= 12 physically free


def test_any_type_and_unknown_type() -> None:
    assert choose_pool(POOLS, None, 1).pool == "l40s-batch"  # 24 effective, the most
    assert choose_pool(POOLS, "GB200", 8).pool == "gb200-shared"
    with pytest.raises(UsageError, match="no ONLINE A100 pool"):
        choose_pool(POOLS, "A100", 1)
