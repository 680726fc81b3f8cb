"""Deterministic generator of the third, blind diagnosis corpus (holdout2).

Written without reading the diagnosis rules or the two earlier corpora, to estimate accuracy on logs in styles they
may have missed: full `kubectl describe pod` output, `kubectl get pods` lines, Ray job logs, Slurm sacct/seff tables,
rank-prefixed accelerate/torchrun tracebacks, OSMO-prefixed lines, benign scary warnings and recovered retries.

    python tests/data/diagnosis_holdout2/generate.py      # rewrites *.log, labels.json, notes.json here

Each template draws its details (paths, sizes, ranks, timestamps, noise amount, line prefix) from a seeded RNG, so the
output is the same on every run. File names carry no label.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEED = 20260501

Lines = list[str]
Template = Callable[[random.Random], tuple[Lines, str]]

# --------------------------------------------------------------------------------------------------------- noise


MODELS = ["meta-llama/Llama-2-7b-hf", "mistralai/Mistral-7B-v0.1", "bert-base-uncased", "gpt2-medium",
          "google/flan-t5-large", "EleutherAI/pythia-1.4b", "facebook/opt-1.3b", "roberta-large"]
SCRIPTS = ["train.py", "finetune.py", "run_clm.py", "pretrain_gpt.py", "main.py", "trainer/entry.py"]
HOSTS = ["gpu-node-a17", "dgx-h100-031", "ip-10-0-12-88", "gke-train-pool-7f3c", "node0042", "hpc-g12"]
PYV = ["3.9", "3.10", "3.11"]


def ts(r: random.Random, h: int = 10) -> str:
    return f"2026-05-{r.randint(1, 28):02d} {h:02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"


def site(r: random.Random) -> str:
    return f"/opt/conda/lib/python{r.choice(PYV)}/site-packages"


BENIGN = [
    "{site}/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader will create 16 worker processes in total. "
    "Our suggested max number of worker in current system is 8, which is smaller than what this DataLoader is going "
    "to create. Please be aware that excessive worker creation might get DataLoader running slow or even freeze, lower "
    "the worker number to avoid potential slowness/freeze if necessary.",
    "{site}/transformers/optimization.py:411: FutureWarning: This implementation of AdamW is deprecated and will be "
    "removed in a future version. Use the PyTorch implementation torch.optim.AdamW instead, or set "
    "`no_deprecation_warning=True` to disable this warning",
    "Some weights of the model checkpoint at {model} were not used when initializing the model: ['cls.predictions.bias']",
    "- This IS expected if you are initializing the model from the checkpoint of a model trained on another task.",
    "huggingface/tokenizers: The current process just got forked, after parallelism has already been used. "
    "Disabling parallelism to avoid deadlocks...",
    "To disable this warning, you can either:\n\t- Avoid using `tokenizers` before the fork if possible\n\t- "
    "Explicitly set the environment variable TOKENIZERS_PARALLELISM=(true | false)",
    "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`...",
    "{site}/torch/nn/modules/module.py:1501: UserWarning: The given NumPy array is not writable, and PyTorch does "
    "not support non-writable tensors.",
    "[W Utils.hpp:133] Warning: Environment variable NCCL_ASYNC_ERROR_HANDLING is deprecated; use "
    "TORCH_NCCL_ASYNC_ERROR_HANDLING instead (function getCvarInt)",
    "NCCL WARN NET/IB : No device found.",
    "NCCL INFO NET/Socket : Using [0]eth0:10.42.{a}.{b}<0>",
    "{site}/torch/_dynamo/eval_frame.py:412: UserWarning: torch.compile is not supported on Python 3.12+",
    "wandb: WARNING Saving files without folders. If you want to preserve subdirectories pass base_path to wandb.save",
    "Detected kernel version 4.15.0, which is below the recommended minimum of 5.5.0; this can cause the process to "
    "hang. It is recommended to upgrade the kernel to the minimum version or higher.",
    "{site}/lightning/pytorch/trainer/connectors/data_connector.py:441: The 'val_dataloader' does not have many "
    "workers which may be a bottleneck.",
    "xFormers not available",
    "WARNING:root:Apex is not installed, falling back to torch.cuda.amp",
    "{site}/torch/cuda/__init__.py:628: UserWarning: Can't initialize NVML",
    "2026-05-01 10:00:03.112233: I tensorflow/core/platform/cpu_feature_guard.cc:182] This TensorFlow binary is "
    "optimized to use available CPU instructions in performance-critical operations.",
    "{site}/accelerate/accelerator.py:432: FutureWarning: Passing the following arguments to `Accelerator` is "
    "deprecated and will be removed in version 1.0 of Accelerate: dict_keys(['dispatch_batches']).",
    "Token indices sequence length is longer than the specified maximum sequence length for this model (1187 > 1024). "
    "Running this sequence through the model will result in indexing errors",
]


def benign(r: random.Random, k: int) -> Lines:
    out: Lines = []
    for tmpl in r.sample(BENIGN, min(k, len(BENIGN))):
        text = tmpl.format(site=site(r), model=r.choice(MODELS), a=r.randint(0, 255), b=r.randint(1, 254))
        out.extend(text.split("\n"))
    return out


def progress(r: random.Random, n: int, style: str | None = None, loss0: float = 3.2) -> Lines:
    """n lines of normal training progress in one framework's style."""
    style = style or r.choice(["hf", "tqdm", "lightning", "keras", "plain", "megatron", "jax", "deepspeed"])
    out: Lines = []
    total = max(n * r.choice([10, 20, 50]), 100)
    loss = loss0
    for i in range(1, n + 1):
        loss = max(0.05, loss * r.uniform(0.97, 1.005))
        step = i * total // n
        if style == "hf":
            out.append(f"{{'loss': {loss:.4f}, 'grad_norm': {r.uniform(0.2, 3):.4f}, 'learning_rate': "
                       f"{2e-5 * (1 - i / (n + 1)):.3e}, 'epoch': {i / n * 3:.2f}}}")
        elif style == "tqdm":
            pct = step * 100 // total
            out.append(f"{pct:3d}%|{'#' * (pct // 10):<10}| {step}/{total} [{i // 60:02d}:{i % 60:02d}<{(n - i) // 60:02d}:"
                       f"{(n - i) % 60:02d}, {r.uniform(1.2, 4.5):.2f}it/s, loss={loss:.3f}]")
        elif style == "lightning":
            out.append(f"Epoch {i * 3 // (n + 1)}: {step * 100 // total:3d}%|███▍      | {step}/{total} "
                       f"[{i:02d}:{r.randint(10, 59)}<01:22, {r.uniform(2, 9):.2f}it/s, v_num=3, train_loss={loss:.3f}]")
        elif style == "keras":
            out.append(f"{step}/{total} [==============>...............] - ETA: {n - i}s - loss: {loss:.4f} - "
                       f"accuracy: {min(0.99, 0.3 + i / n * 0.6):.4f}")
        elif style == "megatron":
            out.append(f" iteration {step:8d}/  500000 | consumed samples: {step * 512:12d} | elapsed time per "
                       f"iteration (ms): {r.uniform(900, 1300):.1f} | learning rate: 3.000E-04 | global batch size: "
                       f"  512 | lm loss: {loss:.6E} | loss scale: 65536.0 | grad norm: {r.uniform(0.5, 2):.3f} | "
                       f"number of skipped iterations:   0 | number of nan iterations:   0 |")
        elif style == "jax":
            out.append(f"I0501 10:{i // 60 % 60:02d}:{i % 60:02d}.{r.randint(100000, 999999)} 139872 train.py:233] "
                       f"[{step}] train/loss={loss:.5f}, train/learning_rate={1e-3 * (1 - i / (n + 1)):.6f}, "
                       f"steps_per_sec={r.uniform(3, 6):.3f}")
        elif style == "deepspeed":
            out.append(f"[{ts(r, 10)},{r.randint(100, 999)}] [INFO] [logging.py:96:log_dist] [Rank 0] step={step}, "
                       f"skipped=0, lr=[{3e-4:.6f}], mom=[(0.9, 0.95)]")
            out.append(f"steps: {step} loss: {loss:.4f} iter time (s): {r.uniform(0.8, 1.4):.3f} samples/sec: "
                       f"{r.uniform(90, 140):.3f}")
        else:
            out.append(f"step {step}/{total} loss {loss:.4f} lr {3e-4 * (1 - i / (n + 1)):.2e} "
                       f"tok/s {r.randint(20000, 90000)}")
    return out


def prefix(r: random.Random, lines: Lines, style: str | None = None) -> Lines:
    """Wrap lines the way log collectors print them."""
    lines = [part for ln in lines for part in ln.split("\n")]
    style = style or r.choice(["plain", "plain", "osmo", "osmo_tag", "k8s_ts", "iso"])
    task = r.choice(["train", "trainer", "worker-0", "finetune", "main"])
    if style == "osmo":
        base = f"2026/05/{r.randint(1, 28):02d} {r.randint(0, 23):02d}:"
        return [f"{base}{(i // 60) % 60:02d}:{i % 60:02d} [{task}] {ln}" for i, ln in enumerate(lines)]
    if style == "osmo_tag":
        head = [f"[{task}][osmo] Downloading inputs", f"[{task}][osmo] Inputs ready, starting user command"]
        return head + [f"[{task}] {ln}" for ln in lines]
    if style == "k8s_ts":
        return [f"2026-05-01T10:{(i // 60) % 60:02d}:{i % 60:02d}.{r.randint(0, 999999999):09d}Z {ln}"
                for i, ln in enumerate(lines)]
    if style == "iso":
        return [f"[{ts(r, 11)}] {ln}" for ln in lines]
    return lines


def rank_prefix(lines: Lines, rank: int, style: str = "rank") -> Lines:
    lines = [part for ln in lines for part in ln.split("\n")]
    tag = {"rank": f"[rank{rank}]:", "default": f"[default{rank}]:", "num": f"{rank}:"}[style]
    return [f"{tag} {ln}" for ln in lines]


def traceback(r: random.Random, frames: list[tuple[str, int, str, str]], final: str | list[str]) -> Lines:
    out = ["Traceback (most recent call last):"]
    for path, line, fn, code in frames:
        out.append(f'  File "{path}", line {line}, in {fn}')
        out.append(f"    {code}")
    out.extend([final] if isinstance(final, str) else final)
    return out


def user_frames(r: random.Random, script: str | None = None) -> list[tuple[str, int, str, str]]:
    s = script or r.choice(SCRIPTS)
    return [(f"/workspace/{s}", r.randint(200, 400), "<module>", "main()"),
            (f"/workspace/{s}", r.randint(100, 199), "main", "trainer.train()")]


def torchrun_tail(r: random.Random, script: str, code: int = 1, rank: int = 0, nproc: int = 8) -> Lines:
    pid = r.randint(1000, 99999)
    sig = code < 0
    return [
        f"[{ts(r, 12)},{r.randint(100, 999)}] torch.distributed.elastic.multiprocessing.api: [ERROR] failed "
        f"(exitcode: {code}) local_rank: {rank} (pid: {pid}) of binary: /opt/conda/bin/python",
        "Traceback (most recent call last):",
        '  File "/opt/conda/bin/torchrun", line 8, in <module>',
        "    sys.exit(main())",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ",
        "============================================================",
        f"{script} FAILED",
        "------------------------------------------------------------",
        "Failures:",
        "  <NO_OTHER_FAILURES>" if nproc == 1 else f"[1]:\n  time      : 2026-05-01_12:00:{r.randint(10, 59)}\n  host      : "
        f"{r.choice(HOSTS)}\n  rank      : {(rank + 1) % nproc} (local_rank: {(rank + 1) % nproc})\n  exitcode  : -15 "
        f"(pid: {pid + 1})\n  error_file: <N/A>\n  traceback : Signal 15 (SIGTERM) received by PID {pid + 1}",
        "------------------------------------------------------------",
        "Root Cause (first observed failure):",
        "[0]:",
        f"  time      : 2026-05-01_12:00:{r.randint(10, 59)}",
        f"  host      : {r.choice(HOSTS)}",
        f"  rank      : {rank} (local_rank: {rank})",
        f"  exitcode  : {code} (pid: {pid})",
        "  error_file: <N/A>",
        f"  traceback : Signal {-code} ({'SIGSEGV' if code == -11 else 'SIGKILL' if code == -9 else 'SIGABRT'}) "
        f"received by PID {pid}" if sig else
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        "============================================================",
    ]


def startup(r: random.Random) -> Lines:
    n = r.choice([1, 2, 4, 8])
    return [
        f"+ torchrun --nproc_per_node={n} --nnodes=1 /workspace/{r.choice(SCRIPTS)} --config configs/run.yaml",
        f"W0501 10:00:0{r.randint(0, 9)}.{r.randint(100000, 999999)} 1 torch/distributed/run.py:779] ",
        "W0501 10:00:01 1 torch/distributed/run.py:779] *****************************************",
        "W0501 10:00:01 1 torch/distributed/run.py:779] Setting OMP_NUM_THREADS environment variable for each process "
        "to be 1 in default, to avoid your system being overloaded, please further tune the variable for optimal "
        "performance in your application as needed.",
        "W0501 10:00:01 1 torch/distributed/run.py:779] *****************************************",
        f"Loading checkpoint shards: 100%|██████████| {r.randint(2, 4)}/{r.randint(2, 4)} [00:0{r.randint(1, 9)}<00:00,"
        f"  {r.uniform(0.3, 2):.2f}s/it]",
    ]


# ------------------------------------------------------------------------------------------------- k8s formats


