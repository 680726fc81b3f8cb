"""The nan_loss family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases


@pytest.mark.parametrize("case_id", ["a-0212", "a-0057", "a-0119"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nan_loss"


def test_nan_in_a_progress_bar_and_a_collapsed_loss_scale() -> None:
    bar = "Steps:   0%| | 1/2000 [00:14<8:16:07, 14.89s/it, lr=1e-5, step_loss=nan] OVERFLOW! Rank 0 Skipping step.\n"
    assert diagnose_log_text(bar).label == "nan_loss"
    scale = "".join(f"| WARNING: overflow detected, setting loss scale to: {2.0**-k}\n" for k in range(1, 14))
    assert diagnose_log_text(scale).label == "nan_loss"
    early = "".join(f"| WARNING: overflow detected, setting loss scale to: {2.0**k}\n" for k in range(16, 12, -1))
    assert diagnose_log_text(early + "epoch 1 loss 2.3\n").label == "healthy"


@pytest.mark.parametrize(
    "log",
    [
        # torch.distributions' argument check (torch/distributions/distribution.py) on NaN network outputs
        "ValueError: Expected parameter loc (Tensor of shape (64, 6)) of distribution Normal(loc: torch.Size([64, 6]), "
        "scale: torch.Size([64, 6])) to satisfy the constraint Real(), but found invalid values:\n"
        "tensor([[nan, nan, nan, nan, nan, nan],\n",
        # torch.multinomial while sampling, scikit-learn's input check, clip_grad_norm_(error_if_nonfinite=True)
        "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0\n",
        "ValueError: Input contains NaN, infinity or a value too large for dtype('float64').\n",
        "RuntimeError: The total norm of order 2.0 for gradients from `parameters` is non-finite, so it cannot be "
        "clipped. To disable this error and scale the gradients by the non-finite norm anyway, set "
        "`error_if_nonfinite=False`\n",
        "ValueError: cannot convert float NaN to integer\n",
        # the check that raised names what it checked, in the traceback's quoted source line
        'Traceback (most recent call last):\n  File "train.py", line 88, in train_step\n'
        '    assert not torch.isnan(loss).any(), "loss exploded"\nAssertionError: loss exploded\n',
    ],
)
def test_nan_caught_where_it_is_consumed(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nan_loss", "lower_lr_or_fix_data"), log


def test_a_nan_gradient_norm_in_a_json_metrics_line() -> None:
    """TRAIN a-0121: ms-swift's JSON metrics line with "grad_norm": NaN (the key is quoted, as in HF logs)."""
    d, _, record = diagnose_dev("a-0121")
    assert d.label == record["label"] == "nan_loss"


def test_autograd_anomaly_mode_reporting_a_backward_error() -> None:
    """TRAIN a-0060: anomaly mode's warning (python_anomaly_mode.cpp) with the excerpt cut before the exception."""
    d, _, record = diagnose_dev("a-0060")
    assert d.label == record["label"] == "nan_loss"


@pytest.mark.parametrize("case_id", ["j-0064", "g-0023", "j-0038"])
def test_a_loss_turning_non_finite_in_progress_lines(case_id: str) -> None:
    # a quoted metric value (``'loss': 'nan'``), a bare step/value table whose value column turns to nan, and a
    # loss whose magnitude (1e+35) is past any real objective: the run keeps printing progress but has diverged
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nan_loss"


def test_a_lone_numeric_nan_or_a_modest_loss_exponent_is_no_divergence() -> None:
    assert diagnose_log_text("epoch 1 loss 2.3\n12 nan\n").label != "nan_loss"
    table = "".join(f"{s} {1.5e3 / (s + 1):.3e}\n" for s in range(0, 50, 10))
    assert diagnose_log_text("epoch 1 step 10 loss: 1.2e+03\n" + table).label == "healthy"


