"""Escalations on a running (or finished) run, each with the evidence that raised it — never a guess.

- ``underutilized``: allocated GPUs idle or partly used, from NVML where present, else ``nvidia-smi``, on Slurm
  from ``sstat`` TRES usage; with nothing measuring, GPU use is "unknown" and no escalation is raised.
- ``setup_overhead``: time spent creating or syncing an environment (uv/pip/conda), flagging job-specific envs.
- ``stale``, ``repeated_exception``, ``checkpoint_failure``, ``metric_anomaly``: from the log digests.
- ``no_progress_markers``: a running job whose ETA cannot be estimated.

Parsers are pure functions over the tools' documented text formats (tested with recorded output).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from runshepherd import wording
from runshepherd.logs.models import TaskDigest

IDLE_PERCENT = 10.0  # a GPU below this average utilisation is idle
PARTLY_PERCENT = 50.0
SETUP_SECONDS = 300.0  # environment work longer than this is reported as overhead
PENDING_SECONDS = 600.0  # queued or starting (image pull, ContainerCreating) longer than this is escalated


@dataclass(frozen=True)
class GpuSample:
    index: str
    util_percent: float | None
    memory_used_mib: float | None = None
    memory_total_mib: float | None = None

    def line(self) -> str:
        util = "unknown" if self.util_percent is None else f"{self.util_percent:.0f}%"
        mem = (
            ""
            if self.memory_used_mib is None
            else f", memory {self.memory_used_mib:.0f}/{self.memory_total_mib or 0:.0f} MiB"
        )
        return f"GPU {self.index}: utilisation {util}{mem}"


@dataclass(frozen=True)
class Utilisation:
    verdict: str  # underutilized | healthy | unknown
    source: str  # nvml | nvidia-smi | sstat | none
    evidence: str
    recommendation: str | None = None


# ----------------------------------------------------------------------------------------------- parsers
def _num(text: str) -> float | None:
    m = re.search(r"-?\d+(?:\.\d+)?", text)
    return float(m.group()) if m and "N/A" not in text and "Not Supported" not in text else None


def parse_nvidia_smi(text: str) -> list[GpuSample]:
    """``nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total --format=csv[,noheader][,nounits]``."""
    out = []
    for raw in text.splitlines():
        cells = [c.strip() for c in raw.split(",")]
        if len(cells) < 2 or not cells[0] or not cells[0][0].isdigit():
            continue  # the header row, blank lines
        out.append(
            GpuSample(
                index=cells[0],
                util_percent=_num(cells[1]),
                memory_used_mib=_num(cells[2]) if len(cells) > 2 else None,
                memory_total_mib=_num(cells[3]) if len(cells) > 3 else None,
            )
        )
    return out


_TRES_RE = re.compile(r"gres/gpu(?:util|mem)?(?::[\w.-]+)?=[^,]+")


def parse_sstat(text: str) -> list[GpuSample]:
    """``sstat -j JOB -P -n --format=JobID,TRESUsageInAve`` (``gres/gpuutil=…``, ``gres/gpumem=…`` per step).

    Slurm reports GPU utilisation through the TRES plugin only where it is configured (acct_gather_gpu); when a
    step's TRES carries no ``gres/gpuutil``, nothing is measured and no sample is returned."""
    out = []
    for raw in text.splitlines():
        if "|" not in raw:
            continue
        step, tres = raw.split("|", 1)
        vals = dict(item.split("=", 1) for item in tres.strip().strip("|").split(",") if "=" in item)
        util = vals.get("gres/gpuutil")
        if util is None:
            continue
        mem = vals.get("gres/gpumem")
        out.append(
            GpuSample(
                index=step.strip(),
                util_percent=_num(util),
                memory_used_mib=_bytes_to_mib(mem) if mem else None,
            )
        )
    return out


def _bytes_to_mib(text: str) -> float | None:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([KMGT]?)", text.strip())
    if not m:
        return None
    scale = {"": 1 / 1024**2, "K": 1 / 1024, "M": 1.0, "G": 1024.0, "T": 1024.0**2}[m.group(2)]
    return float(m.group(1)) * scale


