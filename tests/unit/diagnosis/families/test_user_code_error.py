"""The user_code_error family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev


@pytest.mark.parametrize("case_id", ["a-0104", "a-0183", "a-0181"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "user_code_error"


def test_a_plain_exception_in_the_users_code() -> None:
    log = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    x = y[3]\nKeyError: 3\n'
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code") and d.evidence == ["KeyError: 3"]


def test_an_uncaught_jvm_exception_is_read_like_a_python_one() -> None:
    """The JVM's 'Exception in thread "main" <type>: <message>' (Spark, Nextflow's Groovy): its type decides."""
    plain = 'Exception in thread "main" java.lang.IllegalStateException: model dir not initialised\n\tat com.acme.Train.main(Train.java:42)\n'
    d = diagnose_log_text(plain)
    assert d.label == "user_code_error" and "IllegalStateException" in d.explanation
    missing = 'Exception in thread "main" java.nio.file.NoSuchFileException: /data/in.parquet\n\tat sun.nio.fs.UnixException.translateToIOException(UnixException.java:92)\n'
    assert diagnose_log_text(missing).label == "file_not_found"


def test_a_worker_exception_re_raised_with_its_traceback_is_read_at_the_worker() -> None:
    """Old DataLoader workers re-raise in the parent as ``TypeError: Traceback (most recent call last):`` followed by
    the worker's traceback: the worker's own exception is the root, not the wrapper."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in <module>\n'
        "    for batch in loader:\n"
        "KeyError: Traceback (most recent call last):\n"
        '  File "/site-packages/torch/utils/data/dataloader.py", line 57, in _worker_loop\n'
        "    samples = collate_fn([dataset[i] for i in batch_indices])\n"
        "ValueError: too many values to unpack (expected 2)\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "user_code_error" and d.evidence[0].startswith("ValueError")


def test_a_spawned_workers_error_printed_after_the_parents_wrapper_is_the_root() -> None:
    """torch.multiprocessing.spawn raises ProcessRaisedException in the parent with the message "-- Process N terminated
    with the following error:" and the worker's traceback after it (torch/multiprocessing/spawn.py): the wrapper
    prints first, the cause second. The worker's exception is read, not the empty wrapper."""
    wrapper = (
        "Traceback (most recent call last):\n"
        '  File "/site-packages/torch/multiprocessing/spawn.py", line 160, in join\n'
        "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
        "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
        "-- Process 3 terminated with the following error:\n"
        "Traceback (most recent call last):\n"
        '  File "train.py", line 9, in main\n'
    )
    d = diagnose_log_text(wrapper + "    x = y[3]\nIndexError: list index out of range\n")
    assert d.label == "user_code_error" and "IndexError" in d.explanation and "ProcessRaised" not in d.explanation
    # zd-0024: a config path left unset reaches os.fspath in a spawned worker (None where a path is expected)
    d, _, record = diagnose_dev("zd-0024")
    assert d.label == record["label"] == "file_not_found" and d.evidence[0].startswith("TypeError: expected str")


@pytest.mark.parametrize("case_id", ["v-0030", "v-0031"])
def test_a_debugger_paste_and_a_markdown_bold_exception_are_read(case_id: str) -> None:
    """v-0030: VS Code's "Exception has occurred: RuntimeError" with the message on the next line; v-0031: the root
    line wrapped in markdown bold ("**TypeError: can't convert cuda:0 device type tensor to numpy…**"). Both were
    unknown ("nothing says why")."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], "fix_code") == ("user_code_error", "fix_code")


def test_an_exception_whose_message_is_on_the_next_line_is_read_with_it() -> None:
    """a-0021 prints "AssertionError: " then "The NVIDIA driver on your system is too old": the message is read as
    the exception's, so the wording rules see it; a bare exception before a blank line stays bare."""
    from runshepherd.diagnosis.errorblock import prepare

    block = prepare(["AssertionError: \n", "The NVIDIA driver on your system is too old (found version 9000).\n"])
    assert block.lines[0].text == "AssertionError: The NVIDIA driver on your system is too old (found version 9000)."
    assert block.lines[1].text.startswith("The NVIDIA driver")
    assert prepare(["KeyError:\n", "\n"]).lines[0].text == "KeyError:"
    # torchelastic's "ChildFailedError:" followed by an unrelated warning line (another rank's output) stays bare
    elastic = ["ChildFailedError:\n", "Warning: find_unused_parameters=True was specified in DDP constructor\n"]
    assert prepare(elastic).lines[0].text == "ChildFailedError:"
    debugger = prepare(["Exception has occurred: RuntimeError\n", "Expected object of scalar type Long\n"])
    assert debugger.lines[0].text == "RuntimeError: Expected object of scalar type Long"
    assert prepare(["**bold** and more\n"]).lines[0].text == "**bold** and more"


