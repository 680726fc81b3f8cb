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
        for flag, v in (("--epochs", params.epochs), ("--steps", params.steps), ("--lr", params.lr),
                        ("--batch-size", params.batch_size), ("--model", params.model), ("--dataset", params.dataset)):
            if v is not None:
                pairs.append((flag, v))
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
