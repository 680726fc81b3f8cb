"""Generate the blind holdout corpus for the diagnosis rules.

Written without looking at the rule code or the original corpus, so that the
rules are scored on logs their author did not shape. Each case composes
stack-specific startup noise, training progress, benign warnings and a failure
block the way the real stack prints it; wording, line prefixes and lengths
vary per case. Labels are the root cause a careful engineer would name.

Run: python tests/data/diagnosis_holdout/generate.py  (deterministic; rewrites
the *.log files, labels.json and notes.json beside this script).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

OUT = Path(__file__).parent
PY = "/usr/local/lib/python3.10/dist-packages"
PY311 = "/opt/conda/lib/python3.11/site-packages"


@dataclass
class Case:
    """One generated log: its lines, root-cause label and a note on why."""

    label: str
    note: str
    lines: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------- prefixes


class Clock:
    """Monotonic fake wall clock so prefixed timestamps move forward."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.t = datetime(2026, 5, rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))

    def tick(self, max_s: float = 4.0) -> datetime:
        self.t += timedelta(seconds=self.rng.uniform(0.01, max_s))
        return self.t


def prefixer(style: str, rng: random.Random, task: str = "train") -> Callable[[str], str]:
    """Return a function adding the chosen line prefix (timestamps advance)."""
    clock = Clock(rng)
    if style == "iso":
        return lambda s: f"{clock.tick():%Y-%m-%dT%H:%M:%S.%f}Z {s}"
    if style == "osmo":
        return lambda s: f"{clock.tick():%Y/%m/%d %H:%M:%S} [{task}] {s}"
    if style == "bracket":
        return lambda s: f"[{clock.tick():%Y-%m-%d %H:%M:%S}] {s}"
    if style == "srun0":
        return lambda s: f"0: {s}"
    return lambda s: s


def apply(lines: list[str], fn: Callable[[str], str]) -> list[str]:
    return [fn(x) for x in lines]


# --------------------------------------------------------------------------- benign noise

BENIGN_WARNINGS = [
    f"{PY}/torch/_utils.py:831: UserWarning: TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class. This should only matter to you if you are using storages directly.  To access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
    "  return self.fget.__get__(instance, owner)()",
    f"{PY}/transformers/optimization.py:411: FutureWarning: This implementation of AdamW is deprecated and will be removed in a future version. Use the PyTorch implementation torch.optim.AdamW instead, or set `no_deprecation_warning=True` to disable this warning",
    "  warnings.warn(",
    f"{PY}/torch/utils/checkpoint.py:464: UserWarning: torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. In version 2.4 we will raise an exception if use_reentrant is not passed. use_reentrant=False is recommended, but if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to docs for more details on the differences between the two variants.",
    "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. Disabling parallelism to avoid deadlocks...",
    "To disable this warning, you can either:",
    "\t- Avoid using `tokenizers` before the fork if possible",
    "\t- Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)",
    f"{PY}/torch/optim/lr_scheduler.py:139: UserWarning: Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will result in PyTorch skipping the first value of the learning rate schedule.",
    f"{PY}/torch/nn/parallel/distributed.py:1143: UserWarning: find_unused_parameters=True was specified in DDP constructor, but did not find any unused parameters in the forward pass. This flag results in an extra traversal of the autograd graph every iteration,  which can adversely affect performance.",
    f"{PY}/datasets/load.py:1461: FutureWarning: The repository for glue contains custom code which must be executed to correctly load the dataset. You can inspect the repository content at https://hf.co/datasets/glue",
    f"{PY}/transformers/tokenization_utils_base.py:1601: FutureWarning: `clean_up_tokenization_spaces` was not set. It will be set to `True` by default. This behavior will be depracted in transformers v4.45, and will be then set to `False` by default.",
    f"{PY}/torch/cuda/amp/grad_scaler.py:126: UserWarning: torch.cuda.amp.GradScaler(args...) is deprecated. Please use torch.amp.GradScaler('cuda', args...) instead.",
    "wandb: WARNING Serializing object of type dict that is 1081424 bytes",
    "wandb: WARNING Saving files without folders. If you want to preserve subdirectories pass base_path to wandb.save, i.e. wandb.save(\"/mnt/folder/file.h5\", base_path=\"/mnt\")",
    f"{PY}/torch/utils/data/dataloader.py:557: UserWarning: This DataLoader will create 16 worker processes in total. Our suggested max number of worker in current system is 8, which is smaller than what this DataLoader is going to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower the worker number to avoid potential slowness/freeze if necessary.",
    f"{PY}/torchvision/transforms/functional.py:1603: UserWarning: The default value of the antialias parameter of all the resizing transforms (Resize(), RandomResizedCrop(), etc.) will change from None to True in v0.17, in order to be consistent across the PIL and Tensor backends. To suppress this warning, directly pass antialias=True (recommended, future default), antialias=None (current default, which means False for Tensors and True for PIL), or antialias=False (only works on Tensors - PIL will still use antialiasing). This also applies if you are using the inference transforms from the models weights: update your call to the inference transform to use the latest API, e.g. ResNet50_Weights.DEFAULT.transforms()",
    "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`...",
    f"{PY}/accelerate/accelerator.py:488: FutureWarning: `torch.cuda.amp.GradScaler(args...)` is deprecated. Please use `torch.amp.GradScaler('cuda', args...)` instead.",
    "The attention mask and the pad token id were not set. As a consequence, you may observe unexpected behavior. Please pass your input's `attention_mask` to obtain reliable results.",
    f"{PY}/torch/distributed/c10d_logger.py:79: FutureWarning: `torch.distributed._all_gather_base` is a private function and will be deprecated. Please use `torch.distributed.all_gather_into_tensor` instead.",
]


def some_warnings(rng: random.Random, k: int) -> list[str]:
    return rng.sample(BENIGN_WARNINGS, k=min(k, len(BENIGN_WARNINGS)))


def some_weights_warning(rng: random.Random) -> list[str]:
    model = rng.choice(["BertForSequenceClassification", "RobertaForTokenClassification", "DebertaV2ForSequenceClassification", "ViTForImageClassification"])
    ckpt = rng.choice(["bert-base-uncased", "roberta-large", "microsoft/deberta-v3-base", "google/vit-base-patch16-224-in21k"])
    return [
        f"Some weights of {model} were not initialized from the model checkpoint at {ckpt} and are newly initialized: ['classifier.bias', 'classifier.weight']",
        "You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.",
    ]


def nccl_init(rng: random.Random, host: str = "node01", ranks: int = 8) -> list[str]:
    pid = rng.randint(1000, 90000)
    out = [
        f"{host}:{pid}:{pid} [0] NCCL INFO Bootstrap : Using eth0:10.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(2, 250)}<0>",
        f"{host}:{pid}:{pid} [0] NCCL INFO NET/Plugin : Plugin load (libnccl-net.so) returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory",
        f"{host}:{pid}:{pid} [0] NCCL INFO NET/Plugin : No plugin found, using internal implementation",
        f"{host}:{pid}:{pid} [0] NCCL INFO cudaDriverVersion 12020",
        f"NCCL version 2.{rng.choice([18, 19, 20])}.{rng.randint(1, 5)}+cuda12.{rng.randint(1, 4)}",
        f"{host}:{pid}:{pid + 40} [0] NCCL INFO NET/IB : No device found.",
        f"{host}:{pid}:{pid + 40} [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.3.17<0>",
        f"{host}:{pid}:{pid + 40} [0] NCCL INFO Using network Socket",
    ]
    if rng.random() < 0.5:
        out.append(f"{host}:{pid}:{pid + 40} [0] NCCL WARN NET/IB : No device found. Falling back to socket transport")
    for r in range(min(ranks, 4)):
        out.append(f"{host}:{pid + r}:{pid + 40 + r} [{r}] NCCL INFO comm 0x{rng.randint(10**8, 10**9):x} rank {r} nRanks {ranks} nNodes 1 localRanks {ranks} localRank {r} MNNVL 0")
    out.append(f"{host}:{pid}:{pid + 40} [0] NCCL INFO Connected all rings")
    out.append(f"{host}:{pid}:{pid + 40} [0] NCCL INFO Connected all trees")
    out.append(f"{host}:{pid}:{pid + 40} [0] NCCL INFO 32 coll channels, 0 nvls channels, 32 p2p channels, 32 p2p channels per peer")
    return out


def torchrun_start(rng: random.Random, nproc: int) -> list[str]:
    return [
        f"W0501 {rng.randint(10, 23)}:{rng.randint(10, 59)}:{rng.randint(10, 59)}.{rng.randint(100000, 999999)} {rng.randint(100, 999)} torch/distributed/run.py:779] ",
        "W0501 torch/distributed/run.py:779] *****************************************",
        "W0501 torch/distributed/run.py:779] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal performance in your application as needed. ",
        "W0501 torch/distributed/run.py:779] *****************************************",
        f"[I socket.cpp:480] [c10d] waitForInput: socket SocketImpl(fd=3, addr=[localhost]:29500) timed out after 0ms" if rng.random() < 0.3 else f"INFO:torch.distributed.launcher.api:Starting elastic_operator with launch configs: nproc_per_node: {nproc}, run_id: none, rdzv_backend: c10d",
    ]


def hf_progress(rng: random.Random, steps: int, total: int, loss0: float = 2.5, nan_from: int | None = None) -> list[str]:
    out = []
    loss = loss0
    for i in range(1, steps + 1):
        step = i * 10
        loss = max(0.05, loss * rng.uniform(0.9, 1.0))
        shown = "nan" if nan_from is not None and i >= nan_from else f"{loss:.4f}"
        gn = "nan" if nan_from is not None and i >= nan_from else f"{rng.uniform(0.3, 4):.6f}"
        pct = int(100 * step / total)
        out.append(f" {pct:>2}%|{'█' * (pct // 10):<10}| {step}/{total} [{i // 6:02d}:{(i * 7) % 60:02d}<{(total - step) // 60:02d}:{rng.randint(10, 59)}, {rng.uniform(1.1, 4.5):.2f}it/s]")
        out.append(f"{{'loss': {shown}, 'grad_norm': {gn}, 'learning_rate': {5e-5 * (1 - step / total):.4e}, 'epoch': {step / total * 3:.2f}}}")
    return out


def hf_finish(rng: random.Random, total: int) -> list[str]:
    return [
        f"100%|██████████| {total}/{total} [{total // 80:02d}:{rng.randint(10, 59)}<00:00, {rng.uniform(1.1, 4.5):.2f}it/s]",
        "",
        "",
        "Training completed. Do not forget to share your model on huggingface.co/models =)",
        "",
        "",
        f"{{'train_runtime': {rng.uniform(500, 9000):.4f}, 'train_samples_per_second': {rng.uniform(10, 90):.3f}, 'train_steps_per_second': {rng.uniform(0.5, 4):.3f}, 'train_loss': {rng.uniform(0.2, 1.4):.6f}, 'epoch': 3.0}}",
        f"Saving model checkpoint to /output/checkpoint-{total}",
        f"Configuration saved in /output/checkpoint-{total}/config.json",
        f"Model weights saved in /output/checkpoint-{total}/model.safetensors",
    ]


def lightning_start(rng: random.Random, ngpu: int) -> list[str]:
    return [
        "Using 16bit Automatic Mixed Precision (AMP)" if rng.random() < 0.5 else "Using bfloat16 Automatic Mixed Precision (AMP)",
        "GPU available: True (cuda), used: True",
        "TPU available: False, using: 0 TPU cores",
        "IPU available: False, using: 0 IPUs",
        "HPU available: False, using: 0 HPUs",
        f"Initializing distributed: GLOBAL_RANK: 0, MEMBER: 1/{ngpu}",
        "----------------------------------------------------------------------------------------------------",
        "distributed_backend=nccl",
        f"All distributed processes registered. Starting with {ngpu} processes",
        "----------------------------------------------------------------------------------------------------",
        "",
        "You are using a CUDA device ('NVIDIA A100-SXM4-80GB') that has Tensor Cores. To properly utilize them, you should set `torch.set_float32_matmul_precision('medium' | 'high')` which will trade-off precision for performance. For more details, read https://pytorch.org/docs/stable/generated/torch.set_float32_matmul_precision.html#torch.set_float32_matmul_precision",
        f"LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [{','.join(str(i) for i in range(ngpu))}]",
        "",
        "  | Name      | Type             | Params",
        "-----------------------------------------------",
        "0 | model     | ResNet           | 23.5 M",
        "1 | criterion | CrossEntropyLoss | 0     ",
        "2 | train_acc | MulticlassAccuracy | 0   ",
        "-----------------------------------------------",
        "23.5 M    Trainable params",
        "0         Non-trainable params",
        "23.5 M    Total params",
        "94.114    Total estimated model params size (MB)",
        f"{PY}/lightning/pytorch/trainer/connectors/data_connector.py:441: The 'val_dataloader' does not have many workers which may be a bottleneck. Consider increasing the value of the `num_workers` argument` to `num_workers=7` in the `DataLoader` to improve performance.",
        "Sanity Checking DataLoader 0: 100%|██████████| 2/2 [00:00<00:00,  5.12it/s]",
    ]


def lightning_progress(rng: random.Random, epoch: int, n: int, nan: bool = False) -> list[str]:
    out = []
    loss = rng.uniform(0.8, 2.2)
    for i in range(1, n + 1):
        loss *= rng.uniform(0.93, 1.0)
        pct = int(100 * i / n)
        shown = "nan" if nan and i > n // 2 else f"{loss:.3f}"
        out.append(f"Epoch {epoch}:  {pct:>2}%|{'█' * (pct // 10):<10}| {i * 50}/{n * 50} [{i:02d}:{rng.randint(10, 59)}<{n - i:02d}:{rng.randint(10, 59)}, {rng.uniform(2, 9):.2f}it/s, v_num=0, train_loss={shown}, val_error={rng.uniform(0.05, 0.3):.3f}]")
    return out