@root_line_cases(
    ("a-0031", "mat1 and mat2 shapes cannot be multiplied"),
    ("a-0154", "Expected input batch_size (1216) to match target batch_size (1280)"),
)
def test_root_line_vocabulary_reads_user_code_error(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "user_code_error", quoted)


def _traceback(frame: str, exc: str) -> str:
    return f'Traceback (most recent call last):\n  File "{frame}", line 12, in run\n    do_it()\n{exc}\n'


@pytest.mark.parametrize(
    ("exc", "label"),
    [
        # torchvision's C++ ops on a CPU-only build (csrc/ops/*.cpp: "Not compiled with CUDA support")
        ("RuntimeError: Not compiled with CUDA support", "missing_dependency"),
        # asyncio.wait_for's timeout, raised as a bare class with no message
        ("asyncio.exceptions.TimeoutError", "timeout"),
        # a path the program was given that is not there, raised as a RuntimeError
        ("RuntimeError: Dataset directory /data/imagenet/train does not exist", "file_not_found"),
    ],
)
def test_a_generic_exception_that_speaks_another_familys_words_is_that_failure(exc: str, label: str) -> None:
    """ValueError, RuntimeError, AssertionError, a library's own class: they only carry a message. When the message
    speaks another family's vocabulary and none of this family's, the verdict is that family, weakly (a rule's
    wording, or one line's reading), not a bug in the program."""
    d = diagnose_log_text(_traceback("/opt/conda/lib/python3.10/site-packages/lib/core.py", exc))
    assert d.label == label and d.confidence < 0.8, d


@pytest.mark.parametrize(
    "exc",
    [
        # CPython's own TypeError for a str indexed by a str: a built-in exception about the program's own values
        # keeps its reading whatever words ("must be") its message holds
        "TypeError: string indices must be integers, not 'str'",
        # torch/nn/functional.py binary_cross_entropy_with_logits: "Target size ({}) must be the same as input size ({})"
        "ValueError: Target size (torch.Size([4, 5])) must be the same as input size (torch.Size([20]))",
        # torch's conversion check for a value out of a dtype's range (c10/util/TypeCast.h)
        "RuntimeError: value cannot be converted to type at::Half without overflow",
        "KeyError: 'fl_eiou_gamma'",
    ],
)
def test_an_error_about_the_programs_own_values_stays_a_code_error(exc: str) -> None:
    d = diagnose_log_text(_traceback("train.py", exc))
    assert (d.label, d.confidence) == ("user_code_error", 0.66), d


