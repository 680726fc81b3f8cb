"""Sweep points: the cartesian product, repeats with distinct seeds, bad input, concrete point specs, and a
50-point sweep whose per-point session input and result stay the same size as a 2-point one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runshepherd.errors import UsageError
from runshepherd.sweep.points import check_keys, expand, label, parse_sweeps, point_spec, spec_keys
from runshepherd.sweep.results import best_point, metrics_of, table_markdown

SPEC = (Path(__file__).resolve().parents[3] / "examples" / "sweep-lr.yaml").read_text()


def test_cartesian_product_and_repeats() -> None:
    sweeps = parse_sweeps(["lr=1e-3,3e-4", "batch_size=32,64,128"])
    assert sweeps == {"lr": [0.001, 0.0003], "batch_size": [32, 64, 128]}
    points = expand(sweeps)
    assert len(points) == 6 and points[0] == {"lr": 0.001, "batch_size": 32}
    seeds = expand({"lr": [0.1]}, 3, seed_key="seed")
    assert [p["seed"] for p in seeds] == [0, 1, 2] and all(p["lr"] == 0.1 for p in seeds)
    assert label(seeds[1]) == "lr=0.1 seed=1"


@pytest.mark.parametrize("bad", [["lr"], ["lr="], ["lr=1,,2"], ["=1"], ["lr=1", "lr=2"]])
def test_bad_sweeps_are_usage_errors(bad: list[str]) -> None:
    with pytest.raises(UsageError):
        parse_sweeps(bad)


def test_unknown_key_names_the_spec_keys() -> None:
    with pytest.raises(UsageError, match="its keys: lr, epochs, seed"):
        check_keys({"momentum": [0.9]}, spec_keys(SPEC, "sweep-lr.yaml"), "sweep-lr.yaml")


def test_point_spec_is_concrete_and_keeps_special_tokens() -> None:
    text = point_spec(SPEC, "sweep-lr.yaml", {"lr": 1.0})
    assert '--lr, "1.0"' in text and "{{output}}" in text and "default-values" not in text


def test_fifty_points_stay_bounded() -> None:
    """Each point is its own session: what a point carries does not grow with the number of points."""
    small, big = expand({"lr": [0.1, 0.2]}), expand({"lr": [i / 100 for i in range(1, 51)]})
    assert len(big) == 50

    def first_input(i: int, values: dict) -> int:  # what driver._run_point hands the point's session
        return len(
            json.dumps(
                {
                    "request": f"sweep abcd1234 point #{i}: {label(values)}",
                    "spec_path": "/s/p.yaml",
                    "sweep_point": {"sweep": "abcd1234", "index": i, "values": values},
                }
            )
        )

    assert max(first_input(i, v) for i, v in enumerate(big, 1)) < 2 * max(
        first_input(i, v) for i, v in enumerate(small, 1)
    )
    log = [f"epoch 1 step {s} loss={1 / (s + 1):.4f} acc=0.9 eval_loss=0.3 eval_acc=0.8" for s in range(5000)]
    m = metrics_of(iter(log))
    assert m["loss"]["best"] == pytest.approx(1 / 2000, rel=1e-2)  # only the first 2000 lines are read: bounded
    assert len(json.dumps(m)) < 1000
    results = [
        {
            "index": i,
            "point": label(v),
            "status": "COMPLETED",
            "metrics": m,
            "workflow_id": f"w-{i}",
            "attempts": 1,
            "duration": "1s",
        }
        for i, v in enumerate(big, 1)
    ]
    assert best_point(results)["metric"] == "eval_accuracy"
    assert len(table_markdown(results, best_point(results)).splitlines()) < 60


@pytest.mark.parametrize(
    ("said", "sweeps", "repeat"),
    [
        ("sweep lr over 1e-3, 3e-4, 1e-4", ["lr=1e-3,3e-4,1e-4"], 1),
        ("run this with 3 seeds", [], 3),
        ("try learning_rate in 0.1 and 0.01", ["lr=0.1,0.01"], 1),
        ("sweep batch_size over 32, 64 and 128 with 2 seeds", ["batch_size=32,64,128"], 2),
        # read so the sweep's type check names them; before, the chat answered this with its menu
        ("sweep lr over nan, 0.1 with F.yaml", ["lr=nan,0.1"], 1),
        ("try lr in inf or 0.1", ["lr=inf,0.1"], 1),
    ],
)
def test_sweeps_said_in_a_sentence(said: str, sweeps: list[str], repeat: int) -> None:
    from runshepherd.sweep.request import sweep_from_request

    got = sweep_from_request(said, ["lr", "batch_size", "seed"])
    assert got is not None and got.sweeps == sweeps and got.repeat == repeat
    assert sweep_from_request("train a small classifier for 3 epochs") is None


def test_a_swept_value_of_the_wrong_type_is_bad_input_before_any_point() -> None:
    """`--sweep lr=0.1,abc`: the 'abc' point used to be submitted and fail at run time."""
    from runshepherd.spec import SpecError

    with pytest.raises(SpecError) as err:
        check_keys(parse_sweeps(["lr=0.1,abc"]), spec_keys(SPEC, "sweep-lr.yaml"), "sweep-lr.yaml", SPEC)
    assert "sweep-lr.yaml:21 default-values.lr: --sweep lr expects a number like 0.05" in str(err.value)
    assert "got 'abc'" in str(err.value) and "--sweep lr=0.05" in str(err.value)
    check_keys(parse_sweeps(["lr=0.1,1e-3", "epochs=1,3"]), spec_keys(SPEC, "sweep-lr.yaml"), "sweep-lr.yaml", SPEC)


@pytest.mark.parametrize(
    ("item", "said"),
    [
        (
            "lr=0.1,0.1",
            "--sweep lr: '0.1' is given twice, so the sweep would run it once; list each value once "
            "(--sweep lr=0.1), or add --repeat N",
        ),
        ("lr=0.1,2e-1,0.20", "'0.20' (the same value as '2e-1') is given twice"),
        ("fp16=true,on", "'on' (the same value as 'true') is given twice"),
    ],
)
def test_a_value_given_twice_is_bad_input_naming_it(item: str, said: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_sweeps([item])
    assert said in str(err.value)


def test_values_equal_in_python_but_of_different_types_are_not_repeats() -> None:
    assert parse_sweeps(["x=1,true,1.5,a"]) == {"x": [1, True, 1.5, "a"]}


def test_a_repeat_never_replaces_the_seeds_a_sweep_names() -> None:
    """`--sweep seed=1,2 --repeat 2` planned seed=0,1,0,1: the seeds given were gone and two pairs were the same run."""
    with pytest.raises(UsageError, match=r"--repeat 2 sets seed itself \(0\.\.1\), so it cannot also be swept"):
        expand({"seed": [1, 2]}, 2, seed_key="seed")
    assert expand({"lr": [0.1]}, 2, seed_key="seed") == [{"lr": 0.1, "seed": 0}, {"lr": 0.1, "seed": 1}]
    assert expand({"seed": [1, 2]}, 1, seed_key="seed") == [{"seed": 1}, {"seed": 2}]
