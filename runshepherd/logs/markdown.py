"""The markdown digest a logs reader returns: the seed's shape, at most ~300 words per reader.

Per task: stage and progress, key events, errors (verbatim, root error always kept). When the budget is
tight, error lines are dropped from the middle of the block first, never the root error.
"""

from __future__ import annotations

from collections.abc import Sequence

from runshepherd.durations import format_elapsed
from runshepherd.logs.models import KeyEvent, MetricSeries, TaskDigest

_METRIC_ORDER = (
    "loss",
    "eval_loss",
    "accuracy",
    "eval_accuracy",
    "lr",
    "grad_norm",
    "samples_per_second",
    "tokens_per_second",
    "it_per_second",
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


def _number(value: float) -> str:
    return f"{value:.4g}"


def _metric(name: str, series: MetricSeries) -> str:
    value = _number(series.latest) if series.latest is not None else series.latest_text
    arrow = _ARROWS[series.direction]
    return f"{name} {value}{arrow}"


def stage_line(d: TaskDigest) -> str:
    """One line: stage, progress, metrics, ETA, staleness — only facts the log showed. An ended task says how it
    ended and what it last logged; never a live stage, a percentage in flight or an ETA."""
    silent = d.stage == "no output" or d.stage == "not started"
    if d.ended:
        if silent:
            return f"ended {d.ended} before any application output"
        parts: list[str] = [f"ended {d.ended}; last logged: {d.stage}"]
    elif d.stage == "not started":  # queued or unschedulable (PENDING), or the scheduler said so: nothing starts yet
        return "Not started yet, no application output"
    elif silent:
        return "Container starting, no application output yet"
    else:
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
    if d.eta_seconds is not None and d.eta_seconds > 0 and not d.ended:
        parts.append(f"ETA {format_elapsed(d.eta_seconds)}")
    alerts = [f for f in d.flags if f != "stale"]
    if alerts:
        parts.append("flags: " + ", ".join(alerts))
    if d.stale and d.last_update is not None:
        parts.append(f"STALE: no output since {d.last_update:%Y-%m-%d %H:%M:%S} UTC")
    return "; ".join(parts)


def _event_line(e: KeyEvent) -> str:
    when = f"{e.timestamp:%H:%M:%S} " if e.timestamp else ""
    what = _EVENT_WORDS.get(e.kind, e.kind)
    # the count is of lines of this kind (e.g. "Uploading…" then "Uploaded 5 file(s)"), not of this line
    repeat = f" (latest of {e.count})" if e.count > 1 else ""
    line = e.line if len(e.line) <= 100 else e.line[:99] + "…"  # a cut path or URL says it was cut
    return f"{when}{what}{repeat}: {line}"


def _fit_errors(lines: list[str], root: str | None, budget: int) -> list[str]:
    """As many error lines as fit ``budget`` words, in order; the root error line is always kept."""
    if sum(words(line) for line in lines) <= budget:
        return lines
    root_words = words(root) if root else 0
    marker_words = 5
    kept: list[str] = []
    used = root_words + marker_words
    for line in lines:
        if root and line.strip() == root:
            continue
        if used + words(line) > budget:
            break
        kept.append(line)
        used += words(line)
    omitted = len(lines) - len(kept) - (1 if root and any(l.strip() == root for l in lines) else 0)
    if omitted > 0:
        kept.append(f"... [{omitted} more lines] ...")
    if root:
        kept.append(root)
    return kept


def task_markdown(d: TaskDigest, max_words: int = 300) -> str:
    """The markdown of one task within ``max_words``: stage and root error first, then events, then context."""
    head = [f"### Task: {d.task or 'Overall'}", f"- **Stage / progress**: {stage_line(d)}"]
    root = d.root_error
    error_lines = list(d.error_lines) or ([root] if root else [])
    used = sum(words(line) for line in head) + (words(root) + 3 if root else 0)
    optional: list[str] = []
    if d.last_update is not None and not d.stale:
        optional.append(f"- **Last update**: {d.last_update:%Y-%m-%d %H:%M:%S} UTC")
    if d.redactions:
        optional.append("- **Redacted**: " + ", ".join(f"{k} ×{v}" for k, v in d.redactions.items()))
    if d.truncated:
        optional.append(f"- **Note**: log read partially ({d.truncation_reason})")
    events = [e for e in d.key_events if e.kind != "nccl_init" or len(d.key_events) <= 3][-3:]
    event_lines: list[str] = []
    for event in reversed(events):  # the most recent events are worth the words first
        line = f"  - {_event_line(event)}"
        if used + words(line) + 3 > max_words:
            break
        event_lines.insert(0, line)
        used += words(line) + (3 if len(event_lines) == 1 else 0)
    for line in optional:
        if used + words(line) <= max_words - (20 if error_lines else 0):
            head.append(line)
            used += words(line)
    if event_lines:
        head.append("- **Key events**:")
        head.extend(event_lines)
    text = _render(head, error_lines, root, max_words)
    # Rounding in the estimates above can overshoot a little: drop optional lines, oldest first, until it fits.
    while words(text) > max_words and len(head) > 2:
        if "- **Key events**:" in head:
            at = head.index("- **Key events**:")
            head.pop(at + 1)
            if at + 1 == len(head):
                head.pop(at)
        else:
            head.pop(2)
        text = _render(head, error_lines, root, max_words)
    return text


def _render(head: list[str], error_lines: list[str], root: str | None, max_words: int) -> str:
    text = "\n".join(head)
    if error_lines:
        root_words = words(root) if root else 0
        budget = max(max_words - words(text) - 4, root_words)
        fitted = _fit_errors(error_lines, root, budget)
        text += "\n- **Errors**:\n```\n" + "\n".join(fitted) + "\n```"
    return text


def digest_to_markdown(digests: Sequence[TaskDigest], *, workflow_id: str | None = None, max_words: int = 300) -> str:
    """Markdown for up to a handful of tasks, sharing one ~``max_words`` budget."""
    parts = [f"## Workflow: {workflow_id}"] if workflow_id else []
    if not digests:
        return "\n".join([*parts, "No logs were read."])
    per_task = max(40, (max_words - words(parts[0] if parts else "")) // len(digests))
    parts.extend(task_markdown(d, per_task) for d in digests)
    return "\n".join(parts)
