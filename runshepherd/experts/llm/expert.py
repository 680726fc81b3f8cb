"""LLMExpert: the WorkflowExpert interface backed by a chat model, with the heuristic expert behind every step.

Each step is validated before it is used (a spec must load, a diagnosis' evidence must be verbatim material);
a provider failure, a rejected answer or the ceiling falls back to the heuristic and leaves a notice for the
session to show. The expert never calls a backend that changes anything: its only tools read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel

from runshepherd.experts.base import Draft, FixProposal
from runshepherd.experts.heuristic.expert import HeuristicExpert
from runshepherd.experts.llm.call import ToolFn, structured, tool_loop
from runshepherd.experts.llm.errors import LLMRejected, LLMUnavailable
from runshepherd.experts.llm.material import as_data, clean
from runshepherd.experts.llm.schemas import ListPools, LLMDiagnosis, ReadFile, SpecDraft, SpecFix, ValidateSpec
from runshepherd.experts.llm.usage import UsageLedger
from runshepherd.prompts import load_prompt
from runshepherd.spec import SpecError, load_spec_text, spec_diff

MAX_FILE_CHARS = 8_000
MAX_LISTED_FILES = 60
UNSURE_LABELS = {"unknown", "user_code_error"}
UNSURE_CONFIDENCE = 0.5  # at even odds or worse: a disputed reading (learned.DISPUTED) is right half the time


def _messages(system: str, human: str) -> list[Any]:
    from langchain_core.messages import SystemMessage

    return [SystemMessage(content=system), _human(human)]


def _human(text: str) -> Any:
    from langchain_core.messages import HumanMessage

    return HumanMessage(content=text)


def _retry(messages: list[Any], error: str, schema: str) -> list[Any]:
    """The one retry: the same conversation plus the validation error, as data."""
    return [
        *messages,
        _human(
            f"That spec did not validate:\n{as_data('validation_error', error)}\n"
            f"Answer again with a corrected {schema}."
        ),
    ]


def _listing(cwd: Path) -> str:
    try:
        names = sorted(p.name + ("/" if p.is_dir() else "") for p in cwd.iterdir() if not p.name.startswith("."))
    except OSError:
        return "(the working directory cannot be listed)"
    return "\n".join(names[:MAX_LISTED_FILES]) or "(empty)"


def _read_bounded(cwd: Path, rel: str) -> str:
    root = cwd.resolve()
    path = (root / rel).resolve()
    if root not in path.parents and path != root:
        return "refused: only files inside the working directory can be read"
    if not path.is_file():
        return f"no file {rel}"
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        text = fh.read(MAX_FILE_CHARS + 1)
    return text if len(text) <= MAX_FILE_CHARS else text[:MAX_FILE_CHARS] + "\n… (cut)"


_PLACEMENT = {
    True: "on the host (the person's machine or the cluster's nodes), not in a container image.",
    False: "each task in its own container image.",
}
_SYSTEM_INSTALL = re.compile(r"\b(?:apt-get|apt|apk|dnf|yum|zypper)\b[^\n]*\b(?:install|add)\b")


def _adds_system_install(old: str, new: str) -> bool:
    """True when the model's spec adds a line that installs system packages (never applied on the host)."""
    before = set(old.splitlines())
    return any(_SYSTEM_INSTALL.search(line) for line in new.splitlines() if line not in before)


def _validate(text: str, base_dir: Path | None) -> str | None:
    """The validation error of a spec, or None when it loads."""
    if "[REDACTED" in text:
        return "the spec contains a [REDACTED:…] placeholder; the real value cannot be restored from it"
    try:
        load_spec_text(text, source="model's spec", base_dir=base_dir)
    except SpecError as exc:
        return str(exc)
    return None


def diagnosis_material(inp: Any) -> tuple[str, list[str]]:
    """The rule engine's extraction (status, exit codes, events, error block, candidate families) as text, and
    the verbatim input lines in it that the model may quote as evidence."""
    from runshepherd.diagnosis.extract import extract, render

    return render(inp, extract(inp))


def is_unsure(diag: Any) -> bool:
    """The rules' verdict is worth a model's second look: unknown, a bare exception, weak, or only the reading of
    one root error line by the families' words (the backoff before "unknown"); weak is at even odds or worse."""
    from runshepherd.diagnosis.rootline import is_root_reading

    return diag.label in UNSURE_LABELS or diag.confidence <= UNSURE_CONFIDENCE or is_root_reading(diag)


