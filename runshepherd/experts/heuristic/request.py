"""Read what a person asked for: "train model X with train.py for 5 epochs, lr 3e-4, on 2 GPUs, 8Gi memory".

Only what is said is extracted; nothing is invented. Unparsed wishes stay in the request text for the plan.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, Field

from runshepherd.number_reading import implausible, other_digits, other_digits_hint, read_number

# A number as typed, sign, point, exponent and thousands commas included, so "-3", "2.5" and "1e9" are read whole.
_SAID = r"(?<![\w.])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?)(?!\d|\.\d)"
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
    "own",
    "your",
    "our",
    "again",
    "now",
    "quickly",
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
    "per",  # "batch size 4 per gpu" names no workflow "train-per"
    "each",
    "node",  # "8 gpus (2 nodes x 4 gpus)" names no workflow "train-resnet-nodes"
    "nodes",
    "x",
    "total",
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
    scripts_missing: list[str] = Field(default_factory=list, description="scripts named but not in the cwd")
    flags: list[tuple[str, str | None]] = Field(default_factory=list, description="`--flag value` said verbatim")
    paths: list[str] = Field(default_factory=list, description="local paths named that exist")
    paths_missing: list[str] = Field(default_factory=list, description="local paths named that do not exist")
    urls: list[str] = Field(default_factory=list, description="locations named as URLs other than file:// (s3://…)")
    subject: str | None = Field(None, description="what to train when it is not a generic word (resnet50, bert)")
    demo_requested: bool = Field(False, description="the request asks for the bundled demo in so many words")
    understood: list[str] = Field(default_factory=list)
    unusable: list[str] = Field(default_factory=list, description="settings said with a value no run can take")
    implausible: list[str] = Field(
        default_factory=list, description="settings kept as said whose value is far beyond any usual run (a warning)"
    )


# Words after "train"/"on" that name nothing a person would expect us to find: the bundled demo fits them.
GENERIC = {
    "classifier",
    "classification",
    "model",
    "models",
    "network",
    "net",
    "mlp",
    "demo",
    "example",
    "toy",
    "tiny",
    "something",
    "synthetic",
    "random",
    "dummy",
    "fake",
    "job",
    "training",
    "sample",
    "samples",
    "images",
    "data",
    "dataset",
    "files",
    # formats and containers of the person's own data: the demo reads a .csv or .npz path they name
    "csv",
    "tsv",
    "npz",
    "json",
    "jsonl",
    "parquet",
    "file",
    "folder",
    "table",
    "tabular",
    # a split of the data ("evaluate ./model.pt on the test set"): which part, never a dataset to find
    "test",
    "validation",
    "val",
    "dev",
    "holdout",
}
# Words after "on" that are where it runs, not what it trains on.
PLACES = {"gpu", "gpus", "cpu", "cpus", "cluster", "slurm", "osmo", "pool", "node", "nodes", "machine", "local"}
_VERBS = {"train", "fine-tune", "finetune", "pretrain", "pre-train", "evaluate", "eval", "benchmark"}
# a location written as a URL ("on s3://bucket/data", "file:///data/x.csv"): a place the job would read, never a
# model or dataset word ("s3") nor a path the `_PATH` pattern sees part of
_URL = r"(?<![\w.+-])([A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>,;]*[^\s\"'<>,;.)])"
_PATH = r"(?<![\w:/.-])((?:~|\.{1,2})?/[\w.~/+-]*[\w~]|[\w.-]+/[\w./+-]*\.[A-Za-z0-9]{1,6})(?![\w/])"
# a flag's value may be quoted, spaces and all: `--run-name 'my first run'` (before: the script got `'my`)
_QUOTED = r"'[^'\n]*'|\"[^\"\n]*\""
_FLAG = rf"(?<!\S)(--[A-Za-z][\w-]*)(?:=({_QUOTED}|\S+)|\s+(?!-[-A-Za-z])({_QUOTED}|[^\s,;]+))?"


def _first(pattern: str, text: str) -> re.Match[str] | None:
    return re.search(pattern, text, re.I)


# How a named script is launched: words that say nothing about the job once the script is known.
_LAUNCHERS = {"python", "python3", "bash", "sh", "torchrun", "accelerate", "deepspeed", "execute", "launch", "start"}


_MARK = re.compile(r"\[REDACTED:([^\]]*)\]")
# Words that say what a pasted secret is ("my HF token …", "HF_TOKEN=…"): part of the secret's place in the
# request, not of the job; the kind's own words (hf, github, openai, …) are added per secret.
_SECRET_NOUNS = {
    *("token", "tokens", "key", "keys", "secret", "secrets", "password", "passwd", "pass", "passphrase"),
    *("credential", "credentials", "api", "apikey", "access", "auth", "bearer", "login", "is", "as", "here"),
    *("my", "your", "our", "the", "a", "an", "this", "with", "using", "use"),
}


# A secret's variable name (HF_TOKEN, WANDB_API_KEY, db_password): what a job reads a secret from, never a model,
# a dataset or the thing to train, whether or not its value was in the request (and then left out of it).
_SECRET_NAME = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9]*_)*(?:token|api_?key|key|secret|password|passwd|pass|credentials?)", re.IGNORECASE
)


def is_secret_name(word: str) -> bool:
    return bool(_SECRET_NAME.fullmatch(word))


def without_secret_words(text: str) -> str:
    """``text`` without each redacted secret and what named it: the assigned name (``HF_TOKEN=[REDACTED:…]``) and
    the words just before it that describe it ("my hf token [REDACTED:hf_token]"), so a workflow is named after
    the job, never after a secret's position."""
    out = text
    while m := _MARK.search(out):
        before = out[: m.start()]
        words = re.findall(r"[^\s=:\"']+|[=:]", before)
        describing = _SECRET_NOUNS | set(re.split(r"[_\W]+", m.group(1).lower()))
        cut = len(words)
        if cut and words[cut - 1] in "=:":  # an assignment: the name on its left is the secret's own name
            cut -= 2 if cut > 1 else 1
        while cut and all(p in describing for p in re.split(r"[_\W]+", words[cut - 1].lower()) if p):
            cut -= 1
        pos = 0  # where ``before`` stops being kept: the end of its cut-th word
        for w in words[:cut]:
            pos = before.index(w, pos) + len(w)
        out = before[:pos] + " " + out[m.end() :].lstrip("\"'")
    return out


