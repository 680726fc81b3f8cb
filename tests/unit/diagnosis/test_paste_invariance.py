"""Paste invariance: a log pasted with markdown, colour codes, a launcher's or editor's column keeps its label.

Metamorphic: the layouts of benchmarks/paste_layouts.py applied to TRAIN cases of the real corpus (each one a case
whose label some layout changed before the paste normalisation, runshepherd/diagnosis/paste.py); the benchmark
(``bench_diagnosis.py --invariance``) counts the same over every TRAIN case.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from runshepherd.diagnosis import diagnose_log_text
from runshepherd.diagnosis.paste import uncolumned, unjson, unpaste, unpopup

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


@pytest.mark.parametrize("case_id", ["a-0099", "h-0008", "p-0031", "j-0020"])
@pytest.mark.parametrize("style", ["bare", "api", "notebook_list"])
def test_a_log_pasted_as_json_keeps_its_label_and_quotes_the_paste(case_id: str, style: str) -> None:
    """A log that reached the paste as JSON (RFC 8259 strings): one string with escaped line breaks, as the body of
    an API response, or nbformat's list of one-line strings (``"text": ["line\\n", …]``). It is read line by line;
    the evidence is a verbatim part of what was pasted."""
    text, record = dev_case(case_id)
    if style == "bare":
        pasted = json.dumps(text) + "\n"
    elif style == "api":
        pasted = '{"status": "error", "detail": ' + json.dumps(text) + "}\n"
    else:
        pasted = json.dumps({"name": "stderr", "output_type": "stream", "text": text.splitlines(True)}, indent=1)
    d = diagnose_log_text(pasted, case_id)
    assert d.label == record["label"]
    assert all(e in pasted for e in d.evidence)


def test_a_quoted_windows_path_or_one_escaped_break_is_not_a_json_log() -> None:
    raws, read = unjson(['OSError: cannot open "C:\\Users\\name\\new\\nets\\model.pt"'])
    assert raws == read == ['OSError: cannot open "C:\\Users\\name\\new\\nets\\model.pt"']
    one = ['msg="connection reset\\nretrying" level=error']
    assert unjson(one) == (one, one)


@pytest.mark.parametrize("case_id", ["p-0026", "m-0034", "p-0001", "j-0065"])
def test_a_vscode_popup_is_read_in_pythons_order(case_id: str) -> None:
    """VS Code's debugger shows "Exception has occurred: T", the message, then the frames: read as Python prints it
    (frames above the error), so the frame that raised it still decides; every evidence line is the paste's own."""
    text, record = dev_case(case_id)
    pasted = LAYOUTS.apply("vscode", text, case_id)
    d = diagnose_log_text(pasted, case_id)
    assert d.label == record["label"] and all(e in pasted for e in d.evidence)
    raws, read = unpopup(*[pasted.splitlines()] * 2)
    assert sorted(raws) == sorted(pasted.splitlines())  # the same lines, moved, none made up
    assert read.index("Traceback (most recent call last):") < next(i for i, r in enumerate(read) if "File " in r)


@pytest.mark.parametrize(
    ("layout", "case_id"),
    [
        ("soft_wrap", "x-0006"),
        ("soft_wrap", "b-0061"),
        ("hard_wrap", "h-0036"),
        ("soft_wrap", "a-0209"),
        ("soft_wrap", "a-0067"),
    ],
)
def test_a_wrap_that_starts_a_line_with_a_capital_word_or_cuts_a_frame_is_read_whole(layout: str, case_id: str) -> None:
    # x-0006, b-0061: Slurm's "… DUE TO TIME" / "LIMIT ***" (an all-caps word is no record of its own); h-0036: a
    # terminal cut an indented frame line inside its path ("…/client.py", lin" / "e 1300, in _send_request"); a-0209,
    # a-0067: wrapped at 80 around lines the wrap could not break (a hex id, a C++ signature), longer than 80
    text, record = dev_case(case_id)
    assert diagnose_log_text(LAYOUTS.apply(layout, text, case_id), case_id).label == record["label"]


def test_an_indented_line_takes_no_new_record_and_a_quoted_sentence_ends() -> None:
    lines = [
        "x" * 60,
        "  what():  [enforce fail at device.cc:88] ifa != nullptr. Unable to find address for: eth0",
        "Aborted (core dumped)",
        '"hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"' + " " * 12,
        "Aborted (core dumped)",
    ]
    width = max(len(ln) for ln in lines)
    lines = [ln.ljust(width) if i in (1, 3) else ln for i, ln in enumerate(lines)]
    read = unpaste(lines)
    assert "Aborted" not in read[1] and "Aborted" not in read[3]
