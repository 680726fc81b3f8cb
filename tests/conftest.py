"""Fixtures used across test folders. Tests read only inside the repository: outside data is vendored under
tests/data/ with its source and license."""

from __future__ import annotations

import pytest


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
