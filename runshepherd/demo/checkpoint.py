"""Files the demo trainer writes: per-epoch checkpoints, the final model and a metrics summary.

Layout under the output dir: ``checkpoints/epoch_001.npz`` …, ``model.npz``, ``metrics.json``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pydantic import BaseModel

from runshepherd.demo.data import Standardizer
from runshepherd.demo.model import Params

CHECKPOINT_DIR = "checkpoints"
MODEL_FILE = "model.npz"
METRICS_FILE = "metrics.json"
_CHECKPOINT_RE = re.compile(r"^epoch_(\d+)\.npz$")


class EpochMetrics(BaseModel):
    epoch: int
    loss: float
    acc: float
    eval_loss: float
    eval_acc: float


class Metrics(BaseModel):
    """What ``metrics.json`` holds; the last epoch's numbers are repeated at the top for easy reading."""

    epochs: int
    steps: int
    final_loss: float
    final_acc: float
    eval_loss: float
    eval_acc: float
    lr: float
    batch_size: int
    history: list[EpochMetrics]


@dataclass(frozen=True)
class Checkpoint:
    path: Path
    epoch: int
    params: Params
    history: list[EpochMetrics]


def checkpoint_path(output_dir: Path, epoch: int) -> Path:
    return output_dir / CHECKPOINT_DIR / f"epoch_{epoch:03d}.npz"


def save_checkpoint(output_dir: Path, epoch: int, params: Params, history: list[EpochMetrics]) -> Path:
    path = checkpoint_path(output_dir, epoch)
    path.parent.mkdir(parents=True, exist_ok=True)
    history_json = json.dumps([item.model_dump() for item in history])
    # numpy's stub types **arrays as if a key could be `allow_pickle`; ours are parameter names.
    np.savez(path, epoch=np.int64(epoch), history=np.array(history_json), **params.as_arrays())  # type: ignore[arg-type]
    return path


def latest_checkpoint(output_dir: Path) -> Path | None:
    """The checkpoint with the highest epoch number, or ``None`` when there is none."""
    folder = output_dir / CHECKPOINT_DIR
    if not folder.is_dir():
        return None
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := _CHECKPOINT_RE.match(p.name))]
    return max(found)[1] if found else None


def load_checkpoint(path: Path) -> Checkpoint:
    with np.load(path) as archive:
        params = Params(w1=archive["w1"], b1=archive["b1"], w2=archive["w2"], b2=archive["b2"])
        history = [EpochMetrics.model_validate(item) for item in json.loads(str(archive["history"]))]
        return Checkpoint(path=path, epoch=int(archive["epoch"]), params=params, history=history)


def save_model(output_dir: Path, params: Params, standardizer: Standardizer) -> Path:
    """Weights plus the input standardisation, so the file alone is enough to run the model."""
    path = output_dir / MODEL_FILE
    # numpy's stub types **arrays as if a key could be `allow_pickle`; ours are parameter names.
    np.savez(path, mean=standardizer.mean, std=standardizer.std, **params.as_arrays())  # type: ignore[arg-type]
    return path


def write_metrics(output_dir: Path, metrics: Metrics) -> Path:
    path = output_dir / METRICS_FILE
    path.write_text(metrics.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path
