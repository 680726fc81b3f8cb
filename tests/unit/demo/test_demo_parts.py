"""The trainer's pieces that users meet directly: data files, batch sizing, checkpoints, flag precedence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from runshepherd.demo.checkpoint import EpochMetrics, latest_checkpoint, save_checkpoint
from runshepherd.demo.config import parse_config
from runshepherd.demo.data import batch_indices, load_dataset
from runshepherd.demo.memory import MIB
from runshepherd.demo.model import activation_bytes, init_params


def test_csv_with_or_without_header_loads_the_same_data(tmp_path: Path) -> None:
    rows = "0.5,1.5,0\n-1.0,2.0,1\n3.0,0.0,2\n"
    (tmp_path / "plain.csv").write_text(rows)
    (tmp_path / "header.csv").write_text("f1,f2,label\n" + rows)
    plain, header = load_dataset(tmp_path / "plain.csv"), load_dataset(tmp_path / "header.csv")
    np.testing.assert_array_equal(plain.x, header.x)
    assert plain.y.tolist() == header.y.tolist() == [0, 1, 2]
    assert (plain.features, plain.classes) == (2, 3)


def test_unsupported_data_file_names_the_accepted_formats(tmp_path: Path) -> None:
    (tmp_path / "data.parquet").write_bytes(b"PAR1")
    with pytest.raises(ValueError, match=r"expected \.npz \(arrays x, y\) or \.csv"):
        load_dataset(tmp_path / "data.parquet")


def test_documented_batch_memory_figure_holds() -> None:
    assert activation_bytes(1, features=16, hidden=64, classes=4) == 1776
    assert 330 < activation_bytes(200_000, 16, 64, 4) / MIB < 345  # "--batch-size 200000 needs ~340 MiB"


def test_a_batch_may_exceed_the_dataset_and_then_repeats_samples() -> None:
    batches = batch_indices(n=10, batch_size=25, steps=2, rng=np.random.default_rng(0))
    assert [len(b) for b in batches] == [25, 25]
    assert set(np.concatenate(batches).tolist()) == set(range(10))


def test_latest_checkpoint_is_the_highest_epoch(tmp_path: Path) -> None:
    assert latest_checkpoint(tmp_path) is None
    params = init_params(3, 4, 2, np.random.default_rng(0))
    history = [EpochMetrics(epoch=1, loss=1.0, acc=0.5, eval_loss=1.0, eval_acc=0.5)]
    for epoch in (2, 10, 9):
        save_checkpoint(tmp_path, epoch, params, history)
    (tmp_path / "checkpoints" / "notes.txt").write_text("not a checkpoint")
    found = latest_checkpoint(tmp_path)
    assert found is not None and found.name == "epoch_010.npz"


def test_output_dir_flag_beats_env_which_beats_default() -> None:
    assert parse_config(["--output-dir", "/a"], env={"OUTPUT_DIR": "/b"}).output_dir == Path("/a")
    assert parse_config([], env={"OUTPUT_DIR": "/b"}).output_dir == Path("/b")
    assert parse_config([], env={}).output_dir == Path("./output")
