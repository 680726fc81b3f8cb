"""Progress markers in the formats real trainers print, reduced to the most advanced one, plus ETA.

Handled: ``step 840/1000`` / ``step=100/10000`` / ``Step [100/600]``; ``Epoch [3/10]`` / Keras ``Epoch 3/10``
followed by ``120/500 [====>...]`` batch bars; tqdm and Lightning bars (``Epoch 3:  45%|####5| 450/1000``);
Megatron ``iteration   100/  1000``; HF Trainer dicts (``'epoch': 1.5`` with ``Num Epochs = 3`` from its
banner); plain ``45% complete``. Bars whose description says evaluation, download or data preparation
are not training progress. ETA comes only from two timestamped markers of the same series — never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from runshepherd.logs.models import Progress, ProgressUnit
from runshepherd.logs.prefix import parse_timestamp

# Patterns are matched right after a word found with str.find on the lowercased line (cheap), not searched.
_AFTER_STEP = re.compile(r"\s*[=:]?\s*\[?\s*(\d+)\s*(?:/|of)\s*(\d+)")
_AFTER_ITER = re.compile(r"(?:ation)?s?\s*[=:]?\s*\[?\s*(\d+)\s*/\s*(\d+)")
_AFTER_EPOCH = re.compile(r"\s*[=:]?\s*\[?\s*(\d+(?:\.\d+)?)\s*(?:/|of)\s*(\d+)")
_EPOCH_BAR = re.compile(r"\bEpoch\s+(\d+)\s*:")
_HF_EPOCH = re.compile(r"'epoch':\s*(\d+(?:\.\d+)?)")
_TQDM = re.compile(r"(\d{1,3})%\|[^|]*\|\s*(\d+)/(\d+)")


def find_after(low: str, word: str, after: re.Pattern[str]) -> re.Match[str] | None:
    """First ``word`` (not inside another word on its left) immediately followed by ``after``."""
    pos = low.find(word)
    while pos != -1:
        if pos == 0 or not low[pos - 1].isalpha():
            m = after.match(low, pos + len(word))
            if m:
                return m
        pos = low.find(word, pos + 1)
    return None


_KERAS = re.compile(r"^\s*(\d+)/(\d+)\s+(?:\[[=>.]*\]|[━─]+)")
_PERCENT = re.compile(
    r"(\d{1,3}(?:\.\d+)?)\s*%\s*(?:complete|completed|done)\b|\bprogress\b\s*[:=]?\s*(\d{1,3}(?:\.\d+)?)\s*%", re.I
)
_HF_TOTAL_STEPS = re.compile(r"Total optimization steps\s*=\s*([\d,]+)")
_HF_NUM_EPOCHS = re.compile(r"Num Epochs\s*=\s*([\d,]+)")
# tqdm descriptions that are not the training loop.
_NOT_TRAINING = re.compile(
    r"eval|valid|test|predict|download|upload|fetch|map|token|load|shard|extract|generat|convert|resolv|sanity", re.I
)
_EVAL_DESC = re.compile(r"eval|valid|test", re.I)

_PRIORITY: tuple[ProgressUnit, ...] = ("step", "iteration", "epoch", "batch", "percent")


@dataclass
class _Series:
    unit: ProgressUnit
    current: float
    total: float | None
    fraction: float | None
    detail: str | None
    line: str
    first_fraction: float | None = None
    first_ts: str | None = None
    last_ts: str | None = None


@dataclass
class ProgressHit:
    """What one line said about progress (and whether it looked like evaluation)."""

    evaluation: bool = False
    training: bool = False


class ProgressTracker:
    """Keeps one series per unit; a marker replaces its series only when it is at least as advanced."""

    def __init__(self) -> None:
        self._series: dict[str, _Series] = {}
        self._known_total: dict[str, float] = {}

    # ------------------------------------------------------------------ observe
    def observe(self, text: str, low: str, ts: str | None, has_metrics: bool) -> ProgressHit:
        """Look for progress in one (redacted) line and its lowercase; cheap without '/', '%' or 'epoch'."""
        hit = ProgressHit()
        slash = "/" in text
        if not slash and "%" not in text and "epoch" not in low and "steps" not in low:
            return hit
        if "Total optimization steps" in text or "Num Epochs" in text:
            self._banner(text)
            return hit
        if "%|" in text:
            return self._bar(text, ts)
        if slash:
            epoch = find_after(low, "epoch", _AFTER_EPOCH) if "epoch" in low else None
            inner = find_after(low, "step", _AFTER_STEP) if "step" in low else None
            if epoch:
                current, total = float(epoch.group(1)), float(epoch.group(2))
                if inner:
                    done, size = int(inner.group(1)), int(inner.group(2))
                    self._epoch(current, total, done / size if size else None, f"step {done}/{size}", text, ts)
                else:
                    # A line with metrics reports a finished epoch; a bare header announces one starting.
                    self._epoch(current, total, 1.0 if has_metrics else 0.0, None, text, ts)
                hit.training = True
                return hit
            if inner:
                self._add("step", float(inner.group(1)), float(inner.group(2)), None, text, ts)
                hit.training = True
                return hit
            it = find_after(low, "iter", _AFTER_ITER) if "iter" in low else None
            if it:
                self._add("iteration", float(it.group(1)), float(it.group(2)), None, text, ts)
                hit.training = True
                return hit
            keras = _KERAS.match(text)
            if keras:
                self._batch(int(keras.group(1)), int(keras.group(2)), text, ts)
                hit.training = True
                return hit
        if text.startswith("{") and "'epoch'" in text:
            m = _HF_EPOCH.search(text)
            if m:
                self._add("epoch", float(m.group(1)), self._known_total.get("epoch"), None, text, ts)
                hit.training = "eval_" not in text
                hit.evaluation = not hit.training
            return hit
        m = _EPOCH_BAR.search(text)
        if m is not None:  # "Epoch 3: train_loss=0.41" — an epoch index without a total
            self._epoch(float(m.group(1)), self._known_total.get("epoch"), 1.0 if has_metrics else 0.0, None, text, ts)
            hit.training = True
        elif "%" in text:
            pm = _PERCENT.search(text)
            if pm:
                value = float(pm.group(1) or pm.group(2))
                if value <= 100:
                    self._add("percent", value, 100.0, None, text, ts)
        return hit

    def _banner(self, text: str) -> None:
        steps = _HF_TOTAL_STEPS.search(text)
        if steps:
            self._known_total["step"] = float(steps.group(1).replace(",", ""))
        epochs = _HF_NUM_EPOCHS.search(text)
        if epochs:
            self._known_total["epoch"] = float(epochs.group(1).replace(",", ""))

    def _bar(self, text: str, ts: str | None) -> ProgressHit:
        hit = ProgressHit()
        m = _TQDM.search(text)
        if not m:
            return hit
        done, size = int(m.group(2)), int(m.group(3))
        desc = text[: m.start()]
        epoch = _EPOCH_BAR.search(desc)
        if epoch:  # Lightning: "Epoch 3:  45%|…| 450/1000" — batches within epoch 3 (0-based there)
            current = float(epoch.group(1))
            total = self._known_total.get("epoch")
            fraction = done / size if size else None
            self._epoch(current, total, fraction, f"batch {done}/{size}", text, ts)
            hit.training = True
        elif _NOT_TRAINING.search(desc):
            hit.evaluation = bool(_EVAL_DESC.search(desc))
        else:
            total = float(size) if size else self._known_total.get("step")
            self._add("step", float(done), total, None, text, ts)
            hit.training = True
        return hit

    def _epoch(
        self, current: float, total: float | None, inner: float | None, detail: str | None, line: str, ts: str | None
    ) -> None:
        """Epoch N/M with an optional fraction of epoch N done: overall = (N - 1 + inner) / M."""
        fraction = None
        if total and inner is not None:
            fraction = min(1.0, max(0.0, (current - 1 + inner) / total))
        self._add("epoch", current, total, fraction, line, ts, detail)

    def _batch(self, done: int, size: int, line: str, ts: str | None) -> None:
        epoch = self._series.get("epoch")
        if epoch is not None and epoch.total:
            self._epoch(epoch.current, epoch.total, done / size if size else None, f"batch {done}/{size}", line, ts)
        else:
            self._add("batch", float(done), float(size), None, line, ts)

    def _add(
        self,
        unit: ProgressUnit,
        current: float,
        total: float | None,
        fraction: float | None,
        line: str,
        ts: str | None,
        detail: str | None = None,
    ) -> None:
        if total is None:
            total = self._known_total.get(unit)
        if fraction is None and total:
            fraction = min(1.0, current / total)
        old = self._series.get(unit)
        if old is not None and old.total == total:
            if fraction is not None and old.fraction is not None and fraction < old.fraction:
                return  # not more advanced (an inner bar restarting, a late re-print)
            if fraction is None and current < old.current:
                return
            old.current, old.fraction, old.detail, old.line = current, fraction, detail, line
            if ts is not None:
                if old.first_ts is None:
                    old.first_ts, old.first_fraction = ts, fraction
                old.last_ts = ts
            return
        if old is not None and old.total is not None and (total is None or total < old.total):
            return  # a smaller scale (an evaluation loop) does not replace the training loop
        self._series[unit] = _Series(unit, current, total, fraction, detail, line, fraction, ts, ts)

    # ------------------------------------------------------------------ results
    def _best(self) -> _Series | None:
        for unit in _PRIORITY:
            series = self._series.get(unit)
            if series is not None and series.total:
                return series
        for unit in _PRIORITY:
            if unit in self._series:
                return self._series[unit]
        return None

    def progress(self) -> Progress | None:
        best = self._best()
        if best is None:
            return None
        percent = round(best.fraction * 100, 1) if best.fraction is not None else None
        return Progress(
            current=best.current,
            total=best.total,
            unit=best.unit,
            percent=percent,
            detail=best.detail,
            line=best.line[:200],
        )

    def eta(self) -> tuple[float, datetime] | None:
        """Seconds left and the moment they are counted from, from the rate between two timestamped markers."""
        best = self._best()
        if best is None or best.fraction is None or best.first_fraction is None:
            return None
        if best.first_ts is None or best.last_ts is None:
            return None
        start, end = parse_timestamp(best.first_ts), parse_timestamp(best.last_ts)
        if start is None or end is None:
            return None
        if best.fraction >= 1.0:
            return 0.0, end
        elapsed = (end - start).total_seconds()
        gained = best.fraction - best.first_fraction
        if elapsed <= 0 or gained <= 0:
            return None
        seconds = (1.0 - best.fraction) * elapsed / gained
        try:
            return round(seconds, 1), end + timedelta(seconds=seconds)
        except OverflowError:  # `epoch 1/99999999999999999999999`: a finish past year 9999 is no ETA (unknown)
            return None
