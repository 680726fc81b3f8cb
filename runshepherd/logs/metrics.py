"""Latest training metrics and their shape: NaN/inf, loss spikes, trend — in bounded memory.

Names are normalised (``train_loss``, ``lm loss``, ``Loss`` → ``loss``; ``val_loss``, ``eval loss`` →
``eval_loss``; ``learning_rate`` → ``lr``…) so HF Trainer dicts, Keras, Lightning, Megatron and plain
``key=value`` prints land in the same series. Each series keeps a fixed window of recent values.
"""

from __future__ import annotations

import math
import re
from collections import deque
from dataclasses import dataclass, field
from statistics import median

from runshepherd.logs.models import MetricSeries, Trend

_NUM = r"[-+]?(?:nan|inf(?:inity)?|\d+(?:\.\d*)?(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)"
# What follows a metric name: optional suffixes, a separator, the value. Matched at a found position, on
# the lowercased line, which is much cheaper than searching a case-insensitive alternation.
_VALUE = re.compile(r"(?:uracy)?(?:_step|_epoch)?['\"]?\s*[:=]\s*['\"]?(" + _NUM + r")(?![\w.])")
# "step 3 loss 0.41", "epoch 2 acc 0.91": a finite value after a space alone (a plain print with no separator). Never
# nan/inf: a NaN is read only where a separator says it is the metric's, as before (the nan_loss flag is unchanged).
# The value must end the line, a punctuated field or be followed by another name and value: in "loss 3 nodes" the
# number counts something else
_SPACED = re.compile(
    r"(?:uracy)? +((?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)(?![\w.%/])"
    r"(?=\s*$|\s*[,;|()\[\]]|\s+[a-z_][\w/.-]*\s*[:=]?\s*[-+]?\.?\d)"
)
_PREFIX = re.compile(r"(?:^|[^a-z0-9_])(eval|val|valid|validation|test|train|training|lm)[_ /]$")
# the whole number before a unit: `2.5e3 samples/s` is 2500 and `1,234.5 samples/s` is 1234.5 (before: 3 and 234.5)
_NUM_BEFORE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?(?:e[-+]?\d+)?)\s*$")
_NAMES: tuple[tuple[str, str], ...] = (
    ("loss", "loss"),
    ("acc", "accuracy"),
    ("learning_rate", "lr"),
    ("learning rate", "lr"),
    ("lr", "lr"),
    ("grad_norm", "grad_norm"),
    ("grad norm", "grad_norm"),
    ("gradient_norm", "grad_norm"),
    ("samples_per_second", "samples_per_second"),
)
_UNITS: tuple[tuple[str, str], ...] = (
    ("it/s", "it_per_second"),
    ("s/it", "it_per_second"),
    ("samples/s", "samples_per_second"),
    ("samples per second", "samples_per_second"),
    ("tokens/s", "tokens_per_second"),
    ("tok/s", "tokens_per_second"),
)
_NAN_WORDS = re.compile(r"\bloss (?:is|became|=) nan\b|\bnan loss\b|\bnan detected\b")
_MEGATRON_NAN = re.compile(r"number of nan iterations:\s*([1-9]\d*)")
_LOSS_LIKE = frozenset({"loss", "eval_loss"})
_CUES = ("loss", "acc", "lr", "learning", "grad", "/s", "s/it", "per_second", "per second", "nan")
_EVAL = ("eval", "val", "valid", "validation", "test")


def _qualified(low: str, pos: int, base: str) -> str | None:
    """Name of the metric found at ``pos``, from the word before it; None for other metrics (aux_loss…)."""
    if pos == 0:
        return base
    before = low[pos - 1]
    if before.isalnum():
        return None
    if before in "_ /" and base in ("loss", "accuracy"):
        m = _PREFIX.search(low, max(0, pos - 12), pos)
        if m:
            return f"eval_{base}" if m.group(1) in _EVAL else base
        if before == "_":
            return None
    elif before == "_" and base != "samples_per_second":
        return None
    return base


@dataclass
class _Track:
    window: deque[float]
    latest: float | None = None
    latest_text: str = ""
    samples: int = 0
    nonfinite: int = 0
    spikes: int = 0
    median: float | None = None  # of the window, refreshed every few values (sorting each time is costly)
    since_median: int = 0
    first: float | None = None  # the first finite value: the scale the run started at


@dataclass
class MetricHit:
    """What one line contributed: any metric at all, evaluation metrics, a fresh NaN or spike."""

    any: bool = False
    evaluation: bool = False
    names: list[str] = field(default_factory=list)