def keras_progress(rng: random.Random, epochs: int, steps: int = 1875) -> list[str]:
    out = []
    for e in range(1, epochs + 1):
        out.append(f"Epoch {e}/{max(epochs, 10)}")
        for s in (100, 900, steps):
            arrow = "=" * (30 * s // steps - 1) + (">" if s < steps else "=")
            out.append(f"{s:>4}/{steps} [{arrow:<30}] - ETA: {rng.randint(1, 59)}s - loss: {rng.uniform(0.1, 0.9):.4f} - accuracy: {rng.uniform(0.7, 0.98):.4f}")
        out.append(f"{steps}/{steps} [==============================] - {rng.randint(20, 90)}s {rng.randint(10, 40)}ms/step - loss: {rng.uniform(0.1, 0.5):.4f} - accuracy: {rng.uniform(0.8, 0.98):.4f} - val_loss: {rng.uniform(0.1, 0.6):.4f} - val_accuracy: {rng.uniform(0.8, 0.97):.4f}")
    return out


def tf_start(rng: random.Random) -> list[str]:
    return [
        f"{rng.randint(2026, 2026)}-05-01 10:{rng.randint(10, 59)}:{rng.randint(10, 59)}.{rng.randint(100000, 999999)}: I tensorflow/core/util/port.cc:113] oneDNN custom operations are on. You may see slightly different numerical results due to floating-point round-off errors from different computation orders. To turn them off, set the environment variable `TF_ENABLE_ONEDNN_OPTS=0`.",
        "2026-05-01 10:00:01.221304: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered",
        "2026-05-01 10:00:01.221351: E external/local_xla/xla/stream_executor/cuda/cuda_fft.cc:607] Unable to register cuFFT factory: Attempting to register factory for plugin cuFFT when one has already been registered",
        "2026-05-01 10:00:01.222613: E external/local_xla/xla/stream_executor/cuda/cuda_blas.cc:1515] Unable to register cuBLAS factory: Attempting to register factory for plugin cuBLAS when one has already been registered",
        "2026-05-01 10:00:02.004113: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT",
        "2026-05-01 10:00:04.717112: I tensorflow/core/common_runtime/gpu/gpu_device.cc:1929] Created device /job:localhost/replica:0/task:0/device:GPU:0 with 78911 MB memory:  -> device: 0, name: NVIDIA H100 80GB HBM3, pci bus id: 0000:18:00.0, compute capability: 9.0",
        "2026-05-01 10:00:09.102332: I external/local_xla/xla/service/service.cc:168] XLA service 0x7f1b2c0f3e20 initialized for platform CUDA (this does not guarantee that XLA will be used). Devices:",
        "WARNING: All log messages before absl::InitializeLog() is called are written to STDERR",
        "I0000 00:00:1714557609.118523   81 device_compiler.h:186] Compiled cluster using XLA!  This line is logged at most once for the lifetime of the process.",
    ]


def jax_start(rng: random.Random) -> list[str]:
    return [
        "I0501 10:00:00.000000 140213 xla_bridge.py:889] Unable to initialize backend 'rocm': module 'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'",
        "I0501 10:00:00.000000 140213 xla_bridge.py:889] Unable to initialize backend 'tpu': INTERNAL: Failed to open libtpu.so: libtpu.so: cannot open shared object file: No such file or directory",
        f"I0501 10:00:01.000000 140213 train.py:62] JAX devices: {[f'cuda({i})' for i in range(rng.choice([1, 4, 8]))]}",
        "W external/xla/xla/service/gpu/nvptx_compiler.cc:760] The NVIDIA driver's CUDA version is 12.2 which is older than the ptxas CUDA version (12.4.131). Because the driver is older than the ptxas version, XLA is disabling parallel compilation, which may slow down compilation. You should update your NVIDIA driver or use the NVIDIA-provided CUDA forward compatibility packages.",
    ]


def jax_progress(rng: random.Random, n: int) -> list[str]:
    out = []
    loss = rng.uniform(3, 7)
    for i in range(1, n + 1):
        loss *= rng.uniform(0.9, 1.0)
        out.append(f"I0501 10:{i % 60:02d}:{rng.randint(10, 59)}.{rng.randint(100000, 999999)} 140213 train.py:211] [{i * 100}] train/loss={loss:.4f}, train/learning_rate={3e-4:.2e}, train/grad_norm={rng.uniform(0.2, 1.5):.4f}, steps_per_sec={rng.uniform(1, 6):.3f}")
    return out


def megatron_progress(rng: random.Random, n: int, total: int = 500000, nan_from: int | None = None, skipped: int = 0) -> list[str]:
    out = []
    loss = rng.uniform(6, 9)
    scale = 65536.0
    for i in range(1, n + 1):
        loss *= rng.uniform(0.95, 1.0)
        it = i * 10
        lossv = "nan" if nan_from is not None and i >= nan_from else f"{loss:.6E}"
        nanits = 10 if nan_from is not None and i >= nan_from else 0
        out.append(
            f" [{'2026-05-01 10:' + str(10 + i % 50) + ':' + str(10 + i % 49)}] iteration {it:>8}/{total:>8} | consumed samples: {it * 256:>12} | elapsed time per iteration (ms): {rng.uniform(900, 1500):.1f} | learning rate: {1.5e-4 * min(1, it / 2000):.6E} | global batch size:   256 | lm loss: {lossv} | loss scale: {scale:.1f} | grad norm: {rng.uniform(0.8, 3):.3f} | number of skipped iterations: {skipped if i == 1 else 0:>3} | number of nan iterations: {nanits:>3} |"
        )
    return out


def deepspeed_start(rng: random.Random) -> list[str]:
    return [
        f"[2026-05-01 10:00:0{rng.randint(0, 9)},{rng.randint(100, 999)}] [INFO] [real_accelerator.py:203:get_accelerator] Setting ds_accelerator to cuda (auto detect)",
        "[2026-05-01 10:00:05,112] [WARNING] [runner.py:202:fetch_hostfile] Unable to find hostfile, will proceed with training with local resources only.",
        "[2026-05-01 10:00:05,118] [INFO] [runner.py:568:main] cmd = /usr/bin/python3 -u -m deepspeed.launcher.launch --world_info=eyJsb2NhbGhvc3QiOiBbMCwgMSwgMiwgM119 --master_addr=127.0.0.1 --master_port=29500 --enable_each_rank_log=None train.py --deepspeed ds_config.json",
        "[2026-05-01 10:00:09,004] [INFO] [comm.py:637:init_distributed] cdb=None",
        "[2026-05-01 10:00:09,004] [INFO] [comm.py:668:init_distributed] Initializing TorchBackend in DeepSpeed with backend nccl",
        "[2026-05-01 10:00:21,551] [INFO] [logging.py:96:log_dist] [Rank 0] DeepSpeed info: version=0.14.2, git-hash=unknown, git-branch=unknown",
        "[2026-05-01 10:00:23,908] [INFO] [stage_1_and_2.py:148:__init__] Reduce bucket size 500000000",
        "[2026-05-01 10:00:23,908] [INFO] [stage_1_and_2.py:149:__init__] Allgather bucket size 500000000",
        "[2026-05-01 10:00:31,400] [INFO] [utils.py:800:see_memory_usage] After initializing ZeRO optimizer",
        "[2026-05-01 10:00:31,401] [INFO] [utils.py:801:see_memory_usage] MA 14.62 GB         Max_MA 16.1 GB         CA 16.4 GB         Max_CA 16 GB ",
        "[2026-05-01 10:00:31,401] [INFO] [utils.py:808:see_memory_usage] CPU Virtual Memory:  used = 112.4 GB, percent = 11.2%",
    ]


def ds_overflow(rank: int, scale: int) -> str:
    return f"[2026-05-01 10:01:{rank:02d},000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank {rank} Skipping step. Attempted loss scale: {scale}, reducing to {scale // 2}"


def ds_steps(rng: random.Random, n: int, start: int = 10, skipped: int = 0) -> list[str]:
    out = []
    for i in range(n):
        s = start + i * 10
        out.append(f"[2026-05-01 10:{(2 + i) % 60:02d}:11,402] [INFO] [logging.py:96:log_dist] [Rank 0] step={s}, skipped={skipped}, lr=[{rng.uniform(1e-5, 2e-4):.6e}], mom=[(0.9, 0.95)]")
        out.append(f"[2026-05-01 10:{(2 + i) % 60:02d}:11,403] [INFO] [timer.py:260:stop] epoch=0/micro_step={s * 4}/global_step={s}, RunningAvgSamplesPerSec={rng.uniform(40, 90):.3f}, CurrSamplesPerSec={rng.uniform(40, 90):.3f}, MemAllocated=15.21GB, MaxMemAllocated=31.7GB")
    return out


def nemo_start(rng: random.Random) -> list[str]:
    return [
        "[NeMo W 2026-05-01 10:00:02 nemo_logging:349] /usr/local/lib/python3.10/dist-packages/megatron/core/tensor_parallel/layers.py:280: FutureWarning: `torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use `torch.amp.custom_fwd(args..., device_type='cuda')` instead.",
        "[NeMo I 2026-05-01 10:00:04 exp_manager:396] Experiments will be logged at /results/nemo_experiments/megatron_gpt/2026-05-01_10-00-04",
        "[NeMo I 2026-05-01 10:00:04 exp_manager:842] TensorboardLogger has been set up",
        "[NeMo W 2026-05-01 10:00:04 exp_manager:1111] The checkpoint callback was told to monitor a validation value and trainer's max_steps was set to 100000. Please ensure that max_steps will run for at least 1 epochs to ensure that checkpointing will not error out.",
        f"[NeMo I 2026-05-01 10:00:09 megatron_init:251] Rank 0 has data parallel group : [0, 1, 2, 3, 4, 5, 6, 7]",
        "[NeMo I 2026-05-01 10:00:09 megatron_init:257] All data parallel group ranks with context parallel combined: [[0, 1, 2, 3, 4, 5, 6, 7]]",
        "[NeMo W 2026-05-01 10:00:11 modelPT:251] You tried to register an artifact under config key=tokenizer.vocab_file but an artifact for it has already been registered.",
        "[NeMo I 2026-05-01 10:00:20 megatron_gpt_model:1615] Pipeline model parallel rank: 0, Tensor model parallel rank: 0, Number of model parameters on device: 1.24e+09. Number of precise model parameters on device: 1.24e+09.",
    ]


def nemo_progress(rng: random.Random, n: int) -> list[str]:
    out = []
    loss = rng.uniform(7, 10)
    for i in range(1, n + 1):
        loss *= rng.uniform(0.94, 1.0)
        out.append(f"Epoch 0: :   {i}%|▏| {i * 100}/100000 [{i:02d}:{rng.randint(10, 59)}<{rng.randint(10, 99)}:{rng.randint(10, 59)}, reduced_train_loss={loss:.3f}, global_step={i * 100 - 1}.0, consumed_samples={i * 100 * 512}.0, train_step_timing in s={rng.uniform(1.1, 2.2):.3f}]")
    return out


# --------------------------------------------------------------------------- blocks


def tb(frames: list[tuple[str, int, str, str]], final: list[str] | str) -> list[str]:
    out = ["Traceback (most recent call last):"]
    for path, line, fn, code in frames:
        out.append(f'  File "{path}", line {line}, in {fn}')
        if code:
            out.append(f"    {code}")
    out.extend([final] if isinstance(final, str) else final)
    return out


def ranked(lines: list[str], rank: int) -> list[str]:
    return [f"[rank{rank}]: {x}" for x in lines]


def child_failed(rng: random.Random, script: str, root_rank: int, root_exit: int, root_tb: str, others: list[tuple[int, int, str]]) -> list[str]:
    host = rng.choice(["node01", "gpu-a100-07", "worker-3", "dgx-h100-12", "train-0"])
    ts = f"2026-05-01_10:{rng.randint(10, 59)}:{rng.randint(10, 59)}"
    pid = rng.randint(2000, 60000)
    out = [
        f"[2026-05-01 10:12:03,441] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: {root_exit}) local_rank: {root_rank} (pid: {pid}) of binary: /usr/bin/python3",
    ]
    out += tb(
        [
            ("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"),
            (f"{PY}/torch/distributed/elastic/multiprocessing/errors/__init__.py", 347, "wrapper", "return f(*args, **kwargs)"),
            (f"{PY}/torch/distributed/run.py", 812, "main", "run(args)"),
            (f"{PY}/torch/distributed/run.py", 803, "run", "elastic_launch("),
            (f"{PY}/torch/distributed/launcher/api.py", 135, "__call__", "return launch_agent(self._config, self._entrypoint, list(args))"),
            (f"{PY}/torch/distributed/launcher/api.py", 268, "launch_agent", "raise ChildFailedError("),
        ],
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
    )
    out += ["============================================================", f"{script} FAILED", "------------------------------------------------------------", "Failures:"]
    if not others:
        out.append("  <NO_OTHER_FAILURES>")
    for i, (rank, code, trace) in enumerate(others, start=1):
        out += [f"[{i}]:", f"  time      : {ts}", f"  host      : {host}", f"  rank      : {rank} (local_rank: {rank})", f"  exitcode  : {code} (pid: {pid + rank})", "  error_file: <N/A>", f"  traceback : {trace}"]
    out += ["------------------------------------------------------------", "Root Cause (first observed failure):", "[0]:", f"  time      : {ts}", f"  host      : {host}", f"  rank      : {root_rank} (local_rank: {root_rank})", f"  exitcode  : {root_exit} (pid: {pid})", "  error_file: <N/A>", f"  traceback : {root_tb}", "============================================================"]
    return out


TB_HINT = "To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html"


def sigterm_others(rng: random.Random, ranks: list[int]) -> list[str]:
    pid = rng.randint(3000, 60000)
    return [f"W0501 10:12:02.{rng.randint(100000, 999999)} 139881 torch/distributed/elastic/multiprocessing/api.py:858] Sending process {pid + r} closing signal SIGTERM" for r in ranks]


def slurm_end(job: int, node: str, what: str, when: str = "2026-05-01T12:00:07") -> str:
    return f"slurmstepd: error: *** JOB {job} ON {node} CANCELLED AT {when} {what}***"


def sacct(job: int, state: str, code: str, elapsed: str = "04:00:12") -> list[str]:
    return [
        "JobID           JobName  Partition    Account  AllocCPUS      State ExitCode    Elapsed ",
        "------------ ---------- ---------- ---------- ---------- ---------- -------- ---------- ",
        f"{job:<12}   train.sh        gpu     mlteam         64 {state:>10}    {code:>5}   {elapsed} ",
        f"{job}.batch      batch                mlteam         64 {state:>10}    {code:>5}   {elapsed} ",
        f"{job}.0         python                mlteam         64 {state:>10}    {code:>5}   {elapsed} ",
    ]


def k8s_events(rows: list[tuple[str, str, str, str]], style: str = "table") -> list[str]:
    """rows: (type, reason, object, message)"""
    if style == "describe":
        out = ["Events:", "  Type     Reason     Age                From               Message", "  ----     ------     ----               ----               -------"]
        for i, (typ, reason, obj, msg) in enumerate(rows):
            out.append(f"  {typ:<8} {reason:<10} {max(1, 30 - i * 3)}m{'':<15} {obj:<18} {msg}")
        return out
    out = ["LAST SEEN   TYPE      REASON              OBJECT                        MESSAGE"]
    for i, (typ, reason, obj, msg) in enumerate(rows):
        out.append(f"{max(1, 40 - i * 4)}m         {typ:<9} {reason:<19} {obj:<29} {msg}")
    return out


def startup_generic(rng: random.Random) -> list[str]:
    return rng.choice([
        ["+ python -m pip list | grep -i torch", "torch                     2.3.1", "torchvision               0.18.1", "+ nvidia-smi -L", "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-3b2c1d7e-aa11-4f2e-9d0a-1c2b3d4e5f60)"],
        ["==> Starting job on $(hostname)", f"host={rng.choice(['node07', 'gpu-a100-02', 'dgx-14'])}", "CUDA_VISIBLE_DEVICES=0,1,2,3", "Python 3.10.12"],
        ["=============", "== PyTorch ==", "=============", "", "NVIDIA Release 24.03 (build 85286408)", "PyTorch Version 2.3.0a0+40ec155e58", "", "Container image Copyright (c) 2024, NVIDIA CORPORATION & AFFILIATES. All rights reserved.", "", "NOTE: The SHMEM allocation limit is set to the default of 64MB.  This may be", "   insufficient for PyTorch.  NVIDIA recommends the use of the following flags:", "   docker run --gpus all --ipc=host --ulimit memlock=-1 --ulimit stack=67108864 ..."],
        [f"[setup] downloading dataset shard list (attempt 1)", "[setup] 128 shards", "[setup] seed=42 world_size=8"],
        [],
    ])


# --------------------------------------------------------------------------- the cases


def gpu_oom_cases(rng: random.Random) -> list[Case]:
    cases = []
    # 1 plain HF Trainer, torch 2.x message
    lines = startup_generic(rng) + some_weights_warning(rng) + some_warnings(rng, 3) + hf_progress(rng, rng.randint(3, 12), 3000)
    lines += tb(
        [("/workspace/run_glue.py", 642, "<module>", "main()"), ("/workspace/run_glue.py", 561, "main", "train_result = trainer.train(resume_from_checkpoint=checkpoint)"), (f"{PY}/transformers/trainer.py", 1938, "train", "return inner_training_loop("), (f"{PY}/transformers/trainer.py", 2279, "_inner_training_loop", "tr_loss_step = self.training_step(model, inputs)"), (f"{PY}/torch/nn/modules/module.py", 1532, "_wrapped_call_impl", "return self._call_impl(*args, **kwargs)"), (f"{PY}/torch/nn/functional.py", 1888, "softmax", "ret = input.softmax(dim)")],
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {rng.choice(['1.50', '3.91', '768.00 MiB', '12.00'])} GiB. GPU 0 has a total capacity of 79.14 GiB of which 1.02 GiB is free. Process 4141 has 78.11 GiB memory in use. Of the allocated memory 74.43 GiB is allocated by PyTorch, and 2.85 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
    )
    cases.append(Case("gpu_oom", "HF Trainer, torch 2.x OutOfMemoryError", apply(lines, prefixer(rng.choice(["plain", "osmo"]), rng))))
    # 2 old-style RuntimeError, plain script
    lines = startup_generic(rng) + [f"epoch 0 iter {i} loss {rng.uniform(1, 3):.3f}" for i in range(0, 400, 50)]
    lines += tb([("train.py", 88, "<module>", "out = model(x)"), (f"{PY}/torch/nn/modules/conv.py", 456, "_conv_forward", "return F.conv2d(input, weight, bias, self.stride,")], "RuntimeError: CUDA out of memory. Tried to allocate 256.00 MiB (GPU 0; 15.78 GiB total capacity; 14.21 GiB already allocated; 101.19 MiB free; 14.60 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF")
    cases.append(Case("gpu_oom", "old-style CUDA OOM RuntimeError", lines))
    # 3 JAX RESOURCE_EXHAUSTED
    lines = jax_start(rng) + jax_progress(rng, rng.randint(2, 8))
    lines += [
        "2026-05-01 10:22:31.227815: W external/xla/xla/tsl/framework/bfc_allocator.cc:482] Allocator (GPU_0_bfc) ran out of memory trying to allocate 32.00GiB (rounded to 34359738368)requested by op ",
        "2026-05-01 10:22:31.228001: W external/xla/xla/tsl/framework/bfc_allocator.cc:494] ****************************************************************************************************",
        "E0501 10:22:31.228100 140213 pjrt_stream_executor_client.cc:2826] Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 34359738368 bytes.",
    ]
    lines += tb([("/app/train.py", 301, "<module>", "app.run(main)"), ("/app/train.py", 244, "main", "state, metrics = p_train_step(state, batch)")], ["jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 34359738368 bytes.", "--------------------", "For simplicity, JAX has removed its internal frames from the traceback of the following exception. Set JAX_TRACEBACK_FILTERING=off to include these."])
    cases.append(Case("gpu_oom", "JAX XLA RESOURCE_EXHAUSTED", lines))
    # 4 TF ResourceExhaustedError
    lines = tf_start(rng) + keras_progress(rng, 1)[:3]
    lines += [
        "2026-05-01 10:03:12.117020: W tensorflow/core/common_runtime/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran out of memory trying to allocate 1.00GiB (rounded to 1073741824)requested by op model/dense_3/MatMul",
        "If the cause is memory fragmentation maybe the environment variable 'TF_GPU_ALLOCATOR=cuda_malloc_async' will improve the situation. ",
        "2026-05-01 10:03:12.117551: W tensorflow/core/framework/op_kernel.cc:1828] OP_REQUIRES failed at matmul_op_impl.h:627 : RESOURCE_EXHAUSTED: OOM when allocating tensor with shape[65536,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc",
    ]
    lines += tb([("/src/train_keras.py", 77, "<module>", "model.fit(ds, epochs=10, validation_data=val_ds)"), (f"{PY}/keras/src/utils/traceback_utils.py", 70, "error_handler", "raise e.with_traceback(filtered_tb) from None")], ["tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:", "", "OOM when allocating tensor with shape[65536,4096] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc", "\t [[{{node model/dense_3/MatMul}}]]", "Hint: If you want to see a list of allocated tensors when OOM happens, add report_tensor_allocations_upon_oom to RunOptions for current allocation info. This isn't available when running in Eager mode.", " [Op:__inference_train_function_8841]"])
    cases.append(Case("gpu_oom", "TF/Keras ResourceExhaustedError", lines))
    # 5 tricky: OOM on rank 2, then NCCL watchdog timeouts on others, ChildFailedError
    lines = torchrun_start(rng, 4) + nccl_init(rng, ranks=4) + some_warnings(rng, 2)
    lines += [f"[rank0]: step {s} | loss {rng.uniform(2, 3):.4f} | tok/s {rng.randint(90000, 120000)}" for s in range(0, 200, 20)]
    lines += ranked(tb([("/workspace/pretrain.py", 311, "<module>", "train()"), ("/workspace/pretrain.py", 260, "train", "loss.backward()"), (f"{PY}/torch/autograd/__init__.py", 266, "backward", "Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass")], "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 2 has a total capacity of 79.15 GiB of which 2.31 GiB is free. Including non-PyTorch memory, this process has 76.83 GiB memory in use. Of the allocated memory 70.02 GiB is allocated by PyTorch, and 5.12 GiB is reserved by PyTorch but unallocated."), 2)
    for r in (0, 1, 3):
        lines.append(f"[rank{r}]:[E501 10:42:11.{rng.randint(100000, 999999)} ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=4412, OpType=ALLREDUCE, NumelIn=262144000, NumelOut=262144000, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.")
    lines += [f"[rank1]:[E501 10:42:11.733 ProcessGroupNCCL.cpp:1664] [PG 0 Rank 1] Exception (either an error or timeout) detected by watchdog at work: 4412, last enqueued NCCL work: 4412, last completed NCCL work: 4411.", "[rank1]:[E501 10:42:11.733 ProcessGroupNCCL.cpp:621] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.", "[rank1]:[E501 10:42:11.734 ProcessGroupNCCL.cpp:627] [Rank 1] To avoid data inconsistency, we are taking the entire process down."]
    lines += sigterm_others(rng, [0, 1, 3])
    lines += child_failed(rng, "pretrain.py", 2, 1, TB_HINT, [(1, -6, "Signal 6 (SIGABRT) received by PID 4402"), (3, -6, "Signal 6 (SIGABRT) received by PID 4404")])
    cases.append(Case("gpu_oom", "TRICKY: root OOM on rank2, later NCCL watchdog timeouts + SIGABRT + ChildFailedError", apply(lines, prefixer("iso", rng))))
    # 6 DeepSpeed ZeRO-3 OOM in a long log
    lines = deepspeed_start(rng) + ds_steps(rng, rng.randint(20, 60))
    lines += ["[2026-05-01 10:55:02,112] [WARNING] [stage3.py:2069:step] 3 pytorch allocator cache flushes since last step. this happens when there is high memory pressure and is detrimental to performance. if this is happening frequently consider adjusting settings to reduce memory consumption. If you are unable to make the cache flushes go away consider adding get_accelerator().empty_cache() calls in your training loop to ensure that all ranks flush their caches at the same time"]
    lines += tb([("train.py", 190, "<module>", "model_engine.backward(loss)"), (f"{PY}/deepspeed/runtime/engine.py", 1976, "backward", "self.optimizer.backward(loss, retain_graph=retain_graph)"), (f"{PY}/deepspeed/runtime/zero/stage3.py", 2213, "backward", "self.loss_scaler.backward(loss.float(), retain_graph=retain_graph)")], "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 5.86 GiB. GPU 3 has a total capacity of 79.11 GiB of which 3.06 GiB is free. Process 18811 has 76.04 GiB memory in use.")
    lines += ["[2026-05-01 10:55:09,881] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 18808", "[2026-05-01 10:55:09,881] [INFO] [launch.py:319:sigkill_handler] Killing subprocess 18809", "[2026-05-01 10:55:10,402] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=3', '--deepspeed', 'ds_config.json'] exits with return code = 1"]
    cases.append(Case("gpu_oom", "DeepSpeed ZeRO-3 OOM after allocator-cache-flush warning; launcher 'Killing subprocess' noise", lines))
    # 7 Lightning OOM in validation, srun prefixes
    lines = lightning_start(rng, 4) + lightning_progress(rng, 0, 8)
    lines += ["Validation DataLoader 0:  31%|███       | 40/128 [00:07<00:16,  5.43it/s]"]
    lines += tb([("/code/main.py", 40, "<module>", "trainer.fit(model, datamodule=dm)"), (f"{PY}/lightning/pytorch/trainer/trainer.py", 544, "fit", "call._call_and_handle_interrupt("), (f"{PY}/lightning/pytorch/loops/evaluation_loop.py", 398, "_evaluation_step", "output = call._call_strategy_hook(trainer, hook_name, *step_args)")], "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.34 GiB. GPU 0 has a total capacity of 39.39 GiB of which 1.87 GiB is free.")
    lines += ["srun: error: gpu-a100-03: task 0: Exited with exit code 1", "srun: launch/slurm: _step_signal: Terminating StepId=771203.0", "slurmstepd: error: *** STEP 771203.0 ON gpu-a100-03 CANCELLED AT 2026-05-01T10:41:58 ***"]
    cases.append(Case("gpu_oom", "Lightning OOM during validation under srun; step cancel noise", apply(lines[:-3], prefixer("srun0", rng)) + lines[-3:]))
    # 8 Megatron / NeMo: CUBLAS alloc failure style plus OOM
    lines = nemo_start(rng) + nemo_progress(rng, rng.randint(3, 9))
    lines += tb([("/opt/NeMo/examples/nlp/language_modeling/megatron_gpt_pretraining.py", 42, "main", "trainer.fit(model)"), (f"{PY}/megatron/core/pipeline_parallel/schedules.py", 1304, "forward_backward_pipelining_without_interleaving", "output_tensor, num_tokens = forward_step(")], "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.00 GiB. GPU 5 has a total capacity of 79.10 GiB of which 7.88 GiB is free. Including non-PyTorch memory, this process has 71.21 GiB memory in use.")
    lines += ["", "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    cases.append(Case("gpu_oom", "NeMo Megatron GPT OOM, Hydra trailer", apply(lines, prefixer("osmo", rng))))
    # 9 CUDA error: out of memory (not the allocator message) in inference
    lines = startup_generic(rng) + [f"[infer] batch {i}/512 done" for i in range(1, 40, 3)]
    lines += tb([("/app/infer.py", 55, "run", "logits = model.generate(**inputs, max_new_tokens=1024)")], ["RuntimeError: CUDA error: out of memory", "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.", "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.", "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."])
    cases.append(Case("gpu_oom", "'CUDA error: out of memory' form", apply(lines, prefixer("bracket", rng))))
    return cases


def host_oom_cases(rng: random.Random) -> list[Case]:
    cases = []
    # 1 k8s OOMKilled pod status
    lines = [
        "Name:             train-llm-0",
        "Namespace:        research",
        "Status:           Failed",
        "Containers:",
        "  trainer:",
        "    Image:          nvcr.io/nvidia/pytorch:24.03-py3",
        "    State:          Terminated",
        "      Reason:       OOMKilled",
        "      Exit Code:    137",
        "      Started:      Fri, 01 May 2026 10:01:20 +0000",
        "      Finished:     Fri, 01 May 2026 10:44:02 +0000",
        "    Last State:     Terminated",
        "      Reason:       OOMKilled",
        "      Exit Code:    137",
        "    Restart Count:  2",
        "    Limits:",
        "      memory:          64Gi",
        "      nvidia.com/gpu:  8",
    ] + k8s_events([("Normal", "Pulled", "kubelet", 'Container image "nvcr.io/nvidia/pytorch:24.03-py3" already present on machine'), ("Normal", "Started", "kubelet", "Started container trainer"), ("Warning", "BackOff", "kubelet", "Back-off restarting failed container trainer in pod train-llm-0_research(4c1e...)")], "describe")
    cases.append(Case("host_oom", "kubectl describe: OOMKilled exit 137", lines))
    # 2 Slurm oom-kill event with torchrun SIGKILL and trailing leaked semaphore warnings (tricky)
    lines = startup_generic(rng) + torchrun_start(rng, 8) + some_warnings(rng, 2)
    lines += [f"[rank0] epoch 1 step {s}: loss={rng.uniform(0.5, 1.2):.4f}" for s in range(0, 300, 25)]
    lines += sigterm_others(rng, [0, 1, 2, 3, 5, 6, 7])
    lines += child_failed(rng, "train.py", 4, -9, "Signal 9 (SIGKILL) received by PID 90112", [])
    lines += ["srun: error: node14: task 0: Exited with exit code 1", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=4411782.0. Some of your processes may have been killed by the cgroup out-of-memory handler."]
    lines += [f"/usr/lib/python3.10/multiprocessing/resource_tracker.py:224: UserWarning: resource_tracker: There appear to be {rng.randint(3, 20)} leaked semaphore objects to clean up at shutdown", "  warnings.warn('resource_tracker: There appear to be %d '"] * 2
    cases.append(Case("host_oom", "TRICKY: torchrun SIGKILL confirmed by Slurm oom-kill event; trailing leaked-semaphore warnings", lines))
    # 3 numpy MemoryError
    lines = [f"Loading shard {i}/64 ..." for i in range(1, 18)]
    lines += tb([("preprocess.py", 141, "<module>", "feats = np.concatenate(all_feats, axis=0)"), ("<__array_function__ internals>", 200, "concatenate", "")], "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 187. GiB for an array with shape (48828125, 1024) and data type float32")
    cases.append(Case("host_oom", "numpy _ArrayMemoryError on host", apply(lines, prefixer("osmo", rng, "preprocess"))))
    # 4 DataLoader worker killed by signal Killed + dmesg
    lines = hf_progress(rng, 6, 5000)
    lines += tb([(f"{PY}/torch/utils/data/dataloader.py", 1133, "_try_get_data", "data = self._data_queue.get(timeout=timeout)"), ("/usr/lib/python3.10/multiprocessing/queues.py", 113, "get", "if not self._poll(timeout):"), (f"{PY}/torch/utils/data/_utils/signal_handling.py", 66, "handler", "_error_if_any_worker_fails()")], "RuntimeError: DataLoader worker (pid 30127) is killed by signal: Killed. ")
    lines += ["", "The above exception was the direct cause of the following exception:", ""]
    lines += tb([("train.py", 120, "<module>", "for batch in loader:"), (f"{PY}/torch/utils/data/dataloader.py", 1146, "_try_get_data", "raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e")], "RuntimeError: DataLoader worker (pid(s) 30127) exited unexpectedly")
    lines += ["[ 8812.441201] Memory cgroup out of memory: Killed process 30127 (pt_data_worker) total-vm:71234560kB, anon-rss:60123456kB, file-rss:10240kB, shmem-rss:0kB, UID:1000 pgtables:118000kB oom_score_adj:0"]
    cases.append(Case("host_oom", "DataLoader worker killed + kernel OOM line", lines))
    # 5 k8s eviction, node memory pressure with container over request
    lines = ["$ kubectl get pod finetune-7f9c -o wide", "NAME            READY   STATUS    RESTARTS   AGE   IP           NODE", "finetune-7f9c   0/1     Evicted   0          2h    <none>       gpu-node-4", "", "$ kubectl describe pod finetune-7f9c | tail -n 12", "Status:           Failed", "Reason:           Evicted", "Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 48212Ki. Container finetune was using 118523912Ki, request is 32Gi, has larger consumption of memory. "]
    lines += k8s_events([("Warning", "Evicted", "kubelet", "The node was low on resource: memory. Threshold quantity: 100Mi, available: 48212Ki. Container finetune was using 118523912Ki, request is 32Gi, has larger consumption of memory. "), ("Normal", "Killing", "kubelet", "Stopping container finetune")], "describe")
    cases.append(Case("host_oom", "k8s Evicted for node memory pressure; container far above its request (debatable: could be called preempted/infra)", lines))
    # 6 OSMO events OOMKilling
    lines = [f"2026-05-01T09:01:{10 + i}Z  Normal   {r}" for i, r in enumerate(["Scheduled    Pod assigned to node osmo-h100-3", "Pulled       Container image already present on machine", "Started      Started container ctrl", "Started      Started container user"])]
    lines += ["2026-05-01T09:41:55Z  Warning  OOMKilling   Memory cgroup out of memory: Killed process 812 (python3) total-vm:402113212kB, anon-rss:133121300kB", "2026-05-01T09:41:56Z  Warning  Failed       Task user exited with code 137", "2026-05-01T09:41:57Z  Normal   Killing      Stopping container ctrl"]
    cases.append(Case("host_oom", "OSMO/k8s event stream with OOMKilling", lines))
    # 7 plain 'Killed' from shell with exit 137 and sacct OUT_OF_MEMORY
    lines = [f"tokenizing {i * 1000000} docs" for i in range(1, 9)] + ["/var/spool/slurmd/job5512093/slurm_script: line 22: 118822 Killed                  python tokenize_corpus.py --workers 64", "slurmstepd: error: Detected 3 oom-kill event(s) in StepId=5512093.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.", ""] + sacct(5512093, "OUT_OF_MEMORY", "0:125", "01:12:40")
    cases.append(Case("host_oom", "Slurm batch Killed + OUT_OF_MEMORY in sacct", lines))
    # 8 python MemoryError plain
    lines = startup_generic(rng) + ["Building vocabulary...", "Reading 1.2B tokens"] + tb([("build_vocab.py", 33, "<module>", "counts = Counter(tok for line in f for tok in line.split())")], "MemoryError")
    cases.append(Case("host_oom", "bare MemoryError", apply(lines, prefixer("bracket", rng))))
    return cases


def nccl_cases(rng: random.Random) -> list[Case]:
    cases = []
    # 1 watchdog timeout alone (no OOM), ranks hang in allreduce
    lines = torchrun_start(rng, 8) + nccl_init(rng) + [f"[rank0]: it {i} loss {rng.uniform(2, 4):.3f}" for i in range(0, 1000, 100)]
    for r in range(8):
        if r == 5:
            continue
        lines.append(f"[rank{r}]:[E501 11:{r:02d}:44.120 ProcessGroupNCCL.cpp:607] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=90211, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800087 milliseconds before timing out.")
    lines += ["[rank0]:[E501 11:00:44.120 ProcessGroupNCCL.cpp:1316] [PG 0 Rank 0] Process group watchdog thread terminated with exception: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=90211, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800087 milliseconds before timing out.", "terminate called after throwing an instance of 'c10::DistBackendError'"]
    lines += child_failed(rng, "train.py", 0, -6, "Signal 6 (SIGABRT) received by PID 7711", [(1, -6, "Signal 6 (SIGABRT) received by PID 7712")])
    cases.append(Case("nccl_or_distributed", "watchdog collective timeout with no other root error (debatable: a silent hang on rank 5)", lines))
    # 2 unhandled system error
    lines = nccl_init(rng, "gpu-07") + tb([("/workspace/train.py", 51, "setup", "dist.barrier()"), (f"{PY}/torch/distributed/c10d_logger.py", 75, "wrapper", "return func(*args, **kwargs)"), (f"{PY}/torch/distributed/distributed_c10d.py", 3683, "barrier", "work = default_pg.barrier(opts=opts)")], ["torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1970, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3", "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. ", "Last error:", "socketStartConnect: Connect to 10.0.3.18<47533> failed : Software caused connection abort"])
    cases.append(Case("nccl_or_distributed", "NCCL unhandled system error at barrier", apply(lines, prefixer("osmo", rng))))
    # 3 rendezvous timeout (multi-node)
    lines = ["[2026-05-01 10:00:01,001] torch.distributed.run: [WARNING] master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified.", "INFO:torch.distributed.elastic.agent.server.api:[default] starting workers for entrypoint: python", "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous'ing worker group"]
    lines += tb([("/usr/local/bin/torchrun", 8, "<module>", "sys.exit(main())"), (f"{PY}/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", 1102, "next_rendezvous", "self._op_executor.run(join_op, deadline, self._get_deadline)"), (f"{PY}/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", 660, "run", "raise RendezvousTimeoutError")], "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError: ")
    cases.append(Case("nccl_or_distributed", "elastic RendezvousTimeoutError (other node never joined)", lines))
    # 4 DistStoreError clients join timeout
    lines = startup_generic(rng) + tb([("train.py", 30, "<module>", 'dist.init_process_group("nccl")'), (f"{PY}/torch/distributed/rendezvous.py", 258, "_env_rendezvous_handler", "store = _create_c10d_store(master_addr, master_port, rank, world_size, timeout, use_libuv)")], "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined.")
    cases.append(Case("nccl_or_distributed", "TCPStore DistStoreError at init", apply(lines, prefixer("srun0", rng))))
    # 5 NCCL remote error / connection closed by peer in the middle (IB)
    lines = megatron_progress(rng, 12) + [
        "dgx-h100-22:88121:88502 [3] transport/net_ib.cc:1696 NCCL WARN NET/IB : Got completion from peer 10.12.4.31<48811> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 vendor err 129 (Recv) localGid fe80::a288:c203:3a:f1e2 remoteGids fe80::a288:c203:3a:e211 hca mlx5_3",
        "dgx-h100-22:88121:88502 [3] NCCL INFO transport/net.cc:1302 -> 6",
        "dgx-h100-22:88121:88502 [3] NCCL INFO proxy.cc:698 -> 6",
        "dgx-h100-22:88121:88502 [3] NCCL INFO proxy.cc:878 -> 6 [Progress Thread]",
        "[rank3]:[E501 12:10:01.555 ProcessGroupNCCL.cpp:1316] [PG 0 Rank 3] Process group watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.20.5",
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        "Last error:",
        "NET/IB : Got completion from peer 10.12.4.31<48811> with status=IBV_WC_RETRY_EXC_ERR(12) opcode=0 len=0 vendor err 129 (Recv)",
        "terminate called after throwing an instance of 'c10::DistBackendError'",
        "srun: error: dgx-h100-22: task 3: Aborted (core dumped)",
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
    ]
    cases.append(Case("nccl_or_distributed", "IB transport failure -> ncclRemoteError, Megatron log", lines))
    # 6 c10d store connection reset
    lines = lightning_start(rng, 8)[:10] + ranked(tb([("main.py", 12, "<module>", "trainer.fit(model)"), (f"{PY}/torch/distributed/distributed_c10d.py", 2326, "broadcast", "work = default_pg.broadcast([tensor], opts)")], ["torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Connection reset by peer", "Exception raised from recvBytes at ../torch/csrc/distributed/c10d/Utils.hpp:672 (most recent call first):"]), 3)
    cases.append(Case("nccl_or_distributed", "c10d store connection reset at communicator setup", lines))
    # 7 heartbeat monitor / watchdog stuck
    lines = deepspeed_start(rng) + ds_steps(rng, 8) + ["[rank0]:[E501 14:31:10.221 ProcessGroupNCCL.cpp:1418] [PG 0 Rank 0] Heartbeat monitor timed out! Process will be terminated after dumping debug info. workMetaList_.size()=2", "[rank0]:[E501 14:31:10.221 ProcessGroupNCCL.cpp:1258] [PG 0 Rank 0] ProcessGroupNCCL's watchdog got stuck for 480 seconds without making progress in monitoring enqueued collectives. This typically indicates a NCCL/CUDA API hang blocking the watchdog, and could be triggered by another thread holding the GIL inside a CUDA api, or other deadlock-prone behaviors.If you suspect the watchdog is not actually stuck and a longer timeout would help, you can either increase the timeout (TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC) to a larger value or disable the heartbeat monitor (TORCH_NCCL_ENABLE_MONITORING=0).If either of aforementioned helps, feel free to file an issue to PyTorch about the short timeout or library bug.", "[2026-05-01 14:31:20,001] [ERROR] [launch.py:325:sigkill_handler] ['/usr/bin/python3', '-u', 'train.py', '--local_rank=0'] exits with return code = -6"]
    cases.append(Case("nccl_or_distributed", "heartbeat monitor / watchdog stuck", lines))
    return cases


def missing_dep_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + tb([("/workspace/train.py", 9, "<module>", "from flash_attn import flash_attn_func")], "ModuleNotFoundError: No module named 'flash_attn'")
    cases.append(Case("missing_dependency", "ModuleNotFoundError flash_attn", apply(lines, prefixer("osmo", rng))))
    lines = ["Starting data conversion", "Reading manifest from /osmo/input/0/manifest.json", f"Found {rng.randint(1000, 9000)} records to convert", "bash: line 1: jq: command not found", "Exit code: 127"]
    cases.append(Case("missing_dependency", "bash jq not found, exit 127", apply(lines, prefixer("bracket", rng))))
    lines = ["+ accelerate launch --num_processes 8 train.py", "/bin/sh: 1: accelerate: not found"]
    cases.append(Case("missing_dependency", "sh '<cmd>: not found' (dash wording)", apply(lines, prefixer("iso", rng))))
    lines = some_warnings(rng, 1) + tb([("run_clm.py", 58, "<module>", "from transformers import Trainer, TrainingArguments"), (f"{PY}/transformers/utils/import_utils.py", 1535, "__getattr__", "module = self._get_module(self._class_to_module[name])"), (f"{PY}/transformers/training_args.py", 1920, "_setup_devices", "raise ImportError(")], "ImportError: Using the `Trainer` with `PyTorch` requires `accelerate>=0.26.0`: Please run `pip install transformers[torch]` or `pip install 'accelerate>=0.26.0'`")
    cases.append(Case("missing_dependency", "HF ImportError requiring accelerate", lines))
    lines = tf_start(rng)[:3] + tb([("serve.py", 3, "<module>", "import cv2"), (f"{PY}/cv2/__init__.py", 181, "<module>", "bootstrap()"), (f"{PY}/cv2/__init__.py", 153, "bootstrap", "native_module = importlib.import_module(\"cv2\")")], "ImportError: libGL.so.1: cannot open shared object file: No such file or directory")
    cases.append(Case("missing_dependency", "TRICKY: missing system lib libGL (says 'No such file or directory' but it's a dependency)", lines))
    lines = ["Collecting deps from requirements.txt", "+ python -c 'import apex'"] + tb([("<string>", 1, "<module>", "")], "ModuleNotFoundError: No module named 'apex'") + ["+ echo 'apex missing'", "apex missing", "task exited with code 1"]
    cases.append(Case("missing_dependency", "apex module missing, short", lines))
    lines = ["/entrypoint.sh: line 14: nvcc: command not found", "/entrypoint.sh: line 15: ninja: command not found", "Building extension failed"]
    cases.append(Case("missing_dependency", "multiple command not found", lines))
    lines = startup_generic(rng) + some_warnings(rng, 2) + tb([("/workspace/eval.py", 4, "<module>", "import evaluate"), (f"{PY}/evaluate/__init__.py", 29, "<module>", "from .evaluation_suite import EvaluationSuite"), (f"{PY}/evaluate/loading.py", 31, "<module>", "from datasets import DownloadConfig, DownloadMode")], "ImportError: cannot import name 'DownloadConfig' from 'datasets' (unknown location)")
    cases.append(Case("missing_dependency", "ImportError: cannot import name (broken/incompatible package) - debatable vs user_code_error", apply(lines, prefixer("osmo", rng, "eval"))))
    return cases


def file_not_found_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + some_warnings(rng, 3) + tb([("/workspace/train.py", 77, "<module>", "ds = load_jsonl(args.train_file)"), ("/workspace/data.py", 12, "load_jsonl", 'with open(path) as f:')], "FileNotFoundError: [Errno 2] No such file or directory: '/data/sft/train_v3.jsonl'")
    cases.append(Case("file_not_found", "FileNotFoundError on training data, FutureWarnings before", apply(lines, prefixer("osmo", rng))))
    lines = ["python: can't open file '/workspace/scripts/pretrain.py': [Errno 2] No such file or directory"]
    cases.append(Case("file_not_found", "python can't open file", apply(lines, prefixer("iso", rng))))
    lines = some_warnings(rng, 1) + tb([("train.py", 40, "<module>", 'ds = load_dataset("parquet", data_files={"train": "/mnt/lake/tokens/train-*.parquet"})'), (f"{PY}/datasets/load.py", 2594, "load_dataset", "builder_instance = load_dataset_builder("), (f"{PY}/datasets/data_files.py", 407, "resolve_pattern", "raise FileNotFoundError(error_msg)")], "FileNotFoundError: Unable to find '/mnt/lake/tokens/train-*.parquet'")
    cases.append(Case("file_not_found", "HF datasets unable to find data files", lines))
    lines = lightning_start(rng, 1)[:6] + tb([("fit.py", 88, "<module>", "trainer.fit(model, ckpt_path=args.resume)"), (f"{PY}/lightning/fabric/utilities/cloud_io.py", 57, "_load", "with fs.open(path_or_url, \"rb\") as f:"), (f"{PY}/fsspec/implementations/local.py", 367, "_open", "self.f = open(self.path, mode=self.mode)")], "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/run-14/last.ckpt'")
    cases.append(Case("file_not_found", "Lightning resume checkpoint missing", lines))
    # tricky: misleading warning about missing optional file before real error
    lines = ["2026-05-01 10:00:01 WARNING  config.py:21  optional file ./local_overrides.yaml not found, using defaults"] + tb([("/app/main.py", 18, "<module>", "weights = torch.load(cfg.init_weights, map_location='cpu')"), (f"{PY}/torch/serialization.py", 997, "load", "with _open_file_like(f, 'rb') as opened_file:"), (f"{PY}/torch/serialization.py", 444, "__init__", "super().__init__(open(name, mode))")], "FileNotFoundError: [Errno 2] No such file or directory: '/models/init/resnet50_imagenet.pth'")
    cases.append(Case("file_not_found", "torch.load missing weights after a harmless 'not found' warning", lines))
    lines = ["cp: cannot stat '/input/0/config.yaml': No such file or directory", "Task exited with code 1"]
    cases.append(Case("file_not_found", "cp cannot stat", apply(lines, prefixer("osmo", rng, "prep"))))
    return cases


def nan_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + hf_progress(rng, 14, 4000, nan_from=9) + tb([("train.py", 301, "<module>", "main()"), ("train.py", 280, "main", 'raise ValueError(f"Loss is NaN at step {step}, stopping")')], "ValueError: Loss is NaN at step 140, stopping")
    cases.append(Case("nan_loss", "HF dict lines with nan then user guard raises", lines))
    lines = deepspeed_start(rng) + ds_steps(rng, 10)
    scale = 65536
    i = 0
    while scale > 1:
        lines.append(ds_overflow(i % 8, scale))
        scale //= 2
        i += 1
    lines += tb([("train.py", 160, "<module>", "model_engine.step()"), (f"{PY}/deepspeed/runtime/fp16/loss_scaler.py", 177, "update_scale", 'raise Exception(')], "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.")
    cases.append(Case("nan_loss", "DeepSpeed overflow until min loss scale", lines))
    lines = lightning_start(rng, 2) + lightning_progress(rng, 0, 10) + lightning_progress(rng, 1, 10, nan=True) + ["Monitored metric train_loss = nan is not finite. Previous best value was 0.412. Signaling Trainer to stop.", "`Trainer.fit` stopped: Monitored metric is not finite."]
    cases.append(Case("nan_loss", "TRICKY: Lightning EarlyStopping stops on non-finite loss (process exits 0)", apply(lines, prefixer("osmo", rng))))
    lines = megatron_progress(rng, 15, nan_from=11) + tb([("pretrain_gpt.py", 240, "<module>", "pretrain(train_valid_test_datasets_provider,"), ("megatron/training/training.py", 1240, "train_step", "")], "AssertionError: found NaN in local grad norm in backward pass before data-parallel communication collective. Device: 0, node: dgx-31")
    cases.append(Case("nan_loss", "Megatron NaN iterations then grad norm NaN assertion", lines))
    lines = jax_progress(rng, 6) + ["I0501 11:02:09.431 140213 train.py:211] [700] train/loss=nan, train/learning_rate=3.00e-04, train/grad_norm=nan, steps_per_sec=4.221", "E0501 11:02:09.431 140213 train.py:230] Non-finite loss detected at step 700; aborting."]
    cases.append(Case("nan_loss", "JAX non-finite loss abort", lines))
    lines = keras_progress(rng, 2) + ["Epoch 3/10", " 412/1875 [=====>........................] - ETA: 51s - loss: nan - accuracy: 0.0998", "Batch 412: Invalid loss, terminating training", " 413/1875 [=====>........................] - ETA: 51s - loss: nan - accuracy: 0.0997"]
    cases.append(Case("nan_loss", "Keras TerminateOnNaN", lines))
    return cases


def image_pull_cases(rng: random.Random) -> list[Case]:
    cases = []
    img = rng.choice(["nvcr.io/nvidia/pytorch:24.13-py3", "ghcr.io/acme/trainer:v2.3.1", "myregistry.azurecr.io/llm/finetune:latest"])
    lines = k8s_events([("Normal", "Scheduled", "pod/train-0", "Successfully assigned ml/train-0 to gpu-node-2"), ("Normal", "Pulling", "pod/train-0", f'Pulling image "{img}"'), ("Warning", "Failed", "pod/train-0", f'Failed to pull image "{img}": rpc error: code = NotFound desc = failed to pull and unpack image "{img}": failed to resolve reference "{img}": {img}: not found'), ("Warning", "Failed", "pod/train-0", "Error: ErrImagePull"), ("Normal", "BackOff", "pod/train-0", f'Back-off pulling image "{img}"'), ("Warning", "Failed", "pod/train-0", "Error: ImagePullBackOff")])
    cases.append(Case("image_pull", "k8s image tag not found", lines))
    lines = ["Status: PENDING", "Task train: ImagePullBackOff", 'Warning  Failed     3m (x4 over 5m)  kubelet  Failed to pull image "acme/private-trainer:1.4": rpc error: code = Unknown desc = Error response from daemon: pull access denied for acme/private-trainer, repository does not exist or may require \'docker login\': denied: requested access to the resource is denied']
    cases.append(Case("image_pull", "TRICKY: pull access denied (auth wording but it's an image pull)", lines))
    lines = ["pyxis: importing docker image: nvcr.io#nvidia/nemo:24.07", "pyxis: imported docker image: nvcr.io#nvidia/nemo:24.07"] if False else ["pyxis: importing docker image: nvcr.io#nvidia/nemo:24.17", "slurmstepd: error: pyxis: child 221823 failed with error code: 1", "slurmstepd: error: pyxis: failed to import docker image", "slurmstepd: error: pyxis: printing enroot log file:", "slurmstepd: error: pyxis:     [INFO] Querying registry for permission grant", "slurmstepd: error: pyxis:     [INFO] Authenticating with user: $oauthtoken", "slurmstepd: error: pyxis:     [INFO] Authentication succeeded", "slurmstepd: error: pyxis:     [INFO] Fetching image manifest list", "slurmstepd: error: pyxis:     [ERROR] URL https://nvcr.io/v2/nvidia/nemo/manifests/24.17 returned error code: 404 Not Found", "slurmstepd: error: pyxis: couldn't start container", "slurmstepd: error: spank: required plugin spank_pyxis.so: task_init() failed with rc=-1", "slurmstepd: error: Failed to invoke spank plugin stack", "srun: error: node07: task 0: Exited with exit code 1"]
    cases.append(Case("image_pull", "Slurm pyxis/enroot manifest 404", lines))
    lines = [f"2026-05-01T08:00:{10 + i}Z  {t}" for i, t in enumerate(["Normal   Scheduled    Pod assigned to node osmo-a100-1", 'Normal   Pulling      Pulling image "nvcr.io/acme-org/sdg:0.9"', 'Warning  Failed       Failed to pull image "nvcr.io/acme-org/sdg:0.9": failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://nvcr.io/proxy_auth?scope=repository%3Aacme-org%2Fsdg%3Apull: 401 Unauthorized', "Warning  Failed       Error: ErrImagePull", 'Normal   BackOff      Back-off pulling image "nvcr.io/acme-org/sdg:0.9"', "Warning  Failed       Error: ImagePullBackOff"])]
    cases.append(Case("image_pull", "TRICKY: private registry 401 during pull (auth wording; still image_pull)", lines))
    lines = ["Waiting for pod default/eval-job-8xk2p to be running, status is Pending, pod ready: false", "Waiting for pod default/eval-job-8xk2p to be running, status is Pending, pod ready: false", "Error: container eval in pod eval-job-8xk2p is waiting to start: trying and failing to pull image"]
    cases.append(Case("image_pull", "kubectl wait: trying and failing to pull image", lines))
    return cases


def unschedulable_cases(rng: random.Random) -> list[Case]:
    cases = []
    n = rng.choice([4, 6, 8, 16])
    lines = k8s_events([("Warning", "FailedScheduling", "pod/pretrain-0", f"0/{n} nodes are available: {n} Insufficient nvidia.com/gpu. preemption: 0/{n} nodes are available: {n} No preemption victims found for incoming pod.")] * 4)
    cases.append(Case("unschedulable", "insufficient GPU", lines))
    lines = ["Status: PENDING (42m)", "2026-05-01T17:01:05Z  Warning  FailedScheduling  0/12 nodes are available: 4 node(s) had untolerated taint {nvidia.com/gpu: present}, 8 node(s) didn't match Pod's node affinity/selector. preemption: 0/12 nodes are available: 12 Preemption is not helpful for scheduling."]
    cases.append(Case("unschedulable", "taint + affinity", lines))
    lines = ["srun: job 883122 queued and waiting for resources", "srun: error: Unable to allocate resources: Requested node configuration is not available"]
    cases.append(Case("unschedulable", "Slurm node configuration not available", lines))
    lines = ["Warning  FailedScheduling  2m (x15 over 45m)  default-scheduler  0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 4 Insufficient memory. preemption: 0/5 nodes are available: 1 Preemption is not helpful for scheduling, 4 No preemption victims found for incoming pod.", "Warning  FailedScheduling  1m  default-scheduler  0/5 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling."]
    cases.append(Case("unschedulable", "insufficient memory + unbound PVC", lines))
    lines = [f"{'JOBID':>8} PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)", f"{rng.randint(100000, 999999):>8}       gpu llm-pret   alice PD       0:00     64 (PartitionNodeLimit)", "job still pending after 6h; giving up"]
    cases.append(Case("unschedulable", "squeue PartitionNodeLimit", lines))
    return cases


def timeout_cases(rng: random.Random) -> list[Case]:
    cases = []
    job = rng.randint(100000, 9999999)
    lines = startup_generic(rng) + hf_progress(rng, 20, 20000) + [slurm_end(job, "node03", "DUE TO TIME LIMIT "), "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", f"srun: got SIGCONT", "srun: forcing job termination", "srun: error: node03: task 0: Terminated"]
    cases.append(Case("timeout", "Slurm TIME LIMIT with srun terminate noise", lines))
    lines = k8s_events([("Normal", "SuccessfulCreate", "job/sweep-17", "Created pod: sweep-17-5xw2r"), ("Normal", "SuccessfulDelete", "job/sweep-17", "Deleted pod: sweep-17-5xw2r"), ("Warning", "DeadlineExceeded", "job/sweep-17", "Job was active longer than specified deadline")])
    cases.append(Case("timeout", "k8s Job DeadlineExceeded", lines))
    lines = [f"2026/05/01 12:0{i}:00 [train] step {i * 1000}/200000 loss={rng.uniform(1, 2):.3f}" for i in range(8)] + ["Workflow llm-ft-42 status: FAILED_EXEC_TIMEOUT", "Task train exceeded exec_timeout (4h0m0s) and was terminated"]
    cases.append(Case("timeout", "OSMO FAILED_EXEC_TIMEOUT", lines))
    lines = megatron_progress(rng, 30) + [" [after training is done] datetime: 2026-05-01 16:00:00 " if False else "", slurm_end(job + 1, "dgx-07", "DUE TO TIME LIMIT "), "slurmstepd: error: *** STEP {}.0 ON dgx-07 CANCELLED AT 2026-05-01T16:00:07 DUE TO TIME LIMIT ***".format(job + 1)] + sacct(job + 1, "TIMEOUT", "0:0", "04:00:18")
    cases.append(Case("timeout", "Megatron + sacct TIMEOUT", lines))
    lines = ["Epoch 0:  12%|█▏        | 1200/10000 [59:58<7:19:41,  0.33it/s, loss=2.13]", "Terminated", "timeout: sending signal TERM to command 'python'", "exit status 124"]
    cases.append(Case("timeout", "coreutils timeout 124", lines))
    return cases


def disk_full_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = hf_progress(rng, 10, 5000) + ["Saving model checkpoint to /scratch/out/checkpoint-1000"] + tb([("train.py", 210, "<module>", "trainer.train()"), (f"{PY}/transformers/trainer.py", 3215, "_save_checkpoint", "self._save_optimizer_and_scheduler(output_dir)"), (f"{PY}/torch/serialization.py", 628, "save", "_save(obj, opened_zipfile, pickle_module, pickle_protocol, _disable_byteorder_record)")], ["RuntimeError: [enforce fail at inline_container.cc:603] . unexpected pos 3511623744 vs 3511623632"]) + ["", "During handling of the above exception, another exception occurred:", ""] + tb([("train.py", 210, "<module>", "trainer.train()")], "OSError: [Errno 28] No space left on device")
    cases.append(Case("disk_full", "checkpoint save: enforce fail then Errno 28", lines))
    lines = ["Collecting torch==2.3.1", "  Downloading torch-2.3.1-cp310-cp310-manylinux1_x86_64.whl (779.1 MB)", "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 779.1/779.1 MB 88.2 MB/s eta 0:00:00", "Installing collected packages: nvidia-cudnn-cu12, torch", "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device", ""]
    cases.append(Case("disk_full", "TRICKY: pip install fails with ENOSPC (not a dependency problem)", apply(lines, prefixer("osmo", rng, "setup"))))
    lines = ["$ kubectl get pod data-prep-0", "NAME          READY   STATUS    RESTARTS   AGE", "data-prep-0   0/1     Evicted   0          3h", "Message:          Pod ephemeral local storage usage exceeds the total limit of containers 200Gi. "]
    cases.append(Case("disk_full", "TRICKY: eviction for ephemeral storage (disk, not memory)", lines))
    lines = jax_progress(rng, 4) + ["E0501 orbax/checkpoint/async_checkpointer.py:219] Checkpoint write failed", "OSError: [Errno 28] No space left on device: '/gcs-fuse/ckpt/step_4000.orbax-checkpoint-tmp-1714563600/state/d/0a1b'"]
    cases.append(Case("disk_full", "orbax checkpoint ENOSPC", lines))
    lines = ["tar: ./shard-00042.tar: Wrote only 4096 of 10240 bytes", "tar: Exiting with failure status due to previous errors", "write /var/lib/containerd/tmpmounts/containerd-mount1921/dataset/shard-00043.tar: no space left on device"]
    cases.append(Case("disk_full", "tar/containerd no space left", lines))
    return cases


def cuda_driver_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + tb([("train.py", 22, "<module>", "model.cuda()"), (f"{PY}/torch/cuda/__init__.py", 293, "_lazy_init", "torch._C._cuda_init()")], "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.")
    cases.append(Case("cuda_driver", "torch driver too old", lines))
    lines = tf_start(rng)[:2] + ["2026-05-01 10:00:02.512: E external/local_xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: system has unsupported display driver / cuda driver combination", "Num GPUs Available:  0", "RuntimeError: No GPU found but --require-gpu was set"]
    cases.append(Case("cuda_driver", "TF cuInit driver mismatch", lines))
    lines = ["+ nvidia-smi", "Failed to initialize NVML: Driver/library version mismatch", "NVML library version: 550.54"] + tb([("check.py", 4, "<module>", "assert torch.cuda.is_available()")], "AssertionError")
    cases.append(Case("cuda_driver", "TRICKY: NVML mismatch then AssertionError in user check", apply(lines, prefixer("osmo", rng))))
    lines = ["CUDA error: CUDA driver version is insufficient for CUDA runtime version", "cudaGetDeviceCount failed"]
    cases.append(Case("cuda_driver", "CUDA driver insufficient", apply(lines, prefixer("bracket", rng))))
    lines = jax_start(rng)[:2] + ["E0501 10:00:02.000 140213 cuda_dnn.cc:535] Loaded runtime CuDNN library: 8.6.0 but source was compiled with: 8.9.4.  CuDNN library needs to have matching major version and equal or higher minor version. If using a binary install, upgrade your CuDNN library.  If building from sources, make sure the library loaded at runtime is compatible with the version specified during compile configuration.", "jaxlib.xla_extension.XlaRuntimeError: FAILED_PRECONDITION: DNN library initialization failed. Look at the errors above for more details."]
    cases.append(Case("cuda_driver", "JAX cuDNN version mismatch (debatable: library/runtime mismatch, closest to cuda_driver)", lines))
    return cases


def device_assert_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = hf_progress(rng, 3, 2000) + [f"../aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: [{i},0,0] Assertion `t >= 0 && t < n_classes` failed." for i in range(5)] + tb([("train.py", 99, "<module>", "loss.backward()")], ["RuntimeError: CUDA error: device-side assert triggered", "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.", "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.", "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."])
    cases.append(Case("device_assert", "nll_loss target out of range", lines))
    lines = torchrun_start(rng, 4) + nccl_init(rng, ranks=4) + ranked([f"../aten/src/ATen/native/cuda/Indexing.cu:1289: indexSelectLargeIndex: block: [{i},0,0], thread: [96,0,0] Assertion `srcIndex < srcSelectDimSize` failed." for i in range(30, 36)], 1)
    lines += ranked(tb([("/workspace/train.py", 144, "<module>", "outputs = model(**batch)"), (f"{PY}/torch/nn/functional.py", 2264, "embedding", "return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)")], "RuntimeError: CUDA error: device-side assert triggered"), 1)
    lines += ["[rank0]:[E501 10:10:10.100 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600033 milliseconds before timing out."]
    lines += child_failed(rng, "train.py", 1, 1, TB_HINT, [(0, -6, "Signal 6 (SIGABRT) received by PID 5510")])
    cases.append(Case("device_assert", "TRICKY: embedding index assert on rank1, later NCCL timeout on rank0", lines))
    lines = ["terminate called after throwing an instance of 'c10::Error'", "  what():  CUDA error: device-side assert triggered", "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.", "", "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:43 (most recent call first):", "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f1a9c3b1897 in /usr/local/lib/python3.10/dist-packages/torch/lib/libc10.so)", "Aborted (core dumped)"]
    cases.append(Case("device_assert", "c10::Error device assert then abort", apply(lines, prefixer("osmo", rng))))
    return cases


def permission_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = hf_progress(rng, 4, 1000) + tb([("train.py", 230, "<module>", "trainer.save_model('/mnt/shared/models/exp12')"), (f"{PY}/transformers/trainer.py", 3402, "save_model", "os.makedirs(output_dir, exist_ok=True)"), ("/usr/lib/python3.10/os.py", 225, "makedirs", "mkdir(name, mode)")], "PermissionError: [Errno 13] Permission denied: '/mnt/shared/models/exp12'")
    cases.append(Case("permission_or_auth", "PermissionError on output dir", lines))
    lines = some_warnings(rng, 2) + tb([("ft.py", 12, "<module>", 'tok = AutoTokenizer.from_pretrained("meta-llama/Llama-2-7b-hf")'), (f"{PY}/huggingface_hub/utils/_http.py", 406, "hf_raise_for_status", "raise _format(GatedRepoError, message, response) from e")], ["huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-66321a2b-7c2a1d0e3b1f)", "", "Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json.", "Access to model meta-llama/Llama-2-7b-hf is restricted. You must have access to it and be authenticated to access it. Please log in."]) + ["", "The above exception was the direct cause of the following exception:", ""] + tb([("ft.py", 12, "<module>", "")], "OSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/meta-llama/Llama-2-7b-hf.\n401 Client Error. (Request ID: Root=1-66321a2b-7c2a1d0e3b1f)")
    cases.append(Case("permission_or_auth", "HF gated repo 401 (OSError wrapper mentions huggingface.co)", lines))
    lines = ["upload: 0%|          | 0/12 [00:00<?, ?file/s]"] + tb([("upload.py", 44, "<module>", "s3.upload_file(local, bucket, key)"), (f"{PY}/boto3/s3/transfer.py", 292, "upload_file", "raise S3UploadFailedError(")], "boto3.exceptions.S3UploadFailedError: Failed to upload /out/model.safetensors to team-bucket/exp12/model.safetensors: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied")
    cases.append(Case("permission_or_auth", "S3 AccessDenied", apply(lines, prefixer("osmo", rng, "upload"))))
    lines = ["wandb: Currently logged in as: anonymous. Use `wandb login --relogin` to force relogin", "wandb: ERROR Error while calling W&B API: user is not logged in (<Response [401]>)"] + tb([("train.py", 15, "<module>", "wandb.init(project='llm', entity='acme')"), (f"{PY}/wandb/sdk/wandb_init.py", 1195, "init", "raise e")], "wandb.errors.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])")
    cases.append(Case("permission_or_auth", "wandb not logged in", lines))
    lines = ["Error: failed to fetch workflow logs: 403 Forbidden: token expired, run `osmo login`"]
    cases.append(Case("permission_or_auth", "OSMO token expired", lines))
    lines = ["fatal: could not read Username for 'https://github.com': terminal prompts disabled", "error: clone of 'https://github.com/acme/private-utils.git' into submodule path '/src/third_party/utils' failed"]
    cases.append(Case("permission_or_auth", "git clone of private repo without creds", lines))
    return cases


def network_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = some_warnings(rng, 2) + ["'(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /bert-base-uncased/resolve/main/config.json (Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f3a2c>: Failed to establish a new connection: [Errno 101] Network is unreachable'))\"), '(Request ID: 5d1c)')' thrown while requesting HEAD https://huggingface.co/bert-base-uncased/resolve/main/config.json"] + tb([("cls.py", 30, "<module>", 'model = AutoModel.from_pretrained("bert-base-uncased")'), (f"{PY}/transformers/utils/hub.py", 441, "cached_file", "raise EnvironmentError(")], "OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like bert-base-uncased is not the path to a directory containing a file named config.json.\nCheckout your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.")
    cases.append(Case("network_download", "HF couldn't connect", lines))
    lines = ["Downloading https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz to ./data/cifar-10-python.tar.gz"] + tb([("/usr/lib/python3.10/urllib/request.py", 1351, "do_open", "raise URLError(err)")], "urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>")
    cases.append(Case("network_download", "torchvision download DNS failure", apply(lines, prefixer("osmo", rng))))
    lines = ["Resolving data files: 100%|██████████| 1024/1024 [00:02<00:00, 401.21it/s]", "Downloading data:  37%|███▋      | 381/1024 [12:41<21:24,  2.00s/files]"] + tb([(f"{PY}/datasets/utils/file_utils.py", 228, "get_from_cache", "response = http_head(url)"), (f"{PY}/requests/adapters.py", 713, "send", "raise ReadTimeout(e, request=request)")], "requests.exceptions.ReadTimeout: (ReadTimeoutError(\"HTTPSConnectionPool(host='cdn-lfs-us-1.huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 8b3e)')")
    cases.append(Case("network_download", "TRICKY: datasets download read timeout (not a job timeout)", lines))
    lines = ["Collecting sentencepiece", "  WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/sentencepiece/"] * 1 + [f"  WARNING: Retrying (Retry(total={k}, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPSConnection object at 0x7f>: Failed to establish a new connection: [Errno -2] Name or service not known')': /simple/sentencepiece/" for k in (3, 2, 1, 0)] + ["ERROR: Could not find a version that satisfies the requirement sentencepiece (from versions: none)", "ERROR: No matching distribution found for sentencepiece"]
    cases.append(Case("network_download", "TRICKY: pip 'No matching distribution' caused by no network (debatable vs missing_dependency)", lines))
    lines = tb([("fetch.py", 19, "<module>", "s3.download_file(bucket, key, dst)"), (f"{PY}/botocore/httpsession.py", 505, "send", "raise EndpointConnectionError(endpoint_url=request.url, error=e)")], "botocore.exceptions.EndpointConnectionError: Could not connect to the endpoint URL: \"https://s3.us-west-2.amazonaws.com/datasets/laion/part-0001.tar\"")
    cases.append(Case("network_download", "S3 endpoint connection error", lines))
    return cases


def preempted_cases(rng: random.Random) -> list[Case]:
    cases = []
    job = rng.randint(100000, 999999)
    lines = megatron_progress(rng, 10) + [slurm_end(job, "node22", "DUE TO PREEMPTION "), "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.", "srun: error: node22: task 0: Terminated"] + sacct(job, "PREEMPTED", "0:15", "02:11:03")
    cases.append(Case("preempted", "Slurm preemption with Terminated", lines))
    lines = k8s_events([("Normal", "Scheduled", "pod/ft-0", "Successfully assigned ml/ft-0 to gpu-node-9"), ("Normal", "Started", "pod/ft-0", "Started container trainer"), ("Normal", "Preempted", "pod/ft-0", "Preempted by ml/prod-inference-6d8 on node gpu-node-9"), ("Normal", "Killing", "pod/ft-0", "Stopping container trainer")])
    cases.append(Case("preempted", "k8s Preempted by higher priority pod", lines))
    lines = hf_progress(rng, 5, 8000) + ["Received SIGTERM, saving checkpoint before exit", "Saving model checkpoint to /ckpt/checkpoint-60", "Status:  Failed", "Reason:  Terminated", "Message: Pod was terminated in response to imminent node shutdown.", "Exit Code: 143"]
    cases.append(Case("preempted", "spot node shutdown, exit 143", lines))
    lines = ["2026-05-01T03:22:10Z  Normal   Preempting   Preempting pod research/low-pri-sweep-3 to make room for pod prod/serving-7", "2026-05-01T03:22:11Z  Normal   Killing      Stopping container user", "Workflow low-pri-sweep-3 status: FAILED_PREEMPTED"]
    cases.append(Case("preempted", "OSMO-ish Preempting event", lines))
    return cases


def segfault_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + [f"processing shard {i}" for i in range(6)] + ["Fatal Python error: Segmentation fault", "", "Thread 0x00007f2e5bfff700 (most recent call first):", '  File "/usr/lib/python3.10/threading.py", line 324 in wait', '  File "/usr/lib/python3.10/threading.py", line 607 in wait', "", "Current thread 0x00007f2e8c1d2740 (most recent call first):", f'  File "{PY}/decord/video_reader.py", line 73 in __init__', '  File "/app/dataset.py", line 41 in __getitem__', "", "Extension modules: numpy.core._multiarray_umath, torch._C, decord._ffi (total: 48)", "Segmentation fault (core dumped)"]
    cases.append(Case("segfault", "Fatal Python error: Segmentation fault", lines))
    lines = torchrun_start(rng, 2) + sigterm_others(rng, [1]) + child_failed(rng, "infer.py", 0, -11, "Signal 11 (SIGSEGV) received by PID 6120", [])
    cases.append(Case("segfault", "torchrun exitcode -11 SIGSEGV", lines))
    lines = ["/var/spool/slurmd/job99/slurm_script: line 12: 48211 Segmentation fault      (core dumped) ./build/bin/preproc --in /data/raw --out /data/clean", "srun: error: node02: task 0: Exited with exit code 139"]
    cases.append(Case("segfault", "Slurm script segfault exit 139", apply(lines, prefixer("osmo", rng, "preproc"))))
    lines = hf_progress(rng, 3, 100) + tb([("train.py", 77, "<module>", "for batch in dl:"), (f"{PY}/torch/utils/data/_utils/signal_handling.py", 66, "handler", "_error_if_any_worker_fails()")], "RuntimeError: DataLoader worker (pid 1880) is killed by signal: Segmentation fault. ")
    cases.append(Case("segfault", "DataLoader worker segfault", lines))
    return cases


def output_missing_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = [f"generated {i * 500} samples" for i in range(1, 9)] + ["Writing results to {{outputs}}/samples", "done.", "[osmo] Task generate completed with exit code 0", "[osmo] Uploading outputs from /osmo/output ...", "[osmo] No files to upload in /osmo/output"]
    cases.append(Case("output_missing", "{{outputs}} literal + no files to upload", apply(lines, prefixer("osmo", rng, "generate"))))
    lines = hf_finish(rng, 2000)[3:] + ["Task exited with code 0", "WARNING: output directory /osmo/output is empty; nothing will be uploaded", "Workflow status: COMPLETED"]
    cases.append(Case("output_missing", "HF saved to /output but OSMO output dir empty", lines))
    lines = ["export OUT_DIR=/results", "python eval.py --out $OUTPUT_DIR", "eval: wrote 0 files", "Uploading artifacts...", "No files found matching '/results/**/*'. No artifacts will be uploaded.", "Job succeeded"]
    cases.append(Case("output_missing", "artifact upload finds no files", lines))
    lines = ["stage 'export' completed (exit 0)", "ERROR: expected output 'model' at /output/model but nothing was written", "Workflow COMPLETED with missing outputs"]
    cases.append(Case("output_missing", "expected output absent", apply(lines, prefixer("bracket", rng))))
    return cases


def validation_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = ["ERROR: Resource validation failed for task train:", '  Value "1000000" too high for label memory (max 1500Gi per node)', '  Value "300" too high for label cpu (max 192 per node)', "Submission rejected."]
    cases.append(Case("validation_error", "OSMO resource validation", lines))
    lines = ["ERROR: Workflow submission failed capacity validation.", "", "The requested resources exceed what any single node in pool 'a100-west' can provide.", "", "Task: finetune", "  Resource   Requested   Node capacity", "  --------   ---------   -------------", "  gpu        16          8", "  memory     512Gi       1024Gi", "", "Adjust the 'resources' block in your workflow YAML to fit within node capacity and resubmit."]
    cases.append(Case("validation_error", "capacity validation table", lines))
    lines = ["Error: workflow spec invalid: tasks[0].resources.gpu: Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='eight', input_type=str]"]
    cases.append(Case("validation_error", "spec schema validation (pydantic wording)", lines))
    lines = ["sbatch: error: Invalid --time specification", "sbatch: error: Batch job submission failed: Invalid Trackable RESource (TRES) specification"]
    cases.append(Case("validation_error", "sbatch rejects spec (debatable: could be unschedulable)", lines))
    return cases


def user_code_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = startup_generic(rng) + some_warnings(rng, 2) + hf_progress(rng, 2, 1000) + tb([("train.py", 140, "collate", 'labels = torch.tensor([ex["label"] for ex in batch])')], "KeyError: 'label'")
    cases.append(Case("user_code_error", "KeyError in collate", apply(lines, prefixer("osmo", rng))))
    lines = tb([("model.py", 61, "forward", "x = self.head(x)"), (f"{PY}/torch/nn/modules/linear.py", 116, "forward", "return F.linear(input, self.weight, self.bias)")], "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 768x10)")
    cases.append(Case("user_code_error", "shape mismatch", startup_generic(rng) + lines))
    lines = lightning_start(rng, 1) + tb([("lit.py", 55, "training_step", 'assert x.shape[1] == self.hparams.in_channels, f"bad channels {x.shape}"')], "AssertionError: bad channels torch.Size([32, 1, 224, 224])")
    cases.append(Case("user_code_error", "AssertionError in training_step", lines))
    # tricky: a retry traceback that succeeded, then the real fatal error
    lines = ["[data] fetching index.json"] + tb([(f"{PY}/urllib3/connectionpool.py", 793, "urlopen", "response = self._make_request("), (f"{PY}/urllib3/connection.py", 466, "getresponse", "httplib_response = super().getresponse()")], "urllib3.exceptions.ProtocolError: ('Connection aborted.', ConnectionResetError(104, 'Connection reset by peer'))") + ["[data] attempt 1 failed, retrying in 2s", "[data] attempt 2 ok: index.json (4.1 MB)", "[data] 52,118 examples"] + hf_progress(rng, 3, 1500) + tb([("train.py", 88, "<module>", "main()"), ("train.py", 71, "main", "scheduler = build_scheduler(cfg.sched)"), ("sched.py", 14, "build_scheduler", 'return SCHEDULERS[cfg["name"]](**cfg["kwargs"])')], "KeyError: 'cosine_with_restart'")
    cases.append(Case("user_code_error", "TRICKY: early connection-reset traceback retried OK, real error is KeyError", lines))
    lines = torchrun_start(rng, 8) + nccl_init(rng) + ranked(tb([("/workspace/train.py", 201, "<module>", "main(cfg)"), ("/workspace/train.py", 150, "main", "loss = criterion(logits, batch['labels'])"), (f"{PY}/torch/nn/modules/loss.py", 1188, "forward", "return F.cross_entropy(input, target, weight=self.weight,")], "ValueError: Expected input batch_size (16) to match target batch_size (32)."), 0) + sigterm_others(rng, [1, 2, 3, 4, 5, 6, 7]) + child_failed(rng, "train.py", 0, 1, TB_HINT, [])
    cases.append(Case("user_code_error", "DDP ValueError on rank0 + ChildFailedError (SIGTERM to other ranks)", lines))
    lines = ["Error executing job with overrides: ['model=llama7b', 'optim.lr=3e-4']"] + tb([("/app/train.py", 40, "main", "lr = cfg.optimizer.lr")], "omegaconf.errors.ConfigAttributeError: Key 'optimizer' is not in struct\n    full_key: optimizer\n    object_type=dict") + ["", "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    cases.append(Case("user_code_error", "Hydra/omegaconf config key error", lines))
    lines = tb([("eval.py", 33, "<module>", "model.load_state_dict(sd)"), (f"{PY}/torch/nn/modules/module.py", 2189, "load_state_dict", "raise RuntimeError('Error(s) in loading state_dict for {}:\\n\\t{}'.format(")], ["RuntimeError: Error(s) in loading state_dict for GPT:", '\tMissing key(s) in state_dict: "lm_head.weight". ', '\tsize mismatch for transformer.wte.weight: copying a param with shape torch.Size([50304, 768]) from checkpoint, the shape in current model is torch.Size([50257, 768]).'])
    cases.append(Case("user_code_error", "state_dict size mismatch", apply(lines, prefixer("bracket", rng))))
    lines = keras_progress(rng, 1)[:2] + tb([("train_tf.py", 51, "<module>", "model.fit(x, y)"), (f"{PY}/keras/src/utils/traceback_utils.py", 122, "error_handler", "raise e.with_traceback(filtered_tb) from None")], ["ValueError: Input 0 of layer \"dense\" is incompatible with the layer: expected axis -1 of input shape to have value 784, but received input with shape (None, 28, 28)"])
    cases.append(Case("user_code_error", "Keras incompatible input shape", lines))
    # tricky: misleading "out of memory" words in a user error
    lines = ["memory_profile: peak host memory 12.1 GiB (limit 64 GiB)"] + tb([("pack.py", 19, "<module>", "assert len(buf) <= max_len, f'sequence too long: {len(buf)}'")], "AssertionError: sequence too long: 9001")
    cases.append(Case("user_code_error", "AssertionError with memory words nearby", apply(lines, prefixer("osmo", rng))))
    lines = jax_start(rng) + tb([("/app/train.py", 180, "<module>", "app.run(main)"), ("/app/model.py", 88, "__call__", "x = x @ self.w")], "TypeError: dot_general requires contracting dimensions to have the same shape, got (1024,) and (4096,).")
    cases.append(Case("user_code_error", "JAX shape TypeError", lines))
    return cases


def unknown_cases(rng: random.Random) -> list[Case]:
    cases = []
    lines = [f"step {i} loss {rng.uniform(1, 2):.3f}" for i in range(0, 500, 50)] + ["srun: error: node11: task 0: Exited with exit code 1"]
    cases.append(Case("unknown", "exit code 1 with no error text (debatable; nothing to diagnose from)", lines))
    lines = ["Task train exited with code 255", "no logs were captured for this task"]
    cases.append(Case("unknown", "exit 255, empty log", lines))
    return cases


# --------------------------------------------------------------------------- healthy


def healthy_cases(rng: random.Random) -> list[Case]:
    cases = []
    total = rng.choice([1000, 2000, 3000])
    lines = startup_generic(rng) + some_weights_warning(rng) + some_warnings(rng, 4) + hf_progress(rng, 30, total) + hf_finish(rng, total)
    cases.append(Case("healthy", "HF Trainer with Some weights + deprecations", apply(lines, prefixer("osmo", rng))))
    lines = deepspeed_start(rng) + [ds_overflow(r, 65536 >> k) for k, r in enumerate([0, 0, 1])] + ds_steps(rng, 40, skipped=3) + ["[2026-05-01 14:00:00,000] [INFO] [launch.py:351:main] Process 4410 exits successfully.", "[2026-05-01 14:00:00,002] [INFO] [launch.py:351:main] Process 4411 exits successfully."]
    cases.append(Case("healthy", "TRICKY: DeepSpeed early OVERFLOW skips then stable", lines))
    lines = torchrun_start(rng, 8) + nccl_init(rng) + some_warnings(rng, 3) + [f"[rank0]: step {s:>6} | loss {rng.uniform(1.5, 3):.4f} | lr 3.0e-04 | {rng.randint(100, 130)}k tok/s" for s in range(0, 5000, 100)] + ["[rank0]: saved checkpoint to /ckpt/step_5000", "INFO:torch.distributed.elastic.agent.server.api:[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.", "INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish", "INFO:torch.distributed.elastic.agent.server.api:Done waiting for other agents. Elapsed: 0.0006728172302246094 seconds"]
    cases.append(Case("healthy", "TRICKY: torchrun DDP with NCCL plugin 'No such file' INFO + NET/IB WARN", apply(lines, prefixer("iso", rng))))
    lines = lightning_start(rng, 4) + sum((lightning_progress(rng, e, 10) for e in range(5)), []) + ["`Trainer.fit` stopped: `max_epochs=5` reached."]
    cases.append(Case("healthy", "Lightning to max_epochs", lines))
    lines = tf_start(rng) + keras_progress(rng, 5) + ["INFO:tensorflow:Assets written to: /output/saved_model/assets", "Training finished."]
    cases.append(Case("healthy", "TRICKY: TF with benign 'E ... Unable to register cuDNN factory' + TF-TRT warning", lines))
    lines = jax_start(rng) + jax_progress(rng, 40) + ["I0501 12:00:00.000 140213 checkpoints.py:1101] Saved checkpoint at /ckpt/checkpoint_4000", "I0501 12:00:01.000 140213 train.py:260] Training complete."]
    cases.append(Case("healthy", "TRICKY: JAX with 'driver older than ptxas' warning and libtpu 'No such file'", lines))
    lines = megatron_progress(rng, 50, skipped=2) + [" [2026-05-01 16:00:00] iteration     5000/    5000 | consumed samples:      1280000 | lm loss: 2.871234E+00 | loss scale: 32768.0 |", "saving checkpoint at iteration    5000 to /ckpt", "  successfully saved checkpoint at iteration    5000 to /ckpt", "[after training is done] datetime: 2026-05-01 16:01:12 "]
    cases.append(Case("healthy", "Megatron finished, skipped iterations early", lines))
    lines = nemo_start(rng) + nemo_progress(rng, 25) + ["`Trainer.fit` stopped: `max_steps=2500` reached.", "[NeMo I 2026-05-01 18:00:00 nemo_model_checkpoint:226] New .nemo model saved to: /results/megatron_gpt.nemo"]
    cases.append(Case("healthy", "NeMo finished with warnings", apply(lines, prefixer("osmo", rng))))
    lines = ["'(MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out. (read timeout=10)\"), '(Request ID: 31a2)')' thrown while requesting HEAD https://huggingface.co/gpt2/resolve/main/tokenizer_config.json", "Retrying in 1s [Retry 1/5]."] + some_warnings(rng, 2) + hf_progress(rng, 20, 1000) + hf_finish(rng, 1000)
    cases.append(Case("healthy", "TRICKY: HF hub retry that succeeded", lines))
    lines = ["Epoch 1: fp16 enabled"] + [f"Gradient overflow.  Skipping step, loss scale: {2 ** k} -> {2 ** (k - 1)}" for k in (16, 15)] + [f"epoch 1 step {s} loss {rng.uniform(1, 2):.3f} loss_scale 16384" for s in range(10, 800, 30)] + ["Finished training, best val_acc=0.913"]
    cases.append(Case("healthy", "TRICKY: apex-style gradient overflow twice then fine", apply(lines, prefixer("bracket", rng))))
    lines = ["[data] fetching shard list"] + tb([(f"{PY}/requests/adapters.py", 519, "send", "raise ConnectionError(e, request=request)")], "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='storage.internal', port=443): Max retries exceeded with url: /shards.txt") + ["[data] attempt 1/5 failed (see traceback above); retrying in 4s", "[data] attempt 2/5 succeeded"] + [f"train step {i} loss {rng.uniform(0.5, 1):.3f}" for i in range(0, 3000, 100)] + ["training done; exit 0"]
    cases.append(Case("healthy", "TRICKY: full traceback from a retry that then succeeded", apply(lines, prefixer("osmo", rng))))
    lines = k8s_events([("Normal", "Scheduled", "pod/eval-0", "Successfully assigned ml/eval-0 to gpu-node-3"), ("Normal", "Pulling", "pod/eval-0", 'Pulling image "ghcr.io/acme/eval:1.2"'), ("Warning", "Failed", "pod/eval-0", 'Failed to pull image "ghcr.io/acme/eval:1.2": rpc error: code = Unavailable desc = connection reset by peer'), ("Normal", "Pulling", "pod/eval-0", 'Pulling image "ghcr.io/acme/eval:1.2"'), ("Normal", "Pulled", "pod/eval-0", 'Successfully pulled image "ghcr.io/acme/eval:1.2" in 41.2s'), ("Normal", "Created", "pod/eval-0", "Created container eval"), ("Normal", "Started", "pod/eval-0", "Started container eval"), ("Normal", "Completed", "pod/eval-0", "Container eval completed (exit code 0)")])
    cases.append(Case("healthy", "TRICKY: transient pull failure then pulled, completed", lines))
    lines = ["Batch size 2 succeeded, trying batch size 4", "Batch size 4 succeeded, trying batch size 8", "Batch size 8 succeeded, trying batch size 16", "Batch size 16 failed, trying batch size 8", "Finished batch size finder, will continue with full run using batch size 8", "Restoring states from the checkpoint path at /tmp/.scale_batch_size_3f1.ckpt", "Restored all states from the checkpoint at /tmp/.scale_batch_size_3f1.ckpt"] + lightning_progress(rng, 0, 12) + ["`Trainer.fit` stopped: `max_epochs=1` reached."]
    cases.append(Case("healthy", "TRICKY: Lightning batch-size finder (failed attempt is normal)", lines))
    lines = ["WARNING: caught CUDA OOM at micro_batch=64; retrying with micro_batch=32 (auto-tune)", "auto-tune: micro_batch=32 fits, using gradient_accumulation_steps=2"] + hf_progress(rng, 15, 600) + hf_finish(rng, 600)
    cases.append(Case("healthy", "TRICKY: user auto-tuner mentions CUDA OOM it recovered from (debatable wording)", lines))
    lines = [f"{j}      train.sh  gpu  mlteam  64  COMPLETED  0:0  03:12:44" for j in [rng.randint(100000, 999999)]] + ["---", "== job log ==", "Epoch 10/10 done, val_loss=0.2113", "slurmstepd: info: Job step 0 completed", "Exited with exit code 0"]
    cases.append(Case("healthy", "Slurm COMPLETED", lines))
    lines = ["Using the `WANDB_DISABLED` environment variable is deprecated and will be removed in v5. Use the --report_to flag to control the integrations used for logging result (for instance --report_to none).", "wandb: Network error (ConnectionError), entering retry loop.", "wandb: Network error resolved after 0:00:41.201, resuming normal operation."] + hf_progress(rng, 12, 300) + hf_finish(rng, 300) + ["wandb: Synced 5 W&B file(s), 0 media file(s), 2 artifact file(s) and 0 other file(s)"]
    cases.append(Case("healthy", "TRICKY: wandb network error resolved", lines))
    lines = ["Evaluating: 100%|██████████| 250/250 [01:02<00:00,  4.01it/s]", "***** eval metrics *****", "  epoch                   =        3.0", "  eval_accuracy           =     0.8812", "  eval_loss               =     0.3114", "  eval_error_rate         =     0.1188", "  eval_runtime            = 0:01:02.31", "  eval_samples_per_second =    160.431", "Wrote predictions to /output/preds.jsonl (8000 rows)"]
    cases.append(Case("healthy", "eval with 'error_rate' metric", apply(lines, prefixer("osmo", rng, "eval"))))
    lines = ["config:", "  nccl_timeout_s: 1800", "  on_oom: halve_batch", "  max_restarts: 3", "  fail_on_nan: true", "  exec_timeout: 4h"] + [f"it {i} loss={rng.uniform(1, 3):.3f} grad_norm={rng.uniform(0.3, 1):.3f} nan_count=0 oom_events=0" for i in range(0, 2000, 100)] + ["all done (status=ok)"]
    cases.append(Case("healthy", "TRICKY: config dump and metrics named after failures", lines))
    lines = ["2026-05-01 10:00:00 | WARNING | Flash Attention 2 is not available, falling back to sdpa", "2026-05-01 10:00:00 | WARNING | `torch_dtype` is deprecated! Use `dtype` instead!"] + [f"2026-05-01 10:{m:02d}:00 | INFO | step {m * 50} loss {rng.uniform(1, 2):.3f}" for m in range(1, 50)] + ["2026-05-01 10:50:00 | INFO | pushed adapter to /output/lora"]
    cases.append(Case("healthy", "LoRA run with fallback warnings", lines))
    lines = ["Loading checkpoint shards: 100%|██████████| 4/4 [00:09<00:00,  2.31s/it]", f"{PY}/transformers/generation/configuration_utils.py:601: UserWarning: `do_sample` is set to `False`. However, `temperature` is set to `0.6` -- this flag is only used in sample-based generation modes. You should set `do_sample=True` or unset `temperature`.", "  warnings.warn(", "Setting `pad_token_id` to `eos_token_id`:128001 for open-end generation."] + [f"generated {i}/2000" for i in range(100, 2001, 100)] + ["Saved 2000 generations to /osmo/output/gen.jsonl"]
    cases.append(Case("healthy", "inference with generation warnings", apply(lines, prefixer("osmo", rng, "generate"))))
    lines = ["+ python train.py", "UserWarning: Attempting to run cuBLAS, but there was no current CUDA context! Attempting to set the primary context... (Triggered internally at ../aten/src/ATen/cuda/CublasHandlePool.cpp:135.)"] + [f"epoch {e} train_loss={rng.uniform(0.2, 1):.3f} val_loss={rng.uniform(0.2, 1):.3f}" for e in range(20)] + ["Best checkpoint: epoch 17", "shutdown complete", "exitcode: 0"]
    cases.append(Case("healthy", "plain training with cuBLAS context warning", lines))
    lines = ["[W501 10:00:00.000 ProcessGroupNCCL.cpp:1039] Warning: TORCH_NCCL_AVOID_RECORD_STREAMS is the default now, this environment variable is thus deprecated. (function operator())", "NCCL WARN Could not find real path of /sys/class/net/ib0/device", "[W socket.cpp:464] [c10d] The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use).", "[W socket.cpp:464] [c10d] The server socket has failed to listen on any local network address. The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use). Retrying on port 29501", "[I socket.cpp:700] [c10d] The client socket has connected to [localhost]:29501 on [localhost]:47000."] + [f"[rank0]: epoch {e} acc {rng.uniform(0.6, 0.9):.3f}" for e in range(12)] + ["[rank0]: training finished in 1:02:11"]
    cases.append(Case("healthy", "TRICKY: c10d bind failure retried on another port", lines))
    lines = ["Running on local URL:  http://0.0.0.0:7860", "benchmark: 1000 requests, 0 errors, p50=41ms p99=188ms", "benchmark complete"]
    cases.append(Case("healthy", "short benchmark with '0 errors'", lines))
    lines = sum(([f"Epoch {e}/50", f"train: loss {rng.uniform(0.1, 1):.4f} mAP50 {rng.uniform(0.3, 0.8):.3f}"] + (["WARNING ⚠️ NMS time limit 2.100s exceeded"] if e % 7 == 0 else []) for e in range(1, 51)), []) + ["50 epochs completed in 3.112 hours.", "Optimizer stripped from runs/train/exp/weights/last.pt, 22.5MB", "Results saved to runs/train/exp"]
    cases.append(Case("healthy", "TRICKY: YOLO-style 'NMS time limit exceeded' warnings (not a job timeout)", lines))
    big = []
    for e in range(8):
        big += lightning_progress(rng, e, 60) + some_warnings(rng, 1)
    cases.append(Case("healthy", "long (500+ lines) Lightning run with repeated warnings", lightning_start(rng, 8) + big + ["`Trainer.fit` stopped: `max_epochs=8` reached."]))
    return cases


# --------------------------------------------------------------------------- extra failures with long context


def long_tail_cases(rng: random.Random) -> list[Case]:
    cases = []
    # long log: 500+ lines of healthy progress then timeout
    lines = startup_generic(rng) + hf_progress(rng, 300, 60000) + [slurm_end(7712001, "gpu-12", "DUE TO TIME LIMIT ")]
    cases.append(Case("timeout", "600-line HF run ended by time limit", lines))
    # long DeepSpeed then NCCL error plus trailing leaked semaphore
    lines = deepspeed_start(rng) + ds_steps(rng, 120) + ["[rank6]:[E501 13:00:00.000 ProcessGroupNCCL.cpp:1316] [PG 0 Rank 6] Process group watchdog thread terminated with exception: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5", "ncclUnhandledCudaError: Call to CUDA function failed.", "Last error:", "Cuda failure 'an illegal memory access was encountered'"] + ["/usr/lib/python3.10/multiprocessing/resource_tracker.py:254: UserWarning: resource_tracker: There appear to be 1 leaked shared_memory objects to clean up at shutdown"]
    cases.append(Case("nccl_or_distributed", "DeepSpeed long run, NCCL unhandled cuda error (illegal memory access; debatable vs segfault-like GPU fault)", lines))
    # user error hidden before huge tail of generic noise from other ranks
    lines = torchrun_start(rng, 4) + ranked(tb([("/workspace/train.py", 90, "<module>", "batch = next(it)"), ("/workspace/data.py", 51, "__getitem__", "img = self.tf(Image.open(p))"), (f"{PY}/PIL/Image.py", 3339, "open", "raise UnidentifiedImageError(msg)")], "PIL.UnidentifiedImageError: cannot identify image file '/data/imgs/00491.jpg'"), 2)
    lines += [f"[rank{r}]:[W501 ProcessGroupNCCL.cpp:1168] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL. On normal program exit, the application should call destroy_process_group to ensure that any pending NCCL operations have finished in this process." for r in (0, 1, 3)]
    lines += sigterm_others(rng, [0, 1, 3]) + child_failed(rng, "train.py", 2, 1, TB_HINT, [])
    cases.append(Case("user_code_error", "corrupt image -> UnidentifiedImageError (debatable: data problem, but surfaced as user code error)", lines))
    # host oom via k8s with misleading NCCL after
    lines = nccl_init(rng) + [f"step {i} loss {rng.uniform(1, 2):.3f}" for i in range(0, 600, 50)] + ["[rank1]:[E501 ProcessGroupNCCL.cpp:1537] [PG 0 Rank 1] NCCL watchdog thread terminated with exception: NCCL error: remote process exited or there was a network error, NCCL version 2.19.3", "Container trainer-0 terminated: reason=OOMKilled exitCode=137"]
    cases.append(Case("host_oom", "TRICKY: rank0 container OOMKilled; surviving rank reports remote NCCL error", apply(lines, prefixer("iso", rng))))
    # gpu oom followed by misleading later segfault on teardown
    lines = hf_progress(rng, 5, 900) + tb([("run.py", 50, "<module>", "trainer.train()")], "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.68 GiB of which 17.31 MiB is free.") + ["Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f2a>", "Fatal Python error: Segmentation fault", "Segmentation fault (core dumped)"]
    cases.append(Case("gpu_oom", "TRICKY: OOM then teardown segfault", lines))
    # exit 137 from time limit style: SIGKILL after grace, should be timeout
    lines = [f"step {i}" for i in range(0, 3000, 100)] + ["slurmstepd: error: *** JOB 66123 ON node05 CANCELLED AT 2026-05-01T20:00:00 DUE TO TIME LIMIT ***", "slurmstepd: error: *** JOB 66123 STEPD TERMINATED ON node05 AT 2026-05-01T20:01:01 DUE TO JOB NOT ENDING WITH SIGNALS ***", "srun: error: node05: task 0: Killed", "exit code 137"]
    cases.append(Case("timeout", "TRICKY: time limit then SIGKILL/137 (not OOM)", lines))
    # nan with trailing generic error
    lines = [f"step {i:>5} loss {v}" for i, v in [(100, "3.211"), (200, "2.904"), (300, "41.77"), (400, "inf"), (500, "nan"), (600, "nan")]] + ["WARNING: Loss is NaN; skipping checkpoint", "ERROR: validation failed: metric 'val_loss' is nan", "RuntimeError: Loss is NaN, aborting training"]
    cases.append(Case("nan_loss", "loss spike -> inf -> nan, 'validation failed' wording is a red herring", apply(lines, prefixer("osmo", rng))))
    # missing dep masked by trailing FileNotFoundError
    lines = ["+ pip install -q -r requirements.txt --no-index --find-links /wheels", "ERROR: Could not find a version that satisfies the requirement xformers==0.0.26 (from versions: none)", "ERROR: No matching distribution found for xformers==0.0.26", "+ python train.py"] + tb([("train.py", 3, "<module>", "import xformers.ops as xops")], "ModuleNotFoundError: No module named 'xformers'") + ["cat: /output/metrics.json: No such file or directory"]
    cases.append(Case("missing_dependency", "TRICKY: missing module then trailing 'No such file' from cleanup", lines))
    # permission: Slurm account invalid? no - docker socket permission
    lines = ["Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post \"http://%2Fvar%2Frun%2Fdocker.sock/v1.24/containers/create\": dial unix /var/run/docker.sock: connect: permission denied"]
    cases.append(Case("permission_or_auth", "docker socket permission denied", lines))
    # preempted with trailing SIGTERM traceback from KeyboardInterrupt-like handler
    lines = lightning_progress(rng, 3, 20) + ["slurmstepd: error: *** STEP 551022.0 ON node19 CANCELLED AT 2026-05-01T07:41:00 DUE TO PREEMPTION ***", "[rank: 0] Received SIGTERM: 15", "Bypassing SIGTERM: 15"] + tb([(f"{PY}/lightning/pytorch/trainer/call.py", 68, "_call_and_handle_interrupt", "trainer._teardown()")], "lightning.fabric.utilities.exceptions.SIGTERMException")
    cases.append(Case("preempted", "TRICKY: preemption then Lightning SIGTERMException traceback", lines))
    # segfault in NCCL-like location with exit 139 in k8s
    lines = ["State:          Terminated", "  Reason:       Error", "  Exit Code:    139", "Last log lines:", "  [ckpt] writing shard 3/8", "  *** SIGSEGV (@0x0) received by PID 1 (TID 0x7f0c) from PID 0; stack trace: ***", "  @     0x7f0c6a1d3420 (unknown)", "  @     0x7f0b98c2e1f1 tensorstore::internal::(anonymous namespace)::WriteChunk()"]
    cases.append(Case("segfault", "glog-style SIGSEGV, exit 139", lines))
    # file not found: misleading trailing NCCL warning after rank failure
    lines = torchrun_start(rng, 2) + ranked(tb([("/src/train.py", 33, "<module>", "tok = spm.SentencePieceProcessor(model_file=cfg.tokenizer)"), (f"{PY}/sentencepiece/__init__.py", 961, "Load", "return self.LoadFromFile(model_file)")], "OSError: Not found: \"/artifacts/tokenizer/spm.model\": No such file or directory Error #2"), 0) + ["[rank1]:[W501 ProcessGroupNCCL.cpp:1168] Warning: WARNING: process group has NOT been destroyed before we destruct ProcessGroupNCCL."] + child_failed(rng, "train.py", 0, 1, TB_HINT, [(1, -15, "Signal 15 (SIGTERM) received by PID 311")])
    cases.append(Case("file_not_found", "sentencepiece model missing under torchrun", lines))
    # network: NCCL-free, docker hub rate limit? that's image_pull; choose git lfs
    lines = ["Cloning into '/workspace/data'...", "Downloading data/train.bin (12 GB)", "Error downloading object: data/train.bin (a1b2c3d): Smudge error: Error downloading data/train.bin (a1b2c3d4e5): batch response: Post \"https://git.internal/acme/data.git/info/lfs/objects/batch\": dial tcp 10.1.2.3:443: i/o timeout", "error: external filter 'git-lfs filter-process' failed", "fatal: data/train.bin: smudge filter lfs failed"]
    cases.append(Case("network_download", "git-lfs download i/o timeout", lines))
    # output missing: writes to relative path, upload empty
    lines = hf_finish(rng, 500) + ["[osmo] task train finished (exit 0)", "[osmo] output: 0 files, 0 B uploaded to s3://acme-out/exp3/"]
    cases.append(Case("output_missing", "HF saved to a non-output path; 0 files uploaded", apply(lines, prefixer("osmo", rng))))
    # device assert in a misleading context with warnings
    lines = some_warnings(rng, 3) + ["/opt/pytorch/aten/src/ATen/native/cuda/ScatterGatherKernel.cu:365: operator(): block: [12,0,0], thread: [64,0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.", "RuntimeError: CUDA error: device-side assert triggered", "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."]
    cases.append(Case("device_assert", "scatter/gather index out of bounds", apply(lines, prefixer("osmo", rng))))
    # cuda driver: forward compat error
    lines = ["Error 804: forward compatibility was attempted on non supported HW", "torch.cuda.is_available() returned False: CUDA initialization: Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have already set an error? Error 804: forward compatibility was attempted on non supported HW (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)", "ERROR: no CUDA device available, refusing to train on CPU"]
    cases.append(Case("cuda_driver", "CUDA forward compat error 804", lines))
    # unschedulable OSMO pending with queue
    lines = ["Workflow sweep-9 status: PENDING", "Task train: PENDING for 3h12m", "Scheduler: 0/24 nodes are available: 24 node(s) didn't have enough resources: GPUs"]
    cases.append(Case("unschedulable", "OSMO pending, not enough GPUs", lines))
    # validation: k8s admission
    lines = ["Error from server (Forbidden): error when creating \"job.yaml\": pods \"train-0\" is forbidden: exceeded quota: gpu-quota, requested: requests.nvidia.com/gpu=16, used: requests.nvidia.com/gpu=48, limited: requests.nvidia.com/gpu=56"]
    cases.append(Case("unschedulable", "k8s ResourceQuota exceeded at admission (debatable: could be validation_error or permission)", lines))
    return cases


GROUPS = [gpu_oom_cases, host_oom_cases, nccl_cases, missing_dep_cases, file_not_found_cases, nan_cases, image_pull_cases, unschedulable_cases, timeout_cases, disk_full_cases, cuda_driver_cases, device_assert_cases, permission_cases, network_cases, preempted_cases, segfault_cases, output_missing_cases, validation_cases, user_code_cases, unknown_cases, healthy_cases, long_tail_cases]


def build() -> list[Case]:
    rng = random.Random(20260501)
    cases: list[Case] = []
    for group in GROUPS:
        cases.extend(group(rng))
    rng.shuffle(cases)
    return cases


def main() -> None:
    for old in OUT.glob("h*.log"):
        old.unlink()
    labels: dict[str, str] = {}
    notes: dict[str, str] = {}
    for i, case in enumerate(build(), start=1):
        name = f"h{i:03d}.log"
        (OUT / name).write_text("\n".join(case.lines) + "\n", encoding="utf-8")
        labels[name] = case.label
        notes[name] = case.note
    (OUT / "labels.json").write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    (OUT / "notes.json").write_text(json.dumps(notes, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
