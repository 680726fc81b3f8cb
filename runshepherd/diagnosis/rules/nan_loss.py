"""Training diverged: NaN or infinite loss/gradients (early fp16 overflow skips are benign and ignored)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line
from runshepherd.diagnosis.fixes import fix_nan
from runshepherd.diagnosis.positive import finished_after, finished_before, named_pairs, named_values
from runshepherd.diagnosis.rules.base import ORDER_EVENT, Context, FunctionRule, Signal, pat
from runshepherd.diagnosis.rules.family import family, words

_EXPL = (
    "Training diverged: the loss became NaN (not a number) or infinite, so the numbers stopped meaning "
    "anything. Usually the learning rate is too high, or a bad batch (empty, corrupted, division by zero) got in."
)
_EXPL_SPIKE = (
    "Training is diverging: the loss jumped and stayed up while the fp16 loss scaler kept overflowing and cutting the "
    "scale, the spike that comes before a NaN loss. Usually the learning rate is too high for this point of "
    "training, or a bad batch got in."
)
_FIX = (
    "Lower the learning rate (×0.1), add gradient clipping or warm-up, use bf16 instead of fp16, and check "
    "the data for empty or corrupted samples."
)


def _nan_from_metrics(ctx: Context) -> list[Signal]:
    """The logs digest saw NaN in the metrics even if no line says so explicitly."""
    if ctx.metrics is None or not ctx.metrics.nan_seen:
        return []
    return [
        Signal(
            label="nan_loss",
            origin="user",
            strength=0.8,
            order=ORDER_EVENT,
            evidence=[],  # a digest flag, not a line of the input: evidence lists verbatim lines only
            explanation=_EXPL,
            fix_kind="lower_lr_or_fix_data",
            fix_description=_FIX,
        )
    ]


# a loss printed as NaN/inf in any metric format (``Loss nan``, ``IDLoss=nan``, ``step_loss=nan`` inside a
# progress bar that also carries a benign overflow notice), and the fp16 loss scale collapsing: both are read
# from warning lines too
# (Lightning suffixes the key: ``train_loss_step=nan.0``, ``loss_epoch=nan``; other trainers name the part of the loss:
# ``train_mel_loss_before = nan``, detectron2's ``'loss_cls': tensor(nan, device='cuda:0', …)``; a printed tensor:
# ``loss = tensor(nan, device='cuda:0', grad_fn=<NllLossBackward0>)``)
# (and the model's own outputs a preference trainer logs beside the loss, TRL's DPO ``'logps/chosen': nan``,
# ``'logits/rejected': nan``: log-probabilities and logits are defined for every batch, so NaN there is the model's
# numbers gone NaN, not a statistic with nothing to count; NaN only: a masked logit is -inf by design)
# (and a key-value table's row, the OpenAI logger's "| loss          | nan       |" of guided-diffusion and baselines)
# (and a stats dict printed with numpy values under slash-path keys, as trl's PPO trainer returns it:
# "'ppo/loss/total': array([nan], dtype=float32)")
# (and a loss metric named for its function rather than "loss": MXNet's Speedometer "Train-SmoothL1=nan",
# "Train-CrossEntropy=nan", "Train-Perplexity=nan")
# (and a loss's components listed under one "Losses:" head, each name then its value, as PyTorch-YOLOv3 prints them:
# "[Losses: x nan, y nan, w nan, h nan, conf 0.755184, cls nan, total nan]")
_LOSS_NAN = re.compile(
    # (a regression's or a generative model's objective printed by its own name: "MSE:      nan", "nll = nan")
    r"\b\w*(?:loss|SmoothL1|CrossEntropy|Perplexity|MSE|NLL|ELBO)\w*(?:/\w+)*\b['\"]?\s*(?:[=:|]\s*|\s+)(?:tensor\(|array\()?[\[('\"]?"
    r"(?:nan|-?inf)\b"
    r"|\b(?:logps|logits|log_probs)/\w+['\"]?\s*[=:]\s*['\"]?nan\b"
    r"|\bLoss(?:es)?:\s*(?:\w+ -?\d+(?:\.\d+)?(?:e[-+]?\d+)?, )*\w+ (?:nan|-?inf)\b",
    re.IGNORECASE,
)
# a loss whose magnitude is past any real objective (float32 tops out near 3.4e38): ``"main/loss": -1.1e+35``
_LOSS_HUGE = re.compile(r"\b\w*loss\b['\"]?\s*[=:]\s*['\"]?-?\d+(?:\.\d+)?e\+(?P<x>\d+)\b", re.IGNORECASE)
MIN_DIVERGED_EXPONENT = 15
# a bare numeric progress row (``76970 2.6265104`` then ``76980 nan``): a metric column that turned non-finite
_NUM_ROW = re.compile(r"^\s*\d+(?:[\s,|]+(?:-?\d+(?:\.\d+)?(?:e[-+]?\d+)?|nan|-?inf))+\s*$", re.IGNORECASE)
_NONFINITE = re.compile(r"(?:^|[\s,|])(?:nan|-?inf)\b", re.IGNORECASE)
# (never across a ``|`` field separator: Megatron's ``loss scale: -1.0 | grad norm: 0.000`` is two fields)
_SCALE = re.compile(
    r"\b(?:loss scale|grad scale|loss_scale)\b[^\n|]{0,40}?(?:to|->|reducing to|:)\s*(?P<v>\d+(?:\.\d+)?(?:e-?\d+)?)\b",
    re.IGNORECASE,
)
# the same said with a copula (ESPnet's "WARNING: The grad norm is nan. Skipping updating the model.", chainer's
# "grad norm is nan. Do not update model.") and ESPnet's own check of the loss value ("loss (=1500000000.0) is not
# correct", e2e_asr_attctc.py, printed when the loss is non-finite or blown up)
_COPULA = re.compile(
    r"\b(?:grad(?:ient)?[_ ]norm|\w*loss)\s+(?:is|was|became|becomes)\s+(?:nan|-?inf)\b", re.IGNORECASE
)
_NOT_CORRECT = re.compile(r"\bloss \(=\s*-?[\d.e+]+\) is not correct\b", re.IGNORECASE)
MIN_SANE_SCALE = 1e-3  # dynamic fp16 scaling starts near 2**16; far below 1 means every step overflows


# the best (lowest) loss so far before anything was measured: scripts start the tracker at float("inf") and print it
# ("best_loss: inf", "Best loss: inf", "loss_min = inf"); an infinite start value is no diverged loss
_SENTINEL = (
    r"\b(?:best|min|minimum|lowest|prev|previous|init|initial)[_ ]\w*loss\w*['\"]?\s*[=:]\s*['\"]?\+?inf(?:inity)?\b"
    r"|\b\w*loss_(?:best|min|minimum|lowest|prev)\w*['\"]?\s*[=:]\s*['\"]?\+?inf(?:inity)?\b"
)
_SENTINEL_RE = re.compile(_SENTINEL, re.IGNORECASE)


def _nan_in_any_line(ctx: Context) -> list[Signal]:
    finite_rows = 0  # bare numeric progress rows seen so far, all finite
    for ln in ctx.log.lines:
        f = ln.folded  # lower-cased: a cheap test rules out nearly every line before the regexes run
        if ln.code:
            continue
        strength = 0.84
        if "nan" in f or "inf" in f:
            if _NUM_ROW.match(ln.text):
                if _NONFINITE.search(ln.text) is None:
                    finite_rows += 1
                    continue
                if finite_rows == 0:  # a lone row is no column: read it only after finite rows of its shape
                    continue
                strength = 0.74
            elif _COPULA.search(ln.text):
                pass
            elif (_LOSS_NAN.search(ln.text) is None or _SENTINEL_RE.search(ln.text)) and not _small_scale(ln.text):
                continue
        elif "not correct" in f:
            if _NOT_CORRECT.search(ln.text) is None:
                continue
        elif "scale" in f:
            if not _small_scale(ln.text):
                continue
        elif "loss" in f and "e+" in f:
            hm = _LOSS_HUGE.search(ln.text)
            if hm is None or int(hm.group("x")) < MIN_DIVERGED_EXPONENT:
                continue
            strength = 0.74
        else:
            if _NUM_ROW.match(ln.text):
                finite_rows += 1
            continue
        return [Signal("nan_loss", "user", strength, ln.index, [ln.raw.rstrip()], _EXPL, "lower_lr_or_fix_data", _FIX)]
    return []


# The run's results reported as NaN: its last line of named values (positive.named_values: the measured values a run
# reports, whatever it names them: "avg wealth: nan, final wealth: nan, ARR: nan%") gives NaN for NAN_RESULTS or more
# of them, and an earlier report did too. A run that printed one NaN (a metric undefined at step 1, a skipped fp16
# step) and went on reports finite values at its end; a run whose numbers all turned NaN keeps reporting NaN. The
# values must have turned NaN: a loss among them, or a name finite in an earlier report; statistics NaN from the first
# report to the last (a rate with nothing yet to count) beside finite losses are undefined, not diverged.
NAN_RESULTS = 2


def _is_nan(value: str) -> bool:
    return value.lower().strip("'\"+-") == "nan"


def _turned_nan(lines: list[Line], last: Line) -> bool:
    """Whether the NaN values of the last report turned NaN: one names a loss, or one was finite in an earlier line."""
    names = {n.lower() for n, v in named_pairs(last) if _is_nan(v)}
    if any("loss" in n for n in names):
        return True
    for ln in lines:
        if ln.index >= last.index:
            break
        if any(n in ln.folded for n in names) and any(
            n.lower() in names and not _is_nan(v) for n, v in named_pairs(ln)
        ):
            return True
    return False


def _results_nan(ctx: Context) -> list[Signal]:
    lines = [ln for ln in ctx.log.lines if not ln.code]
    # a NaN value is spelt "nan" in any case: only lines holding it can report NaN, and only the last report (found
    # from the end) must be one of them, so a long log's other lines are never searched for named values
    values = {ln.index: named_values(ln) for ln in lines if "nan" in ln.folded}
    if not values:
        return []
    last = next((ln for ln in reversed(lines) if (values[ln.index] if ln.index in values else named_values(ln))), None)
    if last is None:
        return []
    nan_lines = [ln for ln in lines if sum(_is_nan(v) for v in values.get(ln.index, ())) >= NAN_RESULTS]
    if len(nan_lines) < 2 or nan_lines[-1] is not last or not _turned_nan(lines, last):
        return []
    first = nan_lines[0]
    return [
        Signal(
            "nan_loss",
            "user",
            0.72,
            first.index,
            [first.raw.rstrip(), nan_lines[-1].raw.rstrip()],
            _EXPL,
            "lower_lr_or_fix_data",
            _FIX,
        )
    ]


# A table the run logs its losses in (Keras' CSVLogger, Lightning's metrics.csv, a script's own TSV): a header of
# comma- or tab-separated names, one of them a loss ("epoch,loss,mean_absolute_error", "step\tloss\tval_loss"), then
# the rows of its width right under it. NaN in the loss column on two or more rows, the last of them among the table's
# last rows, is a loss that went NaN and stayed.
_LOSS_COLUMN = re.compile(r"^(?:\w+_)?loss(?:_\w+)?$", re.IGNORECASE)
NAN_ROWS = 2


def _fields(text: str) -> list[str] | None:
    """The comma- or tab-separated fields of a table's line; None for a line with neither separator."""
    sep = "," if "," in text else ("\t" if "\t" in text else None)
    return None if sep is None else [f.strip() for f in text.strip().split(sep)]


