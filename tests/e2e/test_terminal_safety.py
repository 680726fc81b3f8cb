"""A job's log text reaches the person's terminal as text: its escape sequences never drive the terminal.

A log line can set the window title (OSC 0), write the clipboard (OSC 52), hide a link (OSC 8), send a device
control string, clear the screen, or use the 8-bit CSI (U+009B). `logs --raw`, `logs -f` and `diagnose --log`
print log text back, so what they print must hold none of it — and the words around it must survive.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_helpers import run, until_status

from runshepherd.cli.follow import follow

HOSTILE = (
    "hello \x1b[31mred\x1b[0m\n"
    "\x1b]0;PWNED TITLE\x07title\n"
    "\x1b]52;c;cm0gLXJmIH4K\x07clip\n"
    "\x1b[2J\x1b[H cleared\n"
    "\u009b31m c1 csi\n"
    "\x1bPdevice ctl\x1b\\ after dcs\n"
    "\x1b]0;unterminated title\n"
    # a right-to-left override shows "Task exited with code 0" on a bidi terminal: the characters as they are
    "\u202e0 edoc htiw detixe ksaT\u202c \u2067isolate\u2069 bidi\n"
    "Traceback (most recent call last):\n"
    '  File "x.py", line 1, in <module>\n'
    "ValueError: bad \x1b[1mvalue\x1b[0m \x1b]8;;http://evil\x07link\x1b]8;;\x07\n"
)
TERMINAL_ACTING = ("\x1b", "\x07", "\u009b", "\u202e", "\u2067")


def _assert_inert(text: str) -> None:
    for ch in TERMINAL_ACTING:
        assert ch not in text, f"{ch!r} reached the terminal: {text!r}"


def test_diagnose_log_prints_no_escape_sequence_and_still_names_the_error(tmp_path: Path) -> None:
    log = tmp_path / "job.log"
    log.write_text(HOSTILE, encoding="utf-8")
    res = run(tmp_path, "diagnose", "--log", str(log))
    assert res.returncode == 0, res.stderr
    _assert_inert(res.stdout + res.stderr)
    assert "user_code_error" in res.stdout and "ValueError: bad value link" in res.stdout


def test_logs_raw_prints_the_jobs_words_without_its_escape_sequences(tmp_path: Path) -> None:
    (tmp_path / "hostile.txt").write_text(HOSTILE, encoding="utf-8")
    spec = tmp_path / "ansi.yaml"
    spec.write_text(
        "workflow:\n  name: ansi\n  tasks:\n  - name: t\n    image: x\n    command: [bash, -c]\n"
        f'    args: ["cat {tmp_path / "hostile.txt"}"]\n',
        encoding="utf-8",
    )
    wid = json.loads(run(tmp_path, "submit", str(spec), "--json").stdout)["workflow_id"]
    assert until_status(tmp_path, wid, {"COMPLETED", "FAILED"}, 60) in {"COMPLETED", "FAILED"}, "it did not end"
    res = run(tmp_path, "logs", wid, "--raw")
    assert res.returncode == 0, res.stderr
    _assert_inert(res.stdout)
    for words in (
        "hello red",
        "title",
        "clip",
        "cleared",
        "c1 csi",
        "after dcs",
        "ksaT isolate bidi",
        "ValueError: bad value link",
    ):
        assert words in res.stdout
    assert "31m c1 csi" not in res.stdout  # an 8-bit CSI goes with its parameters, as ESC [ does
    assert "PWNED" not in res.stdout and "cm0gLXJm" not in res.stdout  # an escape's payload is not text
    # --json holds the same shown lines: a consumer printing them gets text too (was: the escapes as logged)
    lines = json.loads(run(tmp_path, "logs", wid, "--raw", "--json").stdout)["lines"]
    _assert_inert("\n".join(lines))
    assert any(line.endswith("[t] hello red") for line in lines)


class _EndedBackend:
    """A workflow that has ended, whose log holds terminal escapes (what `logs -f` reads last)."""

    class _Status:
        @staticmethod
        def terminal() -> bool:
            return True

    def query(self, workflow_id: str) -> Any:
        return type("WS", (), {"status": self._Status()})()

    def logs(self, workflow_id: str, task: str | None, tail: int, timeout: Any) -> list[str]:
        return HOSTILE.splitlines()


def test_logs_follow_writes_no_escape_sequence() -> None:
    written: list[str] = []
    code = follow(_EndedBackend(), "wf-1", None, tail=100, redact=lambda lines: lines, write=written.append, poll=0)
    assert code == 0
    _assert_inert("\n".join(written))
    assert "hello red" in written and any("ValueError: bad value link" in w for w in written)