def read_nvml() -> list[GpuSample] | None:
    """Per-device utilisation from NVML (the ``pynvml`` binding), or None when NVML is not available."""
    try:
        import pynvml
    except ImportError:
        return None
    try:
        pynvml.nvmlInit()
    except Exception:  # no driver / no GPU: NVML cannot measure here
        return None
    try:
        out = []
        for i in range(pynvml.nvmlDeviceGetCount()):
            h = pynvml.nvmlDeviceGetHandleByIndex(i)
            util = pynvml.nvmlDeviceGetUtilizationRates(h)
            mem = pynvml.nvmlDeviceGetMemoryInfo(h)
            out.append(GpuSample(str(i), float(util.gpu), mem.used / 1024**2, mem.total / 1024**2))
        return out
    finally:
        pynvml.nvmlShutdown()


def read_nvidia_smi(run: Callable[[list[str]], str] | None = None) -> list[GpuSample] | None:
    exe = shutil.which("nvidia-smi")
    if exe is None and run is None:
        return None
    argv = [
        exe or "nvidia-smi",
        "--query-gpu=index,utilization.gpu,memory.used,memory.total",
        "--format=csv,noheader,nounits",
    ]
    try:
        text = run(argv) if run else subprocess.run(argv, capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_nvidia_smi(text) or None


# ----------------------------------------------------------------------------------------------- verdicts
def utilisation(allocated: int | None, samples: list[GpuSample] | None, source: str) -> Utilisation:
    """Allocated vs active GPUs. Without samples the answer is "unknown", never "healthy"."""
    if not allocated:
        return Utilisation("unknown" if allocated is None else "healthy", source, "no GPUs allocated")
    if not samples:
        return Utilisation("unknown", "none", f"{allocated} GPU(s) allocated; nothing measures their use here")
    used = samples[:allocated]
    measured = [s for s in used if s.util_percent is not None]
    if not measured:
        return Utilisation("unknown", source, "; ".join(s.line() for s in used))
    idle = [s for s in measured if (s.util_percent or 0.0) < IDLE_PERCENT]
    active = len(measured) - len(idle)
    mean = sum(s.util_percent or 0.0 for s in measured) / len(measured)
    evidence = f"{allocated} GPU(s) allocated, {active} active ({source}): " + "; ".join(s.line() for s in measured)
    if idle:
        if active == 0:
            rec = "nothing uses the GPUs: check the code moves work to the device, or request no GPU"
        elif active == 1:
            rec = (
                "only one GPU works: request 1 GPU, or launch with a native multi-GPU launcher (torchrun "
                "--nproc_per_node), a scheduler array or a per-GPU worker pool"
            )
        else:
            rec = f"request {active} GPU(s), or shard the work across all of them (array or per-GPU workers)"
        return Utilisation("underutilized", source, evidence, rec)
    if mean < PARTLY_PERCENT:
        return Utilisation(
            "underutilized",
            source,
            evidence,
            "GPUs are partly used: larger batches, more data-loader workers, or pack several runs per GPU",
        )
    return Utilisation("healthy", source, evidence)


_ENV_CUES = re.compile(
    r"(creating virtual environment|uv venv|uv sync|resolved \d+ packages|installed \d+ packages|"
    r"pip install|successfully installed|conda (?:create|env create|install)|solving environment|"
    r"collecting \S+|downloading \S+\.whl)",
    re.IGNORECASE,
)
_JOB_ENV = re.compile(r"(?:venv|env|environment)[^\s]*?(?:\$SLURM_JOB_ID|\d{4,}|/tmp/|job[-_]?\d+)", re.IGNORECASE)


def setup_overhead(d: TaskDigest) -> str | None:
    """Environment work seen in a log whose setup stage lasted long; None when not seen or not measurable."""
    lines = [e.line for e in d.key_events if _ENV_CUES.search(e.line)] + [
        x for x in d.error_lines if _ENV_CUES.search(x)
    ]
    if not lines or d.first_timestamp is None or d.last_timestamp is None:
        return None
    spent = (d.last_timestamp - d.first_timestamp).total_seconds()
    if d.stage not in ("setup", "no output") or spent < SETUP_SECONDS:
        return None
    job_env = any(_JOB_ENV.search(x) for x in lines)
    extra = " — a job-specific environment: reuse a project/stage env instead" if job_env else ""
    return f"{spent / 60:.0f} min in environment setup so far: {lines[0][:160]}{extra}"


_CKPT_FAIL = re.compile(
    r"(checkpoint|save_pretrained|torch\.save|saving model)[^\n]{0,120}(fail|error|denied|no space|quota)|"
    r"(fail|error)[^\n]{0,60}(checkpoint|saving model)",
    re.IGNORECASE,
)


def from_digests(digests: dict[str, TaskDigest], *, running: bool) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for name, d in digests.items():
        if d.stale:
            out.append(("stale", f"{name}: no log output since {d.last_update.isoformat() if d.last_update else '?'}"))
        if "repeated_exceptions" in d.flags and d.exception_counts:
            exc, n = max(d.exception_counts.items(), key=lambda kv: kv[1])
            out.append(("repeated_exception", f"{name}: {exc} seen {n} times"))
        ckpt = next((x for x in [*d.error_lines, *(e.line for e in d.key_events)] if _CKPT_FAIL.search(x)), None)
        if ckpt:
            out.append(("checkpoint_failure", f"{name}: {ckpt[:200]}"))
        odd = [f for f in d.flags if f in ("nan_loss", "nonfinite_metric", "loss_spike", "loss_increasing")]
        if odd:
            out.append(("metric_anomaly", f"{name}: {', '.join(odd)}"))
        setup = setup_overhead(d) if running else None
        if setup:
            out.append(("setup_overhead", f"{name}: {setup}"))
        if running and d.stage == "training" and d.progress is None and d.eta_seconds is None:
            out.append(("no_progress_markers", f"{name}: training output without progress markers; ETA unknown"))
    seen: set[str] = set()
    unique = []
    for label, line in out:  # one escalation per kind (the first task's evidence)
        if label not in seen:
            seen.add(label)
            unique.append((label, line))
    return unique


def gpu_utilisation(backend: Any, workflow_id: str, allocated: int | None) -> Utilisation:
    """Measure where something can: the backend's own probe (Slurm sstat), NVML, nvidia-smi; else unknown."""
    probe = getattr(backend, "sstat_tres", None)
    if callable(probe):
        text = probe(workflow_id)
        got = parse_sstat(text) if text else []
        if got:
            return utilisation(allocated, got, "sstat")
    nvml = read_nvml()
    if nvml:
        return utilisation(allocated, nvml, "nvml")
    smi = read_nvidia_smi()
    return utilisation(allocated, smi, "nvidia-smi" if smi else "none")


def waiting(backend: Any, ws: Any) -> list[tuple[str, str]]:
    """A run queued, or a task starting (image pull, ContainerCreating), for longer than PENDING_SECONDS, with
    the scheduler's own reason in plain words where it gave one."""
    from runshepherd.diagnosis.pending import translate

    out: list[tuple[str, str]] = []
    if ws.status.value == "PENDING" and (ws.queued_time or 0.0) > PENDING_SECONDS:
        try:
            lines = [e.line() for e in backend.events(ws.workflow_id)]
        except Exception:  # events are evidence, not a requirement: the queue time alone is still true
            lines = []
        reasons = translate(lines)
        why = f": {reasons[0].plain} ({reasons[0].evidence[:160]})" if reasons else "; the scheduler gave no reason"
        out.append(("pending", f"queued {ws.queued_time / 60:.0f} min{why}"))
    now = datetime.now(UTC)
    for t in ws.tasks:
        if t.status.value == "INITIALIZING" and t.scheduling_start_time is not None:
            started = (now - t.scheduling_start_time.astimezone(UTC)).total_seconds()
            if started > PENDING_SECONDS:
                out.append(
                    (
                        "stuck_starting",
                        f"{t.name}: still starting (image pull / container creation) after {started / 60:.0f} min",
                    )
                )
                break
    return out


def escalations_for(backend: Any, ws: Any, digests: Any) -> list[tuple[str, str]]:
    """The status snapshot's hook: escalations of a run as (label, evidence line)."""
    running = ws.status.value == "RUNNING"
    out = from_digests(digests.by_task, running=running) + (waiting(backend, ws) if ws.status.alive() else [])
    if running:
        allocated = _gpus_allocated(backend, ws.workflow_id)
        if allocated:
            u = gpu_utilisation(backend, ws.workflow_id, allocated)
            if u.verdict == "underutilized":
                out.append(("underutilized", wording.sentences([u.evidence, f"Next launch: {u.recommendation}"])))
    return out


def _gpus_allocated(backend: Any, workflow_id: str) -> int | None:
    from runshepherd.spec import SpecError, load_spec_text

    try:
        wf = load_spec_text(backend.spec(workflow_id), secrets="warn").workflow  # read, never kept
    except (SpecError, OSError, ValueError):  # a foreign job has no spec: its allocation is unknown here
        return None
    return wf.total_gpus() or None
