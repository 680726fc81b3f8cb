"""The segfault family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev


@pytest.mark.parametrize("case_id", ["a-0027", "a-0061"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "segfault"


def test_exit_139_is_a_native_crash_fixed_by_an_environment_of_matching_libraries() -> None:
    d = diagnose_log_text("Process finished with exit code 139 (interrupted by signal 11: SIGSEGV)\n")
    assert (d.label, d.fix.kind) == ("segfault", "fix_driver_or_image")
    assert "built for the same CUDA and driver" in d.fix.description


def test_where_it_crashed_decides_the_fix_and_it_is_never_an_automatic_retry() -> None:
    at_import = (
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x00007fc2 (most recent call first):\n"
        '  File "<frozen importlib._bootstrap>", line 219 in _call_with_frames_removed\n'
    )
    launcher = "  exitcode  : -11 (pid: 6421)\n  traceback : Signal 11 (SIGSEGV) received by PID 6421\n"
    a, b = diagnose_log_text(at_import), diagnose_log_text(launcher)
    assert (a.label, a.fix.kind) == ("segfault", "fix_code")
    assert (b.label, b.fix.kind) == ("segfault", "retry")
    from runshepherd.diagnosis.rules import infra_labels

    assert "segfault" not in infra_labels() and a.origin != "infra"


@pytest.mark.parametrize(
    "log",
    [
        # Windows NTSTATUS codes as PyCharm reports them: access violation, stack overflow, fail-fast
        "Process finished with exit code -1073741819 (0xC0000005)\n",
        "Process finished with exit code -1073741571 (0xC00000FD)\n",
        "Process finished with exit code -1073740791 (0xC0000409)\n",
        "Process finished with exit code 3221225477\n",  # the same access violation, unsigned
        # CPython Modules/faulthandler.c, faulthandler_exc_handler: "Windows fatal exception: " + the exception's name
        "Windows fatal exception: access violation\n\nCurrent thread 0x00002a3c (most recent call first):\n",
        # macOS bash and zsh name the signal their own way
        "Abort trap: 6\n",
        "zsh: illegal hardware instruction  python train.py\n",
    ],
)
def test_native_crashes_as_windows_macos_and_zsh_report_them(log: str) -> None:
    assert diagnose_log_text(log).label == "segfault", log


def test_glibc_heap_corruption_aborts() -> None:
    # glibc malloc/malloc.c, malloc_printerr: "free(): invalid next size (fast)", "munmap_chunk(): invalid pointer"
    for log in (
        "*** Error in `python': free(): invalid next size (fast): 0x00007f3c ***\n",
        "munmap_chunk(): invalid pointer\n",
    ):
        assert diagnose_log_text(log).label == "segfault", log


def test_an_abort_code_yields_to_the_error_that_aborted() -> None:
    """NCCL's watchdog aborts the process (SIGABRT): DeepSpeed's launcher reports ``return code = -6`` before the
    rank's own error reaches the log; the error is the verdict. An abort code alone is still a native crash."""
    launcher = (
        "[2026-11-29 06:41:55,118] [ERROR] [launch.py:322:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
        "'--local_rank=1'] exits with return code = -6\n"
    )
    rank = (
        "RuntimeError: NCCL communicator was aborted on rank 1.  Original reason for failure was: [Rank 1] Watchdog "
        "caught collective operation timeout: WorkNCCL(SeqNum=40, OpType=BROADCAST) ran for 1800314 milliseconds\n"
    )
    assert diagnose_log_text(launcher + rank).label == "nccl_or_distributed"
    assert diagnose_log_text(launcher).label == "segfault"


