"""Command-line flags of the demo trainer, validated into one pydantic model."""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

DEFAULT_OUTPUT_DIR = "./output"


class TrainConfig(BaseModel):
    """Everything a run depends on; printed in the start banner so logs are self-describing."""

    model_config = ConfigDict(frozen=True)

    epochs: int = Field(3, ge=1)
    steps_per_epoch: int | None = Field(None, ge=1, description="default: ceil(train samples / batch size)")
    lr: float = Field(0.5, gt=0)
    batch_size: int = Field(64, ge=1)
    hidden: int = Field(64, ge=1)
    samples: int = Field(4800, ge=2)
    features: int = Field(16, ge=1)
    classes: int = Field(4, ge=2)
    eval_fraction: float = Field(0.2, gt=0, lt=1)
    seed: int = 0
    output_dir: Path = Path(DEFAULT_OUTPUT_DIR)
    data: Path | None = None
    step_delay: float = Field(0.02, ge=0)
    log_every: int = Field(10, ge=1)
    memory_mb: int = Field(0, ge=0)
    resume: bool = False

    def steps_for(self, train_samples: int) -> int:
        return self.steps_per_epoch or max(1, math.ceil(train_samples / self.batch_size))


def build_parser() -> argparse.ArgumentParser:
    defaults = TrainConfig()
    p = argparse.ArgumentParser(
        prog="python -m runshepherd.demo.trainer",
        description="Train a small numpy MLP classifier on seeded Gaussian blobs (or --data) and save it.",
    )
    p.add_argument("--epochs", type=int, default=defaults.epochs)
    p.add_argument("--steps-per-epoch", type=int, default=None, help="default: ceil(train samples / batch size)")
    p.add_argument("--lr", type=float, default=defaults.lr, help="SGD learning rate (>= 20 diverges to nan)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=defaults.batch_size,
        help="samples per step; memory per step ~ batch_size * (features + 3*hidden + 3*classes + 2) * 8 bytes "
        "(defaults: 1776 bytes/sample, so 200000 needs ~340 MiB)",
    )
    p.add_argument("--hidden", type=int, default=defaults.hidden, help="hidden layer width")
    p.add_argument("--samples", type=int, default=defaults.samples, help="synthetic dataset size")
    p.add_argument("--features", type=int, default=defaults.features, help="synthetic feature count")
    p.add_argument("--classes", type=int, default=defaults.classes, help="synthetic class count")
    p.add_argument("--eval-fraction", type=float, default=defaults.eval_fraction)
    p.add_argument("--seed", type=int, default=defaults.seed)
    p.add_argument("--output-dir", type=Path, default=None, help=f"default: $OUTPUT_DIR or {DEFAULT_OUTPUT_DIR}")
    p.add_argument("--data", type=Path, default=None, help="optional .npz (arrays x, y) or .csv (label last)")
    p.add_argument("--step-delay", type=float, default=defaults.step_delay, help="seconds to sleep per step")
    p.add_argument("--log-every", type=int, default=defaults.log_every, help="steps between progress lines")
    p.add_argument("--memory-mb", type=int, default=defaults.memory_mb, help="extra MiB to hold for the whole run")
    p.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in the output dir")
    return p


def parse_config(argv: Sequence[str] | None = None, env: dict[str, str] | None = None) -> TrainConfig:
    """Flags win over ``$OUTPUT_DIR``, which wins over ``./output``."""
    parser = build_parser()
    args = parser.parse_args(argv)
    environ = os.environ if env is None else env
    output_dir = args.output_dir or Path(environ.get("OUTPUT_DIR") or DEFAULT_OUTPUT_DIR)
    values = {key: value for key, value in vars(args).items() if key != "output_dir"}
    try:
        return TrainConfig(output_dir=output_dir, **values)
    except ValidationError as err:
        problems = "; ".join(f"argument {_flag(e['loc'])}: {e['msg']}" for e in err.errors())
        parser.error(problems)  # exits 2 with the usage line in argparse's own words, like any CLI given a bad flag


def _flag(loc: tuple[int | str, ...]) -> str:
    """``("batch_size",)`` -> ``--batch-size``: name the flag the person typed, not the model field."""
    return "--" + "-".join(str(part) for part in loc).replace("_", "-")
