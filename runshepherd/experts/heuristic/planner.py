"""Write a spec from a parsed request using the templates in configs/templates/."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from runshepherd.experts.base import Draft
from runshepherd.experts.heuristic.request import RequestParams
from runshepherd.spec.render import render_template

TEMPLATES = Path(__file__).resolve().parents[2] / "configs" / "templates"


def _read_text(path: Path, limit: int = 200_000) -> str:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            return fh.read(limit)
    except OSError:
        return ""


# Flags of the bundled demo trainer (runshepherd/demo/config.py) a request may give verbatim.
DEMO_FLAGS = {
    "--epochs",
    "--steps-per-epoch",
    "--lr",
    "--batch-size",
    "--hidden",
    "--samples",
    "--features",
    "--classes",
    "--eval-fraction",
    "--seed",
    "--step-delay",
    "--log-every",
    "--memory-mb",
}
DEMO_DATA = (".npz", ".csv")


def _script_args(params: RequestParams, source: str, notes: list[str]) -> list[tuple[str, object]]:
    """Every flag the request gives verbatim, then the parameters said in words that the script has a flag for."""
    pairs: list[tuple[str, object]] = [(f, v) for f, v in params.flags]
    given = {f for f, _ in params.flags}
    skipped = []
    for names, v in (
        (("--epochs", "--num-epochs", "--num_epochs", "--num_train_epochs"), params.epochs),
        (("--steps", "--max-steps", "--max_steps"), params.steps),
        (("--lr", "--learning-rate", "--learning_rate"), params.lr),
        (("--batch-size", "--batch_size", "--per_device_train_batch_size"), params.batch_size),
        (("--model", "--model-name", "--model_name_or_path"), params.model),
        (("--dataset", "--data", "--dataset_name"), params.dataset),
    ):
        if v is None or given & set(names):
            continue
        flag = next((n for n in names if n in source), None)  # only flags the script itself defines
        if flag is None:
            skipped.append(names[0].lstrip("-"))
        else:
            pairs.append((flag, v))
    if skipped:
        notes.append(
            f"{params.script} has no flag for {', '.join(skipped)}, so that part of the request is "
            "not passed — edit the spec's args if the script reads it another way"
        )
    return pairs


def _flat(pairs: list[tuple[str, object]]) -> str:
    out: list[str] = []
    for flag, value in pairs:
        out.append(json.dumps(flag))
        if value is not None:
            out.append(json.dumps(str(value)))
    return ", ".join(out)


# A word that says a job is wanted; a request with none of these and nothing else understood names no job.
_JOB_WORDS = re.compile(
    r"\b(?:train\w*|fine-?tun\w*|finetun\w*|pre-?train\w*|run|launch|start|evaluat\w*|eval|benchmark\w*|generat\w*"
    r"|fit|learn\w*|classif\w*|regress\w*|model\w*|demo|example|jobs?|experiment\w*|sweep\w*|epochs?|steps?|test\w*"
    r"|submit|process\w*|preprocess\w*|infer\w*|predict\w*|network|mlp|cnn|transformer)\b",
    re.I,
)


_WEIGHTS = (".pt", ".pth", ".ckpt", ".safetensors", ".onnx", ".gguf")  # a model's weights, never its data


def draft_from_request(params: RequestParams, cwd: Path) -> Draft:
    """Run what was asked or say what is missing: a named script must be here, named paths must exist, and a
    model or dataset named in words is never quietly replaced by the bundled demo (`missing` makes it a question)."""
    notes: list[str] = []
    missing: list[str] = []
    values: dict[str, object] = {
        "name": params.name,
        "cpus": f"{params.cpus:g}" if params.cpus else "1",
        "memory": params.memory or "512Mi",
        "gpus": params.gpus or 0,
        "time_limit": params.time_limit or "30m",
    }
    for p in params.paths_missing:  # "evaluate ./model.pt": a checkpoint, not data
        missing.append(
            f"{'checkpoint' if p.lower().endswith(_WEIGHTS) else 'data path'} {p} (not found on this machine)"
        )
    missing.extend(params.unusable)  # "-3 epochs": never run with a number the person did not say
    notes.extend(params.implausible)  # "epochs=1e9": kept as said (a proposal is a proposal), and said in the plan
    substitute = None
    if params.script:
        template = "script.yaml"
        pairs = _script_args(params, _read_text(cwd / params.script), notes)
        for other in params.scripts_missing:
            missing.append(f"script {other} (not in {cwd}; only {params.script} was found)")
        values.update(
            script=params.script,
            script_name=Path(params.script).name,
            interpreter="bash" if params.script.endswith(".sh") else "python",
            args=_flat(pairs),
        )
        passed = {str(v) for _, v in pairs}
        for p in [*params.paths, *params.urls]:
            if p not in passed:
                notes.append(f"{p} is named but not passed to {params.script} — add it as a flag (e.g. --data {p})")
        if pairs:
            notes.append(f"{params.script} gets the flags you named: {' '.join(p[0] for p in pairs)}")
        base_dir = str(cwd.resolve())
        if missing:
            substitute = f"{params.script} as drafted"
    else:
        template = "demo.yaml"
        substitute = "the bundled demo trainer (a small classifier on synthetic data)"
        for s in params.scripts_missing:
            missing.append(f"script {s} (not in {cwd})")
        if not (params.understood or params.subject or params.paths or _JOB_WORDS.search(params.text)):
            missing.append(  # "hello there" names nothing to run: the demo is offered, never assumed
                f"a job to run ({params.text[:60]!r} names none — say what to train, e.g. 'train a small classifier "
                "for 3 epochs')"
            )
        if params.subject and not params.demo_requested:
            missing.append(  # a script named but not here was said just above: never "no script was named"
                f"model/dataset {params.subject} (the bundled demo cannot train it — put "
                f"{' or '.join(params.scripts_missing)} in {cwd}, or name a script that is there)"
                if params.scripts_missing
                else f"model/dataset {params.subject} (no script was named to train it; the bundled demo cannot — "
                "say which script, e.g. 'with train.py')"
            )
        epochs = params.epochs or 3
        pairs = [("--epochs", epochs)]
        if params.steps:
            pairs.append(("--steps-per-epoch", max(1, math.ceil(params.steps / epochs))))
        if params.lr is not None:
            pairs.append(("--lr", params.lr))
        if params.batch_size is not None:
            pairs.append(("--batch-size", params.batch_size))
        said = {f: v for f, v in params.flags}
        pairs = [(f, said.pop(f, v)) for f, v in pairs]
        for flag, value in said.items():
            if flag in DEMO_FLAGS and value is not None:
                pairs.append((flag, value))
            else:
                missing.append(f"flag {flag} (the bundled demo trainer has no such flag)")
        data = [p for p in params.paths if p.lower().endswith(DEMO_DATA)]
        for p in params.paths:
            if p not in data[:1]:
                missing.append(f"data path {p} (the demo trainer reads one .npz or .csv file; name your script)")
        for u in params.urls:
            missing.append(f"data URL {u} (the demo trainer reads one local .npz or .csv file; name your script)")
        if data:
            pairs.append(("--data", str((cwd / Path(data[0]).expanduser()).resolve())))
            notes.append(f"the demo trainer reads your data from {data[0]}")
        if params.model or params.dataset:
            notes.append(
                f"model/dataset ({params.model or '-'}/{params.dataset or '-'}) are noted but not used by the demo"
            )
        values["args"] = _flat(pairs)
        base_dir = None
    text, _ = render_template((TEMPLATES / template).read_text(encoding="utf-8"), values)
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("# Template:")) + "\n"
    return Draft(
        spec_text=body,
        base_dir=base_dir,
        understood=params.understood,
        notes=notes,
        missing=missing,
        substitute=substitute if missing else None,
    )