def describe_pod(r: random.Random, *, state: str, last_state: list[str] | None, events: list[tuple[str, str, str, str]],
                 restarts: int = 0, image: str | None = None, status: str = "Running", extra_status: Lines = ()) -> Lines:
    name = f"{r.choice(['train', 'finetune', 'llm-sft', 'resnet'])}-{r.choice(['job', 'run'])}-{r.randint(1000, 9999)}-" \
           f"{''.join(r.choice('abcdefghjkmnpqrstvwxz2456789') for _ in range(5))}"
    image = image or f"nvcr.io/nvidia/pytorch:{r.choice(['23.10', '24.01', '24.05'])}-py3"
    node = r.choice(HOSTS)
    out = [
        f"Name:             {name}",
        f"Namespace:        {r.choice(['ml-team', 'default', 'research', 'osmo-prod'])}",
        "Priority:         0",
        f"Service Account:  default",
        f"Node:             {node}/10.0.{r.randint(0, 255)}.{r.randint(1, 254)}" if status != "Pending" else "Node:             <none>",
        f"Start Time:       Fri, 01 May 2026 10:0{r.randint(0, 9)}:12 +0000",
        f"Labels:           batch.kubernetes.io/job-name={name.rsplit('-', 1)[0]}",
        f"                  controller-uid={r.getrandbits(32):08x}-1c2d-4e5f-8a9b-{r.getrandbits(48):012x}",
        "Annotations:      <none>",
        f"Status:           {status}",
        f"IP:               10.244.{r.randint(0, 9)}.{r.randint(2, 250)}",
        f"Controlled By:  Job/{name.rsplit('-', 1)[0]}",
        "Containers:",
        "  trainer:",
        f"    Container ID:   containerd://{r.getrandbits(128):032x}" if status != "Pending" else "    Container ID:   ",
        f"    Image:          {image}",
        f"    Image ID:       " + (f"{image.split(':')[0]}@sha256:{r.getrandbits(128):032x}" if status != "Pending" else ""),
        "    Port:           <none>",
        "    Host Port:      <none>",
        "    Command:",
        "      bash",
        "      -c",
        f"      python /workspace/{r.choice(SCRIPTS)} --epochs 3",
        f"    State:          {state.splitlines()[0]}",
    ]
    out += [f"      {s}" for s in state.splitlines()[1:]]
    if last_state:
        out.append(f"    Last State:     {last_state[0]}")
        out += [f"      {s}" for s in last_state[1:]]
    out += [
        f"    Ready:          {'True' if state.startswith('Running') else 'False'}",
        f"    Restart Count:  {restarts}",
        "    Limits:",
        f"      cpu:             {r.choice([8, 16, 32])}",
        f"      memory:          {r.choice([32, 64, 128])}Gi",
        f"      nvidia.com/gpu:  {r.choice([1, 2, 4, 8])}",
        "    Requests:",
        f"      cpu:             {r.choice([4, 8])}",
        f"      memory:          {r.choice([16, 32])}Gi",
        "    Environment:",
        "      NCCL_DEBUG:   WARN",
        "      HF_HOME:      /cache/hf",
        "    Mounts:",
        "      /dev/shm from dshm (rw)",
        "      /data from data (ro)",
        f"      /var/run/secrets/kubernetes.io/serviceaccount from kube-api-access-{r.getrandbits(20):05x} (ro)",
        *extra_status,
        "Conditions:",
        "  Type              Status",
        f"  Initialized       {'True' if status != 'Pending' else 'False'}",
        f"  Ready             {'True' if state.startswith('Running') else 'False'}",
        f"  ContainersReady   {'True' if state.startswith('Running') else 'False'}",
        f"  PodScheduled      {'False' if status == 'Pending' else 'True'}",
        "Volumes:",
        "  dshm:",
        "    Type:       EmptyDir (a temporary directory that shares a pod's lifetime)",
        "    Medium:     Memory",
        "  data:",
        "    Type:       PersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)",
        f"    ClaimName:  {r.choice(['datasets-pvc', 'imagenet', 'shared-data'])}",
        "QoS Class:                   Burstable",
        "Node-Selectors:              nvidia.com/gpu.present=true",
        "Tolerations:                 node.kubernetes.io/not-ready:NoExecute op=Exists for 300s",
        "                             nvidia.com/gpu:NoSchedule op=Exists",
        "Events:",
        "  Type     Reason     Age                  From               Message",
        "  ----     ------     ----                 ----               -------",
    ]
    for typ, reason, frm, msg in events:
        age = r.choice(["2m", "14m", "3m12s", "41s", f"{r.randint(2, 59)}m (x{r.randint(2, 9)} over 1h)", "26m"])
        out.append(f"  {typ:<8} {reason:<10} {age:<20} {frm:<18} {msg}".replace("{node}", node))
    return out


def std_events(r: random.Random, image: str = "nvcr.io/nvidia/pytorch:24.05-py3") -> list[tuple[str, str, str, str]]:
    return [
        ("Normal", "Scheduled", "default-scheduler", "Successfully assigned ml-team/pod to {node}"),
        ("Normal", "Pulled", "kubelet", f'Container image "{image}" already present on machine'),
        ("Normal", "Created", "kubelet", "Created container trainer"),
        ("Normal", "Started", "kubelet", "Started container trainer"),
    ]


def get_pods(r: random.Random, rows: list[tuple[str, str, str, int]]) -> Lines:
    out = ["NAME                                READY   STATUS              RESTARTS        AGE"]
    for name, ready, status, restarts in rows:
        extra = f" ({r.randint(1, 50)}s ago)" if restarts else ""
        out.append(f"{name:<36}{ready:<8}{status:<20}{str(restarts) + extra:<16}{r.randint(2, 59)}m")
    return out


def sacct(r: random.Random, job: int, rows: list[tuple[str, str, str, str]]) -> Lines:
    out = ["JobID           JobName  Partition    Account  AllocCPUS      State ExitCode ",
           "------------ ---------- ---------- ---------- ---------- ---------- -------- "]
    for suffix, name, state, code in rows:
        out.append(f"{str(job) + suffix:<12} {name:>10} {'gpu' if not suffix else '':>10} {'ml-proj':>10} "
                   f"{r.choice([8, 16, 32]):>10} {state:>10} {code:>8} ")
    return out


def seff(r: random.Random, job: int, state: str, mem_pct: float, mem_gb: float, cpu_pct: float) -> Lines:
    used = mem_gb * mem_pct / 100
    return [
        f"Job ID: {job}",
        "Cluster: hpc",
        f"User/Group: {r.choice(['alice', 'bkumar', 'tchen'])}/ml",
        f"State: {state}",
        "Nodes: 1",
        f"Cores per node: {r.choice([8, 16])}",
        f"CPU Utilized: 0{r.randint(1, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)}",
        f"CPU Efficiency: {cpu_pct:.2f}% of 1{r.randint(0, 9)}:{r.randint(10, 59)}:00 core-walltime",
        f"Job Wall-clock time: 0{r.randint(0, 9)}:{r.randint(10, 59)}:{r.randint(10, 59)}",
        f"Memory Utilized: {used:.2f} GB",
        f"Memory Efficiency: {mem_pct:.2f}% of {mem_gb:.2f} GB",
    ]


# ---------------------------------------------------------------------------------------------------- gpu_oom


def cuda_oom_msg(r: random.Random) -> str:
    tot = r.choice([15.77, 23.65, 39.39, 79.15, 44.35])
    alloc = tot * r.uniform(0.8, 0.95)
    return (f"torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate {r.choice([256, 512, 1024])}.00 MiB "
            f"(GPU {r.randint(0, 7)}; {tot:.2f} GiB total capacity; {alloc:.2f} GiB already allocated; "
            f"{r.uniform(0.01, 0.3):.2f} GiB free; {alloc + 0.4:.2f} GiB reserved in total by PyTorch) If reserved memory "
            f"is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory "
            f"Management and PYTORCH_CUDA_ALLOC_CONF")


def gpu_oom_accelerate(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    tb = traceback(r, user_frames(r, script) + [
        (f"{site(r)}/accelerate/accelerator.py", 1964, "backward", "loss.backward(**kwargs)"),
        (f"{site(r)}/torch/_tensor.py", 492, "backward", "torch.autograd.backward(")], cuda_oom_msg(r))
    lines = startup(r) + benign(r, 3) + progress(r, r.randint(5, 60), "tqdm") + rank_prefix(tb, 0) \
        + rank_prefix(tb[:3] + [cuda_oom_msg(r)], 3) + torchrun_tail(r, script)
    return prefix(r, lines), "accelerate launch, [rankN]:-prefixed torch.cuda.OutOfMemoryError during backward"


def gpu_oom_dataloader_worker(r: random.Random) -> tuple[Lines, str]:
    lines = benign(r, 2) + progress(r, r.randint(3, 30), "lightning") + traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/utils/data/dataloader.py", 1345, "_next_data", "return self._process_data(data)"),
        (f"{site(r)}/torch/_utils.py", 694, "reraise", "raise exception")], [
        "torch.cuda.OutOfMemoryError: Caught OutOfMemoryError in DataLoader worker process 2.",
        "Original Traceback (most recent call last):",
        f'  File "{site(r)}/torch/utils/data/_utils/worker.py", line 308, in _worker_loop',
        "    data = fetcher.fetch(index)",
        '  File "/workspace/data/augment.py", line 88, in __call__',
        "    img = img.cuda(non_blocking=True)",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 96.00 MiB. GPU 0 has a total capacity of "
        "23.65 GiB of which 41.06 MiB is free. Process 41734 has 23.60 GiB memory in use. Of the allocated memory "
        "22.91 GiB is allocated by PyTorch, and 301.22 MiB is reserved by PyTorch but unallocated."])
    return prefix(r, lines), "CUDA OOM raised inside a DataLoader worker (GPU augmentation), re-raised in main process"


