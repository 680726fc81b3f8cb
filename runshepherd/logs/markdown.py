"""The markdown digest a logs reader returns: the seed's shape, at most ~300 words per reader.

Per task: stage and progress, key events, errors (verbatim, root error always kept). When the budget is
tight, error lines are dropped from the middle of the block first, never the root error.
"""

from __future__ import annotations

from typing import Sequence

from runshepherd.logs.models import KeyEvent, MetricSeries, TaskDigest

_METRIC_ORDER = (
    "loss", "eval_loss", "accuracy", "eval_accuracy", "lr", "grad_norm", "samples_per_second",
    "tokens_per_second", "it_per_second",
)
_ARROWS = {"decreasing": "↓", "increasing": "↑", "flat": "→", "unknown": ""}
_EVENT_WORDS = {
    "checkpoint_saved": "checkpoint saved",
    "resumed": "resumed from checkpoint",
    "data_download_start": "data download started",
    "data_download_end": "data download finished",
    "upload": "upload",
    "oom_kill": "killed (out of memory)",
    "nccl_init": "NCCL initialised",
    "training_start": "training started",
    "training_done": "training finished",
}


def words(text: str) -> int:
    return len(text.split())


def format_duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, sec = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{sec:02d}s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m"


def _number(value: float) -> str:
    return f"{value:.4g}"


def _metric(name: str, series: MetricSeries) -> str:
    value = _number(series.latest) if series.latest is not None else series.latest_text
    arrow = _ARROWS[series.trend]
    return f"{name} {value}{arrow}"


def stage_line(d: TaskDigest) -> str:
    """One line: stage, progress, metrics, ETA, staleness — only facts the log showed."""
    if d.stage == "no output" or d.stage == "not started":
        return "Container starting, no application output yet"
    parts = [d.stage]
    p = d.progress
    if p is not None:
        current = int(p.current) if float(p.current).is_integer() else round(p.current, 2)
        where = f"{p.unit} {current}" + (f"/{int(p.total)}" if p.total else "")
        if p.percent is not None:
            where += f" — {p.percent:g}% complete"
        if p.detail:
            where += f" ({p.detail})"
        parts.append(where)
    shown = [_metric(n, d.metrics[n]) for n in _METRIC_ORDER if n in d.metrics][:4]
    if shown:
        parts.append(", ".join(shown))
    if d.eta_seconds is not None and d.eta_seconds > 0:
        parts.append(f"ETA {format_duration(d.eta_seconds)}")
    alerts = [f for f in d.flags if f != "stale"]
    if alerts:
        parts.append("flags: " + ", ".join(alerts))
    if d.stale and d.last_update is not None:
        parts.append(f"STALE: no output since {d.last_update:%Y-%m-%d %H:%M:%S} UTC")
    return "; ".join(parts)


def _event_line(e: KeyEvent) -> str:
    when = f"{e.timestamp:%H:%M:%S} " if e.timestamp else ""
    what = _EVENT_WORDS.get(e.kind, e.kind)
    repeat = f" (×{e.count})" if e.count > 1 else ""
    return f"{when}{what}{repeat}: {e.line[:100]}"


def _fit_errors(lines: list[str], root: str | None, budget: int) -> list[str]:
    """Keep as many error lines as fit the word budget; the root error line is always kept."""
    if sum(words(line) for line in lines) <= budget:
        return lines
    kept: list[str] = []
    used = 0
    root_words = words(root) if root else 0
    for line in lines:
        if root and line.strip() == root:
            continue
        if used + words(line) + root_words > budget:
            break
        kept.append(line)
        used += words(line)
    omitted = len(lines) - len(kept) - (1 if root and any(l.strip() == root for l in lines) else 0)
    if omitted > 0:
        kept.append(f"... [{omitted} more error lines in the structured digest] ...")
    if root:
        kept.append(root)
    return kept


def task_markdown(d: TaskDigest, max_words: int = 300) -> str:
    """The markdown of one task, within ``max_words`` (errors trimmed first)."""
    title = d.task or "Overall"
    head = [f"### Task: {title}", f"- **Stage / progress**: {stage_line(d)}"]
    if d.last_update is not None and not d.stale:
        head.append(f"- **Last update**: {d.last_update:%Y-%m-%d %H:%M:%S} UTC")
    events = [e for e in d.key_events if e.kind != "nccl_init" or len(d.key_events) <= 3][-3:]
    if events:
        head.append("- **Key events**:")
        head.extend(f"  - {_event_line(e)}" for e in events)
    if d.redactions:
        head.append("- **Redacted**: " + ", ".join(f"{k} ×{v}" for k, v in d.redactions.items()))
    if d.truncated:
        head.append(f"- **Note**: log read partially ({d.truncation_reason})")
    text = "\n".join(head)
    if d.error_lines or d.root_error:
        budget = max(max_words - words(text) - 4, 15)
        lines = _fit_errors(list(d.error_lines) or [d.root_error or ""], d.root_error, budget)
        text += "\n- **Errors**:\n```\n" + "\n".join(lines) + "\n```"
    return text


def digest_to_markdown(
    digests: Sequence[TaskDigest], *, workflow_id: str | None = None, max_words: int = 300
) -> str:
    """Markdown for up to a handful of tasks, sharing one ~``max_words`` budget."""
    parts = [f"## Workflow: {workflow_id}"] if workflow_id else []
    if not digests:
        return "\n".join([*parts, "No logs were read."])
    per_task = max(40, (max_words - 4) // len(digests))
    parts.extend(task_markdown(d, per_task) for d in digests)
    return "\n".join(parts)
