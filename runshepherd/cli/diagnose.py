"""`orchestrate diagnose WF` and `orchestrate diagnose --log FILE …`: the label, the evidence, the fix."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, BinaryIO

from runshepherd import wording
from runshepherd.cli.context import CliContext
from runshepherd.errors import UsageError

HEAD_BYTES = 1 * 1024 * 1024
TAIL_BYTES = 6 * 1024 * 1024


LINE_BYTES = 4000
"""The most read of one line: an enormous line (a whole log printed without line breaks, a JSON blob) keeps its
first and last ``LINE_BYTES // 2`` bytes as two lines, so the error at its start and the one at its end both reach
the diagnosis, in bounded memory and time."""


PAD_BLOCK = 64 * 1024
PAD_SCAN = 256 * 1024 * 1024  # the most padding read past: beyond it, the file is read as if it ended there


def _text_end(fh: BinaryIO, size: int) -> int:
    """Where a file's text ends: before the NUL bytes that fill its tail when the writer died before its data reached
    the disk, or the file was preallocated (a log on NFS or Lustre after a crash, a sparse file). Those bytes were
    never written; the log's last words are the last bytes before them. Read backwards a block at a time, at most
    `PAD_SCAN` bytes (bounded time on a file of nothing but padding)."""
    end = size
    while end > 0 and size - end < PAD_SCAN:
        start = max(0, end - PAD_BLOCK)
        fh.seek(start)
        block = fh.read(end - start).rstrip(b"\x00")
        if block:
            return start + len(block)
        end = start
    return end


_NUL_RUN = re.compile(rb"\x00+")


def text_size(path: Path) -> int:
    """The bytes of ``path`` before its NUL-padded tail (`_text_end`)."""
    with path.open("rb") as fh:
        return _text_end(fh, path.stat().st_size)


def read_bounded(path: Path, size: int | None = None) -> str:
    """A log's head and tail (where setup errors and final errors live), never the whole of a huge file, nor the
    whole of an enormous line (`LINE_BYTES`). NUL bytes are not part of a log (`_text_end`): a padded tail is left
    out before the tail is read (``size``: `text_size`, when the caller has it), and runs of them inside are
    dropped."""
    size = text_size(path) if size is None else size
    with path.open("rb") as fh:
        if size <= HEAD_BYTES + TAIL_BYTES:
            data = _NUL_RUN.sub(b"", fh.read(size))
        else:
            head = fh.read(HEAD_BYTES)
            fh.seek(size - TAIL_BYTES)
            tail = fh.read(TAIL_BYTES)
            head, tail = _NUL_RUN.sub(b"", head), _NUL_RUN.sub(b"", tail)
            # the partial lines at the cut are dropped, unless one is enormous: its start (its end) is kept
            end = head.rfind(b"\n") + 1
            end = len(head) if len(head) - end > LINE_BYTES else end
            start = tail.find(b"\n") + 1
            start = 0 if start > LINE_BYTES else start
            data = head[:end] + (b"" if head[:end].endswith(b"\n") else b"\n") + tail[start:]
    # one scan that tries line starts only: a log with no enormous line comes back as it is, not split and joined
    return _LONG_LINE.sub(_line_ends, data).decode("utf-8", errors="replace")


_LONG_LINE = re.compile(rb"(?m)^[^\n]{%d,}" % (LINE_BYTES + 1))


def _line_ends(m: re.Match[bytes]) -> bytes:
    """The first and last ``LINE_BYTES // 2`` bytes of a line longer than ``LINE_BYTES``, each piece its own line."""
    line, half = m.group(), LINE_BYTES // 2
    if b"\r" in line and (frames := _whole_frames(line, half)) is not None:
        return frames
    head, tail = line[:half], line[-half:]
    # a word the cut splits is left out: half a token matches no redaction rule, yet would be shown as evidence
    gap = head.rfind(b" ", half - 256)
    head = head[: gap + 1] if gap > 0 else head
    gap = tail.find(b" ", 0, 256)
    tail = tail[gap + 1 :] if gap >= 0 else tail
    return head + " … [line cut]\n… [line cut] ".encode() + tail