def _nan_in_loss_column(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    i = 0
    while i < len(lines):
        head = lines[i]
        i += 1
        names = _fields(head.text) if "loss" in head.folded and head.usable else None
        if names is None or len(names) < 2 or not all(n[:1].isalpha() for n in names):
            continue
        cols = [k for k, n in enumerate(names) if _LOSS_COLUMN.match(n)]
        rows: list[tuple[Line, list[str]]] = []
        while i < len(lines):
            fields = _fields(lines[i].text)
            if fields is None or len(fields) != len(names):
                break
            rows.append((lines[i], fields))
            i += 1
        nan_rows = [n for n, (_, fields) in enumerate(rows) if any(_is_nan(fields[k]) for k in cols)]
        if cols and len(nan_rows) >= NAN_ROWS and nan_rows[-1] >= len(rows) - NAN_ROWS:
            first = rows[nan_rows[0]][0]
            evidence = [head.raw.rstrip(), first.raw.rstrip()]
            return [Signal("nan_loss", "user", 0.8, first.index, evidence, _EXPL, "lower_lr_or_fix_data", _FIX)]
    return []


# A run's own progress rows, whatever their layout ("…, epoch, 0198, nan, nan, nan", "178 nan **********",
# "Outer Step: 140  Loss: nan  Norm: nan"): rows sharing one template (numbers and NaN masked, words kept) where a
# value that was a finite number on earlier rows is NaN on every row since, NAN_ROWS or more of them to the template's
# last row; or rows whose only numbers besides NAN_RESULTS or more NaN values are whole numbers (the counter, the clock).
# The run's numbers turned NaN and stayed, whatever it prints at its end ("Training completed!"). A value NaN from the
# first row beside finite measured ones (a statistic with nothing yet to count), a NaN the later rows leave behind, or
# a lone NaN row is not that.
_SERIES_VALUE = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:e[-+]?\d+)?(?![\w.])|(?<!\w)[-+]?nan(?!\w)", re.I)
SERIES_MAX_CHARS = 600  # a row longer than this is a dump, not a progress row