def gpu_oom_cublas(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(2, 12), "hf") + traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/nn/modules/linear.py", 114, "forward", "return F.linear(input, self.weight, self.bias)")],
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`")
    return prefix(r, lines), "CUBLAS_STATUS_ALLOC_FAILED: cuBLAS could not allocate its workspace -> GPU memory exhausted"


def gpu_oom_jax(r: random.Random) -> tuple[Lines, str]:
    lines = ["I0501 10:00:00.000000 140 xla_bridge.py:660] Unable to initialize backend 'rocm': NOT_FOUND",
             "I0501 10:00:01.000000 140 train.py:88] Devices: [cuda(id=0), cuda(id=1), cuda(id=2), cuda(id=3)]",
             *progress(r, r.randint(2, 20), "jax"),
             "2026-05-01 10:04:11.291834: W external/xla/xla/service/hlo_rematerialization.cc:2946] Can't reduce "
             "memory use below 30.71GiB (32978341888 bytes) by rematerialization; only reduced to 38.12GiB",
             "2026-05-01 10:04:21.762271: W external/tsl/tsl/framework/bfc_allocator.cc:485] Allocator (GPU_0_bfc) ran "
             "out of memory trying to allocate 6.00GiB (rounded to 6442450944)requested by op",
             *traceback(r, [("/workspace/train.py", 301, "<module>", "app.run(main)"),
                            ("/workspace/train.py", 270, "train_step", "state, metrics = p_train_step(state, batch)")],
                        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
                        "allocate 6442450944 bytes.")]
    return prefix(r, lines), "JAX/XLA RESOURCE_EXHAUSTED out of memory on a GPU allocator (GPU_0_bfc)"


def gpu_oom_tf(r: random.Random) -> tuple[Lines, str]:
    lines = ["Epoch 1/20", *progress(r, r.randint(3, 25), "keras"),
             "2026-05-01 10:12:03.551: W tensorflow/tsl/framework/bfc_allocator.cc:479] Allocator (GPU_0_bfc) ran out "
             "of memory trying to allocate 1.53GiB (rounded to 1642070016)requested by op model/conv2d_7/Conv2D",
             *traceback(r, [("/workspace/train_keras.py", 77, "<module>", "model.fit(ds, epochs=20)")],
                        ["tensorflow.python.framework.errors_impl.ResourceExhaustedError: Graph execution error:",
                         "",
                         "OOM when allocating tensor with shape[128,256,112,112] and type float on "
                         "/job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc",
                         "\t [[{{node model/conv2d_7/Conv2D}}]]",
                         "Hint: If you want to see a list of allocated tensors when OOM happens, add "
                         "report_tensor_allocations_upon_oom to RunOptions for current allocation info."])]
    return prefix(r, lines), "TensorFlow ResourceExhaustedError OOM when allocating tensor on GPU:0"


def gpu_oom_then_nccl(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    head = progress(r, r.randint(20, 80), "megatron")
    tb = traceback(r, user_frames(r, script) + [("/workspace/megatron/core/pipeline_parallel/schedules.py", 382,
                                                  "forward_backward_no_pipelining", "output_tensor = forward_step(")],
                   cuda_oom_msg(r))
    later = [f"[rank{k}]:[E501 10:40:0{k}.{r.randint(100, 999)} ProcessGroupNCCL.cpp:563] [Rank {k}] Watchdog caught "
             f"collective operation timeout: WorkNCCL(SeqNum={r.randint(1000, 9000)}, OpType=ALLREDUCE, NumelIn=1, "
             f"NumelOut=1, Timeout(ms)=600000) ran for 600123 milliseconds before timing out." for k in range(1, 4)]
    later += [f"[rank{k}]:[E501 10:40:0{k}] ProcessGroupNCCL.cpp:1537] [PG 0 Rank {k}] Timeout at NCCL work: "
              f"{r.randint(1000, 9000)}, last enqueued NCCL work: {r.randint(1000, 9000)}, last completed NCCL work: "
              f"{r.randint(1000, 9000)}." for k in range(1, 4)]
    later += ["terminate called after throwing an instance of 'c10::DistBackendError'",
              "  what():  [Rank 2] NCCL watchdog thread terminated with exception: [Rank 2] Watchdog caught collective "
              "operation timeout"]
    lines = head + rank_prefix(tb, 0) + later + torchrun_tail(r, script, -6, 1)
    return prefix(r, lines), "TRICKY: rank 0 OOMs first; the other ranks then hit NCCL watchdog timeouts (consequence)"


def gpu_oom_ray(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 9999)
    lines = [f"{ts(r)},100\tINFO worker.py:1724 -- Connecting to existing Ray cluster at address: 10.0.1.5:6379...",
             f"{ts(r)},200\tINFO worker.py:1900 -- Connected to Ray cluster. View the dashboard at 10.0.1.5:8265",
             *[f"(RayTrainWorker pid={pid}) {ln}" for ln in progress(r, r.randint(4, 20), "hf")],
             f"{ts(r)},300\tERROR tune_controller.py:1331 -- Trial task failed for trial TorchTrainer_{r.getrandbits(20):05x}",
             *traceback(r, [(f"{site(r)}/ray/air/execution/_internal/event_manager.py", 110, "resolve_future",
                             "result = ray.get(future)"),
                            (f"{site(r)}/ray/_private/worker.py", 2667, "get", "raise value.as_instanceof_cause()")],
                        [f"ray.exceptions.RayTaskError(OutOfMemoryError): ray::_Inner.train() (pid={pid}, "
                         f"ip=10.0.1.{r.randint(2, 200)}, actor_id={r.getrandbits(64):016x}, repr=TorchTrainer)",
                         '  File "/workspace/train_ray.py", line 64, in train_func',
                         "    outputs = model(**batch)",
                         cuda_oom_msg(r)])]
    return lines, "Ray RayTaskError wrapping torch.cuda.OutOfMemoryError (GPU OOM, not Ray's host-memory killer)"


def gpu_oom_deepspeed_then_hint(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 40), "deepspeed") + [
        f"[{ts(r)},201] [INFO] [utils.py:802:see_memory_usage] After forward: MA 71.2 GB Max_MA 77.9 GB CA 78.4 GB "
        f"Max_CA 78 GB", *traceback(r, user_frames(r) + [
            (f"{site(r)}/deepspeed/runtime/zero/stage_1_and_2.py", 1987, "backward",
             "self.loss_scaler.backward(loss.float(), retain_graph=retain_graph)")], cuda_oom_msg(r)),
        "wandb: Waiting for W&B process to finish... (failed 1). Press Control-C to abort syncing.",
        "wandb: 🚀 View run glorious-sun-12 at: https://wandb.ai/team/proj/runs/abc123",
        f"[{ts(r)},555] [INFO] [launch.py:347:main] Process {r.randint(100, 999)} exits successfully.",
        f"[{ts(r)},556] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
        f"'--local_rank=0'] exits with return code = 1"]
    return prefix(r, lines), "TRICKY: DeepSpeed ZeRO run OOMs in backward; wandb + launcher lines trail the real error"


# --------------------------------------------------------------------------------------------------- host_oom


def host_oom_describe(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       OOMKilled", "  Exit Code:    137",
            "  Started:      Fri, 01 May 2026 10:02:11 +0000", "  Finished:     Fri, 01 May 2026 10:31:54 +0000"]
    ev = std_events(r) + [("Warning", "BackOff", "kubelet", "Back-off restarting failed container trainer in pod "
                                                             "train-job-x_ml-team(uid)")]
    lines = describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last, events=ev,
                         restarts=r.randint(2, 6))
    return lines, "kubectl describe pod: Last State Terminated, Reason OOMKilled, Exit Code 137 (container memory limit)"


def host_oom_dmesg(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 99999)
    lines = progress(r, r.randint(5, 30)) + [
        f"[{r.randint(100000, 999999)}.{r.randint(100000, 999999)}] python invoked oom-killer: "
        f"gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0",
        f"[{r.randint(100000, 999999)}.{r.randint(100000, 999999)}] Out of memory: Killed process {pid} (python) "
        f"total-vm:{r.randint(80, 200)}000000kB, anon-rss:{r.randint(60, 120)}000000kB, file-rss:0kB, shmem-rss:0kB, "
        f"UID:1000 pgtables:{r.randint(100, 300)}000kB oom_score_adj:0",
        "Killed"]
    return prefix(r, lines, "plain"), "dmesg-style kernel OOM killer line: Out of memory: Killed process (python)"


def host_oom_ray(r: random.Random) -> tuple[Lines, str]:
    ip = f"10.0.{r.randint(0, 9)}.{r.randint(2, 200)}"
    lines = [f"(map pid={r.randint(100, 999)}) Preprocessing shard {i}/64" for i in range(r.randint(3, 12))] + [
        f"{ts(r)},100\tWARNING worker.py:2058 -- A worker died or was killed while executing a task by an unexpected "
        f"system error.",
        *traceback(r, [("/workspace/prep.py", 41, "<module>", "ray.get(refs)")],
                   [f"ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.",
                    f"Memory on the node (IP: {ip}, ID: {r.getrandbits(64):016x}) where the task (task ID: "
                    f"{r.getrandbits(64):016x}, name=tokenize, pid={r.randint(1000, 9999)}, memory used=7.02GB) was running"
                    f" was 59.41GB / 62.00GB (0.958), which exceeds the memory usage threshold of 0.95. Ray killed this "
                    f"worker (ID: {r.getrandbits(64):016x}) because it was the most recently scheduled task; to see more "
                    f"information about memory usage on this node, use `ray logs raylet.out -ip {ip}`.",
                    "Refer to the documentation on how to address the out of memory issue: "
                    "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html."])]
    return lines, "Ray memory monitor killed the task: node running low on (host) memory"


def host_oom_slurm(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = progress(r, r.randint(5, 40), "plain") + [
        f"slurmstepd: error: Detected 1 oom_kill event in StepId={job}.batch. Some of the step tasks have been OOM "
        f"Killed.", "srun: error: hpc-g12: task 0: Out Of Memory"]
    return lines, "slurmstepd oom_kill event in the batch step (host memory cgroup)"


def host_oom_seff(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = sacct(r, job, [("", "train", "OUT_OF_ME+", "0:125"), (".batch", "batch", "OUT_OF_ME+", "0:125"),
                           (".extern", "extern", "COMPLETED", "0:0")]) + [""] + \
        seff(r, job, "OUT_OF_MEMORY (exit code 0)", r.uniform(99.5, 104), r.choice([4.0, 16.0, 32.0]), r.uniform(20, 90))
    return lines, "sacct OUT_OF_ME+ state plus seff Memory Efficiency > 100% of the request"


def host_oom_dataloader_killed(r: random.Random) -> tuple[Lines, str]:
    lines = benign(r, 2) + progress(r, r.randint(10, 50), "tqdm") + traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/utils/data/dataloader.py", 1133, "_try_get_data",
         "raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited unexpectedly') from e")],
        f"RuntimeError: DataLoader worker (pid(s) {r.randint(1000, 9999)}) exited unexpectedly")
    lines = lines[:-1] + [f"ERROR: DataLoader worker (pid {r.randint(1000, 9999)}) is killed by signal: Killed. "] + lines[-1:]
    return prefix(r, lines), "DataLoader worker killed by signal: Killed (kernel OOM killer on host RAM)"


def host_oom_bus_error(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 9999)
    lines = progress(r, r.randint(2, 10), "tqdm") + [
        "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared memory (shm).",
        *traceback(r, user_frames(r) + [(f"{site(r)}/torch/utils/data/_utils/signal_handling.py", 66, "handler",
                                         "_error_if_any_worker_fails()")],
                   f"RuntimeError: DataLoader worker (pid {pid}) is killed by signal: Bus error. It is possible that "
                   f"dataloader's workers are out of shared memory. Please try to raise your shared memory limit."),
        "Bus error (core dumped)"]
    return prefix(r, lines), ("Bus error from /dev/shm exhaustion in DataLoader workers. Labelled host_oom: /dev/shm is "
                              "tmpfs backed by RAM (Medium: Memory); the fix is more shared memory, i.e. memory, not "
                              "disk space")


def host_oom_get_pods(r: random.Random) -> tuple[Lines, str]:
    base = f"sft-{r.randint(100, 999)}"
    lines = ["$ kubectl get pods -n research", *get_pods(r, [(f"{base}-worker-0", "0/1", "OOMKilled", r.randint(1, 4)),
                                                             (f"{base}-worker-1", "1/1", "Running", 0),
                                                             ("jupyter-alice-0", "1/1", "Running", 0)])]
    return lines, "kubectl get pods: the training pod's STATUS is OOMKilled"


def host_oom_exit137_confirmed(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(50, 150), "hf") + [
        "Saving model checkpoint to /output/checkpoint-500",
        "[osmo] Container memory usage 63.9Gi of 64Gi limit",
        "[osmo] Task train exited with code 137 (OOMKilled: container exceeded its memory limit)"]
    return prefix(r, lines, "osmo"), "OSMO status: exit 137 with explicit OOMKilled memory-limit confirmation"


# ---------------------------------------------------------------------------------------------------- nccl


def nccl_unhandled(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    h = r.choice(HOSTS)
    lines = startup(r) + [
        f"{h}:{r.randint(100, 999)}:{r.randint(100, 999)} [0] NCCL INFO Bootstrap : Using eth0:10.0.0.{r.randint(2, 99)}<0>",
        f"{h}:{r.randint(100, 999)}:{r.randint(100, 999)} [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0",
        f"{h}:{r.randint(100, 999)}:{r.randint(100, 999)} [1] misc/socket.cc:538 NCCL WARN Net : Connect to "
        f"10.0.0.{r.randint(100, 200)}<{r.randint(30000, 60000)}> failed : Software caused connection abort",
        f"{h}:{r.randint(100, 999)}:{r.randint(100, 999)} [1] NCCL INFO transport/net_socket.cc:333 -> 6",
        *rank_prefix(traceback(r, user_frames(r, script) + [
            (f"{site(r)}/torch/nn/parallel/distributed.py", 795, "__init__", "_verify_param_shape_across_processes(")],
            [f"torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:121, "
             f"unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1",
             "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
             "Last error:",
             "socketStartConnect: Connect to 10.0.0.145<44161> failed : Software caused connection abort"]), 1),
        *torchrun_tail(r, script, 1, 1)]
    return prefix(r, lines), "NCCL unhandled system error / socketStartConnect failure during DDP init"


def nccl_rendezvous(r: random.Random) -> tuple[Lines, str]:
    lines = [f"[{ts(r)},101] torch.distributed.elastic.rendezvous.dynamic_rendezvous: [INFO] The node "
             f"'{r.choice(HOSTS)}_123_0' attempts to join the next round of the rendezvous 'job-x'.",
             *traceback(r, [("/opt/conda/bin/torchrun", 8, "<module>", "sys.exit(main())"),
                            (f"{site(r)}/torch/distributed/elastic/rendezvous/dynamic_rendezvous.py", 1087,
                             "next_rendezvous", "self._op_executor.run(join_op, deadline)")],
                        "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError: The node "
                        f"'{r.choice(HOSTS)}_123_0' has timed out while waiting for other nodes to join the rendezvous "
                        "'job-x' (2/4 nodes joined).")]
    return prefix(r, lines), "torchrun rendezvous timed out waiting for peer nodes (distributed setup, not job time limit)"


def nccl_watchdog(r: random.Random) -> tuple[Lines, str]:
    n = r.randint(40, 300)
    lines = progress(r, n, "plain") + [
        f"[rank{k}]:[E501 11:{r.randint(10, 59)}:00.{r.randint(100, 999)}] ProcessGroupNCCL.cpp:{r.choice([563, 1537])}] "
        f"[Rank {k}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={r.randint(10000, 99999)}, "
        f"OpType=ALLREDUCE, NumelIn={r.randint(100000, 9999999)}, NumelOut=..., Timeout(ms)=1800000) ran for 1800{r.randint(100, 999)} "
        f"milliseconds before timing out." for k in r.sample(range(8), 3)] + [
        "[rank5]:[E501 11:45:00] ProcessGroupNCCL.cpp:577] [Rank 5] Some NCCL operations have failed or timed out. Due "
        "to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
        "[rank5]:[E501 11:45:00] ProcessGroupNCCL.cpp:583] [Rank 5] To avoid data inconsistency, we are taking the "
        "entire process down.",
        "terminate called after throwing an instance of 'c10::DistBackendError'"]
    return prefix(r, lines), "NCCL watchdog collective timeout (ALLREDUCE hung) with no earlier root error on any rank"


def nccl_ib_retry(r: random.Random) -> tuple[Lines, str]:
    h = r.choice(HOSTS)
    lines = progress(r, r.randint(20, 200), "megatron") + [
        f"{h}:3312:3551 [3] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.1.0.{r.randint(2, 99)}"
        f"<{r.randint(30000, 60000)}> with error 12, opcode 0, len 0, vendor err 129 (Recv) localGid fe80::... "
        f"remoteGid fe80::...",
        f"{h}:3312:3551 [3] NCCL INFO transport/net.cc:1137 -> 6",
        f"{h}:3312:3551 [3] NCCL INFO proxy.cc:859 -> 6",
        f"{h}:3312:3551 [3] proxy.cc:1001 NCCL WARN [Proxy Thread] Error encountered progressing operation=Recv, "
        f"res=3, closing connection",
        "RuntimeError: NCCL communicator was aborted on rank 3.  Original reason for failure was: NCCL error: "
        "remote process exited or there was a network error, NCCL version 2.19.3",
        "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely.",
        "Last error:",
        "NET/IB : Got completion from peer with error 12, opcode 0, len 0, vendor err 129 (Recv)"]
    return prefix(r, lines), "InfiniBand completion error 12 (IBV_WC_RETRY_EXC_ERR) -> NCCL communicator aborted"


def nccl_gloo(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(3, 20), "hf") + rank_prefix(traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/distributed/distributed_c10d.py", 3678, "barrier", "work.wait()")],
        f"RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
        f"[10.0.2.{r.randint(2, 200)}]:{r.randint(20000, 60000)}"), 2, "default")
    return prefix(r, lines), "gloo barrier: Connection closed by peer (a distributed peer went away)"


def nccl_mismatch(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(3, 10)) + rank_prefix(traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/distributed/c10d_logger.py", 72, "wrapper", "return func(*args, **kwargs)")],
        "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 3/4 clients joined."), 0)
    return prefix(r, lines), "TCPStore DistStoreError: not all ranks joined the store (distributed bootstrap failure)"


# ------------------------------------------------------------------------------------------ missing_dependency


def dep_module(r: random.Random) -> tuple[Lines, str]:
    mod = r.choice(["flash_attn", "deepspeed", "peft", "bitsandbytes", "sentencepiece", "wandb", "timm", "einops"])
    lines = benign(r, r.randint(0, 3)) + traceback(r, [(f"/workspace/{r.choice(SCRIPTS)}", r.randint(5, 30), "<module>",
                                                        f"import {mod}")],
                                                   f"ModuleNotFoundError: No module named '{mod}'")
    return prefix(r, lines), f"ModuleNotFoundError for {mod} at import time"


def dep_cmd_not_found(r: random.Random) -> tuple[Lines, str]:
    cmd = r.choice(["deepspeed", "accelerate", "jq", "aws", "gsutil", "torchrun", "nvidia-smi"])
    shell = r.choice([f"bash: line 1: {cmd}: command not found", f"/bin/sh: 1: {cmd}: not found",
                      f"/usr/bin/env: '{cmd}': No such file or directory", f"sh: {cmd}: command not found"])
    lines = [f"+ cd /workspace", "+ export PYTHONUNBUFFERED=1", f"+ {cmd} --version", shell]
    if r.random() < 0.6:
        lines.append(f"[{ts(r)}] [osmo] Task exited with code 127")
    return prefix(r, lines), f"shell could not find `{cmd}` (exit 127 = command not found)"


def dep_import_name(r: random.Random) -> tuple[Lines, str]:
    lines = traceback(r, [("/workspace/train.py", 12, "<module>", "from transformers import LlamaForCausalLM, "
                                                                    "BitsAndBytesConfig"),
                          (f"{site(r)}/transformers/__init__.py", 26, "<module>", "from . import dependency_versions_check")],
                      ["ImportError: peft>=0.5.0 is required for a normal functioning of this module, but found "
                       "peft==0.3.0.",
                       "Try: `pip install transformers -U` or `pip install -e '.[dev]'` if you're working with git main"])
    return prefix(r, lines), "dependency version check: required package version not installed"


def dep_remote_code(r: random.Random) -> tuple[Lines, str]:
    pkgs = r.choice(["einops", "flash_attn", "tiktoken, einops", "transformers_stream_generator"])
    lines = [f"Downloading shards: 100%|██████████| 2/2 [00:{r.randint(10, 59)}<00:00, 20.1s/it]",
             *traceback(r, [("/workspace/sft.py", 41, "<module>",
                             "model = AutoModelForCausalLM.from_pretrained(args.model, trust_remote_code=True)"),
                            (f"{site(r)}/transformers/dynamic_module_utils.py", 180, "check_imports",
                             "raise ImportError(")],
                       f"ImportError: This modeling file requires the following packages that were not found in your "
                       f"environment: {pkgs}. Run `pip install {pkgs.replace(',', '')}`")]
    return prefix(r, lines), "trust_remote_code modeling file needs packages absent from the image"


def dep_exec_not_found_k8s(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       StartError",
            '  Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: '
            'runc create failed: unable to start container process: exec: "torchrun": executable file not found in '
            '$PATH: unknown', "  Exit Code:    128"]
    ev = std_events(r) + [("Warning", "Failed", "kubelet", 'Error: failed to create containerd task: exec: "torchrun": '
                                                           'executable file not found in $PATH: unknown')]
    return describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last, events=ev,
                        restarts=3, image="python:3.11-slim"), "container entrypoint binary not in the image ($PATH)"


def dep_describe_127(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       Error", "  Exit Code:    127",
            "  Started:      Fri, 01 May 2026 09:12:01 +0000", "  Finished:     Fri, 01 May 2026 09:12:01 +0000"]
    lines = describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last,
                         events=std_events(r) + [("Warning", "BackOff", "kubelet",
                                                  "Back-off restarting failed container trainer")], restarts=5)
    lines += ["", "$ kubectl logs train-job-1 --previous", "/bin/bash: line 1: python3: command not found"]
    return lines, "describe pod exit code 127 + previous logs: python3: command not found"


# ------------------------------------------------------------------------------------------- file_not_found


def fnf_data(r: random.Random) -> tuple[Lines, str]:
    path = r.choice(["/data/train.jsonl", "/mnt/datasets/imagenet/train/n01440764", "/lustre/proj/tok/shard_00017.bin",
                     "./configs/deepspeed_zero3.json"])
    lines = benign(r, r.randint(0, 4)) + traceback(r, user_frames(r) + [
        ("/workspace/data.py", 42, "load", "with open(path) as f:")],
        f"FileNotFoundError: [Errno 2] No such file or directory: '{path}'")
    return prefix(r, lines), f"FileNotFoundError on input {path}"


def fnf_s3_key(r: random.Random) -> tuple[Lines, str]:
    lines = traceback(r, [("/workspace/fetch.py", 20, "<module>", "s3.download_file(bucket, key, dst)"),
                          (f"{site(r)}/botocore/client.py", 1009, "_make_api_call", "raise error_class(parsed_response, "
                                                                                     "operation_name)")],
                      ["botocore.exceptions.ClientError: An error occurred (404) when calling the HeadObject operation: "
                       "Not Found"])
    lines = [f"Downloading s3://ml-data/{r.choice(['v3', 'v4'])}/train-{r.randint(0, 99):05d}.tar"] + lines
    return prefix(r, lines), "S3 HeadObject 404 Not Found: the object key does not exist"


def fnf_tf(r: random.Random) -> tuple[Lines, str]:
    lines = ["Epoch 1/5", *traceback(r, [("/workspace/train_tf.py", 58, "<module>", "ds = load_tfrecords(args.data)")],
                                     f"tensorflow.python.framework.errors_impl.NotFoundError: "
                                     f"/data/tfrecords/train-00000-of-01024; No such file or directory")]
    return prefix(r, lines), "TensorFlow NotFoundError for tfrecord shard"


def fnf_ckpt_resume(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, 0) + [f"Resuming from checkpoint /checkpoints/run-{r.randint(1, 99)}/last.ckpt", *traceback(
        r, user_frames(r) + [(f"{site(r)}/lightning/fabric/utilities/cloud_io.py", 56, "_load",
                              "with fs.open(path_or_url, \"rb\") as f:")],
        f"FileNotFoundError: [Errno 2] No such file or directory: '/checkpoints/run-{r.randint(1, 99)}/last.ckpt'")]
    return prefix(r, lines), "resume checkpoint path does not exist"


def fnf_shell(r: random.Random) -> tuple[Lines, str]:
    lines = [f"+ ls /mnt/shared/{r.choice(['data', 'weights', 'vocab'])}",
             f"ls: cannot access '/mnt/shared/data': No such file or directory",
             "+ python train.py --data /mnt/shared/data",
             *traceback(r, user_frames(r), "FileNotFoundError: [Errno 2] No such file or directory: "
                                          "'/mnt/shared/data/meta.json'")]
    return prefix(r, lines), "input directory missing (ls then python both report No such file or directory)"


# ------------------------------------------------------------------------------------------------- nan_loss


def nan_custom(r: random.Random) -> tuple[Lines, str]:
    n = r.randint(10, 80)
    lines = progress(r, n, "plain") + [f"step {n * 10 + 10} loss nan lr 3.00e-04 tok/s 51234",
                                       f"step {n * 10 + 20} loss nan lr 3.00e-04 tok/s 51200"] + traceback(
        r, user_frames(r), f"RuntimeError: Loss became NaN at step {n * 10 + 20}; aborting")
    return prefix(r, lines), "loss printed as nan then the script aborts on NaN loss"


def nan_deepspeed_min_scale(r: random.Random) -> tuple[Lines, str]:
    out = progress(r, r.randint(10, 40), "deepspeed")
    scale = 65536.0
    while scale >= 1:
        out.append(f"[{ts(r)},{r.randint(100, 999)}] [INFO] [fused_optimizer.py:362:_update_scale] "
                   f"Grad overflow on iteration {r.randint(1000, 9999)}")
        out.append(f"[{ts(r)},{r.randint(100, 999)}] [INFO] [fused_optimizer.py:363:_update_scale] Reducing dynamic "
                   f"loss scale from {scale} to {scale / 2}")
        out.append(f"[{ts(r)},{r.randint(100, 999)}] [INFO] [logging.py:96:log_dist] [Rank 0] Overflow detected. "
                   f"Skipping step. Attempted loss scale: {scale}, reducing to {scale / 2}")
        scale /= 2
    out += [*traceback(r, user_frames(r) + [(f"{site(r)}/deepspeed/runtime/fp16/loss_scaler.py", 183,
                                             "update_scale", "raise Exception(")],
                       "Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.")]
    return prefix(r, out), "fp16 loss scale collapsed to its minimum: gradients are inf/NaN every step (diverged)"


def nan_keras(r: random.Random) -> tuple[Lines, str]:
    lines = ["Epoch 1/30", *progress(r, r.randint(3, 15), "keras"),
             f"{r.randint(100, 900)}/1563 [=====>........................] - ETA: 41s - loss: nan - accuracy: 0.1000",
             f"Batch {r.randint(100, 900)}: Invalid loss, terminating training",
             f"{r.randint(100, 900)}/1563 [=====>........................] - 12s 8ms/step - loss: nan - accuracy: 0.1000"]
    return prefix(r, lines), "Keras TerminateOnNaN stopped training on NaN loss"


def nan_anomaly(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(5, 25), "hf") + [
        f"{site(r)}/torch/autograd/__init__.py:251: UserWarning: Error detected in LogSoftmaxBackward0. Traceback of "
        "forward call that caused the error:", '  File "/workspace/model.py", line 77, in forward',
        "    logp = F.log_softmax(logits / self.temperature, dim=-1)",
        *traceback(r, user_frames(r), "RuntimeError: Function 'LogSoftmaxBackward0' returned nan values in its 0th output.")]
    return prefix(r, lines), "autograd anomaly detection: backward returned nan values"


def nan_lightning(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 60), "lightning") + [
        "Epoch 2:  41%|████      | 410/1000 [03:11<04:35,  2.14it/s, v_num=7, train_loss=nan]",
        "Epoch 2:  41%|████      | 411/1000 [03:11<04:35,  2.14it/s, v_num=7, train_loss=nan]",
        "Monitored metric val_loss = nan is not finite. Previous best value was 0.412. Signaling Trainer to stop."]
    return prefix(r, lines), "Lightning EarlyStopping check_finite stopped the run: monitored loss became nan"


def nan_fairseq(r: random.Random) -> tuple[Lines, str]:
    lines = [f"2026-05-01 10:{r.randint(10, 59)}:00 | INFO | train_inner | epoch 001:    {i * 100} / 5000 loss="
             f"{9 - i * 0.1:.3f}, ppl={2 ** (9 - i * 0.1):.2f}, wps=41234, ups=1.2, lr=0.0005, gnorm=1.{i}, "
             f"loss_scale=128" for i in range(1, r.randint(5, 30))] + [
        "2026-05-01 11:00:00 | INFO | fairseq.trainer | NOTE: gradient overflow detected, ignoring gradient, setting "
        "loss scale to: 0.0001",
        *traceback(r, [(f"{site(r)}/fairseq/trainer.py", 907, "train_step", "raise FloatingPointError(")],
                   "FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding. Try "
                   "lowering the learning rate, using gradient clipping or increasing the batch size.")]
    return prefix(r, lines), "fairseq minimum loss scale reached: loss exploding"


# ----------------------------------------------------------------------------------------------- image_pull


def img_describe(r: random.Random) -> tuple[Lines, str]:
    image = f"registry.example.com/ml/{r.choice(['trainer', 'llm-sft', 'vision'])}:{r.choice(['v2.3.1', 'latest', 'cu121-nightly'])}"
    why = r.choice([
        f'rpc error: code = NotFound desc = failed to pull and unpack image "{image}": failed to resolve reference '
        f'"{image}": {image}: not found',
        f'rpc error: code = Unknown desc = failed to pull and unpack image "{image}": failed to resolve reference '
        f'"{image}": pull access denied, repository does not exist or may require authorization: server message: '
        f'insufficient_scope: authorization failed',
        f'rpc error: code = Unknown desc = Error response from daemon: manifest for {image} not found: manifest '
        f'unknown: manifest unknown'])
    ev = [("Normal", "Scheduled", "default-scheduler", "Successfully assigned ml-team/pod to {node}"),
          ("Normal", "Pulling", "kubelet", f'Pulling image "{image}"'),
          ("Warning", "Failed", "kubelet", f'Failed to pull image "{image}": {why}'),
          ("Warning", "Failed", "kubelet", "Error: ErrImagePull"),
          ("Normal", "BackOff", "kubelet", f'Back-off pulling image "{image}"'),
          ("Warning", "Failed", "kubelet", "Error: ImagePullBackOff")]
    return describe_pod(r, state="Waiting\n  Reason:       ImagePullBackOff", last_state=None, events=ev,
                        image=image, status="Pending"), "describe pod: Failed to pull image / ImagePullBackOff"


def img_get_pods(r: random.Random) -> tuple[Lines, str]:
    b = f"pretrain-{r.randint(100, 999)}"
    status = r.choice(["Init:ErrImagePull", "Init:ImagePullBackOff", "ErrImagePull", "ImagePullBackOff"])
    lines = ["$ kubectl get pods", *get_pods(r, [(f"{b}-launcher-abcde", "0/1", status, 0),
                                                 (f"{b}-worker-0", "0/1", "Pending", 0)])]
    return lines, f"kubectl get pods STATUS {status}"


def img_osmo(r: random.Random) -> tuple[Lines, str]:
    image = f"nvcr.io/{r.choice(['myorg', 'team-x'])}/private/trainer:{r.randint(1, 9)}.{r.randint(0, 9)}"
    lines = [f"Workflow status: FAILED_IMAGE_PULL",
             f"Task train: FAILED_IMAGE_PULL",
             f'  Failed to pull image "{image}": rpc error: code = Unknown desc = failed to pull and unpack image '
             f'"{image}": failed to resolve reference "{image}": unexpected status from HEAD request to '
             f'https://nvcr.io/v2/{image[8:].replace(":", "/manifests/")}: 401 Unauthorized',
             "No logs available for task train (container never started)."]
    return lines, "OSMO FAILED_IMAGE_PULL from a private registry (401 on manifest HEAD) - pull failure, not job auth"


def img_invalid(r: random.Random) -> tuple[Lines, str]:
    image = f"Registry.Example.com/ML/Trainer:{r.choice(['v1', 'dev'])}"
    ev = [("Normal", "Scheduled", "default-scheduler", "Successfully assigned ml-team/pod to {node}"),
          ("Warning", "InspectFailed", "kubelet", f'Failed to apply default image tag "{image}": couldn\'t parse image '
                                                  f'reference "{image}": invalid reference format: repository name must '
                                                  f'be lowercase'),
          ("Warning", "Failed", "kubelet", "Error: InvalidImageName")]
    return describe_pod(r, state="Waiting\n  Reason:       InvalidImageName", last_state=None, events=ev,
                        image=image, status="Pending"), "InvalidImageName: image reference cannot be parsed"


def img_docker(r: random.Random) -> tuple[Lines, str]:
    image = f"ghcr.io/lab/{r.choice(['train', 'bench'])}:{r.choice(['sha-1a2b3c', '2026.04'])}"
    lines = [f"$ docker run --gpus all {image} python train.py",
             f"Unable to find image '{image}' locally",
             f"docker: Error response from daemon: manifest unknown.",
             "See 'docker run --help'."]
    return lines, "docker run could not find the image tag in the registry"


# --------------------------------------------------------------------------------------------- unschedulable


def unsched_describe(r: random.Random) -> tuple[Lines, str]:
    n = r.randint(6, 64)
    msg = r.choice([
        f"0/{n} nodes are available: {n - 2} Insufficient nvidia.com/gpu, 2 node(s) had untolerated taint "
        f"{{node-role.kubernetes.io/control-plane: }}. preemption: 0/{n} nodes are available: 2 Preemption is not "
        f"helpful for scheduling, {n - 2} No preemption victims found for incoming pod.",
        f"0/{n} nodes are available: {n} Insufficient memory. preemption: 0/{n} nodes are available: {n} No preemption "
        f"victims found for incoming pod.",
        f"0/{n} nodes are available: {n} node(s) didn't match Pod's node affinity/selector. preemption: 0/{n} nodes are "
        f"available: {n} Preemption is not helpful for scheduling.",
        f"0/{n} nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/{n} nodes are "
        f"available: {n} Preemption is not helpful for scheduling."])
    ev = [("Warning", "FailedScheduling", "default-scheduler", msg),
          ("Normal", "NotTriggerScaleUp", "cluster-autoscaler", "pod didn't trigger scale-up: 2 max node group size "
                                                                  "reached, 1 Insufficient nvidia.com/gpu")]
    return describe_pod(r, state="Waiting\n  Reason:       ContainerCreating", last_state=None, events=ev,
                        status="Pending"), "describe pod Pending with FailedScheduling"


def unsched_slurm(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 999999)
    reason = r.choice(["(ReqNodeNotAvail, UnavailableNodes:hpc-g[01-08])", "(QOSMaxGRESPerUser)",
                       "(PartitionNodeLimit)", "(AssocGrpGRES)"])
    lines = ["$ squeue -u $USER",
             "             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)",
             f"           {job}       gpu    train    alice PD       0:00      4 {reason}",
             f"$ scontrol show job {job} | grep -i reason",
             f"   JobState=PENDING Reason={reason.strip('()').split(',')[0]} Dependency=(null)"]
    return lines, f"Slurm job stuck PD with reason {reason}"


def unsched_get_pods(r: random.Random) -> tuple[Lines, str]:
    lines = get_pods(r, [(f"ddp-{r.randint(10, 99)}-worker-{i}", "0/1", "Pending", 0) for i in range(4)]) + [
        "", "$ kubectl get events --field-selector reason=FailedScheduling",
        "LAST SEEN   TYPE      REASON             OBJECT                  MESSAGE",
        f"{r.randint(1, 59)}s         Warning   FailedScheduling   pod/ddp-31-worker-0     0/12 nodes are available: 12 "
        f"Insufficient nvidia.com/gpu. preemption: 0/12 nodes are available: 12 No preemption victims found for "
        f"incoming pod."]
    return lines, "kubectl get pods all Pending + FailedScheduling events (insufficient GPUs)"


def unsched_karpenter(r: random.Random) -> tuple[Lines, str]:
    ev = [("Warning", "FailedScheduling", "karpenter", 'Failed to schedule pod, incompatible with nodepool "gpu", '
                                                       'daemonset overhead={"cpu":"210m","memory":"240Mi","pods":"5"}, '
                                                       'no instance type satisfied resources {"cpu":"96","memory":'
                                                       '"1200Gi","nvidia.com/gpu":"8","pods":"1"} and requirements '
                                                       'karpenter.k8s.aws/instance-family In [p4d p5]'),
          ("Warning", "FailedScheduling", "default-scheduler", "0/3 nodes are available: 3 Insufficient memory.")]
    return describe_pod(r, state="Waiting\n  Reason:       ContainerCreating", last_state=None, events=ev,
                        status="Pending"), "Karpenter: no instance type satisfies the request (pod never scheduled)"


def unsched_osmo(r: random.Random) -> tuple[Lines, str]:
    lines = ["Workflow ID : train-llama-42", "Status      : PENDING",
             "Task Name        Start Time    Status",
             "train            -             SCHEDULING",
             f"[osmo] Task train is waiting for resources: pool 'h100-pool' has 0/{r.randint(16, 64)} GPUs available "
             f"(quota {r.randint(8, 16)} GPUs used of {r.randint(8, 16)}), request needs 8 GPUs.",
             "[osmo] 0/8 nodes are available: 8 Insufficient nvidia.com/gpu."]
    return lines, "OSMO workflow stuck SCHEDULING: not enough GPUs in the pool"


# -------------------------------------------------------------------------------------------------- timeout


def timeout_slurm(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = progress(r, r.randint(30, 400), r.choice(["plain", "megatron", "hf"])) + [
        f"slurmstepd: error: *** JOB {job} ON {r.choice(HOSTS)} CANCELLED AT 2026-05-02T10:00:{r.randint(10, 59)} DUE TO "
        f"TIME LIMIT ***",
        f"slurmstepd: error: *** STEP {job}.0 ON {r.choice(HOSTS)} CANCELLED AT 2026-05-02T10:00:{r.randint(10, 59)} DUE "
        f"TO TIME LIMIT ***"]
    if r.random() < 0.6:
        lines += ["srun: Job step aborted: Waiting up to 32 seconds for job step to finish.",
                  "[2026-05-02 10:00:31] torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGTERM "
                  "death signal, shutting down workers",
                  "srun: error: hpc-g12: task 0: Killed", "srun: error: hpc-g13: task 1: Exited with exit code 143"]
        return lines, "TRICKY: Slurm CANCELLED DUE TO TIME LIMIT; SIGTERM/Killed/143 lines that follow are its effect"
    return lines, "Slurm CANCELLED DUE TO TIME LIMIT"


def timeout_sacct(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = sacct(r, job, [("", "pretrain", "TIMEOUT", "0:0"), (".batch", "batch", "CANCELLED", "0:15"),
                           (".extern", "extern", "COMPLETED", "0:0"), (".0", "python", "CANCELLED", "0:15")])
    if r.random() < 0.5:
        lines += [""] + seff(r, job, "TIMEOUT (exit code 0)", r.uniform(30, 70), 64.0, r.uniform(80, 99))
    return lines, "sacct State TIMEOUT for the job (steps CANCELLED as a consequence)"


def timeout_k8s_deadline(r: random.Random) -> tuple[Lines, str]:
    lines = [f"Name:           {r.choice(['eval', 'train'])}-nightly-{r.randint(100, 999)}",
             "Namespace:      research",
             "Selector:       batch.kubernetes.io/controller-uid=7c1e",
             "Parallelism:    1",
             "Completions:    1",
             "Completion Mode:  NonIndexed",
             "Start Time:     Fri, 01 May 2026 02:00:00 +0000",
             f"Active Deadline Seconds:  {r.choice([3600, 14400, 86400])}s",
             "Pods Statuses:  0 Active (0 Ready) / 0 Succeeded / 1 Failed",
             "Events:",
             "  Type     Reason            Age   From            Message",
             "  ----     ------            ----  ----            -------",
             "  Normal   SuccessfulCreate  4h    job-controller  Created pod: train-nightly-x7k2p",
             "  Normal   SuccessfulDelete  13m   job-controller  Deleted pod: train-nightly-x7k2p",
             "  Warning  DeadlineExceeded  13m   job-controller  Job was active longer than specified deadline"]
    return lines, "kubectl describe job: activeDeadlineSeconds exceeded (DeadlineExceeded)"


def timeout_osmo(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(50, 300), "hf") + [
        f"[osmo] Task train exceeded exec_timeout ({r.choice(['2h', '4h', '24h'])}); terminating.",
        "Received SIGTERM, saving emergency checkpoint... done",
        "Task status: FAILED_EXEC_TIMEOUT"]
    return prefix(r, lines, "osmo"), "OSMO FAILED_EXEC_TIMEOUT: the task ran past exec_timeout"


def timeout_pod_deadline(r: random.Random) -> tuple[Lines, str]:
    lines = describe_pod(r, state="Terminated\n  Reason:       DeadlineExceeded\n  Exit Code:    143", last_state=None,
                         events=std_events(r) + [("Normal", "Killing", "kubelet", "Stopping container trainer"),
                                                 ("Warning", "DeadlineExceeded", "kubelet",
                                                  "Pod was active on the node longer than the specified deadline")],
                         status="Failed")
    return lines, "Pod activeDeadlineSeconds: Pod was active on the node longer than the specified deadline"


# ------------------------------------------------------------------------------------------------ disk_full


def disk_errno28(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(20, 120), "hf") + [f"Saving model checkpoint to /output/checkpoint-{r.randint(1, 9)}000",
                                                     *traceback(r, user_frames(r) + [
        (f"{site(r)}/transformers/trainer.py", 2405, "_save_checkpoint", "self.save_model(output_dir, _internal_call=True)"),
        (f"{site(r)}/safetensors/torch.py", 281, "save_file", "serialize_file(_flatten(tensors), filename, "
                                                               "metadata=metadata)")],
        "OSError: [Errno 28] No space left on device")]
    return prefix(r, lines), "checkpoint save fails with Errno 28"


def disk_stream_writer(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    lines = progress(r, r.randint(20, 80), "plain") + rank_prefix(traceback(r, user_frames(r, script) + [
        (f"{site(r)}/torch/serialization.py", 619, "save", "_save(obj, opened_zipfile, pickle_module, pickle_protocol)"),
        (f"{site(r)}/torch/serialization.py", 492, "__exit__", "self.file_like.write_end_of_file()")],
        "RuntimeError: [enforce fail at inline_container.cc:595] . unexpected pos 4416495424 vs 4416495312"), 0)
    lines[-1:-1] = []
    lines = lines + rank_prefix(["During handling of the above exception, another exception occurred:", "",
                                 "RuntimeError: [enforce fail at inline_container.cc:424] . PytorchStreamWriter failed "
                                 "writing file data/317: file write failed"], 0) + torchrun_tail(r, script)
    return prefix(r, lines), "torch.save PytorchStreamWriter failed writing file (disk filled during checkpoint)"


def disk_shell(r: random.Random) -> tuple[Lines, str]:
    lines = [f"+ tar -xf /data/shards.tar -C /scratch", f"tar: ./shard_{r.randint(100, 999)}.bin: Wrote only 6144 of "
                                                         f"10240 bytes", "tar: Exiting with failure status due to "
                                                                         "previous errors",
             "cp: error writing '/scratch/vocab.bin': No space left on device"
             if r.random() < 0.5 else "cat: write error: No space left on device"]
    return prefix(r, lines), "shell extraction/copy: write error No space left on device"


def disk_evicted(r: random.Random) -> tuple[Lines, str]:
    ev = std_events(r) + [("Warning", "Evicted", "kubelet",
                           "Pod ephemeral local storage usage exceeds the total limit of containers 50Gi."),
                          ("Normal", "Killing", "kubelet", "Stopping container trainer")]
    lines = describe_pod(r, state="Terminated\n  Reason:       ContainerStatusUnknown\n  Exit Code:    137",
                         last_state=None, events=ev, status="Failed",
                         extra_status=["Reason:       Evicted",
                                       "Message:      Pod ephemeral local storage usage exceeds the total limit of "
                                       "containers 50Gi. "])
    return lines, "Evicted for ephemeral-storage (local disk) usage; 137 here is the eviction, not OOM"


def disk_pip(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ pip install -r requirements.txt",
             "Collecting torch==2.3.0", f"  Downloading torch-2.3.0-cp310-cp310-manylinux1_x86_64.whl (779.1 MB)",
             "     ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 779.1/779.1 MB 112.4 MB/s eta 0:00:00",
             "Installing collected packages: nvidia-cudnn-cu12, torch",
             "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device", "",
             "+ python train.py", *traceback(r, [("/workspace/train.py", 3, "<module>", "import torch")],
                                              "ModuleNotFoundError: No module named 'torch'")]
    return prefix(r, lines), ("TRICKY: pip install fails with Errno 28; the later ModuleNotFoundError is a consequence. "
                              "Root cause disk_full")


def disk_quota(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(5, 40)) + traceback(r, user_frames(r), [
        f"OSError: [Errno 122] Disk quota exceeded: '/home/{r.choice(['alice', 'bk'])}/.cache/huggingface/hub/tmp'"])
    return prefix(r, lines), "Errno 122 Disk quota exceeded (home directory quota, a disk-space limit)"


# ---------------------------------------------------------------------------------------------- cuda_driver


def cuda_no_kernel(r: random.Random) -> tuple[Lines, str]:
    lines = [f"{site(r)}/torch/cuda/__init__.py:209: UserWarning: ",
             "NVIDIA H100 80GB HBM3 with CUDA capability sm_90 is not compatible with the current PyTorch installation.",
             "The current PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_70 sm_75 sm_80.",
             *traceback(r, user_frames(r), ["RuntimeError: CUDA error: no kernel image is available for execution on "
                                            "the device",
                                            "CUDA kernel errors might be asynchronously reported at some other API call, "
                                            "so the stacktrace below might be incorrect.",
                                            "For debugging consider passing CUDA_LAUNCH_BLOCKING=1."])]
    return prefix(r, lines), "PyTorch build has no kernels for the GPU's compute capability"


def cuda_driver_old(r: random.Random) -> tuple[Lines, str]:
    lines = traceback(r, user_frames(r) + [(f"{site(r)}/torch/cuda/__init__.py", 298, "_lazy_init", "torch._C._cuda_init()")],
                      r.choice(["RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
                                "Please update your GPU driver by downloading and installing a new version from the URL: "
                                "http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to "
                                "install a PyTorch version that has been compiled with your version of the CUDA driver.",
                                "RuntimeError: CUDA driver version is insufficient for CUDA runtime version",
                                "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an "
                                "NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx"]))
    return prefix(r, lines), "driver missing or older than the CUDA runtime in the image"


def cuda_cudnn_init(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, 0) + traceback(r, user_frames(r) + [
        (f"{site(r)}/torch/nn/modules/conv.py", 456, "_conv_forward", "return F.conv2d(input, weight, bias, self.stride,")],
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED")
    return prefix(r, lines), "cuDNN could not initialize (library/driver mismatch)"


def cuda_nvml(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ nvidia-smi", "Failed to initialize NVML: Driver/library version mismatch",
             "NVML library version: 550.54", "+ python train.py",
             f"{site(r)}/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: Unexpected error from "
             f"cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that might have "
             f"already set an error? Error 803: system has unsupported display driver / cuda driver combination",
             *traceback(r, user_frames(r), "RuntimeError: No CUDA GPUs are available")]
    return prefix(r, lines), "NVML driver/library mismatch and CUDA error 803 on the node"


def cuda_container_cli(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       StartError",
            "  Message:      failed to create containerd task: failed to create shim task: OCI runtime create failed: "
            "runc create failed: unable to start container process: error during container init: error running hook "
            "#0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'",
            "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown",
            "  Exit Code:    128"]
    return describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last,
                        events=std_events(r), restarts=4), "nvidia-container-cli: driver not loaded on the node"


# ------------------------------------------------------------------------------------------- device_assert


def dev_index(r: random.Random) -> tuple[Lines, str]:
    asserts = [f"../aten/src/ATen/native/cuda/IndexKernel.cu:92: operator(): block: [{r.randint(0, 300)},0,0], thread: "
               f"[{t},0,0] Assertion `-sizes[i] <= index && index < sizes[i] && \"index out of bounds\"` failed."
               for t in range(r.randint(2, 40))]
    lines = progress(r, r.randint(0, 20), "hf") + asserts + traceback(r, user_frames(r) + [
        ("/workspace/model.py", 51, "forward", "x = self.embed(input_ids)")],
        ["RuntimeError: CUDA error: device-side assert triggered",
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
         "incorrect.", "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
         "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."])
    return prefix(r, lines), "index out of bounds device-side assert (embedding/vocab mismatch)"


