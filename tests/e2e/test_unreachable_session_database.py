"""A PostgreSQL session store that cannot be reached is said at once, with the URL's password hidden, and nothing
goes on after it.

Before: `sessions` loaded LangGraph (and its PostgreSQL saver) before it first tried the database, a database that
never answered was waited on for 10 s whatever the URL's `?connect_timeout=` said (the keyword overrode it), and
`run --detach` printed "session S runs in the background" (exit 0) while the background process wrote "cannot
reach the session database" to its log.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_helpers import EXAMPLES, env_for, run

REFUSED = "postgresql://u:hunter2pass@127.0.0.1:1/x"  # port 1 on loopback: refused at once, no network


class SilentHost:
    """A TCP port on loopback that accepts connections and never says a word (a database host that hangs); it
    notes when the first connection came, so a wait is timed from there, not from the command's start."""

    def __init__(self) -> None:
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.held: list[socket.socket] = []
        self.first: float | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                self.held.append(self.server.accept()[0])
            except OSError:
                return
            self.first = self.first or time.monotonic()


@pytest.fixture
def silent_host() -> Iterator[SilentHost]:
    host = SilentHost()
    yield host
    host.server.close()
    for conn in host.held:
        conn.close()


def test_sessions_with_a_refused_database_says_so_before_loading_langgraph(tmp_path: Path) -> None:
    driver = (
        "import sys\nfrom runshepherd.cli.main import main\n"
        "code = main(['sessions', '--checkpointer', sys.argv[1]])\n"
        "print('loaded:', sorted(m for m in sys.modules if m.split('.')[0] == 'langgraph'))\nsys.exit(code)\n"
    )
    res = subprocess.run(
        [sys.executable, "-c", driver, REFUSED],
        cwd=tmp_path,
        env=env_for(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 4, res.stderr
    said = " ".join(res.stderr.split())
    assert "cannot reach the session database postgresql://u:[REDACTED:url_password]@127.0.0.1:1/x" in said, said
    assert "hunter2pass" not in res.stdout + res.stderr
    assert "loaded: []" in res.stdout, res.stdout  # the answer came before ~0.7 s of CPU spent on LangGraph


def test_a_database_that_never_answers_is_given_up_after_the_urls_connect_timeout(
    tmp_path: Path, silent_host: SilentHost
) -> None:
    url = f"postgresql://u:hunter2pass@127.0.0.1:{silent_host.port}/x?connect_timeout=2"
    res = run(tmp_path, "sessions", "--checkpointer", url, timeout=120)
    ended = time.monotonic()
    assert res.returncode == 4, res.stderr
    said = " ".join(res.stderr.split())
    assert (
        f"cannot reach the session database postgresql://u:[REDACTED:url_password]@127.0.0.1:{silent_host.port}/x"
        in said
    ), said
    assert "timeout" in said and "hunter2pass" not in said, said
    assert silent_host.first is not None
    waited = ended - silent_host.first
    assert waited < 7, waited  # 2 s asked for; before, 10 s (the default overrode the URL's)


def test_a_detached_run_with_a_refused_database_stops_at_its_error(tmp_path: Path) -> None:
    spec = EXAMPLES / "train-classifier.yaml"
    res = run(tmp_path, "run", "--spec", str(spec), "--yes", "--detach", "--json", "--checkpointer", REFUSED)
    assert res.returncode == 4, res.stdout + res.stderr
    said = " ".join(res.stderr.split())
    assert "cannot reach the session database postgresql://u:[REDACTED:url_password]@127.0.0.1:1/x" in said, said
    assert "runs in the background" not in res.stdout and "detached" not in res.stdout, res.stdout
    state = tmp_path / "state"
    assert not (state / "detached").exists() or not any((state / "detached").iterdir())
    listed = run(tmp_path, "list", "--json")
    assert listed.returncode == 0 and json.loads(listed.stdout)["workflows"] == [], listed.stdout
