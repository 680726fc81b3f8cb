"""Datasets for the demo trainer: seeded Gaussian blobs made in memory, or a user file (.npz / .csv).

No network and no downloads: the default data is generated from the seed, so a run is reproducible anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Labels = NDArray[np.int64]

#: Distance scale between blob centres relative to the unit within-blob noise; high enough that a small MLP
#: reaches >90% accuracy in a few epochs, low enough that the task is not trivial at step 0.
CENTER_SCALE = 0.9


@dataclass(frozen=True)
class Dataset:
    """Features ``x`` (N, F) and integer labels ``y`` (N,) in ``[0, classes)``."""

    x: Array
    y: Labels

    @property
    def features(self) -> int:
        return int(self.x.shape[1])

    @property
    def classes(self) -> int:
        return int(self.y.max()) + 1 if len(self.y) else 0

    def __len__(self) -> int:
        return int(self.x.shape[0])


@dataclass(frozen=True)
class Split:
    train: Dataset
    eval: Dataset


#: Target per-feature std after standardisation. Keeps first-layer activations O(1), which puts the SGD
#: stability edge of the default MLP between lr 10 (converges) and lr 20 (diverges to nan).
INPUT_STD = 0.5


@dataclass(frozen=True)
class Standardizer:
    """Per-feature mean/std from the training split; saved with the model so it can be applied later."""

    mean: Array
    std: Array

    def apply(self, data: Dataset) -> Dataset:
        return Dataset(x=(data.x - self.mean) / self.std * INPUT_STD, y=data.y)


def make_blobs(samples: int, features: int, classes: int, seed: int) -> Dataset:
    """``classes`` Gaussian blobs with unit noise around random centres, shuffled, from ``seed``."""
    rng = np.random.default_rng(seed)
    centers = rng.normal(0.0, CENTER_SCALE, size=(classes, features))
    y = rng.integers(0, classes, size=samples).astype(np.int64)
    x = centers[y] + rng.normal(0.0, 1.0, size=(samples, features))
    return Dataset(x=x, y=y)


def load_dataset(path: Path) -> Dataset:
    """Load ``.npz`` (arrays ``x`` and ``y``) or ``.csv`` (feature columns, label last; optional header).

    The file is opened with :func:`open` first so a missing file raises the ordinary
    ``FileNotFoundError: [Errno 2] No such file or directory: '<path>'``, as real training code does.
    """
    suffix = path.suffix.lower()
    with open(path, "rb") as handle:
        if suffix == ".npz":
            archive = np.load(handle)
            x = np.asarray(archive["x"], dtype=np.float64)
            y = np.asarray(archive["y"], dtype=np.int64)
        elif suffix == ".csv":
            x, y = _parse_csv(handle.read().decode("utf-8"))
        else:
            raise ValueError(f"unsupported data file {str(path)!r}: expected .npz (arrays x, y) or .csv")
    if x.ndim != 2 or y.ndim != 1 or len(x) != len(y):
        raise ValueError(f"{path}: expected x of shape (N, F) and y of shape (N,), got {x.shape} and {y.shape}")
    if len(y) and y.min() < 0:
        raise ValueError(f"{path}: labels must be integers >= 0, found {int(y.min())}")
    return Dataset(x=x, y=y)


def _parse_csv(text: str) -> tuple[Array, Labels]:
    lines = [line for line in text.splitlines() if line.strip()]
    if lines and not _is_numeric_row(lines[0]):
        lines = lines[1:]  # header row
    table = np.array([[float(cell) for cell in line.split(",")] for line in lines], dtype=np.float64)
    if table.ndim != 2 or table.shape[1] < 2:
        raise ValueError("csv needs at least one feature column and a label column")
    return table[:, :-1], table[:, -1].astype(np.int64)


def _is_numeric_row(line: str) -> bool:
    try:
        [float(cell) for cell in line.split(",")]
    except ValueError:
        return False
    return True


def save_npz(data: Dataset, path: Path) -> Path:
    """Write ``data`` in the format :func:`load_dataset` reads (used by the pipeline example and tests)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=data.x, y=data.y)
    return path


def split(data: Dataset, eval_fraction: float, seed: int) -> Split:
    """Shuffle with ``seed`` and hold out ``eval_fraction`` (at least one sample each side when possible)."""
    order = np.random.default_rng(seed + 1).permutation(len(data))
    n_eval = min(max(1, round(len(data) * eval_fraction)), max(len(data) - 1, 0)) if len(data) > 1 else 0
    eval_idx, train_idx = order[:n_eval], order[n_eval:]
    return Split(
        train=Dataset(x=data.x[train_idx], y=data.y[train_idx]),
        eval=Dataset(x=data.x[eval_idx], y=data.y[eval_idx]),
    )


def fit_standardizer(train: Dataset) -> Standardizer:
    std = train.x.std(axis=0)
    return Standardizer(mean=train.x.mean(axis=0), std=np.where(std > 0, std, 1.0))


def batch_indices(n: int, batch_size: int, steps: int, rng: np.random.Generator) -> list[NDArray[np.int64]]:
    """Index batches for one epoch from a shuffled stream that wraps around (sampling with reshuffle).

    A batch may be larger than the dataset — it then repeats samples — so memory scales with ``batch_size``,
    not with the dataset size, like a sampler with replacement.
    """
    needed = steps * batch_size
    repeats = -(-needed // n)
    stream = np.concatenate([rng.permutation(n) for _ in range(repeats)])
    return [stream[i * batch_size : (i + 1) * batch_size] for i in range(steps)]