def dev_nll(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(1, 10), "tqdm") + [
        f"/opt/conda/conda-bld/pytorch_1702400410390/work/aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce"
        f"_cuda_kernel_2d: block: [0,0,0], thread: [{t},0,0] Assertion `t >= 0 && t < n_classes` failed."
        for t in range(r.randint(1, 8))] + traceback(r, user_frames(r), [
        "RuntimeError: CUDA error: device-side assert triggered"]) + [
        "terminate called after throwing an instance of 'c10::Error'",
        "  what():  CUDA error: device-side assert triggered",
        "Exception raised from c10_cuda_check_implementation at ../c10/cuda/CUDAException.cpp:44 (most recent call first):",
        "Aborted (core dumped)"]
    return prefix(r, lines), "TRICKY: NLL target out of range -> device assert; trailing 'Aborted (core dumped)' is a consequence"


def dev_illegal(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    lines = progress(r, r.randint(10, 60), "plain") + rank_prefix(traceback(r, user_frames(r, script) + [
        ("/workspace/kernels/fused_rope.py", 133, "forward", "_rope_fwd_kernel[grid](q, k, cos, sin, seqlen)")],
        ["RuntimeError: CUDA error: an illegal memory access was encountered",
         "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
         "incorrect."]), 0) + [
        "[rank1]:[E501 10:22:11] ProcessGroupNCCL.cpp:1182] [Rank 1] NCCL watchdog thread terminated with exception: "
        "CUDA error: an illegal memory access was encountered"] + torchrun_tail(r, script, -6)
    return prefix(r, lines), ("illegal memory access in a custom kernel. Labelled device_assert: a device-side fault in "
                              "kernel code (debug with CUDA_LAUNCH_BLOCKING=1), not a driver install problem; the NCCL "
                              "watchdog line is a consequence")


def dev_cublas_exec(r: random.Random) -> tuple[Lines, str]:
    lines = [f"../aten/src/ATen/native/cuda/ScatterGatherKernel.cu:365: operator(): block: [{r.randint(0, 99)},0,0], "
             f"thread: [{t},0,0] Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed."
             for t in range(3)] + traceback(r, user_frames(r), "RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED "
                                                               "when calling `cublasSgemm( handle, opa, opb, m, n, k, "
                                                               "&alpha, a, lda, b, ldb, &beta, c, ldc)`")
    return prefix(r, lines), "TRICKY: gather index assert first; later CUBLAS_STATUS_EXECUTION_FAILED is collateral"


def dev_jax_check(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(3, 15)) + [
        "../aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [5,0,0], thread: [64,0,0] "
        "Assertion `idx_dim >= 0 && idx_dim < index_size && \"index scatter out of bounds\"` failed.",
        *traceback(r, user_frames(r), ["RuntimeError: CUDA error: device-side assert triggered",
                                       "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."])]
    return prefix(r, lines), "scatter index out of bounds device assert"


# --------------------------------------------------------------------------------------- permission_or_auth


def perm_gated(r: random.Random) -> tuple[Lines, str]:
    model = r.choice(["meta-llama/Llama-2-7b-hf", "meta-llama/Meta-Llama-3-8B", "mistralai/Mistral-7B-v0.3"])
    lines = traceback(r, [("/workspace/sft.py", 30, "<module>", "tok = AutoTokenizer.from_pretrained(args.model)"),
                          (f"{site(r)}/huggingface_hub/utils/_errors.py", 321, "hf_raise_for_status",
                           "raise GatedRepoError(message, response) from e")],
                      [f"huggingface_hub.utils._errors.GatedRepoError: 403 Client Error. (Request ID: "
                       f"Root=1-{r.getrandbits(32):08x})", "",
                       f"Cannot access gated repo for url https://huggingface.co/{model}/resolve/main/config.json.",
                       f"Access to model {model} is restricted and you are not in the authorized list. Visit "
                       f"https://huggingface.co/{model} to ask for access."])
    return prefix(r, lines), "HF gated repo 403: the token lacks access"


def perm_s3(r: random.Random) -> tuple[Lines, str]:
    op = r.choice(["PutObject", "GetObject", "ListObjectsV2", "CreateMultipartUpload"])
    lines = progress(r, r.randint(5, 100)) + [f"Uploading checkpoint to s3://team-ckpts/run-{r.randint(1, 99)}/"] + \
        traceback(r, [("/workspace/upload.py", 18, "<module>", "s3.upload_file(src, bucket, key)")],
                  f"botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the {op} operation: "
                  f"Access Denied")
    return prefix(r, lines), f"S3 AccessDenied on {op}"


def perm_publickey(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ git clone git@github.com:org/private-recipes.git /workspace/recipes", "Cloning into '/workspace/recipes'...",
             "Warning: Permanently added 'github.com' (ED25519) to the list of known hosts.",
             "git@github.com: Permission denied (publickey).", "fatal: Could not read from remote repository.", "",
             "Please make sure you have the correct access rights", "and the repository exists."]
    return prefix(r, lines), "git over ssh: Permission denied (publickey)"


def perm_errno13(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 50), "lightning") + traceback(r, user_frames(r) + [
        (f"{site(r)}/lightning/fabric/utilities/cloud_io.py", 70, "_atomic_save", "with fs.open(filepath, \"wb\") as f:")],
        f"PermissionError: [Errno 13] Permission denied: '/checkpoints/{r.choice(['shared', 'team'])}/epoch=0-step=500.ckpt'")
    return prefix(r, lines), "Errno 13 writing checkpoint to a read-only/foreign-owned directory"