def _whole_frames(line: bytes, half: int) -> bytes | None:
    """A carriage-return-joined line (a progress bar redrawn in place) cut between its frames: the first and the last
    frames that fit in ``half`` bytes each, every frame whole. A frame cut in the middle loses its label, and an
    anonymous bar reads as the run's progress where the whole frame said it was still loading weights
    ("Loading weights:  14%|█▍  | 63/447"). None when a frame at either end is longer than ``half``."""
    frames = line.split(b"\r")
    first = last = 0
    size = 0
    while first < len(frames) and size + len(frames[first]) + 1 <= half:
        size += len(frames[first]) + 1
        first += 1
    size = 0
    while last < len(frames) - first and size + len(frames[-1 - last]) + 1 <= half:
        size += len(frames[-1 - last]) + 1
        last += 1
    if first == 0 or last == 0:
        return None
    head, tail = b"\r".join(frames[:first]), b"\r".join(frames[len(frames) - last :])
    return head + " … [line cut]\n… [line cut]\r".encode() + tail


def _is_blank(path: Path, size: int, limit: int = HEAD_BYTES) -> bool:
    """True when the file's text (its first ``size`` bytes, `text_size`) is nothing but whitespace and NULs (read at
    most ``limit`` bytes: a longer file is not blank)."""
    with path.open("rb") as fh:
        head = fh.read(min(size, limit + 1))
    return len(head) <= limit and not _NUL_RUN.sub(b"", head).strip()


def _binary_share(path: Path, sample: int = 64 * 1024) -> float:
    """The share of a file's first ``sample`` bytes that is not text (NUL, other C0 controls than tab/CR/LF/ESC/
    backspace, or bytes that are not UTF-8). A log is text; an archive, a checkpoint or random bytes are not."""
    with path.open("rb") as fh:
        head = _NUL_RUN.sub(b"", fh.read(sample))  # (runs of NUL are padding: `_text_end`)
    if not head:
        return 0.0
    text = head.decode("utf-8", errors="replace")
    bad = sum(1 for c in text if c == "\ufffd" or (ord(c) < 32 and c not in "\t\r\n\x1b\x08\x0c"))
    return bad / max(1, len(text))


def _redacted(obj: dict[str, Any]) -> dict[str, Any]:
    from runshepherd.logs import redact

    obj["evidence"] = [redact(line)[0] for line in obj["evidence"]]
    obj["explanation"] = redact(obj["explanation"])[0]
    fix = obj.get("fix") or {}
    for key in ("description", "patch"):  # the diff's context lines are the spec's: a literal secret among them
        if fix.get(key):
            fix[key] = redact(fix[key])[0]
    return obj