class MetricTracker:
    """Per-metric bounded windows; the number of series is bounded by the fixed name vocabulary."""

    def __init__(self, window: int = 64, spike_factor: float = 3.0) -> None:
        self._window = window
        self._spike_factor = spike_factor
        self._tracks: dict[str, _Track] = {}
        self.nan_words = 0

    def observe(self, low: str) -> MetricHit:
        """Metrics of one lowercased line; a few substring tests decide whether to look closer."""
        hit = MetricHit()
        if not any(map(low.__contains__, _CUES)):
            return hit
        for needle, base in _NAMES:
            if needle not in low:
                continue
            pos = low.find(needle)
            while pos != -1:
                m = _VALUE.match(low, pos + len(needle)) or _SPACED.match(low, pos + len(needle))
                if m and (base == "accuracy" or not low.startswith("uracy", pos + len(needle))):
                    name = _qualified(low, pos, base)
                    if name is not None:
                        self._add(name, m.group(1))
                        hit.names.append(name)
                pos = low.find(needle, pos + len(needle))
        if "/s" not in low and "s/it" not in low and "per second" not in low:
            hit.any = bool(hit.names)
            hit.evaluation = any(n.startswith("eval_") for n in hit.names)
            return hit
        for needle, name in _UNITS:
            if needle not in low:
                continue
            pos = low.find(needle)
            if pos > 0:
                m = _NUM_BEFORE.search(low, max(0, pos - 16), pos)
                if m:
                    value = float(m.group(1).replace(",", ""))
                    if not math.isfinite(value):  # `1e400 samples/s`: no rate, and not a metric that went NaN
                        continue
                    if needle == "s/it":
                        if value <= 0:
                            continue
                        value = 1.0 / value
                    self._add(name, f"{value:.6g}")
                    hit.names.append(name)
        if "nan" in low and (_NAN_WORDS.search(low) or _MEGATRON_NAN.search(low)):
            self.nan_words += 1
        hit.any = bool(hit.names)
        hit.evaluation = any(n.startswith("eval_") for n in hit.names)
        return hit

    def _add(self, name: str, text: str) -> None:
        track = self._tracks.get(name)
        if track is None:
            track = self._tracks[name] = _Track(deque(maxlen=self._window))
        value = float(text)
        track.samples += 1
        track.latest_text = text
        if not math.isfinite(value):
            track.nonfinite += 1
            track.latest = None
            return
        if name in _LOSS_LIKE and len(track.window) >= 5:
            if track.median is None or track.since_median >= 8:
                track.median, track.since_median = median(track.window), 0
            track.since_median += 1
            # A spike is a jump well above the recent median that is also material at the run's own scale:
            # minibatch noise of a converged loss (0.03 → 0.12 after starting at 1.6) is not one.
            if (
                track.median > 0
                and value > self._spike_factor * track.median
                and (track.first is None or value > 0.5 * track.first)
            ):
                track.spikes += 1
        if track.first is None:
            track.first = value
        track.latest = value
        track.window.append(value)

    # ------------------------------------------------------------------ results
    def series(self) -> dict[str, MetricSeries]:
        return {
            name: MetricSeries(
                latest=t.latest,
                latest_text=t.latest_text,
                samples=t.samples,
                nonfinite=t.nonfinite,
                spikes=t.spikes,
                trend=trend(list(t.window)),
                direction=direction(list(t.window)),
            )
            for name, t in sorted(self._tracks.items())
        }

    def flags(self) -> list[str]:
        flags: list[str] = []
        loss_nonfinite = any(self._tracks[n].nonfinite for n in _LOSS_LIKE if n in self._tracks)
        if loss_nonfinite or self.nan_words:
            flags.append("nan_loss")
        if any(t.nonfinite for n, t in self._tracks.items() if n not in _LOSS_LIKE):
            flags.append("nonfinite_metric")
        if any(self._tracks[n].spikes for n in _LOSS_LIKE if n in self._tracks):
            flags.append("loss_spike")
        loss = self._tracks.get("loss")
        if loss is not None and trend(list(loss.window)) == "increasing":
            flags.append("loss_increasing")
        return flags


def direction(values: list[float], alpha: float = 0.7, tolerance: float = 0.01) -> Trend:
    """Where a metric is heading now: the last two points of its exponentially smoothed series (α=0.7), shown
    only when the last raw step agrees — the arrow beside a value never contradicts the value before it
    (0.542 then 0.5945 reads ↑, never ↓); a mixed signal gets no arrow."""
    if len(values) < 2:
        return "unknown"
    smooth = [values[0]]
    for v in values[1:]:
        smooth.append(alpha * v + (1 - alpha) * smooth[-1])

    def way(old: float, new: float) -> Trend:
        change = (new - old) / max(abs(old), abs(new), 1e-12)
        return "increasing" if change > tolerance else "decreasing" if change < -tolerance else "flat"

    smoothed, last_step = way(smooth[-2], smooth[-1]), way(values[-2], values[-1])
    return smoothed if smoothed == last_step else "unknown"


def trend(values: list[float], tolerance: float = 0.05) -> Trend:
    """Compare the median of the older half of the window with the newer half (robust to one-off spikes)."""
    if len(values) < 4:
        return "unknown"
    half = len(values) // 2
    old, new = median(values[:half]), median(values[half:])
    scale = max(abs(old), abs(new), 1e-12)
    change = (new - old) / scale
    if change > tolerance:
        return "increasing"
    if change < -tolerance:
        return "decreasing"
    return "flat"
