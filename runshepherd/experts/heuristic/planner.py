"""Write a spec from a parsed request using the templates in configs/templates/."""

from __future__ import annotations

import json
import math
from pathlib import Path

from runshepherd.experts.base import Draft
from runshepherd.experts.heuristic.request import RequestParams
from runshepherd.spec.render import render_template

TEMPLATES = Path(__file__).resolve().parents[2] / "configs" / "templates"


def _flags(pairs: list[tuple[str, object]]) -> str:
    out: list[str] = []
    for flag, value in pairs:
        out += [flag, json.dumps(str(value))]
    return ", ".join(out)


def _read_text(path: Path, limit: int = 200_000) -> str:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            return fh.read(limit)
    except OSError:
        return ""


def draft_from_request(params: RequestParams, cwd: Path) -> Draft:
    notes: list[str] = []
    values: dict[str, object] = {
        "name": params.name,
        "cpus": f"{params.cpus:g}" if params.cpus else "1",
        "memory": params.memory or "512Mi",
        "gpus": params.gpus or 0,
        "time_limit": params.time_limit or "30m",
    }
    if params.script:
        template = "script.yaml"
        pairs: list[tuple[str, object]] = []
        source = _read_text(cwd / params.script)
        skipped = []
        for names, v in (
            (("--epochs", "--num-epochs", "--num_epochs", "--num_train_epochs"), params.epochs),
            (("--steps", "--max-steps", "--max_steps"), params.steps),
            (("--lr", "--learning-rate", "--learning_rate"), params.lr),
            (("--batch-size", "--batch_size", "--per_device_train_batch_size"), params.batch_size),
            (("--model", "--model-name", "--model_name_or_path"), params.model),
            (("--dataset", "--data", "--dataset_name"), params.dataset),
        ):
            if v is None:
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
        values.update(
            script=params.script,
            script_name=Path(params.script).name,
            interpreter="bash" if params.script.endswith(".sh") else "python",
            args=_flags(pairs),
        )
        if pairs:
            notes.append(f"{params.script} gets the flags you named: {' '.join(p[0] for p in pairs)}")
        base_dir = str(cwd.resolve())
    else:
        template = "demo.yaml"
        epochs = params.epochs or 3
        pairs = [("--epochs", epochs)]
        if params.steps:
            pairs.append(("--steps-per-epoch", max(1, math.ceil(params.steps / epochs))))
        if params.lr is not None:
            pairs.append(("--lr", params.lr))
        if params.batch_size is not None:
            pairs.append(("--batch-size", params.batch_size))
        values["args"] = _flags(pairs)
        if params.model or params.dataset:
            notes.append(
                "no script was named, so this runs the bundled demo trainer; "
                f"model/dataset ({params.model or '-'}/{params.dataset or '-'}) are noted but not used — "
                "name your script in the request (e.g. 'with train.py') to run it instead"
            )
        base_dir = None
    text, _ = render_template((TEMPLATES / template).read_text(encoding="utf-8"), values)
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith("# Template:")) + "\n"
    return Draft(spec_text=body, base_dir=base_dir, understood=params.understood, notes=notes)
