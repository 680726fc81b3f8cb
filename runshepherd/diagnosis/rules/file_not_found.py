"""A file or directory the code reads does not exist (paths, checkpoints, model names, dataset files)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import family


def _explain(m: re.Match[str]) -> str:
    path = m.groupdict().get("path")
    where = f" ('{path}')" if path else ""
    return (
        f"The code tried to open a file or folder that does not exist{where}: a wrong path, a missing input, "
        "or a file an earlier step did not produce."
    )


FAMILY = family(
    "file_not_found",
    origin="user",
    fix_kind="fix_path",
    explanation=_explain,
    fix_description="Check the path: inputs are mounted under {{input:N}}, outputs go to {{output}}, files "
    "listed under `files:` land at their `path`. Fix the path in the command or make sure the earlier step "
    "writes the file.",
    patterns=(
        pat(r"FileNotFoundError\b.*?(?:: '(?P<path>[^']+)')?$", 0.86),
        pat(r"can't open file '(?P<path>[^']+)': \[Errno 2\]", 0.88),
        pat(r"\[Errno 2\] No such file or directory(?:: '(?P<path>[^']+)')?", 0.86),
        pat(r"^(?:/bin/)?(?:ba)?sh: (?:line \d+: )?(?P<path>\S+): No such file or directory", 0.84),
        pat(r"(?<!shared object file: )No such file or directory", 0.76),
        pat(r"does not appear to have a file named (?P<path>\S+)", 0.86),
        pat(r"is not a local folder and is not a valid model identifier|Incorrect path_or_model_id", 0.84),
        pat(r"Can't load (?:tokenizer|config|the model|weights|the configuration) for '(?P<path>[^']+)'", 0.78),
        pat(r"NotFoundError: .*(?:not found|No such file|does not exist)", 0.86),
        pat(r"(?:IsADirectoryError|NotADirectoryError)", 0.82),
        pat(
            r"(?:checkpoint|ckpt|file|path|directory|folder|dataset|data set) .{0,80}(?:does not exist|doesn't exist|not found)",
            0.78,
        ),
        pat(r"Unable to open file \(unable to open file", 0.84),
        pat(r"EntryNotFoundError|Dataset .* doesn't exist on the Hub", 0.82),
        pat(r"No (?:valid )?checkpoint (?:found|file)", 0.74),
        # workflow managers naming inputs that are not there (Snakemake), the kubelet's check of a hostPath mount
        pat(r"MissingInputException|Missing input files for rule", 0.85),
        pat(
            r"hostPath type check failed|MountVolume\.SetUp failed .*(?:not a directory|does not exist|no such file)",
            0.86,
        ),
        # object stores: a missing key (S3 answers HeadObject with a bare 404)
        pat(
            r"NoSuchKey|The specified key does not exist|\(404\) when calling the (?:HeadObject|GetObject) operation",
            0.86,
        ),
    ),
)
