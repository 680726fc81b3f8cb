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