def perm_wandb(r: random.Random) -> tuple[Lines, str]:
    lines = ["wandb: Currently logged in as: anonymous",
             *traceback(r, user_frames(r) + [(f"{site(r)}/wandb/sdk/wandb_login.py", 298, "_login",
                                              "raise UsageError(\"api_key not configured (no-tty). call \" + directive)")],
                        "wandb.errors.UsageError: api_key not configured (no-tty). call wandb.login(key=[your_api_key])")]
    return prefix(r, lines), "W&B has no API key in a non-interactive job"


def perm_k8s_rbac(r: random.Random) -> tuple[Lines, str]:
    lines = [f"Error from server (Forbidden): pods is forbidden: User \"system:serviceaccount:research:default\" cannot "
             f"create resource \"pods\" in API group \"\" in the namespace \"ml-prod\"",
             "error: failed to launch workers: exit status 1"]
    return lines, "Kubernetes RBAC Forbidden for the service account"


def perm_401(r: random.Random) -> tuple[Lines, str]:
    lines = traceback(r, [("/workspace/push.py", 40, "<module>", "api.upload_folder(folder_path=out, repo_id=repo)")],
                      ["huggingface_hub.utils._errors.HfHubHTTPError: 401 Client Error: Unauthorized for url: "
                       "https://huggingface.co/api/repos/create (Request ID: Root=1-6632)",
                       "Invalid credentials in Authorization header"])
    lines = progress(r, r.randint(30, 90), "hf") + [
        f"{{'train_runtime': {r.uniform(1000, 9000):.1f}, 'train_samples_per_second': 12.3, 'train_steps_per_second': "
        f"0.4, 'train_loss': 1.234, 'epoch': 3.0}}"] + lines
    return prefix(r, lines), "TRICKY: training finished, then push to hub fails with 401 Unauthorized (job failed)"


