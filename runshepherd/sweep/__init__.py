"""Sweeps and repeats: several workflows from one spec in one session (docs/architecture.md §17)."""