@pytest.mark.parametrize("case_id", ["j-0037", "m-0011"])
def test_a_named_nan_check_and_a_lightning_step_loss(case_id: str) -> None:
    """sd-scripts' "RuntimeError: NaN detected in latents", Lightning's progress bar "train_loss_step=nan.0"."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nan_loss"


@pytest.mark.parametrize(
    "log",
    [
        "loss = tensor(nan, device='cuda:0', grad_fn=<NllLossBackward0>)\n",
        # torch/utils/tensorboard/summary.py warns when a value to log is not finite
        "Warning: NaN or Inf found in input tensor.\n",
        "RuntimeError: Loss is NaN at step 1200\n",
    ],
)
def test_nan_in_a_printed_tensor_a_tensorboard_warning_and_an_exception(log: str) -> None:
    assert diagnose_log_text(log).label == "nan_loss"


def test_a_quoted_nan_key_is_not_a_diverged_loss() -> None:
    assert diagnose_log_text("KeyError: 'nan'\n").label == "user_code_error"


_MEGATRON = (
    " iteration {it:8d}/  159576 | consumed samples:      8126688 | elapsed time per iteration (ms): 18706.1 | "
    "learning rate: 6.000E-05 | global batch size:    96 | lm loss: {loss} | loss scale: {scale} | grad norm: 0.000 | "
    "num zeros: 0.0 | number of skipped iterations: {skipped:3d} | number of nan iterations: {nan:3d} |\n"
)


def test_megatron_counters_are_read_both_ways() -> None:
    """Megatron's iteration line (megatron/training/training.py training_log) counts NaN iterations and skipped
    (fp16 overflow) ones: a NaN count above 0 is a diverged loss; 0 is none, skipped steps alone are routine, and
    "loss scale: -1.0 | grad norm: 0.000" (no scaler, bf16) is two fields, not a collapsed loss scale."""
    ok = "".join(_MEGATRON.format(it=i, loss="6.44E+00", scale="-1.0", skipped=0, nan=0) for i in (10, 20, 30))
    assert diagnose_log_text(ok).label == "healthy"
    skipped = "".join(_MEGATRON.format(it=i, loss="6.44E+00", scale="2048.0", skipped=2, nan=0) for i in (10, 20))
    assert diagnose_log_text(skipped).label == "healthy"
    nan = ok + _MEGATRON.format(it=40, loss="6.44E+00", scale="2048.0", skipped=0, nan=3)
    assert diagnose_log_text(nan).label == "nan_loss"


@pytest.mark.parametrize("case_id", ["o-0022", "o-0009", "r-0007", "r-0011"])
def test_divergence_read_from_the_loss_and_the_scaler(case_id: str) -> None:
    """TRAIN o-0022: a healthy Megatron run (no NaN iterations, loss scale -1.0); o-0009: DeepSpeed's scaler
    overflowing every step while the lm loss jumps from 2.67 to 4.4 and stays there; r-0007: a named part of the
    loss ("train_mel_loss_before = nan"); r-0011: detectron2's "'loss_cls': tensor(nan, …)" before the SIGSEGV."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"]


def test_a_rising_loss_or_start_up_overflows_alone_are_no_divergence() -> None:
    rising = "".join(f"epoch {i} val_loss: {v}\n" for i, v in enumerate([0.14, 0.22, 0.23, 0.23, 0.22], 1))
    assert diagnose_log_text(rising).label == "healthy"
    start = "".join(
        f"[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: {2**k}, reducing to {2 ** (k - 1)}\n"
        for k in range(32, 28, -1)
    )
    steady = "".join(f"step {i} loss: {v}\n" for i, v in enumerate([2.6, 2.5, 2.5, 2.4, 2.4], 1))
    assert diagnose_log_text(start + steady).label == "healthy"
    spike = "".join(f"step {i} loss: {v}\n" for i, v in enumerate([2.6, 2.5, 4.4, 4.3, 4.4], 1))
    interleaved = "".join(a + b for a, b in zip(spike.splitlines(True), start.splitlines(True) + [""]))
    assert diagnose_log_text(interleaved).label == "nan_loss"


@pytest.mark.parametrize(
    "setting",
    [
        # DeepSpeed prints its config at start-up; fp16 "loss_scale": 0 selects dynamic loss scaling (DeepSpeed's
        # config docs: "0.0 results in dynamic loss scaling")
        '[INFO] [config.py:1062:print]   json = {"fp16": {"enabled": true, "loss_scale": 0, "initial_scale_power": 16}}',
        '    "loss_scale": 0,',
        '    "min_loss_scale": 1e-05,',  # a floor the scaler may not go below is a setting, not the scale
    ],
)
def test_a_loss_scale_setting_in_a_config_dump_is_no_collapse(setting: str) -> None:
    log = setting + "\nstep 1 loss: 2.31\nstep 2 loss: 2.25\n"
    assert diagnose_log_text(log).label == "healthy"


