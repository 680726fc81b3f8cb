"""The validation_error family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, read_by_rules, root_line_cases, rules_dev


@pytest.mark.parametrize("case_id", ["b-0082", "b-0194", "b-0172"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


def test_rejected_configuration_in_several_wordings() -> None:
    for log in (
        "train.py: error: unrecognized arguments: --local_rank=2\n",
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for TrainConfig\n",
        "  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n",
        "Error merging override trainer.max_step=1000\n",
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.origin, d.fix.kind) == ("validation_error", "config", "fix_code"), log


@pytest.mark.parametrize("case_id", ["h-0021", "h-0055"])
def test_a_library_rejecting_a_setting_in_a_plain_valueerror(case_id: str) -> None:
    """Lightning's strategy check and Ray's runtime_env URI check raise a bare ValueError whose words say a
    setting was rejected ("invalid strategy name", "is not a valid URI"): a configuration to fix, not a code bug."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error" and d.fix.kind == "fix_code"


@pytest.mark.parametrize(
    "log",
    [
        # any argparse-style parser: "usage: …" then "<prog>: error: <why>" (jsonargparse, as LightningCLI prints it)
        'usage: main.py [-h] [-c CONFIG] {fit,validate}\nmain.py: error: Parser key "trainer.max_epoch": No action for key\n',
        # absl flags (absl/flags/_flagvalues.py), python-fire (fire/core.py), click
        "FATAL Flags parsing error: Unknown command line flag 'learning_rat'\n",
        "ERROR: Could not consume arg: --lr\nUsage: train.py <flags>\n",
        "Error: Got unexpected extra argument (fit)\n",
        # exception types that say a configuration was rejected, whatever raised them
        "lightning_fabric.utilities.exceptions.MisconfigurationException: `precision='bf16-true'` is not supported\n",
        "yaml.scanner.ScannerError: mapping values are not allowed here\n",
        "absl.flags._exceptions.IllegalFlagValueError: flag --batch_size=-1: must be positive\n",
    ],
)
def test_parsers_flags_and_config_exception_types(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


def test_a_check_in_a_dataclass_post_init_rejects_the_configuration() -> None:
    log = (
        "Traceback (most recent call last):\n"
        '  File "/opt/app/train.py", line 12, in <module>\n'
        "    cfg = TrainConfig(**yaml.safe_load(f))\n"
        '  File "<string>", line 9, in __init__\n'
        '  File "/opt/app/lib/cfg.py", line 40, in __post_init__\n'
        "    raise ValueError(f'warmup_steps ({self.warmup_steps}) exceeds max_steps ({self.max_steps})')\n"
        "ValueError: warmup_steps (2000) exceeds max_steps (1000)\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # a ValueError from the user's own computation is a code error
        'Traceback (most recent call last):\n  File "train.py", line 80, in step\n    x = int(row[3])\n'
        "ValueError: invalid literal for int() with base 10: 'abc'\n",
        # code reading a key of a plain dict is a code error (of a settings dict, the config's: see
        # test_a_key_the_program_reads_from_its_config_and_the_config_lacks_is_a_config_error)
        'Traceback (most recent call last):\n  File "train.py", line 30, in main\n    lr = row["optim"]["lr"]\n'
        "KeyError: 'optim'\n",
    ],
)
def test_a_bare_value_error_in_the_users_code_stays_a_code_error(log: str) -> None:
    assert read_by_rules(log).label == "user_code_error", log


def test_broken_line_continuation_is_not_a_missing_program() -> None:
    """CRLF endings: HfArgumentParser is handed '\\r' and bash runs the next option lines as commands."""
    d, _, record = diagnose_dev("j-0044")
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code") == (record["label"], record["fix_kind"])
    assert diagnose_log_text("run.sh: line 9: $'\\r': command not found\n").label == "validation_error"
    assert diagnose_log_text("train.sh: line 3: --lr: command not found\n").label == "validation_error"
    assert diagnose_log_text("bash: line 3: torchrun: command not found\n").label == "missing_dependency"


@pytest.mark.parametrize("case_id", ["j-0013", "m-0018", "m-0019", "m-0032"])
def test_settings_the_program_rejects_or_its_config_lacks(case_id: str) -> None:
    """A batch-size arithmetic check, OmegaConf's struct mode refusing a key the config lacks, argparse refusing a
    sub-command under a program name with a space ("TRL CLI: error: argument command: invalid choice").

    OmegaConf's "Key 'x' is not in struct" was read as a code error before; every real thread with it (b-0082/3/4,
    j-0001, m-0018/9) was fixed by giving the config the key (or an override), so it is the config's."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # argparse in a notebook: the cell shows only its exit (argparse exits with status 2 on a usage error)
        "An exception has occurred, use %tb to see the full traceback.\n\nSystemExit: 2\n",
        "usage: my tool [-h] {train,eval}\nmy tool: error: the following arguments are required: --data\n",
        # slurmctld's refusal of a partition that does not exist
        "sbatch: error: invalid partition specified: gpu\n",
    ],
)
def test_usage_errors_in_notebooks_and_schedulers(log: str) -> None:
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # sbatch's option and script checks (src/sbatch/opt.c, src/sbatch/sbatch.c)
        'sbatch: error: Invalid numeric value "4G" for --cpus-per-task.\n',
        "sbatch: error: This does not look like a batch script.  The first\n",
        "sbatch: error: Batch script contains DOS line breaks (\\r\\n)\n",
        # kubectl on a manifest that is not valid YAML
        "error: error parsing job.yaml: error converting YAML to JSON: yaml: line 12: mapping values are not allowed "
        "in this context\n",
    ],
)
def test_a_scheduler_refusing_an_option_value_or_the_script(log: str) -> None:
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # transformers' attention config check, a batch-size arithmetic check
        "ValueError: The hidden size (1000) is not a multiple of the number of attention heads (12)\n",
        "ValueError: global batch size should be divisible by micro batch size times data parallel size\n",
    ],
)
def test_settings_whose_arithmetic_does_not_fit(log: str) -> None:
    assert diagnose_log_text(log).label == "validation_error"


def test_an_argument_check_that_raises_syntaxerror_is_a_rejected_setting() -> None:
    """Ultralytics' cfg check raises SyntaxError "'save_dir' is not a valid YOLO argument.": a setting to change."""
    d, _, record = diagnose_dev("s-0020")
    assert d.label == record["label"] == "validation_error" and d.fix.kind == "fix_code"


