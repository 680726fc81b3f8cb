"""Read what a person asked for: "train model X with train.py for 5 epochs, lr 3e-4, on 2 GPUs, 8Gi memory".

Only what is said is extracted; nothing is invented. Unparsed wishes stay in the request text for the plan.
"""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import BaseModel, Field

_NUM = r"(\d+(?:\.\d+)?(?:e-?\d+)?)"
_STOP = {
    "a",
    "an",
    "the",
    "for",
    "with",
    "on",
    "of",
    "and",
    "to",
    "in",
    "using",
    "use",
    "please",
    "me",
    "my",
    "small",
    "quick",
    "tiny",
    "some",
    "run",
    "it",
    "at",
    "by",
    "from",
    "that",
    "this",
    "epochs",
    "epoch",
    "steps",
    "step",
    "gpus",
    "gpu",
    "lr",
    "learning",
    "rate",
    "batch",
    "size",
    "memory",
    "cpus",
    "cpu",
    "hours",
    "hour",
    "minutes",
    "py",
    "min",
    "mins",
    "h",
    "m",
    "s",
    "model",
    "job",
    "new",
    "simple",
}


class RequestParams(BaseModel):
    text: str
    name: str
    epochs: int | None = None
    steps: int | None = None
    lr: float | None = None
    batch_size: int | None = None
    gpus: int | None = None
    cpus: float | None = None
    memory: str | None = None
    time_limit: str | None = None
    model: str | None = None
    dataset: str | None = None
    script: str | None = Field(None, description="a script named in the request that exists in the cwd")
    understood: list[str] = Field(default_factory=list)


def _first(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.I)


def _name_from(text: str, script: str | None) -> str:
    text = re.sub(r"\[REDACTED:[^\]]*\]", " ", text)  # never name a workflow after a (redacted) secret
    if script:
        text = text.replace(script, " ")
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text)]
    keep = [w for w in words if w not in _STOP][:3]
    name = "-".join(keep) or "run"
    name = re.sub(r"[^a-z0-9-]+", "-", name).strip("-")[:40].strip("-")
    return name if name and name[0].isalpha() else f"run-{name}".strip("-")


def parse_request(text: str, cwd: Path | None = None) -> RequestParams:
    t = " " + text.strip() + " "
    got: dict[str, object] = {}
    understood: list[str] = []

    if m := _first(r"(\d+)\s*epochs?\b", t) or _first(r"\bepochs?\s*[=:]?\s*(\d+)", t):
        got["epochs"] = int(m.group(1))
        understood.append(f"epochs={m.group(1)}")
    if m := _first(r"(\d+)\s*(?:training\s+)?steps\b", t) or _first(r"\b(?:max[_ ])?steps\s*[=:]?\s*(\d+)", t):
        got["steps"] = int(m.group(1))
        understood.append(f"steps={m.group(1)}")
    if m := _first(r"\b(?:lr|learning[\s_-]*rate)\s*(?:of|=|:)?\s*" + _NUM, t):
        got["lr"] = float(m.group(1))
        understood.append(f"lr={m.group(1)}")
    if m := _first(r"\bbatch[\s_-]*(?:size)?\s*(?:of|=|:)?\s*(\d+)", t) or _first(r"(\d+)\s*batch[\s_-]*size", t):
        got["batch_size"] = int(m.group(1))
        understood.append(f"batch_size={m.group(1)}")
    if m := _first(r"(\d+)\s*(?:x\s*)?(?:[A-Za-z0-9]+\s+)?gpus?\b", t) or _first(r"\bgpus?\s*[=:]\s*(\d+)", t):
        got["gpus"] = int(m.group(1))
        understood.append(f"gpus={m.group(1)}")
    elif _first(r"\b(?:on|with|using)\s+(?:a|one)\s+gpu\b", t):
        got["gpus"] = 1
        understood.append("gpus=1")
    if m := _first(r"(\d+)\s*cpus?\b", t) or _first(r"(\d+)\s*cores?\b", t):
        got["cpus"] = float(m.group(1))
        understood.append(f"cpus={m.group(1)}")
    if m := _first(r"(\d+)\s*(gi|gib|gb|g|mi|mib|mb)\b(?:\s*(?:of\s+)?(?:ram|memory|mem))?", t):
        unit = "Gi" if m.group(2).lower().startswith("g") else "Mi"
        got["memory"] = f"{m.group(1)}{unit}"
        understood.append(f"memory={got['memory']}")
    if m := _first(
        r"(?:time[\s_-]*limit|within|at most|max(?:imum)?|for at most)\s*(?:of\s*)?(\d+)\s*(h|hours?|m|min(?:ute)?s?|s|sec(?:ond)?s?|d|days?)\b",
        t,
    ):
        unit = m.group(2).lower()[0]
        got["time_limit"] = f"{m.group(1)}{unit}"
        understood.append(f"time_limit={got['time_limit']}")
    if m := _first(r"\b(?:model|architecture)\s+([A-Za-z][\w./-]*)", t):
        if m.group(1).lower() not in _STOP and not m.group(1).lower().endswith(".py"):
            got["model"] = m.group(1)
            understood.append(f"model={m.group(1)}")
    if m := _first(r"\b(?:dataset|data)\s+([A-Za-z][\w./-]*)", t) or _first(
        r"\bon\s+([A-Za-z][\w-]*(?:/[\w.-]+)?)\s+(?:dataset|data)\b", t
    ):
        got["dataset"] = m.group(1)
        understood.append(f"dataset={m.group(1)}")
    script = None
    for cand in re.findall(r"([\w./-]+\.(?:py|sh))\b", text):
        if cwd is not None and (cwd / cand).is_file():
            script = cand
            understood.append(f"script={cand}")
            break
    return RequestParams(text=text.strip(), name=_name_from(text, script), script=script, understood=understood, **got)
