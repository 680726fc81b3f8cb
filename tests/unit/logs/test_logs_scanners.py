"""Both cue-scanner engines report exactly the lines a plain per-line check finds, and the switch picks them."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from runshepherd.logs import LogConfig, read_log_file
from runshepherd.logs.scan import CUE_PHRASES, CueScanner
from runshepherd.logs.scan_numpy import NumpyCueScanner
from runshepherd.logs.scanners import ENV_VAR, HYPERSCAN_MISSING, available_kinds, resolve_kind, scanner_for
from runshepherd.logs.synthetic import ROOT_ERROR, trainer_lines

needs_hyperscan = pytest.mark.skipif(
    HYPERSCAN_MISSING is not None, reason=f"hyperscan half skipped: {HYPERSCAN_MISSING} (x86-only wheel)"
)
FILLER = [
    b"2025/10/08 20:00:00 [train] {'loss': 0.4123, 'grad_norm': 1.07, 'learning_rate': 5e-05, 'epoch': 0.41}",
    b"2025/10/08 20:00:00 [train]  41%|####      | 410/1000 [00:41<01:00, 4.1it/s]",
    b"2025/10/08 20:00:00 [train] step 410/1000 loss=0.4123 lr=5.0e-05 throughput=24.1 samples/s",
    b"2025/10/08 20:00:00 [train] [W reducer.cpp:1360] find_unused_parameters=True was specified in DDP",
    b"\xff\xfe broken utf-8 \x80\x81 bytes and \x1b[31mcolour\x1b[0m \r 42%|#### |",
    b"",
]


def _random_case(text: str, rng: random.Random) -> bytes:
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in text).encode()


def generated_chunk(seed: int, n_lines: int = 3000) -> bytes:
    """Filler with cue phrases in random case at random places: line starts, middles, ends, split by nothing."""
    rng = random.Random(seed)
    lines: list[bytes] = []
    for _ in range(n_lines):
        line = rng.choice(FILLER)
        if rng.random() < 0.08:
            phrase = rng.choice(CUE_PHRASES)
            cue = _random_case(phrase.rstrip("\n"), rng) + (b"\n" if phrase.endswith("\n") else b"")
            if cue.endswith(b"\n"):  # a phrase that must end its line: the line ends there
                line = line[: rng.randint(0, len(line))] + cue[:-1]
            else:
                at = rng.randint(0, len(line))
                line = line[:at] + cue + line[at:]
        if rng.random() < 0.02:  # a near miss: a phrase with one byte changed
            phrase = rng.choice(CUE_PHRASES).strip("\n").encode()
            at = rng.randrange(len(phrase))
            line += b" " + phrase[:at] + b"#" + phrase[at + 1 :]
        lines.append(line)
    last_newline = rng.random() < 0.5
    return b"\n".join(lines) + (b"\n" if last_newline else b"")


def reference_lines(buf: bytes, lo: int, hi: int) -> list[tuple[int, int]]:
    """The definition, one line at a time: the line (and the byte before it, inside the range) lowercased."""
    phrases = [p.lower().encode() for p in CUE_PHRASES]
    out: list[tuple[int, int]] = []
    start = lo
    while start < hi:
        nl = buf.find(b"\n", start, hi)
        end = hi if nl == -1 else nl + 1
        low = buf[max(lo, start - 1) : end].lower()
        if any(p in low for p in phrases):
            out.append((start, end))
        start = end
    return out


def line_ranges(buf: bytes, rng: random.Random) -> list[tuple[int, int]]:
    """The whole buffer and a few random line-aligned sub-ranges of it (a scan is given whole lines)."""
    starts = [0] + [i + 1 for i, b in enumerate(buf) if b == 10 and i + 1 < len(buf)]
    ranges = [(0, len(buf))]
    for _ in range(4):
        a, b = sorted(rng.sample(starts, 2))
        ranges.append((a, b))
    return ranges


def _engines() -> list[CueScanner]:
    return [scanner_for(kind) for kind in available_kinds()]


@pytest.mark.parametrize("seed", range(6))
def test_numpy_engine_finds_exactly_the_cue_lines_of_generated_chunks(seed: int) -> None:
    buf = generated_chunk(seed)
    for lo, hi in line_ranges(buf, random.Random(seed)):
        expected = reference_lines(buf, lo, hi)
        assert list(NumpyCueScanner().cue_lines(buf, lo, hi)) == expected, (seed, lo, hi)
    assert len(reference_lines(buf, 0, len(buf))) > 150  # the chunks do hold many cue lines


@needs_hyperscan
@pytest.mark.parametrize("seed", range(6))
def test_hyperscan_and_numpy_report_identical_lines_on_generated_chunks(seed: int) -> None:
    buf = bytearray(generated_chunk(seed))  # the reader hands a reused bytearray to the scanner
    fast, portable = scanner_for("hyperscan"), scanner_for("numpy")
    for lo, hi in line_ranges(bytes(buf), random.Random(seed)):
        found = list(fast.cue_lines(buf, lo, hi))
        assert found == list(portable.cue_lines(buf, lo, hi)) == reference_lines(bytes(buf), lo, hi), (seed, lo, hi)


@pytest.mark.parametrize("kind", ["numpy", pytest.param("hyperscan", marks=needs_hyperscan)])
def test_each_engine_finds_every_phrase_in_any_case_at_any_offset(kind: str) -> None:
    scanner = scanner_for(kind)  # type: ignore[arg-type]
    filler = b"\n".join(FILLER[:4] * 200) + b"\n"
    assert list(scanner.cue_lines(filler, 0, len(filler))) == []
    rng = random.Random(7)
    for phrase in CUE_PHRASES:
        spellings = {phrase, phrase.lower(), phrase.upper(), phrase.capitalize(), _random_case(phrase, rng).decode()}
        for variant in spellings:
            for pad in ("", "x", "xy", "xyz"):
                if variant.endswith("\n"):
                    line = f"2025/10/08 20:00:00 [train] something{pad}{variant[:-1]}"
                else:
                    line = f"2025/10/08 20:00:00 [train] something{pad}{variant}happened here"
                buf = filler + (line + "\n").encode() + filler
                found = [buf[s:e] for s, e in scanner.cue_lines(buf, 0, len(buf))]
                assert found == [(line + "\n").encode()], (kind, phrase, variant, pad)


def test_environment_variable_and_config_choose_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "numpy")
    assert scanner_for().name == "numpy"
    monkeypatch.setenv(ENV_VAR, "auto")
    assert scanner_for().name == ("numpy" if HYPERSCAN_MISSING else "hyperscan")
    monkeypatch.setenv(ENV_VAR, "hyperscan")
    assert resolve_kind("numpy") == "numpy"  # an explicit choice (LogConfig.cue_scanner) wins over the env
    monkeypatch.setenv(ENV_VAR, "grep")
    with pytest.raises(ValueError, match=ENV_VAR):
        scanner_for()


def test_forcing_hyperscan_where_it_is_missing_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import runshepherd.logs.scanners as scanners

    monkeypatch.setattr(scanners, "HYPERSCAN_MISSING", "hyperscan cannot be imported (No module named 'hyperscan')")
    with pytest.raises(RuntimeError, match="No module named 'hyperscan'"):
        scanners.resolve_kind("hyperscan")
    assert scanners.available_kinds() == ["numpy"]


@needs_hyperscan
def test_a_big_read_gives_the_same_digest_with_either_engine(tmp_path: Path) -> None:
    path = tmp_path / "run.log"
    path.write_text("".join(trainer_lines(6000, error_at="middle")))
    small = LogConfig(head_window_bytes=4096, tail_window_bytes=8192, scan_chunk_bytes=16384)
    digests = [read_log_file(path, config=small.model_copy(update={"cue_scanner": k})) for k in ("numpy", "hyperscan")]
    assert digests[0].lines_skimmed > 0 and digests[0].root_error == ROOT_ERROR
    assert digests[0].model_dump() == digests[1].model_dump()


@needs_hyperscan
def test_threads_can_share_the_hyperscan_scanner() -> None:
    """Fan-out readers run in threads: each needs its own Hyperscan scratch, or scans fail or mix up."""
    scanner = scanner_for("hyperscan")
    chunks = [bytearray(generated_chunk(seed)) for seed in range(8)]
    expected = [reference_lines(bytes(c), 0, len(c)) for c in chunks]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _ in range(3):
            found = list(pool.map(lambda c: list(scanner.cue_lines(c, 0, len(c))), chunks))
            assert found == expected


def test_without_hyperscan_the_reader_falls_back_to_numpy(tmp_path: Path) -> None:
    """What an ARM machine sees: the import fails, auto means numpy, and a big read still finds the root error."""
    path = tmp_path / "run.log"
    path.write_text("".join(trainer_lines(6000, error_at="late")))
    script = (
        "import sys; sys.modules['hyperscan'] = None\n"  # makes `import hyperscan` raise ImportError
        "from runshepherd.logs import LogConfig, read_log_file\n"
        "from runshepherd.logs.scanners import DEFAULT_KIND, HYPERSCAN_MISSING, scanner_for\n"
        "small = LogConfig(head_window_bytes=4096, tail_window_bytes=8192, scan_chunk_bytes=16384)\n"
        f"digest = read_log_file({str(path)!r}, config=small)\n"
        "print(DEFAULT_KIND, scanner_for().name, HYPERSCAN_MISSING is not None, digest.lines_skimmed > 0)\n"
        "print(digest.root_error)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.splitlines() == ["numpy numpy True True", ROOT_ERROR]
