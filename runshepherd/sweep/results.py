"""The comparison at the end of a sweep: one row per point (values, final workflow, status, attempts, metrics last
and best, duration), the best point named by a metric the script reported, as Markdown for the artifact."""

from __future__ import annotations

import itertools
import math
from typing import Any

from runshepherd.logs.metrics import MetricTracker

METRIC_TAIL = 2000  # log lines read per point for its metrics (the end of a log is where final metrics are)
# Which reported metric names the best point, in order of preference, and which way is better.
RANKING = (
    ("eval_accuracy", max),
    ("eval_acc", max),
    ("eval_loss", min),
    ("accuracy", max),
    ("val_loss", min),
    ("loss", min),
)
LOWER_IS_BETTER = ("loss", "perplexity", "error", "wer", "cer")


def _better(name: str) -> Any:
    return min if any(w in name for w in LOWER_IS_BETTER) else max


def metrics_of(lines: Any) -> dict[str, dict[str, float | None]]:
    """{name: {last, best}} of every metric the log lines report (NaN/inf are never a best; last may be None)."""
    tracker = MetricTracker()
    best: dict[str, float] = {}
    for line in itertools.islice(lines, METRIC_TAIL):
        hit = tracker.observe(str(line).lower())
        if not hit.any:
            continue
        series = tracker.series()
        for name in hit.names:
            value = series[name].latest if name in series else None
            if value is None or not math.isfinite(value):
                continue
            pick = _better(name)
            best[name] = value if name not in best else pick(best[name], value)
    return {name: {"last": s.latest, "best": best.get(name)} for name, s in tracker.series().items() if s.samples}


def best_point(results: list[dict[str, Any]], metric: str | None = None) -> dict[str, Any] | None:
    """{metric, index, value}: the completed point best on ``metric`` (or the first ranking metric all report)."""
    done = [r for r in results if r.get("status") == "COMPLETED" and r.get("metrics")]
    if not done:
        return None
    names = [metric] if metric else [n for n, _ in RANKING]
    for name in names:
        have = [r for r in done if (r["metrics"].get(name) or {}).get("last") is not None]
        if have:
            pick = _better(name)
            winner = pick(have, key=lambda r: r["metrics"][name]["last"])
            value = winner["metrics"][name]["last"]
            return {
                "metric": name,
                "point": winner["point"],
                "index": winner["index"],
                "value": value,
                "fixed": bool(winner.get("fixes")),  # it ran with a fix: not with the point's own values
                # points with the very same value: none of them is better (`--repeat` of a seeded run ties)
                "tied_with": [r["index"] for r in have if r is not winner and r["metrics"][name]["last"] == value],
            }
    return None


def tied(best: dict[str, Any]) -> str:
    """`, tied with #2, #3` when other points reached the very same value (so none of them is the best)."""
    others = best.get("tied_with") or []
    return f", tied with {', '.join(f'#{i}' for i in others)}" if others else ""


def _fmt(v: float | None) -> str:
    return "unknown" if v is None else f"{v:.4g}"


def table_markdown(results: list[dict[str, Any]], best: dict[str, Any] | None) -> str:
    metric_names = sorted({n for r in results for n in (r.get("metrics") or {})})[:4]
    head = ["#", "values", "workflow", "status", "attempts", "duration", *(f"{m} last/best" for m in metric_names)]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in results:
        cells = [
            str(r["index"]),
            r["point"] + (" (fixed†)" if r.get("fixes") else ""),
            r.get("workflow_id") or "none",
            r.get("status") or "unknown",
            str(r.get("attempts", 0)),
            r.get("duration") or "unknown",
        ]
        done = r.get("status") == "COMPLETED"
        for m in metric_names:
            got = (r.get("metrics") or {}).get(m)
            # a point that did not complete has no result to compare: what it logged as it failed (a diverged
            # run's "acc=1.000" beside loss=nan) is not a metric to set beside the others
            cells.append("—" if not done else f"{_fmt(got['last'])} / {_fmt(got['best'])}" if got else "not reported")
        rows.append("| " + " | ".join(cells) + " |")
    unfinished = [f"#{r['index']} {r.get('status') or 'unknown'}" for r in results if r.get("status") != "COMPLETED"]
    if unfinished and metric_names:
        rows.append(
            f"\n— not compared: did not complete ({', '.join(unfinished)}); what each logged is in its workflow's log."
        )
    for r in results:
        if r.get("fixes"):
            rows.append(f"\n† #{r['index']} ran with a fix: «{r['fixes'][-1]}»")
    if best:
        fixed = " — it ran with the fix marked †, not with these values" if best.get("fixed") else ""
        rows.append(
            f"\nBest point: #{best['index']} ({best['point']}) by {best['metric']} = {_fmt(best['value'])}"
            f"{tied(best)}{fixed}."
        )
    else:
        rows.append("\nBest point: none (no completed point reported a metric to compare).")
    return "\n".join(rows) + "\n"