class LLMExpert:
    """The model behind `draft_spec`, `fix_spec` and `diagnose`; the heuristic behind the model."""

    def __init__(
        self,
        model: Any,
        *,
        name: str,
        ledger: UsageLedger,
        patterns: list[str] | None = None,
        pools: Callable[[], list[dict[str, Any]]] | None = None,
        fallback: Any = None,
    ) -> None:
        self.model = model
        self.name = name
        self.ledger = ledger
        self.patterns = list(patterns or [])
        self.pools = pools or (lambda: [])
        self.fallback = fallback or HeuristicExpert()
        self.notices: list[str] = []

    def _notice(self, what: str, exc: Exception) -> None:
        kind = "rejected the model's answer" if isinstance(exc, LLMRejected) else "the model is unavailable"
        text = f"{what}: {kind} ({exc}); using the built-in heuristic instead"
        if text not in self.notices:
            self.notices.append(text)

    def drain_notices(self) -> list[str]:
        out, self.notices = self.notices, []
        return out

    # -- mode 1: request → spec -----------------------------------------------------------------------------
    def draft_spec(self, request: str, *, cwd: Path) -> Draft:
        try:
            return self._draft(request, cwd)
        except (LLMUnavailable, LLMRejected) as exc:
            self._notice("writing the spec", exc)
            return self.fallback.draft_spec(request, cwd=cwd)

    def _draft(self, request: str, cwd: Path) -> Draft:
        tools: dict[str, tuple[type[BaseModel], ToolFn]] = {
            "list_pools": (ListPools, lambda _a: json.dumps(self.pools(), default=str)[:4000]),
            "read_file": (ReadFile, lambda a: _read_bounded(cwd, cast(ReadFile, a).path)),
            "validate_spec": (ValidateSpec, lambda a: _validate(cast(ValidateSpec, a).spec_yaml, cwd) or "valid"),
        }
        human = (
            f"The person's request:\n{as_data('request', request, self.patterns)}\n\n"
            f"Files in the working directory:\n{as_data('files', _listing(cwd), self.patterns)}"
        )
        messages = _messages(load_prompt("draft_spec"), human)
        for attempt in (1, 2):
            out = tool_loop(
                self.model, messages, SpecDraft, tools, node="plan", ledger=self.ledger, patterns=self.patterns
            )
            assert isinstance(out, SpecDraft)
            error = _validate(out.spec_yaml, cwd)
            if error is None:
                return Draft(
                    spec_text=out.spec_yaml, base_dir=str(cwd.resolve()), understood=out.understood, notes=out.notes
                )
            if attempt == 2:
                raise LLMRejected(f"the spec did not validate twice: {error.splitlines()[0]}")
            messages = _retry(messages, error, "SpecDraft")
        raise AssertionError("unreachable")

    # -- mode 2: diagnosis + spec → fixed spec ---------------------------------------------------------------
    def fix_spec(
        self,
        spec_text: str,
        diagnosis: dict[str, Any],
        *,
        nodes: list[Any],
        base_dir: Path | None,
        on_host: bool = True,
    ) -> FixProposal:
        try:
            return self._fix(spec_text, diagnosis, nodes, base_dir, on_host)
        except (LLMUnavailable, LLMRejected) as exc:
            self._notice("fixing the spec", exc)
            return self.fallback.fix_spec(spec_text, diagnosis, nodes=nodes, base_dir=base_dir, on_host=on_host)

    def _fix(
        self, spec_text: str, diagnosis: dict[str, Any], nodes: list[Any], base_dir: Path | None, on_host: bool
    ) -> FixProposal:
        keep = {k: diagnosis.get(k) for k in ("label", "origin", "confidence", "evidence", "explanation", "task")}
        keep["suggested_fix"] = (diagnosis.get("fix") or {}).get("description")
        node_rows = [
            {
                "pool": getattr(n, "pool", None),
                "cpu": getattr(n, "cpu_total", None),
                "memory_gi": getattr(n, "memory_total_gi", None),
                "gpu": getattr(n, "gpu_total", None),
            }
            for n in nodes[:20]
        ]
        human = (
            f"The spec:\n{as_data('spec', spec_text, self.patterns)}\n\n"
            f"The diagnosis:\n{as_data('diagnosis', json.dumps(keep, indent=1), self.patterns)}\n\n"
            f"The nodes:\n{as_data('nodes', json.dumps(node_rows), self.patterns)}\n\n"
            f"Where the tasks run: {_PLACEMENT[on_host]}"
        )
        messages = _messages(load_prompt("fix_spec"), human)
        for attempt in (1, 2):
            out = structured(self.model, messages, SpecFix, node="diagnose_fix", ledger=self.ledger)
            assert isinstance(out, SpecFix)
            if out.new_spec is None:
                return FixProposal(new_spec=None, diff=None, kind=out.kind, explanation=out.explanation)
            error = _validate(out.new_spec, base_dir)
            if error is None and out.new_spec.strip() == spec_text.strip():
                error = "the fixed spec is identical to the failed one"
            if error is None and on_host and _adds_system_install(spec_text, out.new_spec):
                error = (
                    "the fix installs system packages, but the tasks run on the host: set new_spec to null and "
                    "say what the person should install"
                )
            if error is None:
                return FixProposal(
                    new_spec=out.new_spec,
                    diff=spec_diff(spec_text, out.new_spec, "spec.yaml"),
                    kind=out.kind,
                    explanation=out.explanation,
                )
            if attempt == 2:
                raise LLMRejected(f"the fixed spec did not validate twice: {error.splitlines()[0]}")
            messages = _retry(messages, error, "SpecFix")
        raise AssertionError("unreachable")

    # -- diagnosis when the rules are unsure -----------------------------------------------------------------
    def diagnose(self, inp: Any, heuristic: Any, digest: str = "") -> Any | None:
        """A Diagnosis from the model, or None (keep the heuristic's) when it fails or cites unseen lines."""
        from runshepherd.diagnosis.models import Diagnosis, Fix

        text, verbatim = diagnosis_material(inp)
        material = clean(text, self.patterns)
        seen = {clean(ln, self.patterns).strip() for ln in verbatim if ln.strip()}
        human = (
            f'The facts:\n<data kind="facts">\n{material}\n</data>\n\n'
            f"The log digest:\n{as_data('digest', digest, self.patterns)}\n\n"
            f"The rules said: {heuristic.label} (confidence {heuristic.confidence:.2f})."
        )
        try:
            out = structured(
                self.model,
                _messages(load_prompt("diagnosis"), human),
                LLMDiagnosis,
                node="diagnose_fix",
                ledger=self.ledger,
            )
            assert isinstance(out, LLMDiagnosis)
            unseen = [e for e in out.evidence if e.strip() not in seen]
            if unseen:
                raise LLMRejected(f"{len(unseen)} evidence line(s) are not in the material, e.g. {unseen[0][:80]!r}")
            if not out.evidence and out.label not in ("unknown", "healthy"):
                raise LLMRejected("a diagnosis without evidence lines")
        except (LLMUnavailable, LLMRejected) as exc:
            self._notice("diagnosing", exc)
            return None
        return Diagnosis(
            label=out.label,
            origin=out.origin,
            confidence=out.confidence,
            evidence=out.evidence,
            explanation=out.explanation,
            task=heuristic.task,
            fix=Fix(kind=out.fix_kind, description=out.fix_description),
        )

    # -- the logs-reader digest ------------------------------------------------------------------------------
    def write_digest(self, extraction: str) -> str:
        """A ≤300-word digest written by the model from the deterministic extraction (never from raw logs).

        Accepted only if every number in it appears in the extraction (no made-up figures); otherwise, or on a
        provider failure, the extraction itself is the digest.
        """
        import re

        from runshepherd.experts.llm.schemas import LogDigest

        material = clean(extraction, self.patterns)
        try:
            out = structured(
                self.model,
                _messages(load_prompt("digest"), as_data("extraction", material, self.patterns)),
                LogDigest,
                node="read_logs",
                ledger=self.ledger,
            )
            assert isinstance(out, LogDigest)
            numbers = set(re.findall(r"\d+(?:\.\d+)?", material))
            invented = [n for n in re.findall(r"\d+(?:\.\d+)?", out.markdown) if n not in numbers]
            if invented:
                raise LLMRejected(f"the digest has numbers the logs do not show, e.g. {invented[0]}")
        except (LLMUnavailable, LLMRejected) as exc:
            self._notice("writing the log digest", exc)
            return extraction
        return out.markdown
