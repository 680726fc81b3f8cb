"""Shell commands written into a request ("train a classifier; rm -rf ~") are never used, and the plan says so.

A request is read for a job: what to train, with which script and settings. A part of it that reads as a shell
command — after `&&`, `||` or `|`, inside `$(…)` or backticks, or a part after `;` or a line break that starts with
a command such as `rm`, `curl` or `sudo` (or `cat`, `source`, `eval` given a shell-shaped argument) — is cut out before any expert (heuristic or LLM) reads the request, so no
setting, path or workflow name is taken from it (before: the fragment was dropped without a word and the workflow
was named `train-classifier-rm`), and the plan names each part and why it was not used.
"""

from __future__ import annotations

import re

# Commands a request has no business running. Launchers that run a named script (python, bash, torchrun) are not
# here: "python train.py --epochs 2" is how people name their job; their `-c CODE` form is (see _INLINE).
_COMMANDS = frozenset(
    {
        *(
            "rm",
            "rmdir",
            "mv",
            "cp",
            "touch",
            "mkdir",
            "dd",
            "mkfs",
            "shred",
            "truncate",
            "chmod",
            "chown",
            "chattr",
            "ln",
        ),
        *("sudo", "su", "doas", "eval", "exec", "nohup", "xargs", "crontab", "systemctl", "service"),
        *("curl", "wget", "nc", "ncat", "netcat", "ssh", "scp", "rsync", "ftp", "telnet", "base64"),
        *("kill", "pkill", "killall", "shutdown", "reboot", "halt", "poweroff", "init"),
        *("cat", "echo", "printf", "tee", "cd", "ls", "env", "export", "unset", "alias", "source"),
    }
)
# Commands that are English words too: "; source data is s3://b/x", "; eval on the test set", "; export the model"
# are the job's words. They read as a command only with a shell-shaped argument after them (a flag, a path, a
# number, `NAME=value`, a quoted string) or a redirection (`echo x > f`).
_WORDS_TOO = frozenset({"touch", "init", "cat", "echo", "tee", "env", "export", "alias", "source", "service", "exec"})
_WORDS_TOO |= {"eval", "kill", "halt", "truncate", "shred", "su"}
_SHELL_ARG = re.compile(r"""[-/~.$'"]|\d+$|[A-Za-z_]\w*=|\S*/""")
_REDIRECT = re.compile(r"\s\d?[<>]{1,2}\s*\S")
_INLINE = re.compile(r"(?:ba|z|da)?sh\s+-c\b|python3?\s+-c\b|perl\s+-e\b|node\s+-e\b", re.I)
# Quoted text is one word to a shell: an operator inside it (`--run-name 'a;b'`) separates nothing.
_PIECE = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|\$\([^)\n]*\)?|`[^`\n]*`?|&&|\|\||[;|\n]|[^'\"$`&|;\n]+|[$&]")


def _is_command(part: str) -> bool:
    words = part.split()
    while words and re.fullmatch(r"[A-Za-z_]\w*=\S*", words[0]):  # `FOO=1 rm …`: assignments before the command
        words = words[1:]
    if not words:
        return False
    if _INLINE.match(" ".join(words)):
        return True
    head = words[0].lower()
    if head in _WORDS_TOO:
        return len(words) > 1 and (bool(_SHELL_ARG.match(words[1])) or bool(_REDIRECT.search(part)))
    return head in _COMMANDS


def split_shell(text: str) -> tuple[str, list[str]]:
    """``text`` without the parts that read as shell commands, and those parts as written (in order)."""
    pieces = _PIECE.findall(text)
    kept: list[str] = []
    cut: list[str] = []
    segment: list[str] = []
    joined_by = ""  # the operator before the current segment
    chained = False  # the segment before was cut: `curl … | sh` is one command line

    def close() -> None:
        nonlocal chained
        part = "".join(segment).strip()
        segment.clear()
        if part and (joined_by in {"&&", "||", "|"} or _is_command(part)):
            if chained and joined_by in {"&&", "||", "|"}:
                cut[-1] += f" {joined_by} {part}"
            else:
                cut.append(f"{joined_by.strip()} {part}".strip())
            chained = True
        elif part:
            kept.append(part)
            chained = False

    for p in pieces:
        if p[:2] == "$(" or p[:1] == "`":
            cut.append(p)
            segment.append(" ")
        elif p in {";", "&&", "||", "|", "\n"}:
            close()
            joined_by = p
        else:
            segment.append(p)
    close()
    if not cut:
        return text, []
    return re.sub(r"[ \t]{2,}", " ", "; ".join(kept)), cut


def not_used_notes(parts: list[str]) -> list[str]:
    """The plan's words for each part of the request that was not used."""
    return [
        f"not used: `{p}` — it reads as a shell command, and a request is only read for the job (what to train, "
        "the script, its settings), never run; if the job needs that step, put it in a script and name the script"
        for p in parts
    ]
