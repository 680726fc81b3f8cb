"""A job's own numbers never crash the product. `epoch 13/99999999999999999999999` (a typo in --epochs, or a
hostile job) gave an ETA past year 9999: `orchestrate status`, `logs` and `diagnose` of that run were all
"internal error: OverflowError". The ETA is now unknown; the rest of the digest is read as before."""

from __future__ import annotations

from pathlib import Path

from runshepherd.logs.reader import read_log_file


def test_an_eta_no_date_can_hold_is_unknown_and_the_digest_is_still_read(tmp_path: Path) -> None:
    total = "99999999999999999999999"
    log = tmp_path / "log"
    log.write_text(
        "".join(
            f"2026/12/01 07:21:{31 + i:02d} [train] epoch {i + 1}/{total} step 30/60 loss=0.{60 - i} acc=0.9\n"
            for i in range(5)
        )
    )
    digest = read_log_file(log, task="train")
    assert digest.eta_seconds is None
    assert digest.progress is not None and digest.progress.current == 5