# ----------------------------------------------------------------------------------------- network_download


def net_hf_offline(r: random.Random) -> tuple[Lines, str]:
    model = r.choice(MODELS)
    lines = [f"{site(r)}/urllib3/connectionpool.py:1100: InsecureRequestWarning: Unverified HTTPS request",
             *traceback(r, [("/workspace/train.py", 55, "<module>", "model = AutoModel.from_pretrained(args.model)"),
                            (f"{site(r)}/transformers/utils/hub.py", 441, "cached_file", "raise EnvironmentError(")],
                        [f"OSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in "
                         f"the cached files and it looks like {model} is not the path to a directory containing a file "
                         f"named config.json.",
                         "Checkout your internet connection or see how to run the library in offline mode at "
                         "'https://huggingface.co/docs/transformers/installation#offline-mode'."])]
    return prefix(r, lines), "no connection to huggingface.co and nothing cached"


def net_requests(r: random.Random) -> tuple[Lines, str]:
    host = r.choice(["huggingface.co", "cdn-lfs.huggingface.co", "storage.googleapis.com", "download.pytorch.org"])
    err = r.choice(["Failed to establish a new connection: [Errno 111] Connection refused",
                    "Failed to resolve 'x' ([Errno -3] Temporary failure in name resolution)",
                    "Failed to establish a new connection: [Errno 101] Network is unreachable"])
    lines = traceback(r, user_frames(r) + [(f"{site(r)}/requests/adapters.py", 519, "send",
                                            "raise ConnectionError(e, request=request)")],
                      f"requests.exceptions.ConnectionError: HTTPSConnectionPool(host='{host}', port=443): Max retries "
                      f"exceeded with url: /resolve/main/model.safetensors (Caused by NewConnectionError('<urllib3."
                      f"connection.HTTPSConnection object at 0x7f{r.getrandbits(36):09x}>: {err}'))")
    return prefix(r, lines), f"download from {host} failed: connection error"


def net_pip_timeout(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ pip install flash-attn==2.5.8 --no-build-isolation", "Collecting flash-attn==2.5.8",
             *[f"  WARNING: Retrying (Retry(total={k}, connect=None, read=None, redirect=None, status=None)) after "
               f"connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='files.pythonhosted.org', port=443): "
               f"Read timed out. (read timeout=15)\")': /packages/flash_attn-2.5.8.tar.gz" for k in range(4, -1, -1)],
             "ERROR: Could not install requirement flash-attn==2.5.8 because of HTTP error HTTPSConnectionPool(host="
             "'files.pythonhosted.org', port=443): Read timed out.", "",
             "+ python train.py",
             *traceback(r, [("/workspace/train.py", 9, "<module>", "from flash_attn import flash_attn_func")],
                        "ModuleNotFoundError: No module named 'flash_attn'")]
    return prefix(r, lines), ("TRICKY: root cause is pip's download timing out (network); the ModuleNotFoundError after "
                              "it is a consequence. Not the job timeout either")


def net_urlopen(r: random.Random) -> tuple[Lines, str]:
    lines = [f"Downloading https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz to ./data/cifar-10-python.tar.gz",
             "  0%|          | 0/170498071 [00:00<?, ?it/s]",
             *traceback(r, [("/workspace/cifar.py", 22, "<module>", "ds = torchvision.datasets.CIFAR10('./data', "
                                                                      "download=True)"),
                            ("/usr/lib/python3.10/urllib/request.py", 1351, "do_open", "raise URLError(err)")],
                        r.choice(["urllib.error.URLError: <urlopen error [Errno -3] Temporary failure in name resolution>",
                                  "urllib.error.HTTPError: HTTP Error 503: Service Unavailable",
                                  "urllib.error.URLError: <urlopen error [Errno 110] Connection timed out>"]))]
    return prefix(r, lines), "dataset download failed (DNS / HTTP 503 / connect timeout)"


def net_curl(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ curl -fsSL -o /tmp/weights.bin https://models.internal.example.com/llm/weights.bin",
             r.choice(["curl: (6) Could not resolve host: models.internal.example.com",
                       "curl: (28) Failed to connect to models.internal.example.com port 443 after 130001 ms: "
                       "Connection timed out",
                       "curl: (56) Recv failure: Connection reset by peer"])]
    return prefix(r, lines), "curl failed to fetch weights (network)"


def net_datasets(r: random.Random) -> tuple[Lines, str]:
    lines = [f"Downloading data:  {r.randint(10, 90)}%|███▎      | {r.randint(1, 9)}.{r.randint(10, 99)}G/9.87G "
             f"[02:1{r.randint(0, 9)}<05:01, 21.3MB/s]",
             *traceback(r, user_frames(r) + [(f"{site(r)}/fsspec/implementations/http.py", 422, "_info",
                                              "raise FileNotFoundError(url) from exc")],
                        ["aiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: "
                         "<ContentLengthError: 400, message='Not enough data for satisfy content length header.'>"])]
    return prefix(r, lines), "HTTP download of dataset shard interrupted (payload incomplete)"


# ------------------------------------------------------------------------------------------------- preempted


def pre_spot(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    lines = progress(r, r.randint(30, 300), r.choice(["hf", "plain", "tqdm"])) + [
        f"[{ts(r)}] spot-termination-handler: EC2 Spot Instance interruption notice received: instance-action=terminate "
        f"time=2026-05-01T12:02:00Z",
        f"[{ts(r)}] SIGTERM received (spot instance interruption); saving checkpoint to /ckpt/step_{r.randint(100, 999)}00",
        f"[{ts(r)}] torch.distributed.elastic.agent.server.api: [WARNING] Received Signals.SIGTERM death signal, "
        f"shutting down workers"] + torchrun_tail(r, script, -15)
    return prefix(r, lines), "TRICKY: spot interruption; the SIGTERM/ChildFailedError tail is the consequence"


def pre_gke(r: random.Random) -> tuple[Lines, str]:
    lines = describe_pod(r, state="Terminated\n  Reason:       Error\n  Exit Code:    143", last_state=None,
                         events=std_events(r) + [
                             ("Warning", "NodeShutdown", "kubelet", "Pod was terminated in response to imminent node "
                                                                    "shutdown."),
                             ("Normal", "Killing", "kubelet", "Stopping container trainer")], status="Failed",
                         extra_status=["Reason:       Terminated",
                                       "Message:      Pod was terminated in response to imminent node shutdown.",
                                       "Annotations:  cloud.google.com/gke-preemptible: true"])
    return lines, "GKE preemptible/spot node shutdown terminated the pod"


def pre_k8s_priority(r: random.Random) -> tuple[Lines, str]:
    ev = std_events(r) + [("Normal", "Preempted", "default-scheduler",
                           f"Preempted by pod {r.getrandbits(32):08x}-aaaa-bbbb on node {{node}}"),
                          ("Normal", "Killing", "kubelet", "Stopping container trainer")]
    return describe_pod(r, state="Terminated\n  Reason:       Error\n  Exit Code:    137", last_state=None,
                        events=ev, status="Failed"), \
        "TRICKY: exit 137 but the events say Preempted by a higher-priority pod (not OOM)"


def pre_slurm(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = progress(r, r.randint(10, 200), "megatron") + [
        f"slurmstepd: error: *** JOB {job} ON {r.choice(HOSTS)} CANCELLED AT 2026-05-01T03:{r.randint(10, 59)}:00 DUE TO "
        f"PREEMPTION ***", "srun: Job step aborted: Waiting up to 32 seconds for job step to finish."]
    if r.random() < 0.5:
        lines += ["", *sacct(r, job, [("", "pretrain", "PREEMPTED", "0:15"), (".batch", "batch", "CANCELLED", "0:15")])]
    return lines, "Slurm CANCELLED DUE TO PREEMPTION (scavenger/low-priority partition)"


def pre_osmo(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(20, 90), "hf") + [
        "[osmo] Task train was preempted by a higher-priority workflow (priority LOW); it will be rescheduled",
        "Task status: FAILED_PREEMPTED (exit code 3006)"]
    return prefix(r, lines, "osmo"), "OSMO LOW-priority task preempted (exit code 3006)"


# -------------------------------------------------------------------------------------------------- segfault


def seg_plain(r: random.Random) -> tuple[Lines, str]:
    lines = benign(r, 2) + progress(r, r.randint(0, 40)) + [
        r.choice(["Segmentation fault (core dumped)", f"/workspace/run.sh: line 12: {r.randint(100, 999)} Segmentation "
                                                      f"fault      (core dumped) python train.py"])]
    return prefix(r, lines), "process segfaulted (SIGSEGV)"


def seg_fatal_python(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(3, 30), "hf") + [
        "Fatal Python error: Segmentation fault", "",
        f"Thread 0x00007f{r.getrandbits(32):08x} (most recent call first):",
        f'  File "{site(r)}/torch/utils/data/_utils/pin_memory.py", line 54 in do_one_step',
        f'  File "{site(r)}/torch/utils/data/_utils/pin_memory.py", line 58 in _pin_memory_loop', "",
        "Current thread 0x00007f0e3c0cf740 (most recent call first):",
        f'  File "{site(r)}/cv2/__init__.py", line 181 in bootstrap', '  File "/workspace/data.py", line 9 in <module>',
        "", "Extension modules: numpy.core._multiarray_umath, torch._C, cv2 (total: 41)"]
    return prefix(r, lines), "faulthandler: Fatal Python error: Segmentation fault in a native extension"


def seg_torchrun(r: random.Random) -> tuple[Lines, str]:
    script = r.choice(SCRIPTS)
    lines = progress(r, r.randint(10, 50)) + torchrun_tail(r, script, -11)
    return prefix(r, lines), "torchrun reports exitcode -11 / Signal 11 (SIGSEGV) for the root cause rank"


def seg_worker(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 9999)
    lines = progress(r, r.randint(3, 30), "tqdm") + [
        "ERROR: Unexpected segmentation fault encountered in worker.",
        *traceback(r, user_frames(r) + [(f"{site(r)}/torch/utils/data/dataloader.py", 1133, "_try_get_data",
                                         "raise RuntimeError(f'DataLoader worker (pid(s) {pids_str}) exited "
                                         "unexpectedly') from e")],
                   f"RuntimeError: DataLoader worker (pid(s) {pid}) exited unexpectedly")]
    return prefix(r, lines), "TRICKY: DataLoader worker segfault; generic 'exited unexpectedly' follows"


def seg_describe(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       Error", "  Exit Code:    139",
            "  Started:      Fri, 01 May 2026 10:00:01 +0000", "  Finished:     Fri, 01 May 2026 10:00:09 +0000"]
    return describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last,
                        events=std_events(r), restarts=r.randint(1, 5)), "describe pod: Exit Code 139 (SIGSEGV)"


# -------------------------------------------------------------------------------------------- output_missing


def out_osmo_plural(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 60), "hf") + [
        "Saving model to {{outputs}}/model", "Training done.",
        "[osmo] Task train exited with code 0",
        "[osmo] Uploading outputs from /osmo/output ...",
        "[osmo] WARNING: output directory /osmo/output is empty; nothing was uploaded",
        "Workflow status: COMPLETED (no outputs)"]
    return prefix(r, lines, "osmo"), "script wrote to literal {{outputs}} (plural), output dir empty after COMPLETED"


def out_missing_artifact(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 60)) + [
        "Training complete in 1h02m.",
        "[osmo] Task train exited with code 0",
        f"[osmo] ERROR: expected output '{{{{output}}}}/model.safetensors' was not produced by task train",
        "Workflow train-bert-17 FAILED: downstream task eval cannot find its input 'train:model'"]
    return prefix(r, lines, "osmo"), "task exited 0 but its declared output was never written"


def out_literal_dir(r: random.Random) -> tuple[Lines, str]:
    lines = ["+ mkdir -p '{{outputs}}/ckpt'", "+ python train.py --output_dir '{{outputs}}/ckpt'",
             *progress(r, r.randint(5, 30), "hf"), "Model saved to {{outputs}}/ckpt",
             "[eval][osmo] Downloading inputs", "[eval][osmo] Input train: 0 files found",
             "[eval] FileNotFoundError: [Errno 2] No such file or directory: '/osmo/input/0/ckpt/config.json'"]
    return lines, ("TRICKY: the train task wrote to a literal '{{outputs}}' directory, so the downstream task finds "
                   "nothing; the later FileNotFoundError is a consequence")


