"""Paste invariance: a log pasted with markdown, colour codes, a launcher's or editor's column keeps its label.

Metamorphic: the layouts of benchmarks/paste_layouts.py applied to TRAIN cases of the real corpus (each one a case
whose label some layout changed before the paste normalisation, runshepherd/diagnosis/paste.py); the benchmark
(``bench_diagnosis.py --invariance``) counts the same over every TRAIN case.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.paste import uncolumned, unpaste

from .families.real import dev_case

LAYOUTS_PY = Path(__file__).resolve().parents[3] / "benchmarks" / "paste_layouts.py"


def _layouts():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("paste_layouts", LAYOUTS_PY)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


LAYOUTS = _layouts()
# wrapped lines are undone only where a join is safe (the benchmark reports what is left; two cases are checked
# below)
CHECKED = [n for n in LAYOUTS.LAYOUTS if n not in ("soft_wrap", "hard_wrap")]
# one TRAIN case per kind of reading a layout used to break: the exception line (a-0099, v-0031), a bare
# "Killed" (a-0007, f-0010), a next-line message "(403)" (h-0008), a frame (b-0085, h-0036), glog INFO severity
# (l-0019), a stack dump's indentation (o-0018), routine INFO notices (j-0020), a listing of written weights (p-0031)
CASES = ["a-0099", "v-0031", "a-0007", "f-0010", "h-0008", "b-0088", "b-0085", "h-0036", "l-0019", "o-0018"]
CASES += ["j-0020", "p-0031", "a-0001"]


# soft-wrapped error messages read whole: a capability warning (i-0018) and a device assert (a-0068) wrapped at 80
WRAPPED = [("soft_wrap", "i-0018"), ("soft_wrap", "a-0068"), ("hard_wrap", "a-0038"), ("hard_wrap", "i-0057")]


@pytest.mark.parametrize(("layout", "case_id"), WRAPPED)
def test_a_wrapped_error_keeps_its_label(layout: str, case_id: str) -> None:
    text, record = dev_case(case_id)
    assert diagnose_log_text(LAYOUTS.apply(layout, text, case_id), case_id).label == record["label"]


def test_a_wrapped_line_is_read_whole_but_a_progress_bar_takes_no_next_line() -> None:
    text, _ = dev_case("a-0128")  # a real paste wrapped at 80 columns
    lines = text.splitlines()
    read = unpaste(lines)
    at = next(i for i, ln in enumerate(lines) if ln.startswith("OutOfMemoryError: CUDA out of memory."))
    assert "GPU 2 has a total capacty of 15.78 GiB" in read[at] and read[at + 1].startswith(lines[at + 1])
    bar = next(i for i, ln in enumerate(lines) if "s/it]" in ln and lines[i + 1].startswith("srun: error"))
    assert read[bar] == lines[bar]
    short = ["RuntimeError: one", "two"]  # no wrap width: nothing is joined
    assert unpaste(short) == short


@pytest.mark.parametrize("case_id", CASES)
def test_every_layout_keeps_the_label(case_id: str) -> None:
    text, record = dev_case(case_id)
    want = diagnose_log_text(text, case_id).label
    assert want == record["label"]
    changed = {}
    for name in CHECKED:
        pasted = LAYOUTS.apply(name, text, case_id)
        d = diagnose_log_text(pasted, case_id)
        if d.label != want:
            changed[name] = d.label
        assert all(e in pasted for e in d.evidence), "evidence stays the pasted log's own lines"
    assert not changed, f"{case_id} ({want}) read differently under {changed}"


def test_colour_codes_and_their_remains_are_dropped() -> None:
    lines = ["\x1b[0;31mValueError\x1b[0m: bad value", "[0;31mRuntimeError[0m: CUDA error: out of memory"]
    assert unpaste(lines) == ["ValueError: bad value", "RuntimeError: CUDA error: out of memory"]


def test_a_column_on_every_line_is_removed_but_not_one_line_that_starts_alike() -> None:
    compose = ["trainer-1  | Epoch 1", "trainer-1  | Traceback (most recent call last):", "trainer-1  | Killed"]
    assert unpaste(compose) == ["Epoch 1", "Traceback (most recent call last):", "Killed"]
    gutter = ["    11\tstep 1", '    12\t  File "x.py", line 3, in f', "    13\tKilled"]
    assert unpaste(gutter) == ["step 1", '  File "x.py", line 3, in f', "Killed"]
    launcher = ["[rank3]: I0105 14:05:05.749943 1 xla_bridge.py:660] ok", "[rank3]:     barrier (torch/x.py:1)"]
    assert unpaste(launcher) == ["I0105 14:05:05.749943 1 xla_bridge.py:660] ok", "    barrier (torch/x.py:1)"]
    mixed = ["- item one", "loss 0.3", "12 | a table cell", "Killed"]
    assert unpaste(mixed) == mixed


def test_markdown_marks_and_wrappers() -> None:
    lines = ["<details><summary>Full log</summary>", "```text", "> > E       **Killed**", "_**Killed**_", "```"]
    assert unpaste(lines) == ["", "", "Killed", "Killed", ""]
    banner = ["***** train metrics *****", ">>> import torch"]
    assert unpaste(banner) == banner


def test_an_ipython_traceback_gets_pythons_frames() -> None:
    lines = [
        "---------------------------------------------------------------------------",
        "OSError                                   Traceback (most recent call last)",
        "File /opt/conda/lib/python3.10/site-packages/transformers/utils/hub.py:389, in cached_file(path, name)",
        "    387 try:",
        "--> 389     resolved = hf_hub_download(path)",
        "/usr/lib/python3.8/http/client.py in _send_request(self, method)",
        "   1299         # Honor explicitly requested Host: and Accept-Encoding: headers.",
        "-> 1300         self.endheaders(body)",
    ]
    assert unpaste(lines)[:3] == [
        "",
        "Traceback (most recent call last):",
        '  File "/opt/conda/lib/python3.10/site-packages/transformers/utils/hub.py", line 389, in cached_file',
    ]
    assert unpaste(lines)[5] == '  File "/usr/lib/python3.8/http/client.py", line 1300, in _send_request'


def test_forum_typography_html_entities_and_an_indented_block() -> None:
    lines = [
        "\t  File \u201c/x/train.py\u201d, line 3, in main",
        "\tKeyError: \u2018lr\u2019 \u2013lr\u00a0is &lt;unset&gt;",
    ]
    assert unpaste(lines) == ['  File "/x/train.py", line 3, in main', "KeyError: 'lr' --lr is <unset>"]
    kubectl = ["[pod/trainer-0/pytorch] step 1", "[pod/trainer-0/pytorch] Killed"]
    assert unpaste(kubectl) == ["step 1", "Killed"]


def test_a_hard_wrapped_line_is_joined_without_a_space() -> None:
    one = "RuntimeError: CUDA error: no kernel image is available for execution on the device"
    two = "ImportError: libcudart.so.12: cannot open shared object file: No such file or directory"
    read = unpaste([one[:60], one[60:], two[:60], two[60:]])  # a terminal 60 columns wide
    assert read[0] == one and read[2] == two


def test_nested_layouts_and_a_quoted_evidence_line_read_without_their_column() -> None:
    nested = ["- > [pod/trainer-0/pytorch] Traceback (most recent call last):", "- > [pod/trainer-0/pytorch] Killed"]
    assert unpaste(nested) == ["Traceback (most recent call last):", "Killed"]
    indented_tags = ["    [rank1]: step 1", "    [rank1]: Killed"]
    assert unpaste(indented_tags) == ["step 1", "Killed"]
    assert uncolumned("worker-1  | Aborted (core dumped)") == "Aborted (core dumped)"
    assert uncolumned("    12\tAborted (core dumped)") == "Aborted (core dumped)"


def test_one_line_cut_at_a_terminal_width_is_joined_but_not_at_another_width() -> None:
    msg = (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 15.77 GiB total capacity)"
    )
    assert unpaste(["step 1", msg[:80], msg[80:]])[1] == msg
    assert unpaste(["step 1", msg[:81], msg[81:]])[1] == msg[:81]