def _series_rows(lines: list[Line]) -> dict[str, list[tuple[Line, list[str]]]]:
    """The lines of two or more values grouped by their template, in log order."""
    rows: dict[str, list[tuple[Line, list[str]]]] = {}
    for ln in lines:
        if not ln.usable or len(ln.text) > SERIES_MAX_CHARS:
            continue
        values = _SERIES_VALUE.findall(ln.text)
        if len(values) >= 2:
            rows.setdefault(" ".join(_SERIES_VALUE.sub("#", ln.text).split()), []).append((ln, values))
    return rows


def _turned_at(series: list[tuple[Line, list[str]]]) -> int | None:
    """The row from which a value of the series was NaN to its end, NAN_ROWS rows or more, after a finite one; 0 when
    the rows never measured a finite value: NaN ones beside counters and clocks only."""
    if len(series) < NAN_ROWS:
        return None
    always_nan = 0
    for k in range(len(series[0][1])):
        finite = [n for n, (_, values) in enumerate(series) if not _is_nan(values[k])]
        if finite and len(series) - 1 - finite[-1] >= NAN_ROWS:
            return finite[-1] + 1
        always_nan += not finite
    counted = all(_is_nan(v) or v.lstrip("+-").isdigit() for _, values in series for v in values)
    return 0 if counted and always_nan >= NAN_RESULTS else None