def _name_from(text: str, script: str | None) -> str:
    """Up to three telling words of the request; with none but a script's launch ("run train.py", "python
    train.py --epochs 2"), the script's name (``train``); a valid spec name either way (`spec.model.NAME_RE`)."""
    text = without_secret_words(text)  # never name a workflow after a (redacted) secret or what it was
    if script:
        text = text.replace(script, " ")
    text = re.sub(r"[\w./~-]+\.(?:py|sh)\b", " ", text)
    text = re.sub(_FLAG, " ", text)
    text = re.sub(_URL, " ", text)
    text = re.sub(_PATH, " ", text)
    text = re.sub(r"(?<![\w.])[A-Za-z][\w]*", lambda m: " " if is_secret_name(m.group(0)) else m.group(0), text)
    # a word starts at a word boundary: the "e" of "3e-4" or the "x" of "8x" is part of a number, not a name
    words = [w.lower() for w in re.findall(r"(?<![\w.])[A-Za-z][A-Za-z0-9]*", text)]
    keep = [w for w in words if w not in _STOP and not (script and w in _LAUNCHERS)][:3]
    name = "-".join(keep) or (Path(script).stem.lower() if script else "") or "run"
    name = re.sub(r"[^a-z0-9-]+", "-", name).strip("-")[:40].strip("-")
    name = re.sub(r"-{2,}", "-", name)
    return name if name and name[0].isalpha() else f"run-{name}".strip("-")


def _same_setting(said: str, flag: str, value: str | None) -> bool:
    """Whether ``said`` ("epochs=2", read from the words) is the setting the flag ``--epochs 2`` gives: the plan
    names each setting once, as the flag the script gets."""
    key, _, val = said.partition("=")
    name = flag.lstrip("-").replace("-", "_").lower()  # --max-steps, --per-device-train-batch-size, --learning-rate
    names = {key, "learning_rate"} if key == "lr" else {key}
    if value is None or not any(name == k or name.endswith("_" + k) for k in names):
        return False
    try:
        return float(val) == float(value)
    except ValueError:
        return val == value


# a number followed by another setting's word is that setting's ("epochs 64 batch size", "steps 2 gpus"); by its
# own setting's word it is this one's ("3 epochs with epochs=1e9": 3 and 1e9 are both said for epochs)
_UNIT_AFTER = re.compile(r"\s*(?:[A-Za-z]+\s+)?(epochs?|steps|batch|gpus?|cpus?|cores?|x)\b", re.I)
_OWN_UNIT = {"epochs": ("epoch", "epochs"), "steps": ("steps",), "batch_size": ("batch",), "gpus": ("gpu", "gpus")}