# ------------------------------------------------------------------------------------------ validation_error


def val_osmo_resources(r: random.Random) -> tuple[Lines, str]:
    mem = r.choice([512, 1024, 2048])
    lines = ["$ osmo workflow submit train.yaml --pool h100",
             "Workflow train-llm submit failed:",
             "Resource validation failed for task: train",
             "| node         | pool | storage | cpu | memory | gpu | reason                                 |",
             f"| dgx-h100-001 | h100 | 1.8Ti   | 224 | 1843Gi | 8   | memory: requested {mem * 2}Gi > available 1843Gi |",
             f"| dgx-h100-002 | h100 | 1.8Ti   | 224 | 1843Gi | 8   | memory: requested {mem * 2}Gi > available 1843Gi |",
             'Please check available resources with "osmo resource list".']
    return lines, "OSMO submit-time resource validation table (request exceeds node capacity)"


def val_osmo_static(r: random.Random) -> tuple[Lines, str]:
    lines = ["$ osmo workflow submit sweep.yaml", r.choice([f'Value "{r.randint(100000, 1000000)}" too high for label memory',
                                                           "Mount /bad_mount not allowed for selected platform dgx-h100",
                                                           "Workflow cannot have more than 20 tasks.",
                                                           "Platform a100-80g does not exist in pool research!"]),
             "Error: workflow submission failed (exit 1)"]
    return lines, "OSMO static spec assertion at submit"


def val_k8s_invalid(r: random.Random) -> tuple[Lines, str]:
    lines = ["$ kubectl apply -f job.yaml", r.choice([
        'The Job "train-bert" is invalid: spec.template.spec.containers[0].resources.requests: Invalid value: "16": '
        'must be less than or equal to cpu limit of 8',
        'error: error validating "job.yaml": error validating data: ValidationError(Job.spec.template.spec.containers[0]'
        '.resources): unknown field "gpu" in io.k8s.api.core.v1.ResourceRequirements; if you choose to ignore these '
        'errors, turn validation off with --validate=false',
        'The Job "sft-7b" is invalid: spec.template.spec.restartPolicy: Unsupported value: "Always": supported values: '
        '"OnFailure", "Never"'])]
    return lines, "kubectl rejected the Job spec at submit (schema/validation)"


def val_quota_admission(r: random.Random) -> tuple[Lines, str]:
    lines = [f'Error from server (Forbidden): error when creating "job.yaml": pods "train-0" is forbidden: exceeded '
             f'quota: gpu-quota, requested: requests.nvidia.com/gpu=8, used: requests.nvidia.com/gpu={r.randint(8, 24)}, '
             f'limited: requests.nvidia.com/gpu={r.choice([16, 24, 32])}']
    return lines, ("ResourceQuota admission rejected the pod at creation. Labelled validation_error: rejected at submit "
                   "by a policy check (never ran), origin quota; despite 'Forbidden' it is not an auth problem")


# ----------------------------------------------------------------------------------------- user_code_error


def uce_shape(r: random.Random) -> tuple[Lines, str]:
    final = r.choice([f"RuntimeError: mat1 and mat2 shapes cannot be multiplied ({r.choice([32, 64])}x{r.choice([768, 1024])} "
                      f"and {r.choice([512, 2048])}x{r.choice([10, 1000])})",
                      "ValueError: Expected input batch_size (32) to match target batch_size (16).",
                      "RuntimeError: The size of tensor a (512) must match the size of tensor b (1024) at non-singleton "
                      "dimension 1"])
    lines = benign(r, r.randint(1, 4)) + progress(r, r.randint(0, 3)) + traceback(r, user_frames(r) + [
        ("/workspace/model.py", r.randint(40, 200), "forward", "x = self.head(x)")], final)
    return prefix(r, lines), "shape mismatch in user model code"


def uce_key(r: random.Random) -> tuple[Lines, str]:
    key = r.choice(["'labels'", "'input_ids'", "'image'", "'text'"])
    lines = progress(r, r.randint(0, 20)) + traceback(r, user_frames(r) + [
        ("/workspace/data/collate.py", 17, "collate", f"batch = [ex[{key}] for ex in examples]")], f"KeyError: {key}")
    return prefix(r, lines), "KeyError in the user's collate function"


def uce_attr_type(r: random.Random) -> tuple[Lines, str]:
    final = r.choice(["AttributeError: 'NoneType' object has no attribute 'shape'",
                      "TypeError: forward() got an unexpected keyword argument 'labels'",
                      "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
                      "AttributeError: 'DistributedDataParallel' object has no attribute 'generate'"])
    script = r.choice(SCRIPTS)
    tb = traceback(r, user_frames(r, script), final)
    lines = startup(r) + progress(r, r.randint(0, 10)) + rank_prefix(tb, 0) + rank_prefix(tb, 1) + torchrun_tail(r, script)
    return prefix(r, lines), "Python TypeError/AttributeError in user code on every rank"


def uce_syntax(r: random.Random) -> tuple[Lines, str]:
    lines = [f'  File "/workspace/{r.choice(SCRIPTS)}", line {r.randint(10, 300)}',
             "    print(f\"epoch {epoch}: loss={loss:.4f\")",
             "                                          ^",
             r.choice(["SyntaxError: f-string: expecting '}'", "IndentationError: unexpected indent"])]
    return prefix(r, lines), "script does not parse (SyntaxError) - 4 line log"


def uce_hydra(r: random.Random) -> tuple[Lines, str]:
    lines = [f"[{ts(r)},000][HYDRA] Launching 1 jobs locally",
             "Error executing job with overrides: ['model=llama', 'optim.lr=3e-4']",
             *traceback(r, [("/workspace/train.py", 40, "main", "trainer = build_trainer(cfg)"),
                            ("/workspace/build.py", 12, "build_trainer", "lr = cfg.optimizer.lr")],
                        "omegaconf.errors.ConfigAttributeError: Key 'optimizer' is not in struct\n"
                        "    full_key: optimizer\n    object_type=dict"),
             "", "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace."]
    return prefix(r, lines), "Hydra/OmegaConf config key error in user code"


def uce_ray(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 9999)
    lines = [f"Job submission server address: http://10.0.0.5:8265",
             f"------------------------------------------------------",
             f"Job 'raysubmit_{r.getrandbits(40):010x}' submitted successfully",
             *[f"(preprocess pid={pid}) processed batch {i}" for i in range(r.randint(2, 10))],
             *traceback(r, [("/workspace/pipeline.py", 88, "<module>", "results = ray.get(futures)")],
                        [f"ray.exceptions.RayTaskError(ZeroDivisionError): ray::preprocess() (pid={pid}, ip=10.0.0.7)",
                         '  File "/workspace/pipeline.py", line 31, in preprocess',
                         "    ratio = n_pos / n_neg", "ZeroDivisionError: division by zero"]),
             f"---------------------------------------", f"Job 'raysubmit_x' failed", "---------------------------------------",
             "Status message: Job entrypoint command failed with exit code 1"]
    return lines, "Ray task raised ZeroDivisionError in user code"


def uce_assert(r: random.Random) -> tuple[Lines, str]:
    lines = benign(r, 3) + traceback(r, user_frames(r) + [("/workspace/config.py", 58, "validate",
                                                          "assert cfg.global_batch % (cfg.micro_batch * world) == 0, "
                                                          "\"global batch not divisible\"")],
                                     "AssertionError: global batch not divisible")
    return prefix(r, lines), "assertion in the user's config check"


def uce_misleading_warning(r: random.Random) -> tuple[Lines, str]:
    lines = ["NCCL WARN NET/IB : No device found.", "wandb: Network error (ConnectionError), entering retry loop.",
             f"{site(r)}/torch/cuda/memory.py:330: FutureWarning: torch.cuda.reset_max_memory_allocated now calls "
             f"torch.cuda.reset_peak_memory_stats, which resets /all/ peak memory stats.",
             *progress(r, r.randint(5, 30), "hf"),
             *traceback(r, user_frames(r) + [("/workspace/metrics.py", 22, "compute", "return preds[\"logits\"]")],
                        "TypeError: tuple indices must be integers or slices, not str")]
    return prefix(r, lines), ("TRICKY: NCCL WARN, wandb retry and a memory FutureWarning precede the real TypeError in "
                              "user code")


# --------------------------------------------------------------------------------------------------- unknown


def unk_bare(r: random.Random) -> tuple[Lines, str]:
    lines = r.choice([["command terminated with exit code 1"],
                      ["Starting job...", "Loading config from /etc/job/config.yaml", "Job failed with exit code 2"],
                      ["[osmo] Task train exited with code 255", "[osmo] No logs were captured for this task."]])
    return lines, "a failure with no evidence of its cause"


def unk_describe(r: random.Random) -> tuple[Lines, str]:
    last = ["Terminated", "  Reason:       Error", "  Exit Code:    1",
            "  Started:      Fri, 01 May 2026 10:00:01 +0000", "  Finished:     Fri, 01 May 2026 10:04:41 +0000"]
    return describe_pod(r, state="Waiting\n  Reason:       CrashLoopBackOff", last_state=last, events=std_events(r) + [
        ("Warning", "BackOff", "kubelet", "Back-off restarting failed container trainer")], restarts=3), \
        "describe pod: exit code 1 with no logs or cause visible"


# --------------------------------------------------------------------------------------------------- healthy


def ok_hf_trainer(r: random.Random) -> tuple[Lines, str]:
    n = r.randint(20, 400)
    lines = benign(r, r.randint(2, 6)) + ["***** Running training *****", f"  Num examples = {r.randint(1000, 90000)}",
                                          "  Num Epochs = 3", f"  Total optimization steps = {n * 10}"] + \
        progress(r, n, "hf") + ["Saving model checkpoint to /output/checkpoint-final", "",
                                "Training completed. Do not forget to share your model on huggingface.co/models =)", "",
                                f"{{'train_runtime': {r.uniform(100, 20000):.4f}, 'train_samples_per_second': "
                                f"{r.uniform(5, 90):.3f}, 'train_steps_per_second': {r.uniform(0.1, 3):.3f}, "
                                f"'train_loss': {r.uniform(0.2, 2):.6f}, 'epoch': 3.0}}"]
    return prefix(r, lines), "HF Trainer run ending with the train_runtime/train_loss summary"


def ok_lightning(r: random.Random) -> tuple[Lines, str]:
    lines = ["GPU available: True (cuda), used: True", "TPU available: False, using: 0 TPU cores",
             "LOCAL_RANK: 0 - CUDA_VISIBLE_DEVICES: [0,1,2,3]",
             "  | Name  | Type      | Params", "0 | model | ResNet    | 23.5 M", *benign(r, 2),
             *progress(r, r.randint(10, 200), "lightning"),
             "`Trainer.fit` stopped: `max_epochs=3` reached."]
    return prefix(r, lines), "Lightning fit reaching max_epochs"


def ok_overflow_skips(r: random.Random) -> tuple[Lines, str]:
    out = [f"[{ts(r)},100] [INFO] [engine.py:1123:_configure_optimizer] Using DeepSpeed Optimizer param name adamw"]
    scale = 65536.0
    for _ in range(r.randint(2, 5)):
        out.append(f"[{ts(r)},{r.randint(100, 999)}] [INFO] [logging.py:96:log_dist] [Rank 0] OVERFLOW! Rank 0 Skipping "
                   f"step. Attempted loss scale: {scale}, reducing to {scale / 2}")
        scale /= 2
    out += progress(r, r.randint(20, 200), "deepspeed") + [
        f"[{ts(r)},900] [INFO] [engine.py:3450:_save_zero_checkpoint] zero checkpoint saved /ckpt/global_step4000",
        "Training finished."]
    return prefix(r, out), "TRICKY healthy: a few early DeepSpeed OVERFLOW skips (normal fp16 loss-scale warm-up)"


def ok_nan_warning(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 80), "plain") + [
        f"/workspace/metrics.py:41: RuntimeWarning: invalid value encountered in divide",
        "  precision = tp / (tp + fp)",
        f"eval: precision=nan recall=0.000 f1=0.000 (class 'rare' had no predictions)"] + \
        progress(r, r.randint(10, 80), "plain", 1.0) + ["eval: precision=0.812 recall=0.774 f1=0.792",
                                                         "Done. Best checkpoint: /out/best.pt"]
    return prefix(r, lines), "TRICKY healthy: RuntimeWarning invalid value in divide in metrics; training continues"


def ok_redirects(r: random.Random) -> tuple[Lines, str]:
    lines = [f"[{ts(r)},101] torch.distributed.elastic.multiprocessing.redirects: [WARNING] NOTE: Redirects are "
             f"currently not supported in Windows or MacOs.", *startup(r)[1:],
             *progress(r, r.randint(10, 120)), "Saved final model to /output/model.pt", "Exiting with code 0"]
    return prefix(r, lines), "TRICKY healthy: the Redirects NOTE is informational"


def ok_wandb_retry(r: random.Random) -> tuple[Lines, str]:
    mid = progress(r, r.randint(10, 60), "hf")
    lines = ["wandb: Tracking run with wandb version 0.16.6", *mid[:5],
             "wandb: Network error (ReadTimeout), entering retry loop.",
             f"{ts(r)} WARNING urllib3.connectionpool: Retrying (Retry(total=4, connect=None, read=None, redirect=None, "
             f"status=None)) after connection broken by 'NewConnectionError('<urllib3.connection.HTTPSConnection object>: "
             f"Failed to establish a new connection: [Errno 111] Connection refused')': /api/2.0/mlflow/runs/log-batch",
             *mid[5:], "wandb: Network error resolved after 0:01:12.482930, resuming normal operation.",
             *progress(r, r.randint(5, 30), "hf", 0.8),
             "wandb: Run summary:", f"wandb:   train/loss {r.uniform(0.2, 1):.4f}",
             "wandb: 🚀 View run fine-tune-3 at: https://wandb.ai/team/p/runs/x1", "wandb: Synced 6 W&B file(s)"]
    return prefix(r, lines), "TRICKY healthy: W&B / mlflow network retries that recovered"


def ok_describe_completed(r: random.Random) -> tuple[Lines, str]:
    state = "Terminated\n  Reason:       Completed\n  Exit Code:    0\n  Started:      Fri, 01 May 2026 10:00:01 +0000\n" \
            "  Finished:     Fri, 01 May 2026 13:41:17 +0000"
    return describe_pod(r, state=state, last_state=None, events=std_events(r), status="Succeeded"), \
        "describe pod: Terminated Completed, Exit Code 0"


def ok_get_pods(r: random.Random) -> tuple[Lines, str]:
    b = f"train-{r.randint(100, 999)}"
    return get_pods(r, [(f"{b}-worker-{i}", "0/1", "Completed", 0) for i in range(r.randint(1, 4))]), \
        "kubectl get pods: all Completed"


def ok_sacct_seff(r: random.Random) -> tuple[Lines, str]:
    job = r.randint(100000, 9999999)
    lines = sacct(r, job, [("", "train", "COMPLETED", "0:0"), (".batch", "batch", "COMPLETED", "0:0"),
                           (".extern", "extern", "COMPLETED", "0:0")]) + [""] + \
        seff(r, job, "COMPLETED (exit code 0)", r.uniform(20, 85), r.choice([16.0, 64.0, 256.0]), r.uniform(40, 99))
    return lines, "sacct COMPLETED + seff with memory efficiency well below 100%"