def _series_turned_nan(ctx: Context) -> list[Signal]:
    if not any("nan" in ln.folded for ln in ctx.log.lines):
        return []
    for series in _series_rows(ctx.log.lines).values():
        turned = _turned_at(series)
        if turned is not None:
            first, last = series[turned][0], series[-1][0]
            evidence = [first.raw.rstrip(), last.raw.rstrip()]
            return [Signal("nan_loss", "user", 0.8, first.index, evidence, _EXPL, "lower_lr_or_fix_data", _FIX)]
    return []


def _small_scale(text: str) -> bool:
    """A loss scale cut below ``MIN_SANE_SCALE``. A scale of 0 is a setting, not a collapse (DeepSpeed's fp16
    ``"loss_scale": 0`` selects dynamic scaling, and its config is printed at start-up); a key that only contains the
    words (``min_loss_scale``, ``initial_loss_scale``) is a setting too."""
    sm = _SCALE.search(text)
    return sm is not None and 0 < float(sm.group("v")) < MIN_SANE_SCALE


# A diverging fp16 run mid-training: the dynamic loss scaler keeps overflowing and halving the scale (DeepSpeed's
# "OVERFLOW! Rank 0 Skipping step. Attempted loss scale: …", apex/fairseq's "Gradient overflow. Skipping step",
# "overflow detected, setting loss scale to: …") while the loss those iterations report jumps and stays up. Either
# alone is routine: overflow skips while the scale calibrates at the start, and a loss that rises (a validation
# loss as the model overfits, a noisy batch) in a run that is fine; together they are the spike a diverging run shows.
_OVERFLOW = re.compile(
    r"\bOVERFLOW!|Gradient overflow\.?\s+Skipping step|overflow detected, setting loss scale", re.IGNORECASE
)
_LOSS_VALUE = re.compile(
    r"(?<![\w/])(?P<k>(?:[A-Za-z][\w\-]*[ _-])?\w*loss\w*)['\"]?\s*[:=]\s*['\"]?(?P<v>\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\d.])",
    re.IGNORECASE,
)
MIN_OVERFLOWS = 3
JUMP = 1.5  # the loss rises to this multiple of its earlier low…
STAYS = 1.3  # …and never comes back below this multiple of it


