"""The run completed but its outputs are missing: typically the `{{outputs}}` typo (OSMO substitutes `{{output}}`)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_outputs
from runshepherd.diagnosis.rules.base import ORDER_STATUS, Context, FunctionRule, PatternRule, Signal, pat
from runshepherd.diagnosis.rules.family import family, words

_TYPO = re.compile(r"\{\{\s*outputs\s*\}\}")
_EXPL_TYPO = (
    "The script wrote its results to the literal folder '{{outputs}}' (plural). Only '{{output}}' "
    "(singular) is replaced with the task's upload folder, so nothing was uploaded when the task finished."
)
_FIX_TYPO = (
    "Replace `{{outputs}}` with `{{output}}` in the script/command and rerun; files in {{output}} are "
    "uploaded when the task completes."
)
_EXPL_EMPTY = (
    "The run finished successfully but no output files were uploaded: the script did not write "
    "anything into the task's output folder ({{output}})."
)
_FIX_EMPTY = (
    "Make the script write its results under {{output}} (singular, e.g. `--out {{output}}/images`), "
    "check it is not writing to a local path or to `{{outputs}}`, and that the output URL is declared."
)


def _outputs_missing(ctx: Context) -> list[Signal]:
    if ctx.status != "COMPLETED":
        return []
    typo_lines = [
        ln for ln in (ctx.spec_text or "").splitlines() if _TYPO.search(ln) and not ln.lstrip().startswith("#")
    ]  # a comment is not a path
    if typo_lines:  # some schedulers (OSMO) list declared URLs as outputs even when nothing was written
        return [
            Signal(
                "output_missing", "user", 0.95, ORDER_STATUS, [typo_lines[0].strip()], _EXPL_TYPO, "fix_path", _FIX_TYPO
            )
        ]
    if ctx.declared_outputs and ctx.written_outputs is not None and not ctx.written_outputs:
        ev = [f"status: COMPLETED, outputs: (none written); declared: {', '.join(ctx.declared_outputs)}"]
        return [Signal("output_missing", "user", 0.75, ORDER_STATUS, ev, _EXPL_EMPTY, "fix_path", _FIX_EMPTY)]
    return []


_TYPO_LINES = PatternRule(
    name="output_missing_typo",
    label="output_missing",
    origin="user",
    fix_kind="fix_path",
    explanation=_EXPL_TYPO,
    fix_description=_FIX_TYPO,
    patterns=(pat(r"\{\{\s*outputs\s*\}\}", 0.88),),
    in_events=False,
    in_warnings=True,
)
# nothing (or not what was declared) was written: the script or the step's declaration has to change, which is
# what maintainers answer (a path typo in the spec is the case above)
_OUTPUT_LINES = PatternRule(
    name="output_missing",
    label="output_missing",
    origin="user",
    fix_kind="fix_code",
    explanation=_EXPL_EMPTY,
    fix_description=_FIX_EMPTY,
    patterns=(
        pat(
            r"No (?:output )?files (?:found )?to upload|nothing to upload|0 files uploaded|output (?:directory|folder) \S* ?is empty|No outputs (?:were )?(?:found|produced)",
            0.85,
        ),
        pat(
            r"nothing (?:will be|was|to be) uploaded|No artifacts will be uploaded|\b0 files?,? \(?0 ?B\)? ?uploaded"
            r"|expected output .{0,80} but nothing was written|expected output .{0,80} was not produced|nothing was written to (?:the )?outputs?\b"
            r"|expected (?:output|artifact) .{0,80} does not exist|(?:job|task|run) produced no outputs?\b",
            0.85,
        ),
    ),
    in_events=False,
    in_warnings=True,
)

# workflow engines (Nextflow, Snakemake, Argo, Cromwell) check a step's declared outputs after it exits 0
_DECLARED_LINES = PatternRule(
    name="declared_outputs_missing",
    label="output_missing",
    origin="user",
    fix_kind="fix_code",
    explanation="The step ran, but the output files it declares were not there afterwards, so the workflow engine "
    "failed it: the command wrote them under another name or path, or exited early without writing them.",
    fix_description="Make the command write exactly the declared files (names and paths relative to the step's "
    "work directory), handle the case where it legitimately produces nothing, or fix the output declaration.",
    patterns=(
        pat(
            r"Missing output file\(s\)|MissingOutputException|some output files are missing"
            r"|failed to save outputs|Failed to evaluate job outputs"
            # Cromwell's backends (after the call exits), cwltool's output collection, Snakemake's latency wait
            r"|Could not process output, file not found|Did not find output file with glob pattern"
            r"|Error collecting output for parameter|Missing files after \d+ seconds"
            # DVC, when a stage's command ran but a declared output is not there (dvc/output.py
            # OutputDoesNotExistError: "output 'x' does not exist")
            r"|failed to reproduce '[^']+': output '[^']+' does not exist",
            0.9,
        ),
    ),
    in_events=False,
    in_warnings=True,
)

# a batch job's own closing tally that every item failed and none was produced ("succeeded: 0, failed: 16", "16
# failed, 0 passed"; Chinese "生成 0 | 失败 16", generated/failed): the loop caught each item's error and ended as if it
# had worked. The words are the tally's own; a count of 0 failures, or any item produced, is not this
_TALLY_DONE = r"(?:generated|succeeded|successful|success|processed|saved|written|produced|生成|成功)"
_TALLY_FAILED = r"(?:fail(?:ed|ures?|s)?|失败)"
_ALL_FAILED_LINES = PatternRule(
    name="every_item_failed",
    label="output_missing",
    origin="user",
    fix_kind="fix_code",
    explanation="The job went through its items and ended without an error, but its own closing tally says none was "
    "produced and some failed: each item's error was caught and skipped, so the run left no results.",
    fix_description="Read the first item's error in the log (the loop printed or logged it) and fix that; then rerun. "
    "Consider making the job exit non-zero when every item fails.",
    patterns=(
        pat(
            rf"(?<![\w.]){_TALLY_DONE}\s*[:=|]?\s*0(?![\d%]|[.,]\d)(?:[^\n]{{0,80}}?){_TALLY_FAILED}\s*[:=|]?\s*[1-9]\d*(?![\d%]|[.,]\d)"
            rf"|(?<![\w.])[1-9]\d* failed, 0 (?:succeeded|passed)\b",
            0.8,
        ),
    ),
    in_events=False,
    in_warnings=True,
)


# the trainer had nothing to train on and returned at once, as a success: Lightning's fit loop with an empty training
# dataloader (loops/fit_loop.py `done`: rank_zero_info("`Trainer.fit` stopped: No training batches."))
_NO_BATCHES_LINES = PatternRule(
    name="no_training_batches",
    label="output_missing",
    origin="user",
    fix_kind="fix_code",
    explanation="The trainer found no training batches (its training dataloader is empty), so it stopped before a "
    "single step and the run ended as if it had worked: nothing was trained or saved.",
    fix_description="Check that the training dataset is found and not empty (its path, filters and split) and that "
    "the batch size with drop_last does not exceed its size; then rerun.",
    patterns=(pat(r"`?Trainer\.fit`? stopped: No training batches", 0.8),),
    in_events=False,
    in_warnings=True,
)

# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): a run that wrote no outputs
ROOT_WORDS = (
    words(
        r"\bno (?:outputs?|artifacts?|results?) (?:were |was )?(?:found|written|saved|produced|generated|uploaded)\b"
        # (the words for a thing not there, said of an output: DVC's "output 'x' does not exist" after a stage ran; the
        # same words said of another path are file_not_found's)
        r"|\boutputs?\b(?:[^.]|\.\S){0,40}\b(?:missing|empty|not (?:found|written|produced|created|uploaded)"
        r"|(?:does|do|did)(?: not|n't) exist)\b"
        r"|\bnothing to (?:upload|save)\b|\b(?:failed|unable) to (?:save|upload|write|collect) (?:the )?outputs?\b",
        0.6,
        "outputs the run was expected to write",
    ),
    # workflow engines' missing outputs (Snakemake's MissingOutputException "Missing files after N seconds",
    # Nextflow's "Missing output file(s) … expected by process")
    words(r"\bmissing output\b|\bMissing files after \d+ seconds\b", 0.62, "outputs the run was expected to write"),
)


FAMILY = family(
    "output_missing",
    origin="user",
    fix_kind="fix_path",
    explanation=_EXPL_EMPTY,
    fix_description=_FIX_EMPTY,
    rules=(
        FunctionRule("outputs_missing", _outputs_missing),
        _TYPO_LINES,
        _OUTPUT_LINES,
        _DECLARED_LINES,
        _NO_BATCHES_LINES,
        _ALL_FAILED_LINES,
    ),
    applies=("failed", "completed"),
    fixer=fix_outputs,
    root_words=ROOT_WORDS,
)
