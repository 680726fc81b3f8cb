"""The task's command as the scheduler echoes it (`[train][osmo] Running command: python3 -c '…'`) is source the job
was given, not output it printed (fresh27's finding): a command quoting an error was diagnosed gpu_oom 0.9 with the
echo's `msg = 'RuntimeError: CUDA out of memory …'` as its evidence, on `diagnose WF` and `diagnose --log` alike."""

from __future__ import annotations

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.logs import read_log
from runshepherd.logs.echo import echo_lines

# as the local backend's supervisor writes it (backends/local/supervisor.py: shlex.join of the argv, control lines)
LOG = """\
2026/12/01 14:37:18 [train][osmo] Running command: python3 -c 'import sys
2026/12/01 14:37:18 [train][osmo] msg = '"'"'RuntimeError: CUDA out of memory. Tried to allocate 2 GiB'"'"'
2026/12/01 14:37:18 [train][osmo] print('"'"'step 1 loss 0.5'"'"')
2026/12/01 14:37:18 [train][osmo] sys.exit(3)'
2026/12/01 14:37:18 [train] step 1 loss 0.5
2026/12/01 14:37:18 [train][osmo] Task exited with code 3
"""


def test_the_echo_ends_where_its_shell_quoting_closes() -> None:
    assert echo_lines(LOG.splitlines()) == [True, True, True, True, False, False]
    one = "2026/12/01 14:37:18 [train][osmo] Running command: python train.py --epochs 2"
    assert echo_lines([one, "2026/12/01 14:37:19 [train][osmo] Task exited with code 1"]) == [True, False]


def test_a_command_that_quotes_an_error_is_not_the_runs_failure() -> None:
    verdict = diagnose_log_text(LOG, "echo.log")
    assert verdict.label != "gpu_oom", verdict
    assert not any("CUDA out of memory" in e for e in verdict.evidence), verdict.evidence
    digest = read_log(LOG.splitlines(), task="train")
    assert not any("CUDA out of memory" in line for line in digest.error_lines), digest.error_lines