@pytest.mark.parametrize("start", ["best_loss: inf", "Best loss: inf", "best_val_loss = inf", "loss_min = inf"])
def test_an_infinite_best_loss_before_anything_was_measured_is_no_divergence(start: str) -> None:
    """Scripts start their best-so-far tracker at float("inf") and print it; a loss that is itself inf still is."""
    log = start + "\nstep 1 loss: 2.31\nstep 2 loss: 2.25\n"
    assert diagnose_log_text(log).label == "healthy"
    assert diagnose_log_text(log + "step 3 loss: inf\n").label == "nan_loss"


def test_periodic_overflows_in_a_long_healthy_fp16_run_are_no_divergence() -> None:
    """Dynamic loss scaling raises the scale every N clean steps and halves it on the next overflow, so a healthy
    fp16 run logs an OVERFLOW now and then all along; its loss falls, with a spike that comes back down."""
    overflow = "[deepspeed] OVERFLOW! Rank 0 Skipping step. Attempted loss scale: 131072, reducing to 65536\n"
    losses = [3.0, 2.8, 2.6, 4.2, 2.5, 2.4, 2.3, 2.2, 2.2, 2.1, 2.0, 2.0]
    log = "".join(f"step {i * 100} loss: {v}\n" + (overflow if i % 3 == 0 else "") for i, v in enumerate(losses, 1))
    assert diagnose_log_text(log).label == "healthy"


def test_a_nan_step_the_run_got_over_is_no_divergence() -> None:
    """fp16 loss scalers skip a step whose loss is not finite and Megatron counts it as a nan iteration and goes on:
    a whole job log that shows it once, then the same metric finite for five or more reports, got over it. Reported
    again, at the end of the log, or followed by a loss stuck at 0 (the HF Trainer's way of hiding it), it did not."""
    clean = "".join(
        _MEGATRON.format(it=i, loss="6.44E+00", scale="2048.0", skipped=0, nan=0) for i in range(10, 60, 10)
    )
    once = _MEGATRON.format(it=60, loss="6.44E+00", scale="2048.0", skipped=1, nan=1)
    assert diagnose_log_text(clean + once + clean).label == "healthy"
    assert diagnose_log_text(clean + once).label == "nan_loss"
    assert diagnose_log_text(clean + once + clean + once).label == "nan_loss"
    steps = "".join(f"step {i} loss: {2.3 - i / 100:.3f}\n" for i in range(1, 8))
    assert diagnose_log_text("{'loss': nan, 'learning_rate': 0.0001}\n" + steps).label == "healthy"
    zeros = "".join(f"{{'loss': 0.0, 'step': {i}}}\n" for i in range(1, 8))
    assert diagnose_log_text("{'loss': nan, 'learning_rate': 0.0001}\n" + zeros).label == "nan_loss"