def diagnose_files(ctx: CliContext, files: list[Path], as_json: bool, *, rules_only: bool = False) -> int:
    from runshepherd.diagnosis import diagnose_log_text

    folders = [str(f) for f in files if f.is_dir()]
    if folders:
        raise UsageError(
            f"{', '.join(folders)}: a folder, not a log file — give the log files, e.g. --log {folders[0]}/*.log"
        )
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise UsageError(f"log file(s) not found: {', '.join(missing)}")
    streams = [str(f) for f in files if not f.is_file()]  # read by size: a pipe or a device has none
    if streams:
        raise UsageError(
            f"{', '.join(streams)}: not a regular file (a pipe or a device) — save the log to a file first, e.g. "
            "`kubectl logs POD > run.log`, then `orchestrate diagnose --log run.log`"
        )
    sizes = {f: text_size(f) for f in files}  # (one backward scan per file, for both checks and the read)
    empty = [str(f) for f in files if _is_blank(f, sizes[f])]
    if empty:
        raise UsageError(
            f"{', '.join(empty)}: {'the log is' if len(empty) == 1 else 'these logs are'} empty — nothing to "
            "diagnose. Give the run's log, e.g. `orchestrate logs WF --raw > run.log`, or `orchestrate diagnose WF`."
        )
    binary = [f"{f} ({_binary_share(f):.0%})" for f in files if _binary_share(f) > 0.3]
    if binary:  # diagnosing random bytes finds "progress" in them; say what the file is instead
        raise UsageError(
            f"{', '.join(binary)}: not a text log — that share of its first 64 KiB is binary. Give the job's "
            "text output (e.g. `orchestrate logs WF --raw > run.log`); a compressed log must be unpacked first"
        )
    from runshepherd.logs.decode import strip_controls

    expert = None if rules_only else model_expert(ctx)
    for f in files:
        # Escape sequences are neither evidence nor safe to print back (a window title, a clipboard write).
        text = "\n".join(strip_controls(line) for line in read_bounded(f, sizes[f]).splitlines())
        diag = diagnose_log_text(text, str(f), rules_only=rules_only)
        diag, looked = _review(expert, diag, _bare_log_input(str(f), text) if expert is not None else None)
        obj = _redacted(diag.to_json(str(f)))
        if looked:
            obj["second_look"] = looked
        _print(ctx, obj, as_json, what_would_confirm=diag.what_would_confirm)
    _notices(ctx, expert)
    return 0


def model_expert(ctx: CliContext) -> Any:
    """The configured model expert (`expert: provider:model`), which reviews the rules' unsure verdicts as in a
    session; None for the built-in heuristic. A model that cannot work is an error now (`make_expert`)."""
    if ctx.settings.expert == "heuristic":
        return None
    from runshepherd.experts.base import make_expert

    return make_expert(ctx.settings.expert, settings=ctx.settings)


def _bare_log_input(source: str, text: str) -> Any:
    """A log file alone as the model's material: one task, its lines, nothing else known (status, exit code)."""
    from runshepherd.diagnosis import DiagnosisInput

    return DiagnosisInput(workflow_id=source, log_lines={"log": text.splitlines()})


def _review(expert: Any, diag: Any, inp: Any) -> tuple[Any, Any]:
    """The verdict to print and, when the model's (`second_look`) replaced the rules' unsure one, the note that says
    so with the rules' reading."""
    from runshepherd.experts.base import second_look

    looked = second_look(expert, inp, diag)
    if looked is diag:
        return diag, None
    return looked, {"expert": expert.name, "rules_label": diag.label, "rules_confidence": diag.confidence}


def _notices(ctx: CliContext, expert: Any) -> None:
    """What the model path reports (unreachable, an answer rejected): on stderr, so --json stays one document."""
    from runshepherd.experts.base import NoticeSource

    if isinstance(expert, NoticeSource):
        for notice in expert.drain_notices():
            ctx.err.print(f"note: {notice}", markup=False, soft_wrap=True)


def diagnose_workflow(ctx: CliContext, workflow_id: str, as_json: bool) -> int:
    for obj, confirm in workflow_diagnoses(ctx, workflow_id):
        _print(ctx, obj, as_json, what_would_confirm=confirm)
    return 0


