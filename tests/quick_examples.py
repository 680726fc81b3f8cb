"""The shipped examples with the demo trainer's per-step sleep off, for e2e and graph tests alike (tests/ is on
sys.path through its conftest.py)."""

from __future__ import annotations

from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def quick_example(tmp: Path, name: str) -> Path:
    """The shipped ``examples/NAME`` with the demo trainer's per-step sleep off (``--step-delay 0``, put just before
    ``--output-dir`` so it comes after any step delay the spec sets and wins, and the spec's last argument stays
    its own): for tests that only need the run to finish, not to catch it running. The sleep is ~3.6 s of idle
    wall time per run at the product default (0.02 s x 180 steps); the spec is otherwise the shipped file."""
    text = (EXAMPLES / name).read_text()
    marker = "--output-dir, "
    assert text.count(marker) == 1, f"{name}: not one demo trainer --output-dir argument"
    out = tmp / f"quick-{name}"
    out.write_text(text.replace(marker, '--step-delay, "0", ' + marker))
    return out