@pytest.mark.parametrize(
    ("log", "confidence"),
    [
        # cpython Lib/argparse.py: one pattern reads them all; an unknown or a missing option is surest
        ("usage: train.py [-h] --data DATA\ntrain.py: error: unrecognized arguments: --lr 3e-4\n", 0.9),
        ("usage: torchrun [-h] ...\ntorchrun: error: the following arguments are required: training_script\n", 0.9),
        ("usage: serve [-h] {a,b}\nserve: error: argument mode: invalid choice: 'c' (choose from 'a', 'b')\n", 0.88),
        ("usage: x [-h] [--opt OPT]\nx: error: ambiguous option: --op could match --opt, --optim\n", 0.88),
        ("usage: main.py [-h] [-c CONFIG]\nmain.py: error: Unrecognized arguments: --trainer.gpus 2\n", 0.9),
    ],
)
def test_argparse_errors_and_how_sure_each_is(log: str, confidence: float) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log
    assert d.confidence == pytest.approx(confidence), log


TRACEBACK_START = 'Traceback (most recent call last):\n  File "run.py", line 7, in <module>\n    main(cfg)\n'


@pytest.mark.parametrize(
    "log",
    [
        # Hydra's defaults list naming a config-group option that does not exist
        "In 'config': Could not find 'model/resnet99'\n\nAvailable options in 'model':\n\tresnet18\n\tresnet50\n"
        "Config search path:\n\tprovider=hydra, path=pkg://hydra.conf\n",
        # click (click/core.py): a subcommand that does not exist
        "Usage: cli.py [OPTIONS] COMMAND [ARGS]...\nTry 'cli.py --help' for help.\n\nError: No such command 'trian'.\n",
        # a value refused with the list of accepted ones, whatever the exception type
        TRACEBACK_START + "KeyError: \"Unknown task text-generations, available tasks are ['text-generation']\"\n",
        # Ultralytics' type check of a CLI value (ultralytics/cfg/__init__.py check_cfg)
        TRACEBACK_START + "TypeError: 'epochs=ten' is of invalid type str. Valid 'epochs' types are int (i.e. "
        "'epochs=0') or float (i.e. 'epochs=0.5')\n",
    ],
)
def test_config_choices_commands_and_values_a_program_refuses(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


@pytest.mark.parametrize(
    "log",
    [
        # Go's cobra (docker, kubectl, ollama) and flag package, Rust's clap
        "Error: unknown flag: --gpus-all\nUsage:\n  ollama run MODEL [PROMPT] [flags]\n",
        "flag provided but not defined: -lr\nUsage of ./train:\n  -epochs int\n",
        "error: unexpected argument '--batch' found\n\n  tip: a similar argument exists: '--batch-size'\n",
        # a value refused with the list of supported ones
        TRACEBACK_START + "ValueError: Unknown scheduler type: cosine_warm. Supported types: linear, cosine\n",
        # settings that exclude each other (p-0017's wording)
        TRACEBACK_START + "ValueError: At most one of fp16 and bf16 can be True, but not both\n",
    ],
)
def test_other_parsers_and_settings_that_exclude_each_other(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


def test_a_setting_read_as_none_and_used_at_once_was_never_given() -> None:
    """accelerate launch without a config: `args.mixed_precision.lower()` on None. The same error on an object of the
    code's own (not a setting) stays an error in the code."""
    d, _, record = diagnose_dev("p-0026")
    assert d.label == record["label"] == "validation_error" and "mixed_precision" in d.explanation
    own = (
        TRACEBACK_START + "    name = self.model.tokenizer.lower()\nAttributeError: 'NoneType' object has no attribute"
    )
    assert diagnose_log_text(own + " 'lower'\n").label == "user_code_error"


@pytest.mark.parametrize(
    "log",
    [
        # HF datasets (datasets/builder.py): a configuration the dataset lacks, or none where it has several
        TRACEBACK_START + "ValueError: BuilderConfig 'sst' not found. Available: ['cola', 'sst2', 'mrpc']\n",
        TRACEBACK_START + "ValueError: Config name is missing.\nPlease pick one among the available configs: "
        "['cola', 'sst2']\n",
        # OmegaConf: an interpolation naming a key the config does not have
        TRACEBACK_START + "omegaconf.errors.InterpolationKeyError: Interpolation key 'optim.lr' not found\n"
        "    full_key: model.lr\n",
    ],
)
def test_a_dataset_configuration_or_an_interpolation_the_config_does_not_have(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


def test_a_protobuf_text_format_config_that_does_not_parse_is_a_config_error() -> None:
    d, _, record = diagnose_dev("v-0022")  # caffe solver prototxt with an unknown field, then glog's abort
    assert d.label == record["label"] == "validation_error"
    assert any("Error parsing text-format" in e for e in d.evidence)


@root_line_cases(
    ("b-0089", "unrecognized arguments: --local_rank=1"),
    ("h-0033", "Invalid qos specification"),
    ("b-0082", "Could not override 'trainer.gpus'"),
)
def test_root_line_vocabulary_reads_validation_error(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "validation_error", quoted)


def test_a_url_the_http_client_refuses_before_connecting_is_the_input_not_the_network() -> None:
    # requests/models.py (MissingSchema) and requests/sessions.py (InvalidSchema): a local path or an s3:// URL given
    # to an HTTP client is a wrong input, not a download to retry
    tb = 'Traceback (most recent call last):\n  File "prep.py", line 8, in <module>\n    fetch(cfg.data_url)\n'
    for line in (
        "requests.exceptions.MissingSchema: Invalid URL 'data/train.json': No scheme supplied. Perhaps you meant https://data/train.json?",
        "requests.exceptions.InvalidSchema: No connection adapters were found for 's3://bucket/train.json'",
    ):
        d = diagnose_log_text(tb + line + "\n")
        assert d.label == "validation_error" and d.fix.kind != "retry"


def test_a_settings_value_the_programs_table_has_no_entry_for() -> None:
    """ze-0013: `loaders_[opt.trainset]` raises KeyError with the value the command line gave: the setting names a
    choice the program does not offer. A KeyError on a key of the program's own data stays an error in the code."""
    d, _, record = diagnose_dev("ze-0013")
    assert d.label == record["label"] == "validation_error" and "'trainset'" in d.explanation
    assert d.confidence < 0.8 and any("opt.trainset" in e for e in d.evidence)
    for src in ("    model = MODELS[args.arch]\n", '    opt = OPTIMIZERS[cfg["optimizer"]]\n'):
        d = diagnose_log_text(TRACEBACK_START + '  File "run.py", line 9, in main\n' + src + "KeyError: 'x'\n")
        assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), src
    own = TRACEBACK_START + "  File \"run.py\", line 9, in main\n    start = self.crops[folder]\nKeyError: 'bag_1'\n"
    assert diagnose_log_text(own).label == "user_code_error"
    # the same lookup after the run has trained for a while is no check of the configuration before any work
    steps = "".join(f"{{'loss': 2.{i}, 'epoch': 0.0{i}}}\n" for i in range(1, 4))
    later = (
        steps + TRACEBACK_START + '  File "run.py", line 9, in main\n    s = SCHEDULERS[cfg["name"]]\nKeyError: \'x\'\n'
    )
    assert diagnose_log_text(later).label == "user_code_error"


def test_an_exception_raised_where_a_library_builds_objects_from_the_config() -> None:
    """v-0042: mmcv's registry (mmcv/utils/registry.py, build_from_cfg) refuses a config entry without a "type" key
    in a KeyError: where it was raised says the config is what is wrong. The same KeyError raised in a function that
    builds nothing from the config stays a code error."""
    d, _, record = diagnose_dev("v-0042")
    assert d.label == record["label"] == "validation_error" and d.confidence < 0.8
    frame = '  File "/usr/lib/python3/dist-packages/detectron2/config/config.py", line 229, in {}\n'
    msg = "    ret = f(cfg)\nKeyError: 'MODEL.ROI_HEADS.NAME'\n"
    assert diagnose_log_text(TRACEBACK_START + frame.format("forward") + msg).label == "user_code_error"
    assert diagnose_log_text(TRACEBACK_START + frame.format("from_config") + msg).label == "validation_error"


@pytest.mark.parametrize(
    "log",
    [
        # click's UsageError.show (click/exceptions.py): usage, the help hint, a blank line, then "Error: <why>"
        "Usage: train [OPTIONS] CONFIG\nTry 'train --help' for help.\n\nError: No such option: --bs\n",
        # jsonargparse / LightningCLI (argparse's layout, a message no argparse pattern knows)
        "usage: main.py [-h] [-c CONFIG] [--print_config[=flags]] {fit,validate,test,predict} ...\n"
        'error: Parser key "model":\n  Does not validate against any of the types in typing.Union\n',
        # python-fire (fire/core.py): the error first, then the usage
        "ERROR: Could not consume arg: --lrate\nUsage: train.py <flags>\n  optional flags:        --lr | --epochs\n",
    ],
)
def test_a_parser_error_printed_with_the_programs_usage_rejects_the_arguments(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "validation_error", d.explanation
    assert d.confidence >= 0.8


def test_a_usage_line_with_no_parser_error_is_not_a_rejection() -> None:
    # a program that prints how it is called, then trains: no error, no rejection
    d = diagnose_log_text("usage: python train.py --config cfg.yaml\nEpoch 1/10: loss 0.52\nEpoch 2/10: loss 0.41\n")
    assert d.label == "healthy"


def test_a_real_parser_error_in_a_layout_no_wording_names() -> None:
    # anomalib's LightningCLI rejecting a config key (back-test v6: read as unknown by the code of that time)
    d, _, record = diagnose_dev("v-0009")
    assert d.label == record["label"] == "validation_error"


def test_a_settings_check_raised_after_the_run_made_progress_is_not_a_rejected_configuration() -> None:
    """zd-0023: Lightning's EarlyStopping._validate_condition_metric raises after the first epoch because the metric it
    watches was never logged: a function named like a settings check, but the run had trained, so it is no
    configuration refused before any work. The same check before any step still reads as validation_error."""
    d, _, record = diagnose_dev("zd-0023")
    assert d.label == record["label"] == "user_code_error"
    check = (
        '  File "/site-packages/lightning/pytorch/callbacks/early_stopping.py", line 153, in _validate_condition_metric\n'
        "    raise RuntimeError(error_msg)\nRuntimeError: Early stopping conditioned on metric `val_loss` which is not "
        "available.\n"
    )
    assert diagnose_log_text(TRACEBACK_START + check).label == "validation_error"
    steps = "".join(f"Epoch 0: {i}0%|###| {i}/10 [00:0{i}<00:10, loss=2.{i}]\n" for i in range(1, 4))
    assert read_by_rules(steps + TRACEBACK_START + check).label == "user_code_error"


@pytest.mark.parametrize(
    "log",
    [
        # a library's explicit check states the rule a setting broke and the value it got
        '  File "/venv/lib/python3.11/site-packages/torch/utils/data/sampler.py", line 240, in __init__\n'
        '    raise ValueError("num_workers should be a non-negative integer value, "\n'
        "ValueError: num_workers should be a non-negative integer value, but got num_workers=-2\n",
        # a server's start-up check tells the person which setting to change
        '  File "/usr/lib/python3/dist-packages/srv/config.py", line 88, in check_budget\n'
        "    raise ValueError(\n"
        "ValueError: prefill chunk (8192) is larger than max_batch_tokens (4096). Please increase max_batch_tokens.\n",
        # ... or which option to pass
        '  File "/opt/srv/srv/topology.py", line 61, in pick_nodes\n    raise RuntimeError(\n'
        "RuntimeError: CPU pinning was requested but the socket layout could not be read. Pass --pin-cpus explicitly "
        "or disable --pin.\n",
        # the program's own assert on the data it was given, saying what to correct
        '  File "train.py", line 170, in train\n    assert n_cls < nc, msg\n'
        "AssertionError: Class id 7 exceeds nc=7 in data/coco7.yaml. Correct your labels or your model.\n",
        '  File "/venv/lib/python3.9/site-packages/yacs/config.py", line 540, in _assert_with_logging\n'
        "    assert cond, msg\n"
        "AssertionError: Override list has odd length: ['--fp16']; it must be a list of pairs\n",
    ],
)
def test_a_check_that_states_the_rule_a_value_broke_is_a_rejected_setting(log: str) -> None:
    """The label follows the fix: a check that states its rule about a value the run was given (a setting, an
    argument, the data) asks for that value to change, not the code (TRAIN stop 32: w-0016, zzk-0018, zzj-0022 …)."""
    d = diagnose_log_text(TRACEBACK_START + log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


@pytest.mark.parametrize(
    "log",
    [
        # a native op refusing the operands the program computed: the statement quoted is the call, not a check
        '  File "/venv/lib/python3.10/site-packages/torch/nn/modules/linear.py", line 116, in forward\n'
        "    return F.linear(input, self.weight, self.bias)\n"
        "RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same\n",
        '  File "/venv/lib/python3.10/site-packages/wandb/wandb_torch.py", line 235, in log_tensor_stats\n'
        "    tensor = flat.histc(bins=self._num_bins, min=tmin, max=tmax)\n"
        "RuntimeError: max must be larger than min\n",
        # a rule about tensors
        "ValueError: Expected 4D tensor as input, got 3D tensor instead. Please check the shape\n",
    ],
)
def test_a_rule_about_values_the_code_computed_stays_a_code_error(log: str) -> None:
    assert read_by_rules(TRACEBACK_START + log).label != "validation_error", log


@pytest.mark.parametrize(
    "log",
    [
        # a server's check relayed to its client: no statement quoted, the value named as the user's
        "ValueError: [address=127.0.0.1:3765, pid=31259] User-specified max_model_len (4096) is greater than the "
        "derived max_model_len (seq_length=2048 in model's config.json). This may lead to incorrect model outputs.\n",
        # a library's check addressing the person about the data they passed
        "ValueError: You are passing a target array of shape (3, 1) while using as loss `categorical_crossentropy`. "
        "`categorical_crossentropy` expects targets to be binary matrices (1s and 0s) of shape (samples, classes).\n",
        '  File "/venv/lib/python3.10/site-packages/evalkit/run.py", line 41, in run\n    raise ValueError(\n'
        "ValueError: You have selected 7 shots, but the task has only 5 examples in its few-shot split.\n",
    ],
)
def test_a_check_that_tells_the_person_the_value_they_gave_is_refused(log: str) -> None:
    """The message says the value came from the run's input ("user-specified", "you requested", "you are passing"):
    the fix is that input, whatever words the rule is in."""
    d = diagnose_log_text(TRACEBACK_START + log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


@pytest.mark.parametrize(
    "log",
    [
        "NameError: name 'modle' is not defined. Did you mean: 'model'?\n",  # a name misspelt in the code
        # operands the code gave an operation
        "RuntimeError: einsum(): fewer operands were provided than specified in the equation\n",
        "RuntimeError: Given groups=1, weight of size [16, 84, 3, 3], expected input[128, 4, 84, 84] to have 84 "
        "channels, but got 4 channels instead\n",
    ],
)
def test_operands_the_code_gave_and_a_misspelt_name_name_no_giver(log: str) -> None:
    assert diagnose_log_text(TRACEBACK_START + log).label == "user_code_error", log


def test_a_key_the_code_reads_that_the_loaded_config_does_not_define() -> None:
    """A config container (EasyDict, ConfigDict, CfgNode) refusing a key the code reads off a settings name: the config
    file lacks it (as OmegaConf's struct mode says in its words). argparse's Namespace is defined in code: a code error."""
    frame = '  File "/det/tools/eval_utils.py", line 127, in eval_one_epoch\n'
    cfg = frame + "    eval_metric=cfg.MODEL.POST_PROCESSING.EVAL_METRIC,\n"
    d = diagnose_log_text(TRACEBACK_START + cfg + "AttributeError: 'EasyDict' object has no attribute 'EVAL_METRIC'\n")
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code")
    args = frame + "    if args.disable_allreduce:\n"
    own = TRACEBACK_START + args + "AttributeError: 'Namespace' object has no attribute 'disable_allreduce'\n"
    assert diagnose_log_text(own).label == "user_code_error"
    other = frame + "    y = model.head(x)\n"
    assert (
        diagnose_log_text(
            TRACEBACK_START + other + "AttributeError: 'ConfigDict' object has no attribute 'head'\n"
        ).label
        == "user_code_error"
    )


def test_the_python_interpreter_refusing_a_launchers_option_is_a_command_line_to_fix() -> None:
    # torchrun's option given to plain python: CPython's own getopt refuses it and prints its usage
    log = (
        "unknown option --master_port=25678\n"
        "usage: python [option] ... [-c cmd | -m mod | file | -] [arg] ...\n"
        "Try `python -h' for more information.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("validation_error", "fix_code")


def test_a_yacs_config_that_names_an_unknown_key_or_a_wrong_type() -> None:
    # yacs/config.py's merge checks (detectron2 and research code): the config, not the code, is wrong
    for log in (
        '  File "/usr/lib/python3/site-packages/yacs/config.py", line 491, in _check_and_coerce_cfg_value_type\n'
        "    original_type, replacement_type, original, replacement, full_key\n"
        "ValueError: Type mismatch (<class 'int'> vs. <class 'str'>) with values (140 vs. 150q) for config key: "
        "train.epoch\n",
        "KeyError: 'Non-existent config key: MODEL.BACKBONE.DEPTHS'\n",
    ):
        d = diagnose_log_text(log)
        assert (d.label, d.fix.kind) == ("validation_error", "fix_code"), log


def test_a_lightgbm_parameter_value_it_does_not_offer() -> None:
    log = (
        '  File "/opt/conda/lib/python3.10/site-packages/lightgbm/basic.py", line 110, in _safe_call\n'
        "    raise LightGBMError(_LIB.LGBM_GetLastError().decode('utf-8'))\n"
        "lightgbm.basic.LightGBMError: Unknown boosting type gdbt\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


def test_a_tool_naming_the_option_that_settles_a_mismatch_is_a_setting() -> None:
    # Kaldi's error format: the input and a setting disagree, and the message names the option (zzzt-0117, zzzt-0108)
    log = (
        "LOG (speech-aligner[5.4.215~4-f2b7]:main():bin/speech-aligner.cc:351) utt1\n"
        "ERROR (speech-aligner[5.4.215~4-f2b7]:main():bin/speech-aligner.cc:425) Sample frequency mismatch: you "
        "specified 16000 but data has 48000 (use --sample-frequency option).  Utterance is utt1\n"
    )
    assert diagnose_log_text(log).label == "validation_error"
    other = log.replace("Sample frequency", "Dimension").replace("16000 but data has 48000", "40 but data has 13")
    assert read_by_rules(other.replace(" (use --sample-frequency option)", "")).label != "validation_error"


def test_audio_at_another_sampling_rate_than_the_setting_is_a_setting() -> None:
    # Kaldi's online2 decoder names no option (zzzx-0016, retired blind v22): the sampling rate alone says which
    log = (
        "ERROR (online2-wav-nnet2-latgen-faster:AcceptWaveform():online-feature.cc:57) Sampling frequency mismatch, "
        "expected 16000, got 44100\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


def test_a_gpu_index_past_the_machines_gpus_is_a_setting() -> None:
    # Paddle's place check as a glog error line (zzzx-0018, retired blind v22)
    log = (
        "E0808 11:06:01.541851 1538946 pybind.cc:1584] Invalid CUDAPlace(2), must inside [0, 2), because GPU number "
        "on your machine is 2\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


def test_a_parameter_a_library_says_must_be_specified_is_a_setting() -> None:
    # LightGBM's fatal log line as the root error, the traceback above it cut off (zzzy-0118, retired blind v22)
    log = (
        '  File "lightgbm/basic.py", line 1307, in __init__\n    train_set.construct().handle,\n'
        "[LightGBM] [Fatal] Number of classes should be specified and greater than 1 for multiclass training\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


def test_kaldi_refusing_to_upsample_audio_below_the_configured_frequency() -> None:
    """zzzzb-0203: the configuration's sample frequency is above the recordings' (the fix is conf/mfcc.conf)."""
    line = (
        "ERROR (compute-mfcc-feats[5.4.260~1-b127]:ComputeFeatures():feat/feature-common-inl.h:52) The waveform is "
        "allowed to get downsampled.New sample Frequency 16000 is larger than waveform original sampling frequency 8000\n"
    )
    assert diagnose_log_text(line + "# Ended (code 1) at Wed Sep 22 14:39:34 IST 2021\n").label == "validation_error"


@pytest.mark.parametrize("case_id", ["zzv-0024", "zzzzf-0222"])
def test_the_determinism_switch_meeting_an_op_without_a_deterministic_kernel_is_a_setting(case_id: str) -> None:
    """PyTorch's use_deterministic_algorithms(True) refusing an op is a setting the run chose, wrapped in a logger's
    line or bare (zzzzf-0222 was retired blind v24's miss)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"
    assert d.fix.kind == "fix_code"


def test_a_runtime_error_that_is_not_the_determinism_switch_stays_code() -> None:
    log = "Traceback (most recent call last):\nRuntimeError: expected scalar type Float but found Half\n"
    assert diagnose_log_text(log).label == "user_code_error"


@pytest.mark.parametrize("case_id", ["zzzzl-0007", "zzzzo-0002", "zzzzm-0008", "zzzzn-0008", "zzx-0022"])
def test_a_model_name_timm_does_not_offer_or_a_label_class_past_yolos_nc_is_a_setting(case_id: str) -> None:
    """timm's "Unknown model (x)" (bare, or inside a logger's line) and YOLOv5's "Label class N exceeds nc=M": the run
    named a model or a class count the library or data contradicts (retired blind v25's misses, and dev's zzx-0022)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


def test_an_unknown_model_type_in_another_wording_is_not_timms_refusal() -> None:
    log = "Traceback (most recent call last):\nRuntimeError: Unknown model state: expected 3 layers\n"
    assert diagnose_log_text(log).label == "user_code_error"


@pytest.mark.parametrize("case_id", ["zzzzu-0201", "zzzzv-0207"])
def test_a_precision_the_machine_cannot_run_or_data_the_integrity_check_refused(case_id: str) -> None:
    """Accelerate's "fp16 mixed precision requires a GPU" is the setting to change (not the driver), and nnU-Net's
    "does not match the geometry of the label file … nnU-Net cannot use this data" is a refusal, not a healthy run
    (retired blind v27's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


def test_a_program_that_needs_a_gpu_without_naming_a_precision_is_still_the_gpu() -> None:
    tb = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\nValueError: {msg}\n'
    assert diagnose_log_text(tb.format(msg="bf16 mixed precision requires a GPU")).label == "validation_error"
    assert diagnose_log_text(tb.format(msg="this training script requires a GPU")).label == "cuda_driver"


@pytest.mark.parametrize("case_id", ["zzzzu-0015", "zzzzu-0019"])
def test_a_library_refusing_the_settings_it_was_called_with(case_id: str) -> None:
    """torchvision's "The parameter 'num_classes' expected value 400 but got 100 instead" (the pretrained weights fix
    it) and wandb's "training_data argument is required for gradient logging" are the call's settings refused
    (retired blind v27's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"


def test_a_required_word_outside_a_settings_check_is_not_a_refused_setting() -> None:
    tb = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n{exc}\n'
    assert diagnose_log_text(tb.format(exc="ValueError: a batch argument is required for packing")).label == (
        "validation_error"
    )
    assert diagnose_log_text(tb.format(exc="KeyError: 'argument is required for x'")).label != "validation_error"


@pytest.mark.parametrize("case_id", ["zzzd-0008", "zzzza-0141", "zzzzy-0107", "zzzj-0100", "zzzp-0018"])
def test_an_assertion_nothing_else_explains_is_a_check_of_what_the_run_was_given(case_id: str) -> None:
    """A bare ``assert`` on the batch size against the GPUs, a subset name, the sizes a config sets, the texts left
    after filtering, a search space's prior: the fix was the input or setting, not the code."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "validation_error"
    assert d.confidence < 0.8  # one assertion is a weak reading: never a confident verdict
    assert "assertion" in d.explanation


def test_an_assertion_that_state_was_set_up_stays_code() -> None:
    tb = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    {stmt}\nAssertionError{msg}\n'
    assert diagnose_log_text(tb.format(stmt="assert args.batch_size % n_gpus == 0", msg="")).label == (
        "validation_error"
    )
    assert read_by_rules(tb.format(stmt="assert self._shm is not None", msg="")).label == "user_code_error"
    assert read_by_rules(tb.format(stmt="assert x", msg=": the shared memory handle is None")).label == (
        "user_code_error"
    )


def test_sacred_refusing_a_config_entry_nothing_reads_is_the_config() -> None:
    """Retired v29 zzzzzi-0205 (user_code_error): sacred's ConfigAddedError for a misplaced command-line setting."""
    log = (
        "sacred.utils.ConfigAddedError: Added new config entry that is not used anywhere\n"
        "Conflicting configuration values:\n"
        "env_args.key=SMAC:2s3z\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


def test_a_precision_the_gpu_cannot_run_is_a_setting_to_change() -> None:
    """Retired v30 zzzzzj-0015 (user_code_error): torch.autocast refusing bf16 on a GPU without it, under Fabric's
    bf16-mixed precision; the answer is the precision setting (fp16), as for transformers' own bf16 check."""
    log = (
        '  File "/opt/conda/lib/python3.10/site-packages/torch/amp/autocast_mode.py", line 225, in __init__\n'
        "    raise RuntimeError('Current CUDA Device does not support bfloat16. Please switch dtype to float16.')\n"
        "RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.\n"
    )
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize("case_id", ["zzzq-0110", "zzzzzx-0015"])
def test_split_sizes_that_do_not_add_up_to_the_dataset_are_a_config_error(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert d.label == record["label"] == "validation_error"
    assert "Sum of input lengths" in d.evidence[0]


def test_omegaconfs_key_of_an_impossible_type_is_a_config_error() -> None:
    d, record = rules_dev("zzzzzv-0110")
    assert d.label == record["label"] == "validation_error"


@pytest.mark.parametrize(
    "case_id",
    [
        "zzzzzy-0213",  # gin: Configurable 'train_fn' doesn't have a parameter named ...
        "zzzzzy-0211",  # gin: Unable to parse value. (line 1) in a --gin_bindings value
        "zzzzzy-0214",  # OmegaConf: Unsupported interpolation type (no resolver registered), printed bare by Hydra
        "zzzzzy-0204",  # OmegaConf: ConfigIndexError, a list setting shorter than the code indexes
    ],
)
def test_a_config_system_refusing_the_config_is_a_config_error(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("validation_error", "fix_code")


@pytest.mark.parametrize("case_id", ["zzzp-0019", "zzzw-0124", "zzzzza-0206", "zzzzzi-0202", "zzzzzzd-0119"])
def test_a_key_the_program_reads_from_its_config_and_the_config_lacks_is_a_config_error(case_id: str) -> None:
    # KeyError: 'x' under a quoted statement of the program's own code that subscripts a settings name with 'x'
    d, record = rules_dev(case_id)
    assert (d.label, record["label"]) == ("validation_error", "validation_error")
    assert d.fix.kind == "fix_code" and "config file" in d.fix.description


def test_a_config_key_missing_inside_a_library_stays_the_librarys_business() -> None:
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.10/site-packages/rsl_rl/runners/on_policy_runner.py", line 44, in __init__\n'
        '    if self.alg_cfg["rnd_cfg"] is not None:\n'
        "KeyError: 'rnd_cfg'\n"
    )
    assert read_by_rules(tb).label == "user_code_error"
    own = tb.replace("/opt/venv/lib/python3.10/site-packages/rsl_rl/runners/", "/home/me/proj/")
    assert read_by_rules(own).label == "validation_error"
    # a lookup table keyed by something else is no config
    other = own.replace('self.alg_cfg["rnd_cfg"]', 'self.table["rnd_cfg"]')
    assert read_by_rules(other).label == "user_code_error"


def test_omegaconfs_key_not_in_struct_printed_bare_is_a_config_error() -> None:
    # Hydra without HYDRA_FULL_ERROR prints only the message and its hint
    d, record = rules_dev("zzzzzzd-0122")
    assert (d.label, record["label"]) == ("validation_error", "validation_error")
    assert "To append to your config use +env.dim_x=6" in d.evidence
    log = "Key 'dim_x' is not in struct\n    full_key: env.dim_x\n    object_type=dict\n"
    assert diagnose_log_text(log).label == "validation_error"


@pytest.mark.parametrize("case_id", ["zzzzzzd-0111", "zzzzzd-0103"])
def test_hydras_override_grammar_refusing_an_override_is_a_config_error(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, record["label"]) == ("validation_error", "validation_error")


def test_yacs_refusing_a_command_line_key_is_a_config_error_not_a_missing_file() -> None:
    # merge_from_list's assert, as detectron2-style trainers print it
    tb = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
    assert diagnose_log_text(tb + "AssertionError: Non-existent key: OOD.exclude_back\n").label == "validation_error"


def test_hydra_composition_errors_and_sacreds_config_refusals_are_config_errors() -> None:
    # Hydra's report of any error met while composing (config_loader_impl.py), printed without a traceback
    hydra = (
        "In 'controller': ConfigTypeError raised while composing config.\n"
        "Cannot merge DictConfig with ListConfig\n    full_key: \n    object_type=dict\n"
    )
    assert diagnose_log_text(hydra).label == "validation_error"
    assert diagnose_dev("zzzzzzi-0102")[0].label == "validation_error"
    # Sacred's named config that does not exist is a refused config, not a missing file
    sacred = (
        "Traceback (most recent calls WITHOUT Sacred internals):\n"
        'sacred.utils.NamedConfigNotFoundError: Named config not found: "2". Available config values are: ()\n'
    )
    assert diagnose_log_text(sacred).label == "validation_error"
    assert (
        diagnose_log_text(
            'sacred.utils.ConfigAddedError: Added new config entry "lr2" that is not used anywhere\n'
        ).label
        == "validation_error"
    )
    assert diagnose_dev("zzzzzzl-0101")[0].label == "validation_error"


def test_accelerates_bf16_check_is_a_setting_the_machine_cannot_run_never_healthy() -> None:
    banner = "[trainer] Starting training: MyLora\n[trainer] Images: 4, Steps: 400, LR: 0.0002, Rank: 16\n\n"
    d = diagnose_log_text(banner + "bf16 mixed precision requires PyTorch >= 1.10 and a supported device.\n")
    assert d.label == "validation_error" and d.fix.kind == "fix_code"
    assert diagnose_dev("zzzzzzk-0303")[0].label == "validation_error"


@pytest.mark.parametrize(
    "root",
    [
        "ValueError: The least populated class in y has only 1 member, which is too few. The minimum number of groups "
        "for any class cannot be less than 2.",
        "ValueError: With n_samples=5000, test_size=0.9999848297979177 and train_size=None, the resulting train set "
        "will be empty. Adjust any of the aforementioned parameters.",
        "ValueError: max_evals=500 is too low for the Permutation explainer, it must be at least 2 * num_features + 1 = 1041!",
    ],
)
def test_a_library_refusing_the_data_or_budget_it_was_given_is_a_validation_error(root: str) -> None:
    """Retired v36's misses (zzzzzzn-0112, -0204, zzzzzzr-0101): scikit-learn's splitters and SHAP's explainer checking
    their input were read as code errors; each source changed the data or the setting."""
    tb = 'Traceback (most recent call last):\n  File "train.py", line 40, in <module>\n    split(df)\n'
    d = read_by_rules(tb + root + "\n")
    assert d.label == "validation_error", root


def test_stratified_k_folds_warning_about_a_small_class_is_no_refusal() -> None:
    warn = (
        "/usr/lib/python3/site-packages/sklearn/model_selection/_split.py:700: UserWarning: The least populated class "
        "in y has only 1 members, which is less than n_splits=5.\n"
    )
    assert read_by_rules(warn + "epoch 3/3 loss 0.12\nTraining finished.\n").label == "healthy"
    assert read_by_rules(warn).label != "validation_error"


def test_real_sklearn_refusals() -> None:
    for case_id in ("zzzzzzn-0112", "zzzzzzn-0204"):
        d, record = rules_dev(case_id)
        assert d.label == record["label"] == "validation_error", case_id


@pytest.mark.parametrize(
    "line",
    [
        "./peersac.sh: 7: --seed: not found",  # dash, /bin/sh on Debian and Ubuntu
        "train.sh: line 7: --seed: command not found",  # bash
    ],
)
def test_a_launch_script_whose_option_line_ran_as_a_command_is_never_healthy(line: str) -> None:
    """The line before lost its backslash: the program ran (to the end) without those options, then the shell ran the
    next line as a command. The run did not do what was asked, whatever its progress said."""
    log = "epoch 100/100 loss 0.12\nDone logging...\n\n\n" + line + "\n"
    d = diagnose_log_text(log)
    assert d.label == "validation_error" and d.evidence == [line]


def test_a_hub_model_whose_own_code_the_run_did_not_allow_is_a_setting() -> None:
    log = (
        "ValueError: The repository for org/coder-lite contains custom code which must be executed to correctly load "
        "the model. You can inspect the repository content at https://hf.co/org/coder-lite.\n"
        "Please pass the argument `trust_remote_code=True` to allow custom code to be run.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "validation_error" and d.confidence >= 0.8
    d, _, record = diagnose_dev("zzzzzzzh-0713")  # under nohup the consent prompt failed, then this refusal
    assert d.label == record["label"] == "validation_error"


def test_a_native_librarys_failed_check_on_what_it_was_given_is_a_refusal() -> None:
    """Dev zzzzzzzs-0511 (blind v42, read as unknown), zzzzzzn-0101 and zzzzp-0015: glog's "Check failed:" from Caffe's
    net construction, a weight copy or a video reader is the library refusing the definition or input it was given;
    a check that names memory or a missing file stays with those families."""
    caffe = (
        "I0421 12:58:46.2 12236 net.cpp:84] Creating Layer rpn_cls_score\n"
        "F0421 12:58:46.243357 12236 layer.hpp:405] Check failed: bottom.size() == top.size() (2 vs. 1) "
        "Convolution Layer takes the same number of bottom and top blobs.\n"
        "*** Check failure stack trace: ***\n"
        "    @     0x7f3b2c5d5daa  (unknown)\n"
        "Aborted (core dumped)\n"
    )
    assert diagnose_log_text(caffe).label == "validation_error"
    oom = caffe.replace(
        "layer.hpp:405] Check failed: bottom.size() == top.size() (2 vs. 1) Convolution Layer takes the same number "
        "of bottom and top blobs.",
        "syncedmem.cpp:56] Check failed: error == cudaSuccess (2 vs. 0)  out of memory",
    )
    assert diagnose_log_text(oom).label == "gpu_oom"
    assert diagnose_dev("zzzzzzzs-0511")[0].label == "validation_error"


def test_keras_refusing_the_arrays_it_was_given_and_a_launcher_asked_for_more_devices_than_exist_are_refusals() -> None:
    """Dev zzzzi-0116, zzzzn-0003, zzzzzzza-0502 (Keras' "Error when checking target/input: expected … to have shape"),
    zzzm-0009 and zzzzzzw-0101 (more GPUs or spawn processes asked for than the machine shows) read as code errors."""
    keras = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 70, in <module>\n'
        "    model.fit(x, y, epochs=10)\n"
        "ValueError: Error when checking target: expected dense_2 to have shape (None, 4) but got array with shape "
        "(1, 1)\n"
    )
    assert diagnose_log_text(keras).label == "validation_error"
    devices = keras.replace(
        "ValueError: Error when checking target: expected dense_2 to have shape (None, 4) but got array with shape "
        "(1, 1)",
        "RuntimeError: the number of visible devices(4) is less than the number of spawn processes(7), please ensure "
        "that the correct `nprocs` argument is passed",
    )
    assert diagnose_log_text(devices).label == "validation_error"
    assert diagnose_dev("zzzzi-0116")[0].label == "validation_error"
