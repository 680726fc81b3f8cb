"""Fixtures used across test folders. Tests read only inside the repository: outside data is vendored under
tests/data/ with its source and license."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package's bytecode once, in the controlling process, before any test starts one.

    The e2e tests start `orchestrate` hundreds of times. Where PYTHONDONTWRITEBYTECODE=1 is set (this machine sets
    it), no start saves its compiled modules, so every start compiles each module it imports again: about 0.1 s of
    CPU for `cancel` and 0.4 s for a command that builds the session graph. compileall writes the cache anyway.
    """
    if hasattr(config, "workerinput"):
        return
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("runshepherd")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        compileall.compile_dir(folder, quiet=1, workers=1)
    from pathlib import Path

    compileall.compile_file(Path(__file__).parent / "backends" / "osmo" / "fake_osmo.py", quiet=1)  # every `osmo` call


@pytest.fixture(autouse=True)
def _home_is_a_temp_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and every process it starts) sees a fresh HOME: a default like `~/sweep-<id>/` or
    `~/.config/...` must never write into the real home of whoever runs the suite."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)


class HookServer:
    """A real HTTP receiver on 127.0.0.1 that records JSON POST bodies (webhook notifications)."""

    def __init__(self, fail_first: int = 0, delay: float = 0.0) -> None:
        import json
        import threading
        import time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.posts: list[dict] = []
        self.calls = 0
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                hook.calls += 1
                time.sleep(delay)
                if hook.calls <= fail_first:
                    self.send_response(500)
                    self.end_headers()
                    return
                hook.posts.append(json.loads(body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def hook_server():  # noqa: ANN201
    """``hook_server(fail_first=0, delay=0.0)`` → a running :class:`HookServer`, shut down after the test."""
    made: list[HookServer] = []

    def make(fail_first: int = 0, delay: float = 0.0) -> HookServer:
        made.append(HookServer(fail_first, delay))
        return made[-1]

    yield make
    for h in made:
        h.server.shutdown()


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema of its own (dropped afterwards).

    The server comes from `scripts/pg-up.sh` (RS_TEST_PG_URL). Without one the test skips and says how to get
    one — except under PG_TESTS_REQUIRED=1 (set by `.ci/run`, which starts it), where that is a failure.
    """
    import os
    import uuid
    from urllib.parse import quote

    url = os.environ.get("RS_TEST_PG_URL")
    reason = None
    if not url:
        reason = "RS_TEST_PG_URL is not set; start one with `sudo scripts/pg-up.sh` and export what it prints"
    else:
        import psycopg

        try:
            admin = psycopg.connect(url, autocommit=True, connect_timeout=5)
        except psycopg.Error as exc:
            reason = f"cannot connect to RS_TEST_PG_URL ({exc})"
    if reason is not None:
        if os.environ.get("PG_TESTS_REQUIRED") == "1":
            pytest.fail(f"PostgreSQL is required here (PG_TESTS_REQUIRED=1) but: {reason}")
        pytest.skip(reason)
    schema = f"t_{uuid.uuid4().hex[:12]}"
    admin.execute(f"CREATE SCHEMA {schema}")
    sep = "&" if "?" in url else "?"
    try:
        yield f"{url}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
        admin.close()
