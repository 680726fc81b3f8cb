"""Run the ``osmo`` CLI: bounded in time, errors classified by exit code, an auth circuit breaker, backoff on 75.

Exit codes (docs/architecture.md §6.4): 0 ok; 1 submission error; 2 user/auth/other; 10 server unreachable; 75 HTTP 429
(retry later). Streaming commands (logs, events) never end on a live workflow, so :meth:`OsmoCli.capture`
reads with a deadline, kills the whole process group, and keeps what arrived.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from runshepherd.backends.base import AuthRequired, BackendError, BackendUnavailable, RetryLater
from runshepherd.backends.linecap import RAW_LINE_BYTES, capped_lines
from runshepherd.backends.osmo.parse import error_envelope

EXIT_SUBMISSION = 1
EXIT_UNREACHABLE = 10
EXIT_RETRY_LATER = 75
LOGIN_HINT = "run `osmo login` in a terminal, then `orchestrate resume <session>` (or repeat the command)"
_AUTH_RE = re.compile(r"osmo login|re-?login|token (?:has )?expired|not logged in|unauthenticated", re.IGNORECASE)
_NOT_FOUND_RE = re.compile(r"not found|does not exist|no such workflow|unknown workflow", re.IGNORECASE)


class ServerBusy(RetryLater, BackendUnavailable):
    """Still 429 after the backoff: the session pauses (exit 4) like any unavailable backend and resumes later."""


class OsmoCommandError(BackendError):
    """A non-zero exit that is not retry/unreachable/auth; callers map it (not found, rejected, …)."""

    def __init__(self, argv: Sequence[str], returncode: int, message: str, code: int | str | None) -> None:
        self.argv = list(argv)
        self.returncode = returncode
        self.message = message
        self.code = code
        super().__init__(f"`{' '.join(argv[:3])}` failed (exit {returncode}): {message}")

    @property
    def not_found(self) -> bool:
        return str(self.code) == "404" or bool(_NOT_FOUND_RE.search(self.message))


class AuthBreaker:
    """Process-wide: after one auth failure no further osmo call is made; the person must log in first."""

    def __init__(self) -> None:
        self._message: str | None = None
        self._lock = threading.Lock()

    def trip(self, message: str) -> AuthRequired:
        with self._lock:
            self._message = self._message or message
        return self.error()

    def check(self) -> None:
        if self._message is not None:
            raise self.error()

    def error(self) -> AuthRequired:
        return AuthRequired(f"OSMO login expired or missing ({self._message}) — {LOGIN_HINT}")

    @property
    def tripped(self) -> bool:
        return self._message is not None

    def reset(self) -> None:
        with self._lock:
            self._message = None


AUTH_BREAKER = AuthBreaker()


@dataclass(frozen=True)
class CliResult:
    argv: list[str]
    returncode: int | None  # None: killed at the capture deadline (normal for streams)
    stdout: str
    stderr: str
    lines: list[str]
    timed_out: bool = False


@dataclass
class SpoolResult:
    bytes: int
    cap_reason: str | None  # None: the stream ended (or went idle) by itself


@dataclass
class OsmoCli:
    executable: str = "osmo"
    call_timeout: float = 60.0
    retries: int = 4
    backoff_initial: float = 0.5
    backoff_max: float = 8.0

    # ----------------------------------------------------------------------------------- one-shot commands
    def run(self, args: Sequence[str], *, timeout: float | None = None, retry: bool = True) -> CliResult:
        """A command that ends by itself; retried with exponential backoff while OSMO says 75 (busy)."""
        attempts = self.retries if retry else 1
        retrying = Retrying(
            retry=retry_if_exception_type(RetryLater),
            stop=stop_after_attempt(max(1, attempts)),
            wait=wait_exponential(multiplier=self.backoff_initial, max=self.backoff_max),
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                return self._once(args, timeout or self.call_timeout, idle=None, keep_partial=False, cap=None)
        raise AssertionError("unreachable")  # pragma: no cover

    # ----------------------------------------------------------------------------------- streams
    def capture(self, args: Sequence[str], *, timeout: float, idle: float | None = None) -> CliResult:
        """Read a streaming command (log or event lines) for at most ``timeout`` s (or until ``idle`` s pass without
        a new line), each line capped at ``RAW_LINE_BYTES`` like every raw log line (`backends.linecap`)."""
        retrying = Retrying(
            retry=retry_if_exception_type(RetryLater),
            stop=stop_after_attempt(max(1, self.retries)),
            wait=wait_exponential(multiplier=self.backoff_initial, max=self.backoff_max),
            reraise=True,
        )
        for attempt in retrying:
            with attempt:
                return self._once(args, timeout, idle=idle, keep_partial=True, cap=RAW_LINE_BYTES)
        raise AssertionError("unreachable")  # pragma: no cover

    def spool(
        self, args: Sequence[str], dest: str, *, timeout: float, idle: float | None, max_bytes: int
    ) -> SpoolResult:
        """Write a streaming command's stdout to ``dest`` (constant memory) until EOF, the deadline, an idle gap
        or ``max_bytes``; then kill the process group. The result says which bound ended it."""
        AUTH_BREAKER.check()
        argv = [self.executable, *args]
        with open(dest, "wb") as out:
            try:
                proc = subprocess.Popen(
                    argv, stdout=out, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True
                )
            except FileNotFoundError:
                raise BackendUnavailable(
                    f"the OSMO CLI {self.executable!r} was not found — install it, or set backends.osmo.executable "
                    "in the config to its path"
                ) from None
            err: list[bytes] = []
            reader = threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else b""))
            reader.start()
            started = last_change = time.monotonic()
            size, reason = 0, None
            while proc.poll() is None:
                time.sleep(0.05)
                now, grown = time.monotonic(), os.path.getsize(dest)
                if grown != size:
                    size, last_change = grown, now
                if size >= max_bytes:
                    reason = f"byte cap of {max_bytes / 1024**2:.0f} MiB reached"
                elif now - started >= timeout:
                    reason = f"capture timeout of {timeout:g}s reached"
                elif idle is not None and now - last_change >= _idle_gap(idle, seen_output=size > 0):
                    reason = "idle"  # a live stream: everything that exists now has arrived
                if reason:
                    _kill_group(proc)
                    break
            proc.wait(timeout=10)
            reader.join(timeout=5)
        stderr = b"".join(err).decode("utf-8", "replace")
        if reason is None and proc.returncode not in (0, None):
            raise classify(CliResult(argv, proc.returncode, "", stderr, []))
        if _AUTH_RE.search(stderr):
            raise AUTH_BREAKER.trip(stderr.strip().splitlines()[-1])
        return SpoolResult(bytes=os.path.getsize(dest), cap_reason=None if reason == "idle" else reason)

    # ----------------------------------------------------------------------------------- internals
    def _once(
        self, args: Sequence[str], timeout: float, *, idle: float | None, keep_partial: bool, cap: int | None
    ) -> CliResult:
        AUTH_BREAKER.check()
        argv = [self.executable, *args]
        try:
            proc = subprocess.Popen(
                argv,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                stdin=subprocess.DEVNULL,
                start_new_session=True,  # bytes: text mode would take a job's "\r" inside a log line as a line end
            )
        except FileNotFoundError:
            raise BackendUnavailable(
                f"the OSMO CLI {self.executable!r} was not found — install it, or set backends.osmo.executable "
                "in the config to its path"
            ) from None
        lines, stderr, timed_out = _read_bounded(proc, timeout, idle, cap)
        stdout = "\n".join(lines)
        if timed_out and not keep_partial:
            raise BackendUnavailable(f"`{' '.join(argv[:3])}` gave no answer within {timeout:g}s — is OSMO reachable?")
        result = CliResult(argv, None if timed_out else proc.returncode, stdout, stderr, lines, timed_out)
        if result.returncode not in (0, None):
            raise classify(result)
        if result.returncode is None and _AUTH_RE.search(stderr):
            raise AUTH_BREAKER.trip(stderr.strip().splitlines()[-1])
        return result


FIRST_OUTPUT_GRACE = 10.0  # seconds a stream may take to say its first byte before an idle gap can end it


def _idle_gap(idle: float, *, seen_output: bool) -> float:
    """The silence that ends a live stream. Before its first output the CLI is still starting (a Python
    program, its login, the server's first answer): a gap there says nothing about what exists, so it gets
    ``FIRST_OUTPUT_GRACE`` (the caller's deadline still bounds it). Counting from the start instead read a
    slow start as an empty log."""
    return idle if seen_output else max(idle, FIRST_OUTPUT_GRACE)


def _read_bounded(
    proc: subprocess.Popen[bytes], timeout: float, idle: float | None, cap: int | None = None
) -> tuple[list[str], str, bool]:
    """Collect stdout lines until EOF, the deadline or an idle gap; then kill the process group.

    Lines end at "\n" only (a "\r\n" end is one line too): a "\r", "\v" or U+2028 a job printed stays inside
    its log line, behind the task prefix, instead of starting a line of its own. With ``cap`` (a log stream) a
    longer line keeps its first ``cap`` bytes and says where it was cut (`linecap.capped_lines`), never held whole."""
    q: queue.Queue[str | None] = queue.Queue()
    err_chunks: list[str] = []

    def pump_out() -> None:
        assert proc.stdout is not None
        raws = (
            ((raw.removesuffix(b"\n"), True) for raw in proc.stdout) if cap is None else capped_lines(proc.stdout, cap)
        )
        for raw, _ in raws:
            q.put(raw.decode("utf-8", "replace").removesuffix("\r"))
        q.put(None)

    def pump_err() -> None:
        assert proc.stderr is not None
        err_chunks.append(proc.stderr.read().decode("utf-8", "replace"))

    threads = [threading.Thread(target=pump_out, daemon=True), threading.Thread(target=pump_err, daemon=True)]
    for t in threads:
        t.start()
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    last = time.monotonic()
    ended = False
    while True:
        now = time.monotonic()
        wait = deadline - now
        if idle is not None:
            wait = min(wait, last + _idle_gap(idle, seen_output=bool(lines)) - now)
        if wait <= 0:
            break
        try:
            item = q.get(timeout=wait)
        except queue.Empty:
            continue
        if item is None:
            ended = True
            break
        lines.append(item)
        last = time.monotonic()
    timed_out = not ended
    if timed_out:
        _kill_group(proc)
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        _kill_group(proc, signal.SIGKILL)
        proc.wait(timeout=5)
    for t in threads:
        t.join(timeout=2)
    while not timed_out and not q.empty():  # lines that raced the EOF marker
        item = q.get_nowait()
        if item is not None:
            lines.append(item)
    return lines, "".join(err_chunks), timed_out


def _kill_group(proc: subprocess.Popen[Any], sig: int = signal.SIGTERM) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        return


def classify(result: CliResult) -> BackendError:
    """Exit code and message → the error the rest of the program understands."""
    env = error_envelope(result.stdout, result.stderr)
    message = env.message if env else (result.stderr.strip() or result.stdout.strip() or "no message")
    code = env.code if env else None
    if _AUTH_RE.search(message) or _AUTH_RE.search(result.stderr) or str(code) == "401":
        return AUTH_BREAKER.trip(message.strip().splitlines()[-1] if message.strip() else "unauthorized")
    if result.returncode == EXIT_RETRY_LATER or str(code) == "429":
        return ServerBusy(f"OSMO is busy (HTTP 429): {message} — retry later; the workflow itself is unaffected")
    if result.returncode == EXIT_UNREACHABLE:
        return BackendUnavailable(
            f"the OSMO server is unreachable or answered badly: {message} — "
            "check the network/VPN and `osmo login` URL, then resume"
        )
    full = message if env else "\n".join(x for x in (result.stdout.strip(), result.stderr.strip()) if x)
    return OsmoCommandError(result.argv, result.returncode or -1, full or message, code)