def _other_setting_after(key: str, t: str, pos: int) -> bool:
    """Whether the number ending at ``pos`` is followed by another setting's word, so it is not ``key``'s."""
    m = _UNIT_AFTER.match(t, pos)
    return m is not None and m.group(1).lower() not in _OWN_UNIT.get(key, ())


# a GPU count said per node, with the node count: "2 nodes x 4 gpus", "4 gpus per node on 2 nodes", "2 nodes with 4
# gpus each"; its total is nodes times that ("8 gpus (2 nodes x 4 gpus)" says 8 GPUs once, never 8 and 4)
_PER_NODE = (
    r"(?<![\w.])(\d+)\s*nodes?\s*(?:x|\*|×|with|of)\s*(\d+)\s*(?:[A-Za-z0-9]+\s+)?gpus?\b",
    r"(?<![\w.])(\d+)\s*(?:[A-Za-z0-9]+\s+)?gpus?\s*(?:per|each|a|/)\s*node\b.*?(?<![\w.])(\d+)\s*nodes?\b",
)


def _gpus_per_node(t: str) -> dict[int, int]:
    """Where a GPU count is said per node: the count's position, and how many nodes it is said for."""
    scale = {}
    for h in re.finditer(_PER_NODE[0], t, re.I):
        scale[h.start(2)] = int(h.group(1))
    for h in re.finditer(_PER_NODE[1], t, re.I):
        scale[h.start(1)] = int(h.group(2))
    return scale


def _as_said(typed: str) -> float:
    """The number ``typed`` is, exactly when it is a whole number in digits (two counts past 2**53 that differ are
    two values, though a float reads them as one), for comparing what was said."""
    exact = read_number(typed.replace(",", ""))
    return exact if isinstance(exact, int) else float(typed.replace(",", ""))


