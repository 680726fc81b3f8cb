"""The rule that reads Slurm's job state (``formats/jobstates.py``) for one family: each family module registers it
with its own words, so the state table stays one place and the family stays one module."""

from __future__ import annotations

from runshepherd.diagnosis.models import FixKind, Origin
from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal


def job_state_rule(label: str, origin: Origin, fix_kind: FixKind, explanation: str, fix: str) -> FunctionRule:
    """A rule giving ``label`` when Slurm prints a job state whose row names that family."""

    def slurm_job_state(ctx: Context) -> list[Signal]:
        lines = ctx.log.lines
        out: list[Signal] = []
        for i, st in ctx.log.job_states:
            if st.label != label or lines[i].code:
                continue
            out.append(
                Signal(
                    label,  # type: ignore[arg-type]
                    origin,
                    st.strength,
                    i,
                    [lines[i].raw.rstrip()],
                    f"Slurm reports the job's state as {st.name} ({st.code}): “{st.meaning}” {explanation}",
                    fix_kind,
                    fix,
                )
            )
        return out[:3]

    return FunctionRule(f"{label}_slurm_job_state", slurm_job_state)