def workflow_diagnoses(ctx: CliContext, workflow_id: str) -> list[tuple[dict[str, Any], str | None]]:
    """Each failed (or stuck) task's diagnosis, redacted, with what would confirm it."""
    from runshepherd.diagnosis import DiagnosisInput, diagnose
    from runshepherd.diagnosis.models import MetricsHints
    from runshepherd.logs import LogConfig
    from runshepherd.logs.tasklog import digest_task

    backend = ctx.backend
    ws = backend.query(workflow_id)
    cfg = LogConfig(**ctx.settings.logs.model_dump())
    log_lines: dict[str, list[str]] = {}
    nan = False
    for t in ws.tasks:
        if t.status.value == "FAILED_UPSTREAM":
            continue
        d = digest_task(
            backend,
            workflow_id,
            t.name,
            status=t.status.value,
            config=cfg,
            tail_lines=ctx.settings.logs.tail_lines,
            capture_timeout=ctx.settings.logs.capture_timeout_seconds if ws.status.alive() else None,
        )
        log_lines[t.name] = list(d.error_lines) + (
            [d.root_error] if d.root_error and d.root_error not in d.error_lines else []
        )
        nan = nan or "nan_loss" in d.flags
    inp = DiagnosisInput.from_workflow(
        ws,
        events=backend.events(workflow_id),
        log_lines=log_lines,
        spec_text=backend.spec(workflow_id),
        metrics=MetricsHints(nan_seen=nan),
    )
    nodes = backend.resources(ws.pool)
    from runshepherd.backends.access import confirm_access
    from runshepherd.backends.base import runs_on_host
    from runshepherd.diagnosis.fixes import propose_fix

    on_host = runs_on_host(backend)
    canceled = None
    if ws.status.value == "FAILED_CANCELED":  # the person's word first: what it showed before is only background
        from runshepherd.reports.build import canceled_step

        canceled = canceled_step(ws, ctx.state_dir)
    out = []
    expert = model_expert(ctx)
    for rules in diagnose(inp):
        diag, looked = _review(expert, rules, inp)
        if (diag.fix.patch is None or on_host) and diag.label != "healthy" and inp.spec_text:
            diag = diag.model_copy(update={"fix": propose_fix(diag, inp.spec_text, nodes=nodes, on_host=on_host)})
        obj = _redacted(diag.to_json(workflow_id))
        obj["task"] = diag.task
        if looked:
            obj["second_look"] = looked
        if canceled:
            obj["canceled"] = canceled
            if diag.label == "unknown":  # "the run failed, but nothing says why": the cancel says why
                obj["explanation"] = "Nothing before the cancel (status, events, logs) points to a problem."
        if diag.label == "permission_or_auth" and inp.spec_text:
            obj["access_checks"] = [c.model_dump() for c in confirm_access(backend, inp.spec_text, diag.task)]
        out.append((obj, diag.what_would_confirm))
    _notices(ctx, expert)
    return out


def _print(ctx: CliContext, obj: dict[str, Any], as_json: bool, *, what_would_confirm: str | None) -> None:
    if as_json:
        ctx.print_json(obj)
        return
    out = ctx.out
    task = f" (task {obj['task']})" if obj.get("task") else ""
    if obj.get("canceled"):  # was: a canceled run that had waited for GPUs was "waiting", in the present tense
        out.print(f"{obj['source']}{task}: canceled — {obj['canceled']}", markup=False)
        out.print("  Before the cancel, its logs and events showed:", markup=False)
    out.print(
        f"{obj['source']}{task}: {obj['label']} — origin {obj['origin']}, confidence {obj['confidence']:.2f}",
        markup=False,
    )
    out.print(f"  {obj['explanation']}", markup=False)
    if looked := obj.get("second_look"):
        out.print(
            f"  read by the model {looked['expert']}: the rules were unsure ({looked['rules_label']}, confidence "
            f"{looked['rules_confidence']:.2f})",
            markup=False,
        )
    for line in obj["evidence"][:8]:
        out.print(f"    │ {line}", markup=False)
    checks = obj.get("access_checks") or []
    for c in checks:
        verdict = "yes" if c["ok"] else "no"
        out.print(f"  access check: {c['access']} {c['uri']} → {verdict} ({c['detail']})", markup=False)
    if checks and all(c["ok"] for c in checks):
        out.print(
            "  the task's storage locations are accessible: the denial is elsewhere (a token, a gated model, "
            "a file's permissions)",
            markup=False,
        )
    if what_would_confirm:
        out.print(f"  to confirm: {what_would_confirm}", markup=False)
    fix = obj["fix"]
    if fix["kind"] != "none":
        out.print(f"  fix ({fix['kind']}): {wording.proposed(fix['description'])}", markup=False)
    if fix.get("patch"):
        out.print(fix["patch"].rstrip(), markup=False)