def parse_request(text: str, cwd: Path | None = None) -> RequestParams:
    t = " " + text.strip() + " "
    got: dict[str, object] = {}
    understood: list[str] = []

    unusable: list[str] = []
    implausible_: list[str] = []

    def said(key: str, m: re.Match[str] | None, need: str, *patterns: str) -> None:
        """Keep what was said as the number it is, or name it as unusable: never the digits after a sign, a
        point or an exponent ("-3 epochs" was epochs=3, "1e9 epochs" epochs=9). ``need``: a count of at least 1,
        a count (0 too) or a rate (above 0). ``patterns``: every wording of the setting, so that one said twice
        with two values ("lr=0.1 … lr=0.2") is asked about rather than the first one taken unasked."""
        if m is None:
            return
        typed = m.group(1)
        found = sorted(
            (h.start(1), h.group(1))
            for pat in patterns
            for h in re.finditer(pat, t, re.I)
            # "3 epochs 64 batch size": the 64 is the batch size's; "--epochs 2" is a flag the script gets as given
            if not _other_setting_after(key, t, h.end(1)) and not t[: h.start()].endswith(("-", "_"))
        )
        # "8 gpus (2 nodes x 4 gpus)": the 4 is per node, 8 in all; the total is the count meant when both are said
        per_node = _gpus_per_node(t) if key == "gpus" and len(found) > 1 else {}
        totals = [at for at, _ in found if at not in per_node]
        if per_node and totals and m.start(1) in per_node:
            m = next(h for h in re.finditer(patterns[0], t, re.I) if h.start(1) == totals[0])
            typed = m.group(1)
        if len({_as_said(v) * per_node.get(at, 1) for at, v in found}) > 1:
            shown = " and ".join(dict.fromkeys(v + (" per node" if at in per_node else "") for at, v in found))
            unusable.append(f"{key.replace('_', ' ')} said twice with different values ({shown}): say it once")
            return
        if (digits := other_digits(typed)) is not None:  # "epochs=٣": never read silently (number_reading)
            unusable.append(f"{key.replace('_', ' ')} {other_digits_hint(typed, f'{key}={digits}')}")
            return
        value = float(typed.replace(",", ""))
        fits = {"of at least 1": value >= 1, "of 0 or more": value >= 0, "above 0": value > 0}[need]
        whole = need != "above 0"
        if not (fits and math.isfinite(value) and (value.is_integer() or not whole)):
            why = f"not {'a whole number' if whole else 'a number'} {need}" if math.isfinite(value) else "too large"
            unusable.append(f"{key.replace('_', ' ')} {typed} ({why})")
            return
        # a count typed in digits is kept digit for digit: float() rounds past 2**53 (…891 would run as …168)
        exact = _as_said(typed)
        got[key] = (exact if isinstance(exact, int) else int(value)) if whole else value
        understood.append(f"{key}={typed}")
        if warning := implausible(key, got[key], f"{key.replace('_', ' ')} {typed}"):
            implausible_.append(warning)

    def plain(what: str, m: re.Match[str], example: str) -> bool:
        """Whether the number in ``m`` is written in 0-9; else it is named as unusable (`number_reading`)."""
        if (digits := other_digits(m.group(1))) is None:
            return True
        unusable.append(f"{what} {other_digits_hint(m.group(1), example.format(digits))}")
        return False

    for key, need, *patterns in (
        ("epochs", "of at least 1", _SAID + r"\s*epochs?\b", r"\bepochs?\s*[=:]?\s*" + _SAID),
        ("steps", "of at least 1", _SAID + r"\s*(?:training\s+)?steps\b", r"\b(?:max[_ ])?steps\s*[=:]?\s*" + _SAID),
        ("lr", "above 0", r"\b(?:lr|learning[\s_-]*rate)\s*(?:of|=|:)?\s*" + _SAID),
        (
            "batch_size",
            "of at least 1",
            r"\bbatch[\s_-]*(?:size)?\s*(?:of|=|:)?\s*" + _SAID,
            _SAID + r"\s*batch[\s_-]*size",
        ),
    ):
        said(key, next((m for pat in patterns if (m := _first(pat, t))), None), need, *patterns)
    # one word may name the kind ("8 A100 gpus", "2 nvidia gpus"), but "per"/"each" makes it a rate of another setting:
    # "batch size 4 per gpu on 8 gpus" is 8 GPUs (was 4)
    gpus = (_SAID + r"\s*(?:x\s*)?(?:(?!(?:per|each|a|an)\b)[A-Za-z0-9]+\s+)?gpus?\b", r"\bgpus?\s*[=:]\s*" + _SAID)
    if m := next((m for pat in gpus if (m := _first(pat, t))), None):
        said("gpus", m, "of 0 or more", *gpus)
    elif _first(r"\b(?:on|with|using)\s+(?:a|one)\s+gpu\b", t):
        got["gpus"] = 1
        understood.append("gpus=1")
    # the whole number as typed, decimals too: "1.5Gi" is 1.5Gi, never its "5Gi" (nor "2.5 cpus" 5 CPUs)
    amount = r"(?<![\w.])(\d+(?:\.\d+)?)"
    if (m := _first(amount + r"\s*cpus?\b", t) or _first(amount + r"\s*cores?\b", t)) and plain("cpus", m, "{} cpus"):
        got["cpus"] = float(m.group(1))
        understood.append(f"cpus={m.group(1)}")
    if (m := _first(amount + r"\s*(gi|gib|gb|g|mi|mib|mb)\b(?:\s*(?:of\s+)?(?:ram|memory|mem))?", t)) and plain(
        "memory", m, "{}" + m.group(2)
    ):
        unit = "Gi" if m.group(2).lower().startswith("g") else "Mi"
        got["memory"] = f"{m.group(1)}{unit}"
        understood.append(f"memory={got['memory']}")
    if (
        m := _first(
            r"(?:time[\s_-]*limit|within|at most|max(?:imum)?|for at most)\s*(?:of\s*)?(\d+)\s*(h|hours?|m|min(?:ute)?s?|s|sec(?:ond)?s?|d|days?)\b",
            t,
        )
    ) and plain("time limit", m, "{}" + m.group(2)):
        unit = m.group(2).lower()[0]
        got["time_limit"] = f"{m.group(1)}{unit}"
        understood.append(f"time_limit={got['time_limit']}")
    named = (
        " " + re.sub(_URL, " ", without_secret_words(text.strip())) + " "
    )  # "model HF_TOKEN=…": the secret's place names nothing
    if m := _first(r"\b(?:model|architecture)\s+([A-Za-z][\w./-]*)", named):
        if (
            m.group(1).lower() not in _STOP
            and not m.group(1).lower().endswith(".py")
            and not is_secret_name(m.group(1))
        ):
            got["model"] = m.group(1)
            understood.append(f"model={m.group(1)}")
    if m := _first(r"\b(?:dataset|data)\s+([A-Za-z][\w./-]*)", named) or _first(
        r"\bon\s+([A-Za-z][\w-]*(?:/[\w.-]+)?)\s+(?:dataset|data)\b", named
    ):
        if m.group(1).lower() not in _STOP and not is_secret_name(m.group(1)):  # "on my data" names no dataset
            got["dataset"] = m.group(1)
            understood.append(f"dataset={m.group(1)}")
    if (
        "time_limit" not in got
        and (m := _first(r"\bfor\s+(\d+)\s*(h|hours?|min(?:ute)?s?|d|days?)\b", t))
        and plain("time limit", m, "{} " + m.group(2))
    ):
        got["time_limit"] = f"{m.group(1)}{m.group(2).lower()[0]}"
        understood.append(f"time_limit={got['time_limit']}")
    script = None
    missing_scripts: list[str] = []
    for cand in dict.fromkeys(re.findall(r"(?<![\w/.-])([\w./~-]+\.(?:py|sh))\b", text)):
        if script is None and cwd is not None and (cwd / Path(cand).expanduser()).is_file():
            script = cand
            understood.append(f"script={cand}")
        elif cand != script:
            missing_scripts.append(cand)
    flags: list[tuple[str, str | None]] = []
    for m in re.finditer(_FLAG, text):
        value = m.group(2) or m.group(3)
        if value is not None and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        if value is not None and _MARK.fullmatch(value.strip("\"'")):
            continue  # `--hf-token <secret>`: left out of the job as the warning says, never "[REDACTED:…]" as a value
        if value is not None and value.lower() in _STOP | PLACES:
            value = None  # `--fp16 on 4 GPUs`: "on" is English, not the flag's value
        flags.append((m.group(1), value))
        understood = [u for u in understood if not _same_setting(u, m.group(1), value)]  # "--epochs 2": once
        understood.append(f"{m.group(1)}={value}" if value is not None else m.group(1))
    paths: list[str] = []
    missing_paths: list[str] = []
    urls: list[str] = []
    for url in dict.fromkeys(re.findall(_URL, text)):
        if url.lower().startswith("file://"):  # file:///data/x.csv is the local path /data/x.csv
            local = unquote(urlsplit(url).path)
            (paths if Path(local).exists() else missing_paths).append(local)
        else:
            urls.append(url)
    for cand in dict.fromkeys(re.findall(_PATH, re.sub(_URL, " ", text))):
        if cand == script or cand in missing_scripts or cand.endswith((".py", ".sh")):
            continue
        p = Path(cand).expanduser()
        p = p if p.is_absolute() or cwd is None else cwd / p
        (paths if p.exists() else missing_paths).append(cand)
    # a data file named bare ("on data.csv") that is in the working folder is that path, as "./data.csv" is; one
    # that is not there stays a word (it may name a dataset, "imdb.csv" on a hub)
    for cand in dict.fromkeys(re.findall(r"(?<![\w./~:-])(\w[\w.-]*\.(?:csv|tsv|npz|jsonl?|parquet))\b", text)):
        if cwd is not None and cand not in paths and (cwd / cand).is_file():
            paths.append(cand)
            named = re.sub(rf"(?<![\w./~:-]){re.escape(cand)}\b", " ", named)
    return RequestParams(
        text=text.strip(),
        name=_name_from(text, script or next(iter(missing_scripts), None)),  # "python train.py" (not here): train
        script=script,
        scripts_missing=missing_scripts,
        flags=flags,
        paths=paths,
        paths_missing=missing_paths,
        urls=urls,
        subject=_subject(named, got),
        demo_requested=bool(re.search(r"\b(?:demo|bundled\s+trainer|example\s+trainer)\b", text, re.I)),
        understood=understood,
        unusable=unusable,
        implausible=implausible_,
        **got,
    )