@pytest.mark.parametrize("case_id", ["w-0022", "w-0023"])
def test_a_nan_grad_norm_said_with_a_copula_and_espnets_loss_check(case_id: str) -> None:
    """w-0022 (ESPnet/chainer): "loss (=1500000000.000000) is not correct" and "grad norm is nan. Do not update
    model."; w-0023 (ESPnet2): "The grad norm is nan. Skipping updating the model." on every line beside one
    finite loss row. Before, both were called healthy."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "nan_loss"
    assert d.fix.kind == "lower_lr_or_fix_data"


def test_a_grad_norm_that_is_finite_or_a_correct_loss_is_no_divergence() -> None:
    log = (
        "WARNING: grad norm is 3.2. Clipping.\nINFO: loss is not correct yet, waiting for warm-up\nepoch 1 loss=0.41\n"
    )
    assert diagnose_log_text(log).label != "nan_loss"


@root_line_cases(("a-0059", "returned nan values in its 0th output"))
def test_root_line_vocabulary_reads_nan_loss(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "nan_loss", quoted)


def test_tensorflow_histogram_summary_of_a_nan() -> None:
    # tensorflow/core/kernels/summary_op.cc: "Nan in summary histogram for: <tag>"
    log = "tensorflow.python.framework.errors_impl.InvalidArgumentError: Nan in summary histogram for: conv1/weights\n"
    assert diagnose_log_text(log).label == "nan_loss"


def test_a_run_whose_reported_results_stay_nan_diverged() -> None:
    # no loss is named: the run's own results (whatever it calls them) turned NaN and stayed NaN to its last report
    rounds = "".join(
        f"2024-06-18 20:4{i}:29:WARNING:round {i}, avg return 0.0000, max value: 1.0000, avg value: nan, "
        f"final value: nan, ARR: nan%, Sharpe: nan\n"
        f"  0%|          | 0/48 [00:00<?, ?it/s]100%|##########| 48/48 [01:36<00:00,  2.01s/it]\n"
        for i in range(3)
    )
    d = diagnose_log_text("portfolio_env.py:88: RuntimeWarning: invalid value encountered in divide\n" + rounds)
    assert d.label == "nan_loss"
    # NaN in the first report, finite results after it: the run got over it
    first, *rest = rounds.splitlines(keepends=True)[::2]
    fine = [
        r.replace(
            "avg value: nan, final value: nan, ARR: nan%, Sharpe: nan",
            "avg value: 1.02, final value: 1.04, ARR: 3.1%, Sharpe: 0.41",
        )
        for r in rest
    ]
    healed = "".join(first + bar for first, bar in zip([first, *fine], rounds.splitlines(keepends=True)[1::2]))
    assert healed.count("nan%") == 1
    assert diagnose_log_text(healed).label == "healthy"
    # a lower bound printed as -inf on every step is not a result gone NaN
    bounds = "".join(
        f"[Info] Iteration:{i}, valid auc : 0.81{i}\n[Warning] best gain: -inf, best split: -inf\n" for i in range(4)
    )
    assert diagnose_log_text(bounds).label != "nan_loss"


def test_a_nan_at_the_first_step_of_a_short_run_that_then_finished_was_got_over() -> None:
    steps = (
        "{'loss': 1.2204, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.33}\n"
        "{'loss': 1.0113, 'grad_norm': 11.52, 'learning_rate': 1.5e-05, 'epoch': 0.67}\n"
        "{'loss': 0.9472, 'grad_norm': 9.87, 'learning_rate': 1e-05, 'epoch': 1.0}\n"
    )
    finished = steps + "{'train_runtime': 41.2, 'train_loss': 1.0596, 'epoch': 1.0}\nTraining completed.\n"
    assert diagnose_log_text(finished).label == "healthy"
    # the same three steps with no finish: too few finite steps to say the run got over it
    assert diagnose_log_text(steps).label == "nan_loss"
    # finished, but the metric went NaN again: not got over
    again = steps + "{'loss': 0.9101, 'grad_norm': nan, 'learning_rate': 5e-06, 'epoch': 1.0}\nTraining completed.\n"
    assert diagnose_log_text(again).label == "nan_loss"


def test_statistics_nan_from_the_first_report_beside_finite_losses_are_undefined_not_diverged() -> None:
    # a rate with nothing yet to count prints nan on every report; the losses stay finite and the run saves its model
    reports = "".join(
        f"INFO | __main__:_log_metrics - iter={i:04d} reward=0.{3 - i}587 acb_mean=nan p_hit=nan r_hit=nan "
        f"loss_critic=0.{8 - i}615 loss_objective=-0.03{i}1 entropy=3.{5 - i}924\n"
        for i in range(4)
    )
    end = (
        "INFO | __main__:main - Final metrics: loss_objective=-0.0331, entropy=2.1479, acb_mean=nan, p_hit=nan\n"
        "INFO | __main__:main - Saved actor checkpoint to logs/checkpoints/actor.pt\n"
    )
    d = diagnose_log_text(reports + end)
    assert d.label == "healthy", d
    # the same statistics finite at first and NaN from some report on did turn NaN
    turned = reports.replace("acb_mean=nan p_hit=nan", "acb_mean=0.4210 p_hit=0.5120", 1)
    assert diagnose_log_text(turned + end).label == "nan_loss"


def test_a_loss_column_of_a_logged_table_that_went_nan_and_stayed() -> None:
    # shape of zzze-0035 (dev): Keras' CSVLogger file, the loss NaN from the first epoch on. Before: unknown 0.3
    rows = "".join(f"{e},nan,0.9534672{e % 10}\n" for e in range(6))
    d = diagnose_log_text("epoch,loss,mean_absolute_error\n" + rows)
    assert d.label == "nan_loss" and d.evidence[0] == "epoch,loss,mean_absolute_error"
    # NaN in a column that is not a loss (a metric undefined so far), or a loss that was NaN once and recovered
    assert diagnose_log_text("epoch,loss,val_auc\n" + "".join(f"{e},0.{9 - e}1,nan\n" for e in range(6))).label != (
        "nan_loss"
    )
    recovered = "step\tloss\n1\tnan\n2\tnan\n" + "".join(f"{s}\t0.{9 - s}2\n" for s in range(3, 9))
    assert diagnose_log_text(recovered).label != "nan_loss"


def test_a_preference_trainers_log_probabilities_gone_nan_are_the_model_diverging() -> None:
    step = (
        "{{'loss': {loss}, 'learning_rate': 0.0005, 'rewards/chosen': nan, 'rewards/margins': nan,"
        " 'logps/rejected': nan, 'logps/chosen': nan, 'logits/rejected': nan, 'logits/chosen': nan, 'epoch': {e}}}\n"
    )
    log = step.format(loss="2451616399.36", e=0.28) + step.format(loss="0.0", e=0.57)
    assert diagnose_log_text(log).label == "nan_loss"
    # a masked logit printed as -inf is by design
    assert diagnose_log_text("'logits/chosen': -inf, 'loss': 0.61\nepoch 1/2\nepoch 2/2\n").label != "nan_loss"


def test_catboost_stopping_on_a_degenerate_solution() -> None:
    # the learn loss went nan at iteration 60 and CatBoost stopped (zzzn-0111)
    log = (
        "59:\tlearn: 0.1227400\ttotal: 6m 55s\tremaining: 1m 9s\n"
        "60:\tlearn: nan\ttotal: 7m 2s\tremaining: 1m 2s\n"
        "Training has stopped (degenerate solution on iteration 60, probably too small l2-regularization, try to "
        "increase it)\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("nan_loss", "lower_lr_or_fix_data")


def test_a_key_value_table_reporting_the_loss_as_nan() -> None:
    # the OpenAI logger's table (guided-diffusion, baselines): zzzr-0001
    row = "-----------------------------\n| loss          | {v}       |\n| step          | 1.53e+05  |\n"
    assert diagnose_log_text(row.format(v="0.0123") + row.format(v="nan")).label == "nan_loss"
    assert diagnose_log_text(row.format(v="0.0123") + row.format(v="0.0119")).label != "nan_loss"


def test_tensorboard_nan_warnings_after_the_run_said_it_finished_do_not_spoil_it() -> None:
    """zzzzd-0109: AllenNLP stops early, loads its best weights, then TensorBoard warns about a non-finite value it
    was given to log; every loss the run printed was finite. Before the finish, the same warning is a NaN loss."""
    warned = "Warning: NaN or Inf found in input tensor.\n" * 3
    finished = (
        "2019-05-30 15:25:54,074 - INFO - allennlp.training.tensorboard_writer - loss | 0.875 | 3.521\n"
        "2019-05-30 15:37:30,652 - INFO - allennlp.training.trainer - Ran out of patience.  Stopping training.\n"
        "2019-05-30 15:37:30,652 - INFO - allennlp.training.checkpointer - loading best weights\n"
    )
    assert diagnose_log_text(finished + warned).label == "healthy"
    assert diagnose_log_text(warned + finished).label == "nan_loss"


def test_mxnets_speedometer_printing_a_loss_metric_as_nan() -> None:
    """MXNet names its loss metric for the function (Train-SmoothL1, Train-CrossEntropy): NaN there is the loss gone
    NaN (zzzzk-0001, retired blind v25's miss); a NaN accuracy-like metric name alone is not."""
    d, _, record = diagnose_dev("zzzzk-0001")
    assert d.label == record["label"] == "nan_loss"
    rows = "".join(f"Epoch[0] Batch [{b}]\tSpeed: 28.10 samples/sec\tTrain-CrossEntropy=nan\n" for b in (20, 40, 60))
    assert diagnose_log_text(rows).label == "nan_loss"


def test_a_finiteness_check_called_on_none_is_a_code_error_not_a_nan() -> None:
    """Retired v29 zzzzzh-0110 (nan_loss 0.8): the check's own line crashed on its argument (torch.isnan(None)), so
    nothing was found to be NaN; a check that raises on a NaN it found is still nan_loss."""
    crashed = (
        "Traceback (most recent call last):\n"
        '  File "src/style_transfer.py", line 79, in evaluate_style_transfer\n'
        "    if torch.isnan(gen).sum() > 1:\n"
        "TypeError: isnan(): argument 'input' (position 1) must be Tensor, not NoneType\n"
    )
    assert diagnose_log_text(crashed).label == "user_code_error"
    found = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 88, in train_step\n'
        "    assert not torch.isnan(loss), 'loss is nan'\n"
        "AssertionError: loss is nan\n"
    )
    assert diagnose_log_text(found).label == "nan_loss"


