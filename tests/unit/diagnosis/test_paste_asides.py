"""A person's own lines in a pasted log (the command they typed, an elision mark, their sentences) and PowerShell's
error record around a native program's stderr are the paste's, not the log's: they change no verdict and never hide
the failure line they sit next to (runshepherd/diagnosis/paste.py)."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.paste import asides

from .families.real import dev_case
from .test_paste_invariance import LAYOUTS

# the prompts' documented forms: bash's default PS1 (\u@\h:\w\$), Red Hat's ([\u@\h \W]\$), zsh's (%), a root
# shell (#), Python's sys.ps1 (">>> ") and sys.ps2 ("... "), IPython's "In [N]: ", PowerShell's "PS C:\path> ",
# cmd.exe's "C:\path>"
TYPED = [
    "$ python train.py --config configs/base.yaml",
    "(venv) user@gpu-node:~/project$ torchrun --nproc_per_node 4 train.py",
    "[me@login01 experiments]$ sbatch run.sh",
    "me@macbook ~/code % python main.py",
    "root@3f2a9c1e7b2d:/workspace# bash scripts/finetune.sh",
    ">>> import torch",
    "... print(x)",
    "In [3]: trainer.train()",
    "PS C:\\Users\\me\\project> python train.py",
    "C:\\Users\\me\\project>python train.py",
]
SAID = [
    "...",
    "[...]",
    "(...)",
    "When I run the training script I get the following output:",
    "Then I get this error:",
    "Any idea?",
    "Hi, thanks for the great work! I am trying to reproduce the results.",
    "Here is the full log:",
    "请问这是什么原因？",
    "Запускаю обучение, вывод такой:",
]
# the program's lines that look alike: a failure said in a sentence, a localised abort, a heading with its items,
# Python's chain marker, a one-word kill
PROGRAM = [
    "Floating point exception",
    "Segmentation fault (core dumped)",
    "已放弃 (核心已转储)",
    "During handling of the above exception, another exception occurred:",
    "Killed",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
    "I get RuntimeError: CUDA out of memory",
    "I0530 23:11:46.299486 1 logging.cc:43] starting",
    "E tensorflow/core/common_runtime/gpu/gpu_device.cc:1]  failed",
    "Is the file there: /data/x.npy",
    "root@c6f79d6e94db:/workspace# client_loop: send disconnect: Connection reset",
    ">>> 3 validation errors for config",
    "ignore me 6",
]


@pytest.mark.parametrize("line", TYPED + SAID)
def test_a_persons_line_is_read_as_the_pastes(line: str) -> None:
    assert asides(["", line, ""]) == [False, True, False]


@pytest.mark.parametrize("line", PROGRAM)
def test_a_programs_line_is_never_read_as_the_pastes(line: str) -> None:
    assert asides(["", line, ""]) == [False, False, False]


def test_a_programs_heading_over_indented_items_or_a_rule_is_the_logs() -> None:
    lines = ["Average execution time over steps:", "  Forward pass (10/10):  mean:   11ms"]
    assert asides(lines) == [False, False]
    # LSF's job report (bsub's output file)
    lsf = ["", "Resource usage summary:", "", "    CPU time :   12.00 sec.", "", "Your job looked like:", "", "-" * 60]
    assert not any(asides(lsf))


OOM = """Traceback (most recent call last):
  File "train.py", line 42, in <module>
    loss.backward()
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)"""


def test_the_failure_line_inside_a_persons_paste_is_still_the_root() -> None:
    pasted = "\n".join(
        [
            "$ python train.py --batch_size 64",
            "",
            "Then I get:",
            "",
            *OOM.splitlines()[:2],
            "...",
            *OOM.splitlines()[2:],
        ]
    )
    pasted += "\n\nAny idea?\n"
    plain, noisy = diagnose_log_text(OOM, "x"), diagnose_log_text(pasted, "x")
    assert plain.label == noisy.label == "gpu_oom"
    assert any("CUDA out of memory" in e for e in noisy.evidence)


def test_a_sentence_that_quotes_the_error_is_still_read() -> None:
    d = diagnose_log_text("I get RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n", "x")
    assert d.label == "gpu_oom"


@pytest.mark.parametrize("case_id", ["f-0037", "v-0033", "j-0020"])
def test_routine_notices_with_a_persons_sentences_around_them_stay_healthy(case_id: str) -> None:
    text, record = dev_case(case_id)
    assert record["label"] == "healthy" == diagnose_log_text(text, case_id).label
    pasted = f"$ python train.py\nWhen I run it I get the following output:\n\n{text}\n\nIs this expected?\n"
    assert diagnose_log_text(pasted, case_id).label == "healthy"


def test_an_elision_inside_an_ipython_listing_keeps_the_frame_source_as_code() -> None:
    text, record = dev_case("h-0056")
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("186"))
    pasted = "\n".join([*lines[:at], "(...)", *lines[at:]])
    assert diagnose_log_text(pasted, "h-0056").label == record["label"] == "file_not_found"


# Windows PowerShell 5.1's record around a native program's first stderr line, as its console prints it (the
# fields' layout: PowerShell's NormalView error view, "+ CategoryInfo          : " and "+ FullyQualifiedErrorId : ")
POWERSHELL = """python : Traceback (most recent call last):
At line:1 char:1
+ python train.py --epochs 10
+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~
    + CategoryInfo          : NotSpecified: (Traceback (most recent call last)::String) [], RemoteException
    + FullyQualifiedErrorId : NativeCommandError
{BLANK}
  File "train.py", line 42, in <module>
    loss.backward()
torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 15.78 GiB total capacity)""".format(
    BLANK=" "  # the record ends with a line of one space
)


def test_a_powershell_record_is_read_as_the_program_printed_it() -> None:
    d = diagnose_log_text(POWERSHELL, "x")
    assert d.label == "gpu_oom" and any("CUDA out of memory" in e for e in d.evidence)
    assert not any("CategoryInfo" in e or "NativeCommandError" in e for e in d.evidence)


def test_the_failure_line_a_powershell_record_wraps_is_still_the_root() -> None:
    head = "python : RuntimeError: CUDA error: out of memory"
    record = POWERSHELL.splitlines()[1:7]
    d = diagnose_log_text("\n".join(["Epoch 1/10", head, *record]), "x")
    assert d.label == "gpu_oom" and head in d.evidence  # the raw line, as pasted, is the evidence


def test_a_localised_record_and_one_without_a_head() -> None:
    localised = POWERSHELL.replace("At line:1 char:1", "En línea: 1 Carácter: 1")
    assert diagnose_log_text(localised, "x").label == "gpu_oom"
    headless = "ftruncate: No space left on device\n" + "\n".join(POWERSHELL.splitlines()[4:6])
    assert diagnose_log_text(headless, "x").label == "disk_full"


# TRAIN cases whose label the record changed before it was read (benchmarks/paste_layouts.py's ``powershell``): a
# download error read as a healthy run (s-0006), a rejected config read as routine notices (m-0032), a failed run's
# last line lost (j-0037), the record's own "+ CategoryInfo … RemoteException" read as the root line (k-0027)
@pytest.mark.parametrize("case_id", ["s-0006", "m-0032", "j-0037", "k-0027", "x-0010"])
def test_a_log_printed_through_powershell_keeps_its_label(case_id: str) -> None:
    text, _ = dev_case(case_id)
    pasted = LAYOUTS.apply("powershell", text, case_id)
    assert "NativeCommandError" in pasted
    assert diagnose_log_text(pasted, case_id).label == diagnose_log_text(text, case_id).label


FIRST_ATTEMPT = """$ python train.py
Traceback (most recent call last):
  File "train.py", line 3, in <module>
    import wandb
ModuleNotFoundError: No module named 'wandb'
$ pip install wandb
Successfully installed wandb-0.16.6
$ python train.py
"""


@pytest.mark.parametrize("case_id", ["a-0001", "f-0037", "z-0035", "b-0033"])
def test_a_first_attempt_run_again_is_not_the_log_asked_about(case_id: str) -> None:
    text, record = dev_case(case_id)
    assert diagnose_log_text(FIRST_ATTEMPT + text, case_id).label == record["label"]
    assert LAYOUTS.apply("attempts", text, case_id).endswith(text)


def test_a_different_command_after_the_error_supersedes_nothing() -> None:
    pasted = (
        "$ python train.py\n" + OOM + "\n$ nvidia-smi\nNo devices were found\n$ pip list | grep torch\ntorch 2.1.0\n"
    )
    d = diagnose_log_text(pasted, "x")
    assert d.label == "gpu_oom" and any("CUDA out of memory" in e for e in d.evidence)


def test_a_programs_own_indented_prompt_marks_are_the_log() -> None:
    assert asides(["  >>> lr: 0.010000", "    $ conda init <SHELL_NAME>"]) == [False, False]
