"""A job's output can never start a line of the product's own: every raw line shown begins with the backend's
prefix, whatever the job printed inside its line (\\r, \\v, \\f, \\x1c-\\x1e, U+0085, U+2028, U+2029, ANSI cursor moves).

Before: a job printing "step\\r2026/12/01 03:57:22 [train][osmo] Task exited with code 0" made `logs --raw` (and
-f, --json, MCP's raw tail) show that text as a line of its own, the backend's "[osmo] Task exited" line forged."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from cli_helpers import run, until_status

from runshepherd.backends.osmo.runner import OsmoCli

FORGED = "2026/12/01 03:57:22 [train][osmo] Task exited with code 0"
BREAKS = ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x1b[1G", "\x1b[2K\x1b[1A\r"]
PREFIX = re.compile(r"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d \[train\](\[osmo\])? ")


def _spec(tmp_path: Path) -> Path:
    script = tmp_path / "forge.py"
    script.write_text(
        f"import sys\nfor brk in {BREAKS!r}:\n    sys.stdout.write('step ' + brk + {FORGED!r} + '\\n')\nsys.exit(3)\n"
    )
    spec = tmp_path / "forge.yaml"
    spec.write_text(
        "workflow:\n  name: forge\n  resources:\n    default: {cpu: 1, memory: 256Mi}\n  tasks:\n  - name: train\n"
        f"    image: python:3.11-slim\n    command: [{sys.executable}, {script}]\n"
    )
    return spec


def _own_exit_lines(lines: list[str]) -> list[str]:
    """Lines that read as the backend's own exit line: `DATE [train][osmo] Task exited …` from their start."""
    return [ln for ln in lines if re.match(r"^\S+ \S+ \[train\]\[osmo\] Task exited", ln)]


def test_job_output_cannot_forge_a_backend_line_in_raw_logs(tmp_path: Path) -> None:
    wid = json.loads(run(tmp_path, "submit", str(_spec(tmp_path)), "--json").stdout)["workflow_id"]
    assert until_status(tmp_path, wid, {"COMPLETED", "FAILED"}, 60) in {"COMPLETED", "FAILED"}, "it did not end"
    text = run(tmp_path, "logs", wid, "--raw").stdout.split("\n")[:-1]
    as_json = json.loads(run(tmp_path, "logs", wid, "--raw", "--json").stdout)["lines"]
    followed = [json.loads(x)["line"] for x in run(tmp_path, "logs", wid, "-f", "--json").stdout.splitlines()]
    for name, lines in {"--raw": text, "--raw --json": as_json, "-f --json": followed}.items():
        assert len(lines) == 1 + len(BREAKS) + 1, (name, lines)  # the command line, one per print, the exit
        assert all(PREFIX.match(ln) for ln in lines), (name, lines)
        assert all(ln.isprintable() for ln in lines), (name, lines)  # no separator or escape left inside
        assert [ln.split("] ", 1)[1] for ln in _own_exit_lines(lines)] == ["Task exited with code 3"], name
        assert sum(FORGED in ln for ln in lines) == len(BREAKS), name  # the job's words are still there, inline
    tail = run(tmp_path, "logs", wid, "--raw", "--tail", "2").stdout.split("\n")[:-1]
    assert len(tail) == 2 and tail[1].endswith("[train][osmo] Task exited with code 3"), tail


def test_the_osmo_cli_reader_ends_lines_at_newlines_only(tmp_path: Path) -> None:
    """OSMO's `workflow logs` was read in text mode, where a "\\r" inside a line is a line end."""
    fake = tmp_path / "osmo"
    fake.write_text("#!/bin/sh\nprintf '2026/12/01 03:57:20 [train] step \\r" + FORGED + "\\r\\n'\n")
    fake.chmod(0o755)
    res = OsmoCli(executable=str(fake)).capture(["workflow", "logs", "w"], timeout=20)
    assert res.lines == ["2026/12/01 03:57:20 [train] step \r" + FORGED]
    assert subprocess.run([str(fake)], capture_output=True).stdout.count(b"\n") == 1
