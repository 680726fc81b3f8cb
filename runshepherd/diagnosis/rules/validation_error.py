"""The scheduler refused the spec at submission (capacity validation, bad fields, impossible requests)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_validation
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import ORDER_STATUS, Context, FunctionRule, PatternRule, Signal, pat
from runshepherd.diagnosis.rules.family import family
from runshepherd.diagnosis.rules.unschedulable import SLURM_PLACEMENT_REFUSAL

_CAPACITY = re.compile(
    r"failed capacity validation|exceed what any single node"
    r"|More processors requested than permitted|Node count specification invalid"
    r"|exceeds? (?:the )?(?:node|allocatable) capacity|Insufficient resources on any node"
    r"|Resource validation failed|Value \"?[\w.]+\"? too high for label",
    re.IGNORECASE,
)
_TABLE_ROW = re.compile(r"^\s*(?:gpu|cpu|memory|storage)\s+\S+\s+\S+\s*$", re.IGNORECASE)
_OTHER = re.compile(
    r"Workflow submission failed|Batch job submission failed|Invalid partition name|admission webhook .* denied the request"
    r"|error validating data|spec\.\S+: (?:Invalid|Required|Unsupported) value|validation errors? for (?:WorkflowSpec|TaskSpec|Workflow)"
    r"|Invalid workflow spec|workflow spec (?:is )?invalid|spec validation failed|FAILED_SUBMISSION",
    re.IGNORECASE,
)

# sbatch/srun print Slurm's placement refusals after the same "submission failed" prefix: those are unschedulable's
_PLACEMENT = re.compile(SLURM_PLACEMENT_REFUSAL, re.IGNORECASE)
_CAPACITY_G, _OTHER_G, _PLACEMENT_G = Gated.of(_CAPACITY), Gated.of(_OTHER), Gated.of(_PLACEMENT)


def _validation(ctx: Context) -> list[Signal]:
    cap: list[tuple[int, str]] = []
    other: list[tuple[int, str]] = []
    for order, ln in ctx.texts():
        key = order if order < 0 else ln.index
        if _CAPACITY_G.search(ln.text, ln.folded):
            cap.append((key, ln.raw.rstrip()))
        elif _OTHER_G.search(ln.text, ln.folded) and not _PLACEMENT_G.search(ln.text, ln.folded):
            other.append((key, ln.raw.rstrip()))
    if ctx.status == "FAILED_SUBMISSION" and not (cap or other):
        other.append((ORDER_STATUS, f"status: {ctx.status}"))
    if cap:
        ev = [c[1] for c in (other[:1] + cap[:2])]
        ev += [ln.raw.rstrip() for ln in ctx.log.lines if _TABLE_ROW.match(ln.text)][:6]
        return [
            Signal(
                "validation_error",
                "capacity",
                0.97,
                min(c[0] for c in cap + other),
                ev,
                "The scheduler refused the workflow before it ran: it asks for more CPU, memory, storage or "
                "GPUs than any single machine in the pool has.",
                "change_resources_or_wait",
                "Shrink the hard-coded `resources` to fit one node (OSMO's sizing rule: memory/storage "
                "floor(capacity×0.9) when ≥50 else capacity−2, CPU the same with 30, GPUs an even number, "
                "then scale CPU/memory/storage by requested/node GPUs) and resubmit with the same command.",
            )
        ]
    if other:
        return [
            Signal(
                "validation_error",
                "config",
                0.9,
                other[0][0],
                [o[1] for o in other[:2]],
                "The scheduler refused the workflow before it ran because the spec is not valid for it.",
                "fix_code",
                "Read the scheduler's message, fix the named field in the spec (names, units such as Gi, "
                "partition/pool name) and resubmit.",
            )
        ]
    return []


_CONFIG_EXPL = (
    "The program stopped before doing any work because its configuration was rejected: the command line passes "
    "an option it does not accept (or leaves out one it requires), or a config value fails the program's checks."
)
_CONFIG_FIX = (
    "Change the task's `args` or config file to what the program accepts (its usage line or the validation "
    "message names the option and the rule); an unknown option can simply be removed."
)

_CONFIG = PatternRule(
    name="config_rejected",
    label="validation_error",
    origin="config",
    fix_kind="fix_code",
    explanation=_CONFIG_EXPL,
    fix_description=_CONFIG_FIX,
    patterns=(
        # a config schema (pydantic, OmegaConf/Hydra, DeepSpeed's batch arithmetic) rejected the values
        pat(r"\d+ validation errors? for \w+|\[type=[a-z_]+, input_value=", 0.88, flags=0),
        pat(
            r"not a valid override|OverrideParseException|ConfigCompositionException|MissingMandatoryValue"
            r"|Check batch related parameters",
            0.86,
            flags=0,
        ),
        pat(r"^\S+: error: unrecognized arguments: ", 0.9, flags=0),
        pat(r"^\S+: error: the following arguments are required: ", 0.9, flags=0),
        pat(r"^\S+: error: argument \S+: (?:invalid|expected)", 0.88, flags=0),
        pat(r"^Error: (?:No such option|Missing option|Missing argument|Invalid value for) ", 0.85, flags=0),
        pat(
            r"Error merging override|Could not override '|Could not append to config\. An item is already at",
            0.85,
            flags=0,
        ),  # Hydra: the command line's overrides do not fit the config
    ),
)


FAMILY = family(
    "validation_error",
    origin="config",
    fix_kind="fix_code",
    explanation=_CONFIG_EXPL,
    fix_description=_CONFIG_FIX,
    rules=(FunctionRule("validation", _validation), _CONFIG),
    # argument parsers and config schemas: a traceback that ends inside them is a rejected configuration
    frames=r"/argparse\.py$|hf_argparser\.py$|transformers/training_args\.py$|/(?:hydra|omegaconf|pydantic)/"
    r"|deepspeed/runtime/config\.py$",
    # (OmegaConf's missing-key errors are left out: code reading a key the config lacks is a code error)
    exceptions=r"^(?:pydantic(?:_core)?\S*\.ValidationError|hydra\S*\.\w+|omegaconf\.errors\.(?:ValidationError|MissingMandatoryValue))$",
    applies=("failed", "running"),
    fixer=fix_validation,
)
