"""The built-in expert: deterministic, offline, instant. Drafts specs from requests and applies fix rules."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from runshepherd.experts.base import Draft, FixProposal
from runshepherd.experts.heuristic.planner import draft_from_request
from runshepherd.experts.heuristic.request import parse_request
from runshepherd.spec import SpecError, load_spec_text, spec_diff
from runshepherd.spec.diff import PatchError, apply_unified_diff
from runshepherd.spec.tokens import NEAR_MISSES


def _fix_near_miss_tokens(text: str) -> tuple[str, list[str]]:
    """`{{outputs}}` and friends are never substituted by a scheduler; fix them in the same pass."""
    changes = []
    lines = text.splitlines(keepends=True)
    for wrong, right in NEAR_MISSES.items():
        pat = re.compile(r"\{\{\s*" + re.escape(wrong) + r"\s*\}\}")
        hit = False
        for i, line in enumerate(lines):
            if not line.lstrip().startswith("#") and pat.search(line):
                lines[i] = pat.sub(right, line)
                hit = True
        if hit:
            changes.append(f"replaced {{{{{wrong}}}}} with {right} (a token the scheduler does not substitute)")
    return "".join(lines), changes


class HeuristicExpert:
    name = "heuristic"

    def draft_spec(self, request: str, *, cwd: Path) -> Draft:
        return draft_from_request(parse_request(request, cwd), cwd)

    def fix_spec(
        self,
        spec_text: str,
        diagnosis: dict[str, Any],
        *,
        nodes: list[Any],
        base_dir: Path | None,
        on_host: bool = True,
    ) -> FixProposal:
        from runshepherd.diagnosis.fixes import propose_fix
        from runshepherd.diagnosis.models import Diagnosis

        diag = Diagnosis.model_validate(diagnosis)
        fix = propose_fix(diag, spec_text, nodes=nodes, on_host=on_host)
        new_text = spec_text
        if fix.patch:
            try:
                new_text = apply_unified_diff(spec_text, fix.patch)
            except PatchError as exc:
                return FixProposal(
                    new_spec=None,
                    diff=None,
                    kind=fix.kind,
                    explanation=f"{fix.description} (the patch did not apply: {exc})",
                )
        new_text, others = _fix_near_miss_tokens(new_text)
        if new_text == spec_text:
            return FixProposal(new_spec=None, diff=None, kind=fix.kind, explanation=fix.description or diag.explanation)
        try:
            # the spec it edits may be a scheduler's (diagnose WF); RunShepherd's own intake refuses a secret
            load_spec_text(new_text, base_dir=base_dir, secrets="warn")
        except SpecError as exc:
            return FixProposal(
                new_spec=None,
                diff=None,
                kind=fix.kind,
                explanation=f"{fix.description} — but the changed spec would not validate: {exc}",
            )
        return FixProposal(
            new_spec=new_text,
            diff=spec_diff(spec_text, new_text, "spec.yaml"),
            kind=fix.kind if fix.patch else ("fix_path" if others else fix.kind),
            explanation=fix.description if fix.patch else "; ".join(others),
            other_changes=others if fix.patch else [],
        )
