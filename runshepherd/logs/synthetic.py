"""Generated trainer logs of any size, for benchmarks and tests of the bounded reader.

The lines imitate real output (OSMO prefixes, HF Trainer dicts, tqdm bars, NCCL info, warnings,
checkpoints). A traceback can be planted early, in the middle or late, followed by the misleading noise
real failures leave behind, and secrets can be planted to prove they never come out.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Literal

Where = Literal["early", "middle", "late", "none"]

ROOT_ERROR = (
    "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)"
)
PLANTED_SECRETS = (
    "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "HF_TOKEN=hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "cloning https://builder:Sup3rS3cret@git.example.com/team/repo.git",
)
_BANNER = [
    "Collecting torch==2.3.0",
    "Successfully installed accelerate-0.30.1 transformers-4.41.0",
    "NCCL version 2.20.5+cuda12.4",
    "Some weights of BertForSequenceClassification were not initialized from the model checkpoint and are newly initialized",
    "***** Running training *****",
    "  Num examples = 120000",
    "  Num Epochs = 3",
    "  Total optimization steps = {total}",
]
_TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "/workspace/train.py", line 212, in <module>',
    "    main()",
    '  File "/workspace/train.py", line 198, in main',
    "    trainer.train()",
    '  File "/usr/local/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1532, in _wrapped_call_impl',
    "    return self._call_impl(*args, **kwargs)",
    ROOT_ERROR,
]
_NOISE_AFTER = [
    "/usr/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: resource_tracker: There appear to be 1 leaked semaphore objects to clean up at shutdown",
    "  warnings.warn('resource_tracker: There appear to be %d '",
    "[W ProcessGroupNCCL.cpp:1168] Warning: WorkNCCL(SeqNum=12) timeout, NCCL WARN NET/IB : No device found.",
    "FutureWarning: `resume_download` is deprecated and will be removed in version 1.0.0.",
]


def trainer_lines(
    n_lines: int, *, error_at: Where = "late", secrets: bool = True, task: str = "train"
) -> Iterator[str]:
    """``n_lines`` (approximately) of realistic log lines with newline, prefixed like OSMO."""
    start = datetime(2025, 10, 8, 20, 0, 0)
    total = max(n_lines, 10)
    error_line = {"early": n_lines // 10, "middle": n_lines // 2, "late": n_lines - 40, "none": -1}[error_at]
    body: list[str] = [b.format(total=total) for b in _BANNER]
    if secrets:
        body.extend(PLANTED_SECRETS)
    i = 0
    step = 0
    while i < n_lines:
        ts = (start + timedelta(seconds=i // 4)).strftime("%Y/%m/%d %H:%M:%S")
        prefix = f"{ts} [{task}] "
        if body:
            text = body.pop(0)
        elif i == error_line:
            for text in _TRACEBACK + _NOISE_AFTER:
                yield prefix + text + "\n"
                i += 1
            continue
        else:
            step += 1
            k = i % 8
            if k == 0:
                text = f"{{'loss': {2.5 / (1 + step / 500):.4f}, 'grad_norm': 1.{step % 97:02d}, 'learning_rate': 5e-05, 'epoch': {3 * step / total:.2f}}}"
            elif k in (1, 2, 3, 4):
                pct = min(100, step * 100 // total)
                bar = "#" * (pct // 10)
                text = f" {pct}%|{bar:<10}| {step}/{total} [00:{step % 60:02d}<01:00, 4.{step % 10}it/s]"
            elif k == 5:
                text = f"step {step}/{total} loss={2.5 / (1 + step / 500):.4f} lr=5.0e-05 throughput=24.{step % 10} samples/s"
            elif k == 6:
                text = "[W reducer.cpp:1360] Warning: find_unused_parameters=True was specified in DDP constructor"
            else:
                text = "Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0"
            if step % 5000 == 0:
                text = f"Saving model checkpoint to /osmo/output/checkpoint-{step}"
        yield prefix + text + "\n"
        i += 1


def write_log(path: Path, megabytes: float, *, error_at: Where = "late", secrets: bool = True) -> Path:
    """Write a log of about ``megabytes`` MB (average line ~95 bytes), streaming to disk."""
    n_lines = max(200, int(megabytes * 1024 * 1024 / 95))
    with open(path, "w", encoding="utf-8") as f:
        batch: list[str] = []
        for line in trainer_lines(n_lines, error_at=error_at, secrets=secrets):
            batch.append(line)
            if len(batch) >= 10000:
                f.write("".join(batch))
                batch.clear()
        f.write("".join(batch))
    return path


BURIED_ERROR = "RuntimeError: CUDA error: device-side assert triggered"

_BURIED_SCRIPT = """\
import sys
half = int(float(sys.argv[1]) * 1024 * 1024 / 2)
out = sys.stdout
n = step = 0
while n < half:
    step += 1
    line = "step %d loss=%.4f lr=5e-05 epoch=%.2f\\n" % (step, 2.0 - step * 1e-7, step / 100000)
    out.write(line)
    n += len(line)
out.write("Traceback (most recent call last):\\n")
out.write('  File "/workspace/train.py", line 88, in <module>\\n')
out.write("    loss.backward()\\n")
out.write("{error}\\n")
n = i = 0
while n < half:
    i += 1
    line = "UserWarning: TypedStorage is deprecated (rank %d, call %d)\\n" % (i % 8, i)
    out.write(line)
    n += len(line)
sys.exit(1)
"""


def buried_error_spec(megabytes: float, name: str = "buried-error") -> str:
    """A workflow spec whose task prints ``megabytes`` of log with :data:`BURIED_ERROR` in the middle, then
    warnings to the end, and exits 1 — the failure a tail of the last N lines misreads."""
    script = _BURIED_SCRIPT.format(error=BURIED_ERROR)
    body = "".join(f"        {line}\n" if line else "\n" for line in script.splitlines())
    return (
        f"workflow:\n  name: {name}\n  resources:\n    default:\n      cpu: 1\n      memory: 512Mi\n"
        f"  tasks:\n  - name: train\n    image: python:3.11-slim\n    command: [python, gen.py, '{megabytes:g}']\n"
        f"    files:\n    - path: gen.py\n      contents: |\n{body}"
    )