def _diverged_under_overflow(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    overflows = [ln for ln in lines if "overflow" in ln.folded and _OVERFLOW.search(ln.text)]
    if len(overflows) < MIN_OVERFLOWS:
        return []
    first_loss = next((ln.index for ln in lines if "loss" in ln.folded and _loss_values(ln)), None)
    if first_loss is None or not _dense_run([o.index for o in overflows if o.index > first_loss]):
        return []  # only the start-up calibration, or the odd overflow a healthy run's dynamic scaling makes
    series: dict[str, list[tuple[float, int]]] = {}
    for ln in lines:
        if "loss" in ln.folded:
            for key, v in _loss_values(ln):
                series.setdefault(key, []).append((v, ln.index))
    for values in series.values():
        jump = _sustained_jump([v for v, _ in values])
        if jump is None:
            continue
        at = values[jump][1]
        # the scaler overflowing as the loss jumps and after: not its calibration at the start, nor the periodic
        # overflow of a healthy run's dynamic scaling elsewhere in a long log
        during = [o for o in overflows if values[jump - 1][1] < o.index <= values[-1][1] + 1]
        if len(during) < MIN_OVERFLOWS:
            continue
        ev = [lines[values[jump - 1][1]].raw.rstrip(), lines[at].raw.rstrip(), during[0].raw.rstrip()]
        return [Signal("nan_loss", "user", 0.74, at, ev, _EXPL_SPIKE, "lower_lr_or_fix_data", _FIX)]
    return []


def _loss_values(ln: Line) -> list[tuple[str, float]]:
    """The loss values a line reports, by key (a loss scale is a setting of the optimiser, not a loss)."""
    if ln.code:
        return []
    out = []
    for m in _LOSS_VALUE.finditer(ln.text):
        key = m.group("k").lower()
        if "scale" not in key:
            out.append((key, float(m.group("v"))))
    return out


OVERFLOW_GAP = 8  # lines between overflows that still make one run of them


def _dense_run(indices: list[int]) -> bool:
    """``MIN_OVERFLOWS`` overflows in a row, each within ``OVERFLOW_GAP`` lines of the one before."""
    run = 1
    for a, b in zip(indices, indices[1:]):
        run = run + 1 if b - a <= OVERFLOW_GAP else 1
        if run >= MIN_OVERFLOWS:
            return True
    return False


def _sustained_jump(v: list[float]) -> int | None:
    """Where a positive series jumps to ``JUMP`` times its low so far and stays above ``STAYS`` times it (two values
    before the jump and two from it at least), else None."""
    if len(v) < 4 or min(v) <= 0:
        return None
    for i in range(2, len(v) - 1):
        low = min(v[:i])
        if v[i] >= JUMP * low and min(v[i:]) >= STAYS * low:
            return i
    return None


# the check that raised says what it checked: the quoted source line of the failing frame asserts or tests
# finiteness (``assert not torch.isnan(loss)``, ``if not math.isfinite(loss): raise …``)
_FINITE_CHECK = re.compile(
    r"\b(?:is_?nan|is_?inf|is_?finite|isneginf|isposinf)\s*\(|\bnan\b.*\b(?:assert|raise)\b", re.I
)


# ... unless the check itself could not run: a TypeError, an AttributeError or a NameError on that line is the check
# called on something that is not a number or a tensor (``torch.isnan(None)``: "isnan(): argument 'input' (position
# 1) must be Tensor, not NoneType"), the program's own mistake, not a value that turned out not to be finite
_CHECK_NOT_RUN = re.compile(r"^\s*(?:\w+\.)*(?:TypeError|AttributeError|NameError|UnboundLocalError)\b")


def _failed_finiteness_check(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        src = next((ln for ln in reversed(lines[max(0, idx - 4) : idx]) if ln.code), None)
        if src is not None and _FINITE_CHECK.search(src.text) and not _CHECK_NOT_RUN.match(lines[idx].text):
            ev = [src.raw.rstrip(), lines[idx].raw.rstrip()]
            return [Signal("nan_loss", "user", 0.8, idx, ev, _EXPL, "lower_lr_or_fix_data", _FIX)]
    return []


# A NaN in one logged step that the same metric does not repeat: fp16 training skips a step whose loss or gradients
# are not finite (torch.cuda.amp.GradScaler, DeepSpeed's and Megatron's loss scalers; Megatron counts it as a "nan
# iteration" and goes on), and a run whose weights had turned NaN would print NaN for that metric from then on. So a
# metric that is finite (and not exactly 0) on ``RECOVERED_STEPS`` later lines, and never non-finite again, got over it;
# so did one finite on fewer later lines (a run of a few steps) when the run then says it finished.
_NAN_KEY = re.compile(
    r"(?P<k>\b\w*(?:loss|grad_?norm)\w*(?:/\w+)*)\b['\"]?\s*[=:]\s*['\"]?(?:tensor\(|array\()?[\[(]?(?:nan|[-+]?inf)\b"
    r"|(?P<c>\bnumber of nan iterations):\s*[1-9]",
    re.IGNORECASE,
)
RECOVERED_STEPS = 5


# TensorBoard's warning names no value: any scalar or histogram it was given was not finite
_TENSORBOARD_NAN = re.compile(r"NaN or Inf found in input tensor")


def _nan_went_away(ctx: Context, s: Signal) -> bool:
    lines = ctx.log.lines
    if not 0 <= s.order < len(lines):
        return False
    m = _NAN_KEY.search(lines[s.order].text)
    if m is None:
        # TensorBoard's warning printed only once the run had said it finished (AllenNLP's early stop, then its
        # "loading best weights"): a value logged after training, not the loss of a run that diverged
        return bool(_TENSORBOARD_NAN.search(lines[s.order].text)) and finished_before(lines, s.order)
    counter = m.group("c") is not None
    key = re.escape(m.group("c") or m.group("k"))
    later = re.compile(
        rf"(?<![\w/]){key}\b['\"]?\s*[=:]\s*['\"]?(?:tensor\()?[\[(]?(?P<v>nan|[-+]?inf|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?)",
        re.IGNORECASE,
    )
    finite = 0
    for ln in lines[s.order + 1 :]:
        for v in (fm.group("v").lower() for fm in later.finditer(ln.text)):
            if v in ("nan", "inf", "-inf", "+inf") or (counter and float(v) > 0):
                return False
            # (a loss stuck at exactly 0 after a NaN is the NaN hidden, as the HF Trainer logs it: no recovery)
            finite += counter or float(v) != 0
    # or fewer steps, when the run then says it finished: its metric was finite to the end of a completed run
    return finite >= RECOVERED_STEPS or (finite >= 1 and finished_after(lines, s.order))


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): NaN and infinite values (IEEE 754's names,
# numpy/sklearn "Input contains NaN, infinity", torch's anomaly detection), divergence
ROOT_WORDS = (
    words(
        # ("inf" only as a value: "loss = inf", "contains inf", not a limit such as "errors allowed: 1/inf")
        # (and "nan" as a value, not a name in code: np.NaN, 'nan')
        r"(?<![.'\"`])\bnan\b(?!['\"`(])|(?:[=:]|\bis|\bare|\bbecame|\bbecomes|\bcontains?|\bgot)\s*[-+]?inf(?:inity)?\b"
        r"|\binfinite\b"
        r"|\bnon-?finite\b|\bdiverg\w*\b|\bexplod\w*\b",
        0.6,
        "NaN or infinite values (a diverging loss or bad data)",
    ),
)


FAMILY = family(
    "nan_loss",
    origin="user",
    fix_kind="lower_lr_or_fix_data",
    explanation=_EXPL,
    fix_description=_FIX,
    exclude=_SENTINEL,
    patterns=(
        pat(
            r"\b(?:train[_/ ])?loss\b[^\n=:]{0,20}?(?:=|:|\bis\b|\bbecame\b|\bbecomes\b|\bwent\b(?: to)?)\s*[\[(]?(?:nan|-?inf(?:inity)?)\b",
            0.82,
        ),
        pat(
            r"(?:NaN|Inf)(?: or (?:NaN|Inf))? (?:was )?(?:found|detected|encountered) in (?:the )?(?:input tensor|loss|gradient|grad|output)",
            0.86,
        ),
        pat(r"FloatingPointError", 0.86, flags=0),
        pat(r"Minimum loss scale reached|loss scale already at minimum", 0.88),
        pat(r"Invalid loss, terminating training", 0.9),
        # CatBoost stopping on a loss that went NaN (catboost/private/libs/algo/train.cpp: "Training has stopped
        # (degenerate solution on iteration N, probably too small l2-regularization, try to increase it)")
        pat(r"Training has stopped \(degenerate solution on iteration \d+", 0.9, flags=0),
        # Megatron's iteration line counts the iterations whose loss was NaN or infinite since the last report
        # (megatron/training/training.py training_log: "number of skipped iterations: 0 | number of nan iterations: 0");
        # skipped iterations alone are fp16 overflow skips, and a count of 0 is no NaN at all
        pat(r"\bnumber of nan iterations:\s*[1-9]\d*", 0.86),
        pat(
            r"(?:Detected|Encountered|Found) (?:a )?(?:NaN|nan|inf|non-finite)(?: or inf)? (?:value|loss|in loss|gradient)",
            0.86,
        ),
        pat(r"non-finite (?:loss|gradients?|values?)|loss is not finite|nan loss detected|\bNaN loss\b", 0.86),
        pat(r"invalid value \(nan\) encountered", 0.86),
        pat(r"\bis inf or nan\b|Tensor had (?:NaN|Inf) values", 0.86),
        # TensorFlow's histogram summary refusing a non-finite value (tensorflow/core/kernels/summary_op.cc:
        # "Nan in summary histogram for: <tag>"), usually the weights or the loss after a diverging step
        pat(r"\bNan in summary histogram for\b", 0.86),
        pat(r"returned nan values in its \d+(?:st|nd|rd|th) output", 0.9),
        # a check that names what turned NaN ("RuntimeError: NaN detected in latents: …", sd-scripts' VAE check)
        pat(
            r"^(?:\w+\.)*\w*(?:Error|Exception): (?:NaN|Inf|nan|inf)s? (?:detected|found|encountered) in\b",
            0.82,
            flags=0,
        ),
        # (a metrics dict or JSON line quotes the key: ``"grad_norm": NaN``, as the loss regex above allows)
        pat(r"\bgrad(?:ient)?[_ ]norm\b['\"]?\s*[=:]\s*(?:nan|inf)\b", 0.72),
        # NaN outputs caught where they are consumed: torch.distributions' argument check (distribution.py:
        # "Expected parameter loc … to satisfy the constraint Real(), but found invalid values"), sampling from
        # probabilities (torch.multinomial: "probability tensor contains either `inf`, `nan` or element < 0"),
        # scikit-learn's and SciPy's input checks
        pat(r"(?:to satisfy the constraint|to be within the support) .{0,200}but found invalid values", 0.82),
        pat(r"probability tensor contains either `?inf`?, `?nan`? or element < 0", 0.82),
        pat(r"\bInput (?:\w+ )?contains NaN\b|must not contain infs or NaNs", 0.8),
        # torch.nn.utils.clip_grad_norm_(error_if_nonfinite=True); Python casting a NaN (int(float("nan")))
        pat(r"gradients from `parameters` is non-finite|cannot convert float NaN to integer", 0.82),
        # an exception whose message names a NaN or a non-finite value (a check of the loss, the gradients, the
        # outputs, in the check's own words): weaker than the wordings above, stronger than a bare exception
        pat(
            r"^(?:\w+\.)*\w*(?:Error|Exception): .{0,200}(?:(?<!['\"])\b(?:NaN|nan|NAN)s?\b(?!['\"])|\bnon-finite\b)",
            0.72,
            flags=0,
        ),
    ),
    rules=(
        FunctionRule("nan_from_metrics", _nan_from_metrics),
        FunctionRule("nan_in_any_line", _nan_in_any_line),
        FunctionRule("failed_finiteness_check", _failed_finiteness_check),
        FunctionRule("diverged_under_overflow", _diverged_under_overflow),
        FunctionRule("results_nan", _results_nan),
        FunctionRule("nan_in_loss_column", _nan_in_loss_column),
        FunctionRule("series_turned_nan", _series_turned_nan),
    ),
    # autograd's anomaly mode (torch/csrc/autograd/python_anomaly_mode.cpp) warns "Error detected in
    # <Fn>Backward0. Traceback of forward call that caused the error" before it raises; it is the mode people turn
    # on to find NaN gradients, and the NaN check is what it adds to backward
    # TensorBoard's SummaryWriter warns when a value it is given to log is not finite
    # (torch/utils/tensorboard/summary.py: "NaN or Inf found in input tensor.")
    warning_patterns=(
        pat(r"Error detected in \w+Backward\d*\. Traceback of forward call", 0.72),
        pat(_TENSORBOARD_NAN.pattern, 0.8),
    ),
    applies=("failed", "running", "completed"),
    recovered=_nan_went_away,
    fixer=fix_nan,
    root_words=ROOT_WORDS,
)
