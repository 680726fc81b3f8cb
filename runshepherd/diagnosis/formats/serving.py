"""Inference servers' lines that show a healthy server: up and listening (``started``), answering requests
(``progress``); and the infrastructure checks people run on a cluster (nccl-tests, the CUDA samples, llama-bench)."""

from __future__ import annotations

from runshepherd.diagnosis.formats import Marker

_VLLM_API = "https://github.com/vllm-project/vllm/blob/main/vllm/entrypoints/openai/api_server.py"
_TGI_ROUTER = "https://github.com/huggingface/text-generation-inference/blob/main/router/src/server.rs"
_TRITON = "https://docs.nvidia.com/deeplearning/triton-inference-server/user-guide/docs/getting_started/quickstart.html"
_SGLANG = "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/entrypoints/http_server.py"
_OLLAMA = "https://github.com/ollama/ollama/blob/main/server/routes.go"
_RAY_SERVE = "https://docs.ray.io/en/latest/serve/getting_started.html"

MARKERS: tuple[Marker, ...] = (
    # uvicorn (vLLM's, SGLang's and most Python servers' HTTP layer) up and serving
    Marker(
        "uvicorn",
        "started",
        r"Started server process|Application startup complete|Uvicorn running on",
        "INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)",
        "https://github.com/encode/uvicorn/blob/master/uvicorn/server.py",
    ),
    # ----------------------------------------------------------------------------------------------- started
    Marker(
        "vllm",
        "started",
        r"\bStarting vLLM API server(?: \d+)?(?: \([\w ]+\))? on https?://",
        "INFO 12-18 06:01:05 [api_server.py:1945] Starting vLLM API server 0 on http://0.0.0.0:8080",
        _VLLM_API,
    ),
    Marker(
        "vllm",
        "started",
        r"\bAvailable routes are:|\bRoute: /\S*, Methods: ",
        "INFO 04-30 17:52:43 [launcher.py:28] Available routes are:",
        _VLLM_API,
    ),
    Marker(
        "vllm",
        "started",
        r"\binit engine \(profile, create kv cache, warmup model\) took [\d.]+ seconds"
        r"|\bMaximum concurrency for [\d,]+ tokens per request: [\d.]+x|\bGraph capturing finished in \d+ secs",
        "INFO 05-01 10:00:00 [core.py:171] init engine (profile, create kv cache, warmup model) took 30.52 seconds",
        "https://github.com/vllm-project/vllm/blob/main/vllm/v1/engine/core.py",
    ),
    Marker(
        "tgi",
        "started",
        r"\btext_generation_router(?:_v\d)?(?:::server)?: (?:\S+\.rs:\d+: )?Connected\s*$",
        "2024-09-03T02:47:53.402023Z  INFO text_generation_router::server: router/src/server.rs:2311: Connected",
        _TGI_ROUTER,
    ),
    Marker(
        "tgi",
        "started",
        r"\btext_generation_launcher: (?:Shard ready in [\d.]+s|Successfully downloaded weights)",
        "2024-09-03T02:47:40.102023Z  INFO text_generation_launcher: Shard ready in 10.21s",
        "https://github.com/huggingface/text-generation-inference/blob/main/launcher/src/main.rs",
    ),
    Marker(
        "triton",
        "started",
        r"\bStarted (?:GRPCInferenceService|HTTPService|Metrics Service) at ",
        "I0101 10:00:00.000000 1 grpc_server.cc:2451] Started GRPCInferenceService at 0.0.0.0:8001",
        _TRITON,
    ),
    # Triton's model table once loading ended, and its loader's notice
    Marker(
        "triton",
        "started",
        r"^\|\s*[\w.\-]+\s*\|\s*\d+\s*\|\s*READY\s*\|\s*$",
        "| densenet_onnx        | 1       | READY  |",
        _TRITON,
    ),
    Marker(
        "triton",
        "started",
        r"\bsuccessfully loaded '[\w.\-]+'",
        "I0101 10:00:00.000000 1 model_lifecycle.cc:818] successfully loaded 'densenet_onnx'",
        _TRITON,
    ),
    Marker(
        "sglang",
        "started",
        r"\bThe server is fired up and ready to roll!",
        "[2025-01-01 10:00:00] The server is fired up and ready to roll!",
        _SGLANG,
    ),
    Marker(
        "ollama",
        "started",
        r"\bListening on \S+ \(version [^)]*\)|\bllama runner started in [\d.]+ seconds",
        'time=2025-02-12T12:12:03.367Z level=INFO source=routes.go:1237 msg="Listening on [::]:11434 (version 0.5.7)"',
        _OLLAMA,
    ),
    Marker(
        "ray serve",
        "started",
        r"\bDeployed app '[^']+' successfully\b|\bApplication '[^']+' is ready at https?://",
        "INFO 2024-01-01 10:00:00,000 serve 1234 api.py:574 - Deployed app 'default' successfully.",
        _RAY_SERVE,
    ),
    Marker(
        "gunicorn",
        "started",
        r"\bBooting worker with pid: \d+",
        "[2024-01-01 10:00:00 +0000] [8] [INFO] Booting worker with pid: 8",
        "https://github.com/benoitc/gunicorn/blob/master/gunicorn/arbiter.py",
    ),
    # ---------------------------------------------------------------------------------------------- progress
    # requests answered: SGLang's scheduler batches, TGI's per-request span ending in Success, gin's access log (Ollama)
    Marker(
        "sglang",
        "progress",
        r"\b(?:Decode|Prefill) batch[.,] #(?:running-req|new-seq): \d+",
        "[2025-01-01 10:00:05 TP0] Decode batch. #running-req: 1, #token: 102, token usage: 0.00, gen throughput (token/s): 45.31, #queue-req: 0",
        "https://github.com/sgl-project/sglang/blob/main/python/sglang/srt/managers/scheduler.py",
    ),
    Marker(
        "tgi",
        "progress",
        r"\btext_generation_router(?:_v\d)?::server: (?:\S+\.rs:\d+: )?Success\s*$",
        '2024-09-03T02:48:01.402023Z  INFO generate{parameters=GenerateParameters { max_new_tokens: Some(20) } total_time="1.2s"}: '
        "text_generation_router::server: router/src/server.rs:497: Success",
        _TGI_ROUTER,
    ),
    Marker(
        "gin (ollama)",
        "progress",
        r"^(?:\[GIN\] )?\d{4}/\d\d/\d\d - [\d:]+ \|\s*2\d\d \|\s+[\d.]+[µnm]?s \|",
        '[GIN] 2024/05/01 - 10:00:00 | 200 |  1.234567s |       127.0.0.1 | POST     "/api/generate"',
        "https://github.com/gin-gonic/gin/blob/master/logger.go",
    ),
    Marker(
        "vllm",
        "progress",
        r"\bAvg prompt throughput: [\d.]+ tokens/s, Avg generation throughput: [\d.]+ tokens/s",
        "INFO 05-01 10:00:10 [loggers.py:116] Engine 000: Avg prompt throughput: 12.3 tokens/s, Avg generation throughput: "
        "45.6 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.4%, Prefix cache hit rate: 0.0%",
        "https://github.com/vllm-project/vllm/blob/main/vllm/v1/metrics/loggers.py",
    ),
    # ------------------------------------------------------------------------------ benchmarks and GPU checks
    # infrastructure tests that ran to the end and passed: nccl-tests' summary, the CUDA samples' verdict,
    # llama-bench's result rows
    Marker(
        "nccl-tests",
        "finished",
        r"^#\s*Out of bounds values : 0 OK",
        "# Out of bounds values : 0 OK",
        "https://github.com/NVIDIA/nccl-tests/blob/master/src/common.cu",
    ),
    # its bandwidth summary is printed whatever the check found: progress, never a sign it went on past an error
    Marker(
        "nccl-tests",
        "summary",
        r"^#\s*Avg bus bandwidth\s*: [\d.]+",
        "# Avg bus bandwidth    : 52.9753",
        "https://github.com/NVIDIA/nccl-tests/blob/master/src/common.cu",
    ),
    Marker(
        "cuda samples",
        "finished",
        r"^Result = PASS\s*$",
        "Result = PASS",
        "https://github.com/NVIDIA/cuda-samples/blob/master/Samples/1_Utilities/deviceQuery/deviceQuery.cpp",
    ),
    Marker(
        "llama-bench",
        "finished",
        r"^\|.*\|\s*(?:pp|tg)\d+(?:\s*@\s*d\d+)?\s*\|\s*[\d.]+ ± [\d.]+\s*\|\s*$",
        "| llama 7B Q4_0                  |   3.56 GiB |     6.74 B | CUDA       |  99 |         pp512 |  4000.12 ± 10.21 |",
        "https://github.com/ggml-org/llama.cpp/blob/master/tools/llama-bench/README.md",
    ),
    Marker(
        "nccl-tests",
        "failed",
        r"^#\s*Out of bounds values : [1-9]\d* FAILED",
        "# Out of bounds values : 3 FAILED",
        "https://github.com/NVIDIA/nccl-tests/blob/master/src/common.cu",
    ),
    Marker(
        "cuda samples",
        "failed",
        r"^Result = FAIL(?:ED)?\s*$",
        "Result = FAIL",
        "https://github.com/NVIDIA/cuda-samples/blob/master/Samples/1_Utilities/deviceQuery/deviceQuery.cpp",
    ),
)