def test_a_losss_components_under_one_losses_head_that_turned_nan() -> None:
    """PyTorch-YOLOv3 prints a loss's components under one head, each name then its value: NaN there is the loss
    (dev zzzzzp-0114: NaN from the first epoch, the thread's fix in the training code); finite ones are progress."""
    row = "[Epoch 0/30, Batch {b}/1313] [Losses: x {v}, y {v}, w {v}, h {v}, conf 0.755184, cls {v}, total {v}]\n"
    went_nan = "".join(row.format(b=b, v="nan") for b in range(320, 327))
    assert diagnose_log_text(went_nan).label == "nan_loss"
    assert diagnose_log_text("".join(row.format(b=b, v="0.0412") for b in range(320, 327))).label == "healthy"
    assert diagnose_dev("zzzzzp-0114")[0].label == "nan_loss"


def test_a_stats_dict_whose_loss_entries_are_numpy_nan_is_a_nan_loss() -> None:
    # trl's PPO step returns its stats under slash-path keys, numpy values
    log = (
        "{'objective/kl': array(nan, dtype=float32), 'objective/kl_coef': 0.2, 'ppo/loss/policy': "
        "array([nan], dtype=float32), 'ppo/loss/value': array([nan], dtype=float32), 'ppo/loss/total': "
        "array([nan], dtype=float32)}\n"
    )
    assert diagnose_log_text(log).label == "nan_loss"
    assert diagnose_log_text(log.replace("array([nan]", "array([0.25]")).label != "nan_loss"


