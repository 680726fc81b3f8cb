"""The background monitor process started by `orchestrate watch ID --detach`: it survives the terminal,
keeps its record under ``<state>/watch/`` current, and exits at a terminal state, when auth is blocked, or on
SIGTERM (`orchestrate watch --stop ID`).

    python -m runshepherd.watch.daemon [--config C] [--state-dir S] [--backend B] [--cadence X] [--notify T]... WID
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from runshepherd.watch import registry
from runshepherd.watch.session import build_monitor


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="runshepherd.watch.daemon")
    p.add_argument("workflow_id")
    p.add_argument("--config", type=Path)
    p.add_argument("--state-dir", type=Path)
    p.add_argument("--backend")
    p.add_argument("--cadence", type=float)
    p.add_argument("--notify", action="append", default=[])
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")

    from runshepherd.config import load_settings
    from runshepherd.watch.monitor import Observation, RunMonitor, watch_all

    settings = load_settings(
        args.config, flags={"state_dir": str(args.state_dir) if args.state_dir else None, "backend": args.backend}
    )
    state_dir = settings.resolved_state_dir()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the terminal closing is not a reason to stop
    monitor = build_monitor(settings, args.workflow_id, notify=args.notify, cadence=args.cadence)
    ended = "error"

    def seen(obs: Observation) -> None:
        logging.info("%s %s %s", obs.workflow_id, obs.status, obs.label or "")
        registry.update(state_dir, obs.workflow_id, status=obs.status, label=obs.label, artifact=obs.artifact)

    def failed(m: RunMonitor, exc: Exception) -> None:
        logging.warning("%s: %s (will retry)", m.workflow_id, exc)

    try:
        watch_all([monitor], stop=stop, on_observation=seen, on_error=failed)
        if monitor.auth_blocked:
            ended = "auth_blocked"
        elif monitor.done:
            ended = "terminal"
        else:
            ended = "stopped"
    finally:
        if monitor.notifier is not None:
            monitor.notifier.close(timeout=60)
            log_notified(monitor.notifier)
        registry.update(state_dir, args.workflow_id, ended=ended)
    return 0


def log_notified(notifier: Any) -> None:
    """What the monitor's notifications came to, in its log (the only place a background monitor can say it):
    who was told, who had been told already, and each target that could not be told (`undelivered_lines`; the
    dispatcher logs a give-up at debug level only, so without this line the log said nothing of it)."""
    for target, note in notifier.sent:
        logging.info("notified %s: %s %s", target, note.workflow_id, note.status)
    for target, note in notifier.skipped:
        logging.info("not notified again: %s was already told %s %s", target, note.workflow_id, note.status)
    for line in notifier.undelivered_lines():
        logging.warning("%s", line)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
