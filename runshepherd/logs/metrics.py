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

_NUM = r"[-+]?(?:nan|inf(?:inity)?|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?)"
_METRIC = re.compile(
    r"(?<![\w.])(?P<name>"
    r"(?:eval|val|valid|validation|test)[_ /]?(?:loss|acc(?:uracy)?)"
    r"|(?:train(?:ing)?[_ ])?(?:lm[_ ])?loss"
    r"|(?:train[_ ])?acc(?:uracy)?"
    r"|learning[_ ]rate|lr"
    r"|grad(?:ient)?[_ ]norm"
    r"|(?:train_)?samples_per_second"
    r")(?:_step|_epoch)?['\"]?\s*[:=]\s*['\"]?(?P<value>" + _NUM + r")(?![\w.])",
    re.I,
)
_THROUGHPUT = re.compile(
    r"(?<![\w.])(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>samples/s(?:ec)?|samples per second|it/s|s/it|tokens/s(?:ec)?|tok/s)",
    re.I,
)
_NAN_WORDS = re.compile(r"\bloss (?:is|became|=) nan\b|\bnan loss\b|\bnan detected\b", re.I)
_MEGATRON_NAN = re.compile(r"number of nan iterations:\s*([1-9]\d*)")
_LOSS_LIKE = frozenset({"loss", "eval_loss"})
_CUES = ("loss", "acc", "lr", "learning", "grad", "it/s", "s/it", "/s", "per_second", "nan", "Loss", "Acc")


def canonical_name(raw: str) -> str:
    """Map a printed metric name onto the small fixed vocabulary the digest uses."""
    low = raw.lower().replace(" ", "_").replace("/", "_")
    for suffix in ("_step", "_epoch"):
        if low.endswith(suffix):
            low = low[: -len(suffix)]
    evaluation = low.startswith(("eval", "val", "valid", "test"))
    if "loss" in low:
        return "eval_loss" if evaluation else "loss"
    if "acc" in low:
        return "eval_accuracy" if evaluation else "accuracy"
    if low in ("lr", "learning_rate"):
        return "lr"
    if "norm" in low:
        return "grad_norm"
    return "samples_per_second"


def _throughput_name(unit: str) -> str:
    unit = unit.lower()
    if unit.startswith("tok"):
        return "tokens_per_second"
    if unit.startswith("sample"):
        return "samples_per_second"
    return "it_per_second"


@dataclass
class _Track:
    window: deque[float]
    latest: float | None = None
    latest_text: str = ""
    samples: int = 0
    nonfinite: int = 0
    spikes: int = 0


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

    def observe(self, text: str) -> MetricHit:
        hit = MetricHit()
        if not any(cue in text for cue in _CUES):
            return hit
        for m in _METRIC.finditer(text):
            name = canonical_name(m.group("name"))
            self._add(name, m.group("value"))
            hit.names.append(name)
        for m in _THROUGHPUT.finditer(text):
            value = float(m.group("value"))
            unit = m.group("unit").lower()
            if unit == "s/it":
                if value <= 0:
                    continue
                value = 1.0 / value
            name = _throughput_name(unit)
            self._add(name, f"{value:.6g}")
            hit.names.append(name)
        if "nan" in text and (_NAN_WORDS.search(text) or _MEGATRON_NAN.search(text)):
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
            mid = median(track.window)
            if mid > 0 and value > self._spike_factor * mid:
                track.spikes += 1
        track.latest = value
        track.window.append(value)

    # ------------------------------------------------------------------ results
    def series(self) -> dict[str, MetricSeries]:
        return {
            name: MetricSeries(
                latest=t.latest, latest_text=t.latest_text, samples=t.samples, nonfinite=t.nonfinite,
                spikes=t.spikes, trend=trend(list(t.window)),
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
