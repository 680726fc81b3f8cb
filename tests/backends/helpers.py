"""Test helpers shared by backend tests: the one place that turns YAML text into a SpecDocument."""

from __future__ import annotations

from pathlib import Path

from runshepherd.spec.document import SpecDocument
from runshepherd.spec.loader import load_spec_text


def spec_from_yaml(text: str, base_dir: Path | None = None) -> SpecDocument:
    return load_spec_text(text, source="test.yaml", base_dir=base_dir)