@pytest.mark.parametrize(
    ("case_id", "label"),
    [
        # caffe's glog fatal check names the cause ("Check failed: mdb_status == 0 (2 vs. 0) No such file or
        # directory") before its "*** Check failure stack trace ***" and "Aborted (core dumped)"
        ("v-0019", "file_not_found"),
        # a protobuf text-format error in the solver file, then the glog check abort
        ("v-0022", "validation_error"),
        # "terminate called after throwing an instance of 'gloo::IoException'" then "Aborted (core dumped)"
        ("u-0017", "nccl_or_distributed"),
        ("w-0021", "nccl_or_distributed"),
    ],
)
def test_an_abort_is_the_echo_of_the_error_reported_before_it(case_id: str, label: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == label


def test_an_abort_with_no_cause_before_it_and_a_segfault_after_an_error_stay_native_crashes() -> None:
    assert diagnose_log_text("Training...\nAborted (core dumped)\n").label == "segfault"
    # a segmentation fault is not an abort: an earlier error line does not make it an echo
    assert diagnose_log_text("RuntimeError: bad value\nSegmentation fault (core dumped)\n").label == "segfault"
    assert diagnose_log_text("RuntimeError: bad value\nAborted (core dumped)\n").label == "user_code_error"


@root_line_cases(("a-0061", "Segmentation fault (core dumped)"))
def test_root_line_vocabulary_reads_segfault(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "segfault", quoted)


def test_a_segfault_reported_in_a_chinese_locale_is_read_as_one() -> None:
    # glibc's zh_CN translation of strsignal(SIGSEGV) and "(core dumped)", as bash prints it: "段错误 (核心已转储)"
    # is read as the English text (formats/locales.py), as strongly as "Segmentation fault (core dumped)"
    d = diagnose_log_text("$ python train.py --epochs 3\n段错误 (核心已转储)\n")
    english = diagnose_log_text("$ python train.py --epochs 3\nSegmentation fault (core dumped)\n")
    assert d.label == english.label == "segfault" and d.confidence == english.confidence
    assert "段错误 (核心已转储)" in d.evidence


@pytest.mark.parametrize(
    "log",
    [
        "0# 0x0000564B4B89F8A9 in tritonserver\n1# 0x00007F631496D210 in /usr/lib/x86_64-linux-gnu/libc.so.6\n"
        "2# abort in /usr/lib/x86_64-linux-gnu/libc.so.6\n3# 0x00007F6314D23911 in /usr/lib/x86_64-linux-gnu/libstdc++.so.6",
        "#0  __pthread_kill_implementation (no_tid=0, signo=6, threadid=1) at ./nptl/pthread_kill.c:44\n"
        "#1  0x00007ffff7c42476 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26\n"
        "#2  0x00007ffff7c287f3 in __GI_abort () at ./stdlib/abort.c:79",
    ],
)
def test_a_native_stack_trace_through_libcs_abort_is_a_native_crash(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "segfault" and any("abort" in e or "raise" in e for e in d.evidence), d


def test_a_stack_trace_of_a_triton_server_that_aborted_is_read_from_the_real_case() -> None:
    d, _, record = diagnose_dev("zf-0024")
    assert d.label == record["label"] == "segfault"


def test_an_illegal_instruction_is_a_build_for_another_cpu() -> None:
    # strsignal's words, and a container runtime that only reports the exit status (128 + SIGILL)
    for log in (
        "llama_model_load: loading model from 'ggml-gpt4all-j.bin'\nIllegal instruction (core dumped)\n",
        "INFO: container failed with non-zero exit code: container failed with non-zero exit code: 132 (exit code 132)\n",
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("segfault", "fix_driver_or_image"), log
        assert "CPU" in d.fix.description
    # a segmentation fault keeps the versions-of-native-libraries fix
    seg = diagnose_log_text("Segmentation fault (core dumped)\n").fix
    assert seg.kind == "fix_driver_or_image" and "CPU" not in seg.description


def test_an_abort_that_dumped_core_is_weaker_than_a_segmentation_fault() -> None:
    # SIGABRT is a program ending itself on an error it reported (a Kaldi writer's broken pipe, kenlm's failed
    # assertion: retired blind v22), read as weakly as the other abort reports; a segfault stays sure
    abort = diagnose_log_text("[1]    15749 abort (core dumped)  ~/kenlm/build/bin/lmplz -o 5 -T tmp/\n")
    segv = diagnose_log_text("[1]    15749 segmentation fault (core dumped)  python train.py\n")
    assert abort.label == "segfault" and abort.confidence < 0.8
    assert segv.label == "segfault" and segv.confidence >= 0.85


_KALDI_BROKEN_PIPE = (
    "# gmm-init-mono --train-feats=ark,s,cs:apply-cmvn scp:feats.scp ark:- | add-deltas ark:- ark:- | subset-feats "
    "--n=10 ark:- ark:-| data/lang/topo 39 exp/mono/0.mdl exp/mono/tree\n"
    "ERROR (add-deltas[5.5]:Write():kaldi-matrix.cc:1407) Failed to write matrix to stream\n"
    "WARNING (add-deltas[5.5]:Write():util/kaldi-table-inl.h:1057) Write failure to standard output\n"
    "ERROR (add-deltas[5.5]:Write():util/kaldi-table-inl.h:1515) Error in TableWriter::Write\n"
    "terminate called after throwing an instance of 'kaldi::KaldiFatalError'\n"
    "  what():  kaldi::KaldiFatalError\n"
    "Aborted (core dumped)\n"
    "# Accounting: time=0 threads=1\n"
)


def test_a_kaldi_writer_aborting_on_a_pipe_its_reader_closed_in_a_job_that_ended_well_is_healthy() -> None:
    """zzzv-0208, zzzzb-0210: subset-feats stops reading after ten utterances; the writers abort, the job ends 0."""
    assert (
        diagnose_log_text(_KALDI_BROKEN_PIPE + "# Ended (code 0) at Sun May  5 02:09:43 EEST 2024\n").label == "healthy"
    )
    assert (
        diagnose_log_text(_KALDI_BROKEN_PIPE + "# Ended (code 134) at Sun May  5 02:09:43 EEST 2024\n").label
        != "healthy"
    )
    # another error than a failed write is not the pipe's: the abort stays a failure
    other = _KALDI_BROKEN_PIPE.replace(
        "Failed to write matrix to stream", "Sample frequency mismatch: you specified 16000 but data has 44100"
    )
    assert diagnose_log_text(other + "# Ended (code 0) at Sun May  5 02:09:43 EEST 2024\n").label != "healthy"


def test_valgrind_catching_a_heap_overrun_is_a_memory_fault_never_healthy() -> None:
    """Retired v36's zzzzzzq-0205: a C trainer run under valgrind printed its training loss, then valgrind reported the
    invalid write and aborted on the corrupted heap; the product read the loss line and said healthy."""
    log = (
        "Training loss: 2.302585\n"
        "==355249== Invalid write of size 8\n"
        "==355249==    at 0x484F9A3: memset (vg_replace_strmem.c:1386)\n"
        "==355249==  Address 0x5a3b040 is 0 bytes after a block of size 0 alloc'd\n"
        "valgrind: Heap block lo/hi size mismatch: lo = 96, hi = 0.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "segfault" and any("Invalid write of size 8" in e or "Heap block" in e for e in d.evidence)
    # memcheck's other reports (a leak summary) are no memory fault
    assert diagnose_log_text("==1== LEAK SUMMARY:\n==1==    definitely lost: 0 bytes in 0 blocks\n").label != "segfault"
    d, record = rules_dev("zzzzzzq-0205")
    assert d.label == record["label"] == "segfault"


def test_an_abort_after_the_programs_own_fatal_message_is_read_by_that_message() -> None:
    """Dev zzzza-0202 (MXNet): "Check failed: … number of input must be bigger than batch size", then "terminate called
    after throwing an instance of 'dmlc::Error'" and "Aborted", was a native crash (0.7). An abort is the program
    ending itself on the error it has just printed: when every reading of the crash is such an abort and the error's
    own words name a family, that family is the verdict. A segmentation fault is no echo; a bare abort stays a crash."""
    assert diagnose_dev("zzzza-0202")[0].label == "validation_error"
    stated = "F0102 10:00:00.000 1 solver.cpp:81] Check failed: error == cudaSuccess (2 vs. 0)  out of memory\n"
    assert diagnose_log_text(stated + "*** Check failure stack trace: ***\nAborted (core dumped)\n").label == "gpu_oom"
    assert diagnose_log_text("error: out of host memory\nSegmentation fault (core dumped)\n").label == "segfault"
    assert diagnose_log_text("loading model\nAborted (core dumped)\n").label == "segfault"