def test_a_regression_objective_printed_by_its_own_name_turning_nan_is_a_nan_loss() -> None:
    log = "     0  MSE:      nan  Reg: 1.52e-05  L1: 1.83e+01\n"
    assert diagnose_log_text(log).label == "nan_loss"
    assert diagnose_log_text(log.replace("MSE:      nan", "MSE:  2.1e-03")).label != "nan_loss"
    assert diagnose_dev("zzzzzzj-0303")[0].label == "nan_loss"


def test_progress_rows_whose_every_value_after_the_epoch_is_nan_are_a_nan_loss_even_when_training_completes() -> None:
    """Blind v41 zzzzzzzn-0504 (PointNetLK): "…, epoch, 0198, nan, nan, nan, nan" to the last epoch, then "Training
    completed!" was read as healthy (0.9). Values that went NaN and stayed are no finished run; a NaN row that later
    rows leave behind, or a lone one, is not read so."""
    row = "INFO:net, 2022-03-11 14:18:54,833, epoch, {e:04d}, {v}, {v}, {v}\n"
    done = "DEBUG:net, 2022-03-11 14:23:56,727, Training completed!\n"
    diverged = "".join(row.format(e=e, v="0.52") for e in (196, 197)) + "".join(
        row.format(e=e, v="nan") for e in (198, 199, 200)
    )
    assert diagnose_log_text(diverged + done).label == "nan_loss"
    recovered = "".join(row.format(e=e, v="nan") for e in (1, 2)) + "".join(row.format(e=e, v="0.4") for e in (3, 4))
    assert diagnose_log_text(recovered + done).label == "healthy"
    assert diagnose_log_text(row.format(e=200, v="nan") + done).label != "nan_loss"
    assert diagnose_dev("zzzzzzzn-0504")[0].label == "nan_loss"


def test_a_value_that_turned_nan_and_stayed_is_a_nan_loss_in_any_row_layout() -> None:
    """Dev zzzzzu-0213 (pose estimation): rows of "<epoch> <loss> ****" went from finite to "nan" at epoch 178 and
    stayed so to the last epoch, then the run saved its model and stopped early; it was read as healthy (0.8). The
    rows carry no epoch word and no separator, so only their repeated template says they are the run's series."""
    bar = "*" * 40
    rows = "".join(f"{bar} {e}\n{e} {11.9 - e / 100:.4f} **********\n" for e in range(170, 178))
    turned = "".join(f"{bar} {e}\n{e} nan **********\n" for e in range(178, 182))
    end = "Model saved as runs/ep181.pth\ntrigger_times 4\nEarly stopping triggered!\n"
    assert diagnose_log_text(rows + turned + end).label == "nan_loss"
    # one NaN row the series leaves behind is no divergence
    healed = rows + f"{bar} 178\n178 nan **********\n" + f"{bar} 179\n179 10.0100 **********\n" + end
    assert diagnose_log_text(healed).label != "nan_loss"
    assert diagnose_dev("zzzzzu-0213")[0].label == "nan_loss"