def test_a_wrapper_that_points_to_the_error_above_is_not_the_error() -> None:
    """vLLM's EngineDeadError ("See stack trace (above) for the root cause.") reports another failure: the verdict
    rests on the exception printed before it, not on the wrapper."""
    log = (
        'Traceback (most recent call last):\n  File "engine/core.py", line 80, in run\n    step()\n'
        "RuntimeError: Triton Error [CUDA]: device kernel image is invalid\n"
        'Traceback (most recent call last):\n  File "serve.py", line 5, in <module>\n    llm.generate(p)\n'
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "cuda_driver" and "EngineDeadError" not in d.evidence[0]
    alone = diagnose_log_text(
        'Traceback (most recent call last):\n  File "serve.py", line 5, in <module>\n    llm.generate(p)\n'
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n"
    )
    assert alone.label != "user_code_error"  # nothing above it: no error of the program's own code is shown


def test_a_breakpoint_left_in_a_batch_job_is_the_users_code_not_unknown() -> None:
    d, _, record = diagnose_dev("zc-0004")
    assert d.label == record["label"] == "user_code_error" and "breakpoint" in d.fix.description
    log = '  File "/usr/lib/python3.10/bdb.py", line 90, in dispatch_line\n    if self.quitting: raise BdbQuit\nbdb.BdbQuit\n'
    d = diagnose_log_text(log)
    assert d.label == "user_code_error" and d.fix.kind == "fix_code" and "bdb.BdbQuit" in d.evidence[0]


@pytest.mark.parametrize("case_id", ["g-0035", "zh-0004"])
def test_the_programs_own_package_not_importable_from_where_it_was_started(case_id: str) -> None:
    """`No module named 'torchtitan'` raised in .../torchtitan/torchtitan/train.py: the package is there (the file
    lives in it), the launch leaves its parent off sys.path; installing from PyPI would not fix it."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "user_code_error" and "own package" in d.explanation
    assert "python -m" in d.fix.description


@pytest.mark.parametrize(
    ("frame", "mod"),
    [
        ('  File "/home/u/proj/scripts/train_sft.py", line 6, in <module>', "src.trainer"),
        ('  File "/home/u/proj/experiments/run_0127/main.py", line 9, in <module>', "src"),
        ('  File "train_base.py", line 8, in <module>', "scripts.preprocessing"),
    ],
)
def test_a_projects_layout_directory_not_importable_is_the_launch_not_a_package(frame: str, mod: str) -> None:
    """`No module named 'src'` from the project's own file: src/ and scripts/ are directories of a project's layout,
    never the name a package is installed under, so the project root is off sys.path (started from a subdirectory)."""
    log = f"Traceback (most recent call last):\n{frame}\n    from {mod} import X\nModuleNotFoundError: No module named '{mod}'\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_path"), frame
    assert "own layout" in d.explanation


def test_a_module_missing_from_an_installed_library_or_another_directory_stays_a_dependency() -> None:
    tb = "Traceback (most recent call last):\n"
    for frame, mod in (
        (
            '  File "/opt/venv/lib/python3.10/site-packages/xformers/ops/fmha/triton.py", line 3, in <module>',
            "xformers",
        ),
        ('  File "/home/u/training/OpenChatKit/training/modules/llama.py", line 5, in <module>', "flash_attn"),
        ('  File "/nas/projects/datacomp/train.py", line 2, in <module>', "training"),
    ):
        log = f"{tb}{frame}\n    import {mod}.x\nModuleNotFoundError: No module named '{mod}'\n"
        assert diagnose_log_text(log).label == "missing_dependency", frame


def test_the_programs_own_native_code_that_does_not_build() -> None:
    """zb-0015: GNU ld's "undefined reference to" for the program's own objects, then "collect2: error: ld returned 1
    exit status"; GCC's and nvcc's diagnostics on its own sources (GCC's "file:line:col: error: message" format)."""
    d, _, record = diagnose_dev("zb-0015")
    assert d.label == record["label"] == "user_code_error" and "did not build" in d.explanation
    assert d.confidence < 0.8
    for log in (
        "g++ -c src/ann.cpp\nsrc/ann.cpp:42:10: error: 'weights' was not declared in this scope\nmake: *** Error 1\n",
        'kernels/attn.cu(88): error: identifier "blockDimx" is undefined\n1 error detected in the compilation\n',
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("user_code_error", "fix_code"), log


def test_a_package_build_or_a_missing_header_is_not_the_programs_code() -> None:
    """A compile error while pip builds a wheel is the package's (its toolkit or version), and a missing header is a
    dependency (the -dev package or toolkit is not installed)."""
    pip = (
        "Building wheel for flash-attn (setup.py) ... error\n"
        "csrc/flash_attn/flash_api.cpp:12:10: error: 'at::cuda' has not been declared\n"
        "error: subprocess-exited-with-error\n"
    )
    assert diagnose_log_text(pip).label != "user_code_error"
    header = "csrc/ops.c:3:10: fatal error: cuda_runtime.h: No such file or directory\ncompilation terminated.\n"
    assert diagnose_log_text(header).label == "missing_dependency"


_OWN_CALL = 'Traceback (most recent call last):\n  File "/home/u/proj/train.py", line 92, in <module>\n    run()\n'


@pytest.mark.parametrize(
    "log",
    [
        _OWN_CALL + '  File "/venv/lib/python3.10/site-packages/numpy/__init__.py", line 397, in __getattr__\n'
        "    raise AttributeError(\nAttributeError: `np.Inf` was removed in the NumPy 2.0 release. Use `np.inf` instead.\n",
        _OWN_CALL + '  File "/venv/lib/python3.9/site-packages/torch/serialization.py", line 1524, in load\n'
        "    raise pickle.UnpicklingError(_get_wo_message(str(e))) from None\n"
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two "
        "options.\n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
        "from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed.\n",
        _OWN_CALL
        + "RuntimeError: Integer division with addcdiv is no longer supported, and in a future release addcdiv "
        "will perform a true division. The historic addcdiv behavior can be implemented as (input + value * "
        "torch.trunc(tensor1 / tensor2)).\n",
    ],
)
def test_a_release_change_whose_message_names_the_code_that_works_is_a_code_fix(log: str) -> None:
    """The library says what its release changed and names the replacement: the maintainer makes that change in the
    code the person wrote (the call is theirs)."""
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code"), log


def test_a_release_change_with_no_call_of_the_persons_shown_stays_a_release_to_pin() -> None:
    installed = (
        'Traceback (most recent call last):\n  File "/venv/lib/python3.10/site-packages/aligner/io.py", line 7, in '
        "<module>\n    PAD = np.NaN\n"
        "AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.\n"
    )
    assert diagnose_log_text(installed).label == "missing_dependency"
    bare = "AttributeError: `np.NaN` was removed in the NumPy 2.0 release. Use `np.nan` instead.\n"
    assert diagnose_log_text(bare).label == "missing_dependency"


def test_a_check_that_the_class_must_implement_a_hook_asks_for_code() -> None:
    """Lightning raises it as a MisconfigurationException (validation_error's class), but what it asks for is a method
    the person writes; a check that names a setting to give instead stays a rejected setting."""
    hook = (
        _OWN_CALL + '  File "/venv/lib/python3.11/site-packages/pytorch_lightning/core/hooks.py", line 483, in '
        'train_dataloader\n    raise MisconfigurationException("`train_dataloader` must be implemented to be used '
        'with the Lightning Trainer")\nlightning_fabric.utilities.exceptions.MisconfigurationException: '
        "`train_dataloader` must be implemented to be used with the Lightning Trainer\n"
    )
    d = diagnose_log_text(hook)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    setting = (
        _OWN_CALL + '  File "/venv/lib/python3.11/site-packages/transformers/trainer.py", line 620, in __init__\n'
        "    raise ValueError(\nValueError: The train_dataset does not implement __len__, max_steps has to be "
        "specified. The number of steps needs to be known in advance for the learning rate scheduler.\n"
    )
    assert diagnose_log_text(setting).label == "validation_error"


def test_a_packages_base_error_class_named_plain_error_ends_the_traceback() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/train.py", line 83, in main\n'
        '    wandb.log({"FLOPs (G)": flops / 1e9})\n'
        '  File "/env/lib/python3.9/site-packages/wandb/sdk/lib/preinit.py", line 36, in preinit_wrapper\n'
        '    raise wandb.Error(f"You must call wandb.init() before {name}()")\n'
        "wandb.errors.errors.Error: You must call wandb.init() before wandb.log()\n"
        "srun: error: gpu-n43: task 0: Exited with exit code 1\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    assert "wandb.init()" in d.explanation


def test_a_class_of_a_packages_module_of_exceptions_ends_the_traceback_whatever_its_name() -> None:
    # gym.error.DeprecatedEnv names no "Error": it is an exception for being a class of gym's module of errors
    log = (
        "Traceback (most recent call last):\n"
        '  File "/home/u/rl/train.py", line 12, in <module>\n'
        '    env = gym.make("Pendulum-v0")\n'
        '  File "/env/lib/python3.9/site-packages/gym/envs/registration.py", line 251, in _check_version_exists\n'
        "    raise error.DeprecatedEnv(\n"
        "gym.error.DeprecatedEnv: Environment version v0 for `Pendulum` is deprecated. Please use `Pendulum-v1` "
        "instead.\n"
    )
    d = diagnose_log_text(log)
    assert d.label != "unknown" and "gym.error.DeprecatedEnv" in d.evidence[0]
    # a module merely named like one is not a module of exceptions
    assert diagnose_log_text(log.replace("gym.error.DeprecatedEnv", "gym.error_util.DeprecatedEnv")).label == "unknown"


def test_a_job_script_under_set_u_reading_an_unset_variable_stops_there() -> None:
    log = (
        "Login successful.\n"
        "/var/tmp/slurmd_spool/job3259745/slurm_script: line 30: USER_: unbound variable\n"
        "=== JOB_STATISTICS ===\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    assert "USER_" in d.explanation and "line 30" in d.explanation


def test_an_environment_assignment_given_to_nohup_as_its_command_is_the_launch_line() -> None:
    # coreutils nohup execs its first word (zzzq-0107): nothing is missing, the launch line is wrong
    log = "nohup: failed to run command 'CUDA_VISIBLE_DEVICES=0': No such file or directory\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    assert "CUDA_VISIBLE_DEVICES" in d.explanation
    assert diagnose_log_text("nohup: failed to run command 'trian.sh': No such file or directory\n").label != (
        "user_code_error"
    )


def test_a_module_missing_from_the_projects_own_models_folder_is_the_projects() -> None:
    """zzzzc-0101, zzzza-0020: `models` was found, `backbone` is not in it; an installed library's is a version's."""
    own = (
        "Traceback (most recent call last):\n"
        '  File "/content/QueryDet-PyTorch-main/train_tools/coco_train.py", line 53, in <module>\n'
        "    from models.backbone import build\n"
        "ModuleNotFoundError: No module named 'models.backbone'\n"
    )
    d = diagnose_log_text(own)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    installed = own.replace("/content/QueryDet-PyTorch-main/train_tools", "/usr/lib/python3/site-packages/transformers")
    installed = installed.replace("'models.backbone'", "'transformers.models.mistral3'").replace(
        "from models.backbone", "from transformers.models.mistral3"
    )
    assert diagnose_log_text(installed).label == "missing_dependency"


def test_paddles_report_of_the_sigterm_its_launcher_sent_is_not_the_codes_error() -> None:
    """zzzza-0206: a rank failed to load libnccl.so; the launcher then sent SIGTERM, which Paddle reports below."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "tools/train.py", line 46, in main\n'
        "    dist.init_parallel_env()\n"
        "RuntimeError: (PreconditionNotMet) The third-party dynamic library (libnccl.so) that Paddle depends on is not "
        "configured correctly. (error code is libnccl.so: cannot open shared object file: No such file or directory)\n"
        "  Suggestions:\n"
        "  1. Check if the third-party dynamic library (e.g. CUDA, CUDNN) is installed correctly.\n"
        "\n--------------------------------------\nC++ Traceback (most recent call last):\n"
        "--------------------------------------\n0   paddle::framework::SignalHandle(char const*, int)\n"
        "\n----------------------\nError Message Summary:\n----------------------\n"
        "FatalError: `Termination signal` is detected by the operating system.\n"
        "  [SignalInfo: *** SIGTERM (@0x3e800007f37) received by PID 32724 (TID 0x7ff868f5d740) from PID 32567 ***]\n"
    )
    assert diagnose_log_text(log).label == "missing_dependency"


def test_an_option_defined_twice_is_the_codes_not_the_settings() -> None:
    """zzzzr-0108: argparse's "conflicting option string: --batch-size" is raised while the parser is built, before
    any argument is read (retired blind v26's miss); absl's DuplicateFlagError likewise."""
    d, _, record = diagnose_dev("zzzzr-0108")
    assert d.label == record["label"] == "user_code_error"
    log = (
        "Traceback (most recent call last):\n"
        "absl.flags._exceptions.DuplicateFlagError: The flag 'batch_size' is defined twice. First from train.py\n"
    )
    assert diagnose_log_text(log).label == "user_code_error"


def test_an_argument_the_person_gave_wrong_stays_a_settings_error() -> None:
    log = "usage: train.py [-h] [--batch-size N]\ntrain.py: error: argument --batch-size: invalid int value: 'x'\n"
    assert diagnose_log_text(log).label == "validation_error"


def test_a_question_asked_on_a_terminal_the_job_does_not_have_is_named_as_such() -> None:
    """input() in a batch job (OGB's "This will download 1.38GB. Will you proceed? (y/N)", retired blind v27's
    zzzzu-0118, read before as a download failure) ends in "EOFError: EOF when reading a line": the explanation says
    the job asked a question it could not be answered, and the confidence stays below 0.8 (a library's prompt is
    sometimes answered by upgrading it)."""
    d, _, record = diagnose_dev("zzzzu-0118")
    assert d.label == record["label"] == "user_code_error"
    assert "terminal" in d.explanation and "EOFError" in d.explanation
    bare = diagnose_log_text("Traceback (most recent call last):\nEOFError: EOF when reading a line\n")
    assert bare.label == "user_code_error" and bare.confidence < 0.8


@pytest.mark.parametrize(
    "line",
    [
        "scripts/dist_train.sh: 5: scripts/dist_train.sh: Bad substitution",
        'train.sh: 12: Syntax error: "(" unexpected',
        "run.sh: 3: [[: not found",
    ],
)
def test_a_bash_script_run_by_sh_is_the_scripts_to_fix(line: str) -> None:
    d = diagnose_log_text(f"+ sh scripts/run.sh\n{line}\n")
    assert d.label == "user_code_error" and d.fix.kind == "fix_code" and "bash" in d.fix.description


@pytest.mark.parametrize(
    "last",
    [
        "TypeError: fit() got an unexpected keyword argument 'static_df'",
        "TypeError: load() takes 1 positional argument but 3 positional arguments (and 2 keyword-only arguments) were "
        "given",
        "ImportError: cannot import name 'LRScheduler' from 'mace.tools.scripts_utils'",
    ],
)
def test_a_signature_or_import_mismatch_names_both_readings_not_only_the_code(last: str) -> None:
    log = f'Traceback (most recent call last):\n  File "train.py", line 31, in <module>\n    run()\n{last}\n'
    d = diagnose_log_text(log)
    assert d.label in ("user_code_error", "missing_dependency")
    if d.label == "user_code_error":
        assert "release installed" in d.explanation and "install the release" in d.fix.description
        assert "error in its own code" not in d.explanation


def test_an_ordinary_bug_is_still_the_programs_own() -> None:
    log = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\nZeroDivisionError: division by zero\n'
    d = diagnose_log_text(log)
    assert d.label == "user_code_error" and "its own code" in d.explanation


def test_a_missing_key_names_the_lookup_and_the_mapping_it_read() -> None:
    log = (
        'Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n'
        "    d = registry['model']['discriminator_params']\nKeyError: 'discriminator_params'\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "user_code_error"  # (read off a settings name, the config's: test_validation_error)
    assert "'discriminator_params'" in d.explanation and "config" in d.explanation
    assert "config file" in d.fix.description


@pytest.mark.parametrize("case_id", ["zzzzl-0011", "zzzzze-0223"])
def test_cuda_used_in_a_forked_dataloader_worker_is_the_codes(case_id: str) -> None:
    """Dev zzzzl-0011 and retired v29 zzzzze-0223 (both cuda_driver 0.8): a TensorDataset of CUDA tensors indexed in
    forked DataLoader workers fails with "CUDA error: initialization error"; the driver is fine. The same error with no
    worker in sight stays the driver's."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], "fix_code") == ("user_code_error", "fix_code")
    assert "num_workers=0" in d.fix.description
    alone = "RuntimeError: CUDA error: initialization error\n"
    assert diagnose_log_text(alone).label == "cuda_driver"


def test_a_script_started_as_a_program_without_its_interpreter() -> None:
    """Retired v30 zzzzzn-0019 (image_pull 0.84): "srun baselines/transformer_baseline.py" with no "#!" line;
    slurmstepd's "execve(): ….py: Exec format error". A binary refused the same way stays an image for another CPU."""
    log = (
        "+ srun baselines/transformer_baseline.py -m obs -t\n"
        "srun: error: node1: task 0: Exited with exit code 8\n"
        "slurmstepd: error: execve(): baselines/transformer_baseline.py: Exec format error\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code") and "#!" in d.explanation
    binary = "exec /usr/local/bin/python: exec format error\n"
    assert diagnose_log_text(binary).label == "image_pull"


@pytest.mark.parametrize("case_id", ["zzzzzf-0010", "zzzzzv-0003", "zzzzzx-0209"])
def test_torch_load_under_the_weights_only_default_is_the_call_to_change(case_id: str) -> None:
    d, record = rules_dev(case_id)  # no traceback of the person's code shown: it was read as a version to install
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("user_code_error", "fix_code")
    assert "weights_only=False" in d.fix.description
    bare = (
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two "
        "options.\n\t(1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` "
        "from `False` to `True`.\n"
    )
    assert (diagnose_log_text(bare).label, diagnose_log_text(bare).fix.kind) == ("user_code_error", "fix_code")


def test_an_uncaught_julia_error_is_read_like_a_python_one() -> None:
    """Julia prints an uncaught error as "ERROR: LoadError: <type>: <message>" and then its stack trace (real dev
    cases zzzzzx-0206 and zzzzzzu-0310 were "unknown"); words of another family still yield to that family."""
    log = (
        "ERROR: LoadError: UndefVarError: BSON not defined\nStacktrace:\n [1] top-level scope\n"
        "   @ ~/project/scripts/runscript.jl:61\nin expression starting at ~/project/scripts/runscript.jl:3\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("user_code_error", "fix_code")
    assert d.evidence == ["ERROR: LoadError: UndefVarError: BSON not defined"]
    assert "Julia" in d.explanation and "stack trace" in d.fix.description
    missing = (
        'ERROR: LoadError: SystemError: opening file "/data/train.bson": No such file or directory\nStacktrace:\n'
        " [1] systemerror(p::String, errno::Int32)\n"
    )
    assert diagnose_log_text(missing).label == "file_not_found"
    # "ERROR:" without Julia's trailer is no Julia report
    assert "Julia" not in diagnose_log_text("ERROR: something broke in the shell step\n").explanation


@pytest.mark.parametrize("case_id", ["zzzzzx-0206", "zzzzzzu-0310"])
def test_real_julia_runs(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "user_code_error"


def test_a_checkpoint_that_does_not_fit_the_built_model_is_read_as_such_and_not_confidently() -> None:
    """'size mismatch for <param>: copying a param with shape …' says the model was built otherwise than the checkpoint
    was saved; the log cannot say whether the code or the settings built it, so the verdict stays below 0.8."""
    log = (
        "Traceback (most recent call last):\n"
        '  File "predict.py", line 40, in <module>\n'
        "    model.load_state_dict(torch.load(args.weights))\n"
        "RuntimeError: Error(s) in loading state_dict for YoloBody:\n"
        "\tsize mismatch for yolo_head3.1.weight: copying a param with shape torch.Size([75, 256, 1, 1]) from "
        "checkpoint, the shape in current model is torch.Size([255, 256, 1, 1]).\n"
    )
    d = diagnose_log_text(log, rules_only=True)
    assert d.label == "user_code_error" and d.fix.kind == "fix_code"
    assert d.confidence < 0.8 and "checkpoint" in d.explanation
    assert "settings the checkpoint was trained with" in d.fix.description