def ok_ray(r: random.Random) -> tuple[Lines, str]:
    pid = r.randint(1000, 9999)
    lines = [f"Job 'raysubmit_{r.getrandbits(40):010x}' submitted successfully",
             f"(raylet) [2026-05-01 10:00:00,000 E 123 123] (raylet) file_system_monitor.cc:111: /tmp/ray/session_"
             f"latest is over 95% full, available space: 4.1 GB; capacity: 100 GB. Object creation will fail if spilling "
             f"is required.",
             *[f"(RayTrainWorker pid={pid}) {ln}" for ln in progress(r, r.randint(5, 60), "hf")],
             f"(RayTrainWorker pid={pid}) Checkpoint successfully created at: Checkpoint(filesystem=local, path=/ray_"
             f"results/TorchTrainer/checkpoint_000002)",
             "Training finished iteration 3 at 2026-05-01 11:02:10. Total running time: 1hr 2min 3s",
             "------------------------------------------",
             f"Job 'raysubmit_x' succeeded", "------------------------------------------"]
    return lines, "TRICKY healthy: Ray job succeeded; a raylet disk-space warning (no failure) along the way"


def ok_keras(r: random.Random) -> tuple[Lines, str]:
    lines = []
    for e in range(1, r.randint(3, 12)):
        lines += [f"Epoch {e}/{e + 2}", *progress(r, r.randint(2, 10), "keras"),
                  f"1563/1563 [==============================] - 24s 15ms/step - loss: {1 / e:.4f} - accuracy: "
                  f"{0.7 + e * 0.01:.4f} - val_loss: {1.1 / e:.4f} - val_accuracy: {0.68 + e * 0.01:.4f}"]
    lines += ["INFO:tensorflow:Assets written to: /output/saved_model/assets"]
    return prefix(r, lines), "Keras fit completing all epochs, SavedModel written"


def ok_short(r: random.Random) -> tuple[Lines, str]:
    lines = r.choice([["Loading data... done", "Training complete. Final loss 0.0312", "Saved model to /out/model.pt"],
                      ["epoch 1 loss 0.91", "epoch 2 loss 0.55", "epoch 3 loss 0.41"],
                      [f"[osmo] Task train exited with code 0", "Workflow status: COMPLETED"]])
    return lines, "tiny successful log"


def ok_error_words(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 60)) + [
        f"eval | error_rate={r.uniform(0.01, 0.2):.4f} | top1_error={r.uniform(0.05, 0.3):.3f} | mean_abs_error=0.0213",
        "INFO: No errors found in dataset validation (0 corrupt images, 0 missing labels)",
        "Exception handling: skip_on_error=True", "failed_samples=0  oom_retries=0  nan_steps=0",
        *progress(r, r.randint(5, 20), "plain", 0.5), "Finished training: exit status 0"]
    return prefix(r, lines), "TRICKY healthy: metric names contain error/failed/oom/nan words"


def ok_auto_batch(r: random.Random) -> tuple[Lines, str]:
    lines = ["Starting with per-device batch size 64 (auto_find_batch_size=True)",
             "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.00 GiB (GPU 0; 79.15 GiB total "
             "capacity; 76.10 GiB already allocated)",
             "Reducing batch size to 32 and retrying (find_executable_batch_size)",
             *progress(r, r.randint(20, 150), "hf"),
             f"{{'train_runtime': {r.uniform(1000, 9000):.2f}, 'train_samples_per_second': 33.1, "
             f"'train_steps_per_second': 1.03, 'train_loss': 0.8812, 'epoch': 1.0}}"]
    return prefix(r, lines), "TRICKY healthy: auto batch-size finder caught one OOM, halved the batch and finished"


def ok_nccl_warn(r: random.Random) -> tuple[Lines, str]:
    h = r.choice(HOSTS)
    lines = [f"{h}:{r.randint(100, 999)}:{r.randint(100, 999)} [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to eth0",
             f"{h}:101:101 [0] NCCL WARN NET/IB : No device found.",
             f"{h}:101:101 [0] NCCL WARN NET/Plugin: Could not find: libnccl-net.so. Using internal network plugin.",
             f"{h}:101:101 [0] NCCL INFO Using network Socket",
             f"{h}:101:101 [0] NCCL INFO comm 0x55d1 rank 0 nranks 8 cudaDev 0 busId 1b000 - Init COMPLETE",
             *progress(r, r.randint(30, 250), r.choice(["megatron", "plain"])),
             "[after training is done] datetime: 2026-05-01 14:00:00",
             " successfully saved checkpoint at iteration    5000 to /checkpoints"]
    return prefix(r, lines), "TRICKY healthy: NCCL WARN about optional IB/plugin transports"


def ok_exception_ignored(r: random.Random) -> tuple[Lines, str]:
    lines = progress(r, r.randint(10, 60), "tqdm") + [
        "Training finished; model saved to /output/final.",
        "Exception ignored in: <function _MultiProcessingDataLoaderIter.__del__ at 0x7f5c1a2b3d30>",
        "Traceback (most recent call last):",
        f'  File "{site(r)}/torch/utils/data/dataloader.py", line 1479, in __del__',
        "    self._shutdown_workers()",
        "AssertionError: can only test a child process"]
    return prefix(r, lines), ("TRICKY healthy: 'Exception ignored in __del__' at interpreter shutdown after training "
                              "finished and saved")


def ok_running(r: random.Random) -> tuple[Lines, str]:
    lines = startup(r) + benign(r, r.randint(2, 6)) + progress(r, r.randint(30, 300))
    return prefix(r, lines), "still running, no failure evidence (a live tail)"


def ok_retry_download(r: random.Random) -> tuple[Lines, str]:
    lines = [f"Downloading shard 3/8 from s3://corpus/v2/ ...",
             "WARNING: download attempt 1/5 failed: ConnectionResetError(104, 'Connection reset by peer'); retrying in 2s",
             "WARNING: download attempt 2/5 failed: ReadTimeoutError; retrying in 4s",
             "shard 3/8 downloaded (1.9 GB) in 41s", *progress(r, r.randint(20, 100)),
             "Run finished successfully."]
    return prefix(r, lines), "TRICKY healthy: a download retried twice and succeeded"


def ok_jax(r: random.Random) -> tuple[Lines, str]:
    lines = ["I0501 10:00:00.000 140 xla_bridge.py:660] Unable to initialize backend 'tpu': INTERNAL: Failed to open "
             "libtpu.so: libtpu.so: cannot open shared object file: No such file or directory",
             "W0501 10:00:00 140 xla_bridge.py:700] An NVIDIA GPU may be present on this machine, but a CUDA-enabled "
             "jaxlib is not installed. Falling back to cpu." if r.random() < 0.3 else "I0501 using 8 GPUs",
             *progress(r, r.randint(20, 200), "jax"),
             f"I0501 12:00:00.000 140 checkpoints.py:1054] Saved checkpoint at /ckpt/checkpoint_{r.randint(10, 99)}000",
             "I0501 12:00:01.000 140 train.py:301] Training complete."]
    return prefix(r, lines), ("TRICKY healthy: JAX 'Unable to initialize backend tpu ... No such file or directory' is "
                              "normal backend probing")


# ----------------------------------------------------------------------------------------------- registry

REGISTRY: list[tuple[str, Template, int]] = [
    ("gpu_oom", gpu_oom_accelerate, 2), ("gpu_oom", gpu_oom_dataloader_worker, 1), ("gpu_oom", gpu_oom_cublas, 1),
    ("gpu_oom", gpu_oom_jax, 1), ("gpu_oom", gpu_oom_tf, 1), ("gpu_oom", gpu_oom_then_nccl, 2), ("gpu_oom", gpu_oom_ray, 1),
    ("gpu_oom", gpu_oom_deepspeed_then_hint, 1),
    ("host_oom", host_oom_describe, 2), ("host_oom", host_oom_dmesg, 1), ("host_oom", host_oom_ray, 1),
    ("host_oom", host_oom_slurm, 1), ("host_oom", host_oom_seff, 1), ("host_oom", host_oom_dataloader_killed, 1),
    ("host_oom", host_oom_bus_error, 2), ("host_oom", host_oom_get_pods, 1), ("host_oom", host_oom_exit137_confirmed, 1),
    ("nccl_or_distributed", nccl_unhandled, 1), ("nccl_or_distributed", nccl_rendezvous, 1),
    ("nccl_or_distributed", nccl_watchdog, 2), ("nccl_or_distributed", nccl_ib_retry, 1),
    ("nccl_or_distributed", nccl_gloo, 1), ("nccl_or_distributed", nccl_mismatch, 1),
    ("missing_dependency", dep_module, 2), ("missing_dependency", dep_cmd_not_found, 2),
    ("missing_dependency", dep_import_name, 1), ("missing_dependency", dep_remote_code, 1),
    ("missing_dependency", dep_exec_not_found_k8s, 1), ("missing_dependency", dep_describe_127, 1),
    ("file_not_found", fnf_data, 2), ("file_not_found", fnf_s3_key, 1), ("file_not_found", fnf_tf, 1),
    ("file_not_found", fnf_ckpt_resume, 1), ("file_not_found", fnf_shell, 1),
    ("nan_loss", nan_custom, 1), ("nan_loss", nan_deepspeed_min_scale, 2), ("nan_loss", nan_keras, 1),
    ("nan_loss", nan_anomaly, 1), ("nan_loss", nan_lightning, 1), ("nan_loss", nan_fairseq, 1),
    ("image_pull", img_describe, 3), ("image_pull", img_get_pods, 2), ("image_pull", img_osmo, 1),
    ("image_pull", img_invalid, 1), ("image_pull", img_docker, 1),
    ("unschedulable", unsched_describe, 3), ("unschedulable", unsched_slurm, 2), ("unschedulable", unsched_get_pods, 1),
    ("unschedulable", unsched_karpenter, 1), ("unschedulable", unsched_osmo, 1),
    ("timeout", timeout_slurm, 2), ("timeout", timeout_sacct, 1), ("timeout", timeout_k8s_deadline, 1),
    ("timeout", timeout_osmo, 1), ("timeout", timeout_pod_deadline, 1),
    ("disk_full", disk_errno28, 1), ("disk_full", disk_stream_writer, 1), ("disk_full", disk_shell, 2),
    ("disk_full", disk_evicted, 1), ("disk_full", disk_pip, 1), ("disk_full", disk_quota, 1),
    ("cuda_driver", cuda_no_kernel, 1), ("cuda_driver", cuda_driver_old, 2), ("cuda_driver", cuda_cudnn_init, 1),
    ("cuda_driver", cuda_nvml, 1), ("cuda_driver", cuda_container_cli, 1),
    ("device_assert", dev_index, 1), ("device_assert", dev_nll, 1), ("device_assert", dev_illegal, 1),
    ("device_assert", dev_cublas_exec, 1), ("device_assert", dev_jax_check, 1),
    ("permission_or_auth", perm_gated, 1), ("permission_or_auth", perm_s3, 1), ("permission_or_auth", perm_publickey, 1),
    ("permission_or_auth", perm_errno13, 1), ("permission_or_auth", perm_wandb, 1), ("permission_or_auth", perm_k8s_rbac, 1),
    ("permission_or_auth", perm_401, 1),
    ("network_download", net_hf_offline, 1), ("network_download", net_requests, 2), ("network_download", net_pip_timeout, 1),
    ("network_download", net_urlopen, 1), ("network_download", net_curl, 1), ("network_download", net_datasets, 1),
    ("preempted", pre_spot, 2), ("preempted", pre_gke, 1), ("preempted", pre_k8s_priority, 1), ("preempted", pre_slurm, 1),
    ("preempted", pre_osmo, 1),
    ("segfault", seg_plain, 1), ("segfault", seg_fatal_python, 1), ("segfault", seg_torchrun, 1), ("segfault", seg_worker, 1),
    ("segfault", seg_describe, 1),
    ("output_missing", out_osmo_plural, 1), ("output_missing", out_missing_artifact, 1), ("output_missing", out_literal_dir, 1),
    ("validation_error", val_osmo_resources, 1), ("validation_error", val_osmo_static, 1),
    ("validation_error", val_k8s_invalid, 1), ("validation_error", val_quota_admission, 1),
    ("user_code_error", uce_shape, 1), ("user_code_error", uce_key, 1), ("user_code_error", uce_attr_type, 1),
    ("user_code_error", uce_syntax, 1), ("user_code_error", uce_hydra, 1), ("user_code_error", uce_ray, 1),
    ("user_code_error", uce_assert, 1), ("user_code_error", uce_misleading_warning, 1),
    ("unknown", unk_bare, 2), ("unknown", unk_describe, 1),
    ("healthy", ok_hf_trainer, 3), ("healthy", ok_lightning, 2), ("healthy", ok_overflow_skips, 2),
    ("healthy", ok_nan_warning, 2), ("healthy", ok_redirects, 1), ("healthy", ok_wandb_retry, 2),
    ("healthy", ok_describe_completed, 1), ("healthy", ok_get_pods, 1), ("healthy", ok_sacct_seff, 1), ("healthy", ok_ray, 1),
    ("healthy", ok_keras, 1), ("healthy", ok_short, 2), ("healthy", ok_error_words, 1), ("healthy", ok_auto_batch, 1),
    ("healthy", ok_nccl_warn, 1), ("healthy", ok_exception_ignored, 1), ("healthy", ok_running, 2),
    ("healthy", ok_retry_download, 1), ("healthy", ok_jax, 1),
]

# Templates whose output is a running process's stream, so hundreds of earlier training lines may precede it.
STREAMS = {gpu_oom_accelerate, gpu_oom_cublas, host_oom_dmesg, nccl_watchdog, disk_errno28, pre_spot, seg_plain,
           ok_hf_trainer, ok_running, ok_nccl_warn, timeout_slurm, nan_custom, uce_misleading_warning}


def build() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """All cases: file name -> text, file name -> label, file name -> note."""
    rnd = random.Random(SEED)
    cases: list[tuple[str, Lines, str]] = []
    for label, fn, count in REGISTRY:
        for k in range(count):
            r = random.Random(rnd.getrandbits(64))
            lines, note = fn(r)
            if fn in STREAMS and k == count - 1 and r.random() < 0.5:
                lines = progress(r, r.randint(300, 1990)) + lines
                note += " (long log)"
            cases.append((label, lines, note))
    rnd.shuffle(cases)
    texts, labels, notes = {}, {}, {}
    for i, (label, lines, note) in enumerate(cases, 1):
        name = f"case_{i:03d}.{'txt' if i % 5 == 0 else 'log'}"
        texts[name] = "\n".join(lines) + "\n"
        labels[name] = label
        notes[name] = note
    return texts, labels, notes


def main() -> None:
    texts, labels, notes = build()
    for old in list(HERE.glob("case_*.log")) + list(HERE.glob("case_*.txt")):
        old.unlink()
    for name, text in texts.items():
        (HERE / name).write_text(text)
    (HERE / "labels.json").write_text(json.dumps(labels, indent=1, sort_keys=True) + "\n")
    (HERE / "notes.json").write_text(json.dumps(notes, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(texts)} logs")


if __name__ == "__main__":
    main()