def _subject(text: str, got: dict[str, object]) -> str | None:
    """The model or dataset the person names in words ("train resnet50", "fine-tune bert on imdb"), if any.

    Generic words (a small classifier, a model) and places (on 4 GPUs) name nothing we would have to find."""
    named = [str(v) for v in (got.get("model"), got.get("dataset")) if v and str(v).lower() not in GENERIC]
    clean = re.sub(_FLAG, " ", text)
    clean = re.sub(_URL, " ", clean)
    clean = re.sub(_PATH, " ", clean)
    clean = re.sub(r"[\w./~-]+\.(?:py|sh)\b", " ", clean)
    clean = re.sub(r"\[REDACTED:[^\]]*\]", " ", clean)
    # whole words in any script: "ѕmall" (a Cyrillic ѕ) is named as typed, never as the "mall" after its first letter
    words = re.findall(r"[^\W_][\w.-]*\w|[^\W_]", clean)
    for i, w in enumerate(words):
        if w.lower() not in _VERBS and w.lower() != "on":
            continue
        for nxt in words[i + 1 : i + 5]:
            low = nxt.lower()
            if (low in _STOP and low not in PLACES) or is_secret_name(nxt):  # "train with my HF_TOKEN on imdb"
                continue
            if not (low[0].isdigit() or low in PLACES or low in GENERIC or low in _VERBS):
                named.append(nxt)
            break
    return ", ".join(dict.fromkeys(named)) or None
