"""The permission_or_auth family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, root_line_cases, rules_dev

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["b-0019", "b-0017", "b-0182"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "permission_or_auth"


def test_gated_model_needs_credentials() -> None:
    d = diagnose_log_text("huggingface_hub.errors.GatedRepoError: 401 Client Error. Cannot access gated repo\n")
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials")


def test_a_refused_file_is_a_path_fix_and_a_refused_request_a_credential() -> None:
    f = diagnose_log_text("PermissionError: [Errno 13] Permission denied: '/tmp/torch_extensions/lightseq_layers'\n")
    assert (f.label, f.fix.kind) == ("permission_or_auth", "fix_path")
    x = diagnose_log_text("slurmstepd: error: execve(): start-agent.sh: Permission denied\n")
    assert (x.label, x.fix.kind) == ("permission_or_auth", "fix_path")
    h = diagnose_log_text("requests.exceptions.HTTPError: 403 Client Error: Forbidden for url: https://hf.co/x\n")
    assert (h.label, h.fix.kind) == ("permission_or_auth", "fix_credentials")


@pytest.mark.parametrize(
    "log",
    [
        "E0207 reflector.go:138] Failed to watch *v1.RoleBinding: rolebindings.rbac.authorization.k8s.io is "
        'forbidden: User "system:serviceaccount:kubeflow:op" cannot list resource "rolebindings"\n',
        "kubernetes.client.exceptions.ApiException: (403)\nReason: Forbidden\n",
        "subprocess.CalledProcessError: Command 'ssh -o PasswordAuthentication=no 10.0.0.2 hostname' returned "
        "non-zero exit status 255.\n",
    ],
)
def test_kubernetes_refusals_and_ssh_between_nodes(log: str) -> None:
    assert diagnose_log_text(log).label == "permission_or_auth", log


def test_tensorflows_permission_denied_error() -> None:
    log = "tensorflow.python.framework.errors_impl.PermissionDeniedError: Error executing an HTTP request: HTTP response code 403\n"
    assert diagnose_log_text(log).label == "permission_or_auth"


@pytest.mark.parametrize(
    "log",
    [
        # huggingface_hub: a token is required and none is configured
        "huggingface_hub.errors.LocalTokenNotFoundError: Token is required (`token=True`), but no token was found. "
        "You need to provide a token or be logged in to Hugging Face with `huggingface-cli login`.\n",
        # botocore's ClientError format, google-cloud's exceptions, Azure's
        "botocore.exceptions.ClientError: An error occurred (403) when calling the HeadObject operation: Forbidden\n",
        "google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/b/o: sa@p.iam.gserviceaccount.com "
        "does not have storage.objects.get access to the Google Cloud Storage object.\n",
        "azure.core.exceptions.ClientAuthenticationError: Server failed to authenticate the request.\n",
        # git hosts refusing a password
        "remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/o/r.git/'\n",
    ],
)
def test_cloud_sdks_hubs_and_git_hosts_refusing_a_credential(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials"), log


@pytest.mark.parametrize(
    "log",
    [
        "Error: EACCES: permission denied, open '/usr/lib/node_modules/x/package.json'\n",  # libuv errno name
        "sudo: a terminal is required to read the password; either use the -S option to read from standard input\n",
        "huggingface_hub.errors.HfHubHTTPError: Invalid credentials in Authorization header\n",
        "fatal: unable to access 'https://github.com/o/r.git/': The requested URL returned error: 403\n",
    ],
)
def test_refusals_in_other_runtimes_words(log: str) -> None:
    assert diagnose_log_text(log).label == "permission_or_auth", log


def test_a_cuda_stream_capture_error_is_not_a_permission_problem() -> None:
    d = diagnose_log_text("RuntimeError: CUDA error: operation not permitted when stream is capturing\n")
    assert d.label != "permission_or_auth"


@pytest.mark.parametrize(
    "last",
    [
        "OSError: [Errno 30] Read-only file system: '/data/out/model.pt'",  # EROFS
        "PermissionError: [Errno 1] Operation not permitted: '/mnt/shared/ckpt'",  # EPERM
    ],
)
def test_a_read_only_mount_or_a_refused_file_operation_is_fixed_on_the_path(last: str) -> None:
    log = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    save(model)\n' + last + "\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_path"), last


def test_gos_path_error_on_a_directory_is_fixed_on_the_path() -> None:
    """Ollama (Go) refused a directory: "Error: mkdir /home/user: permission denied" (os.PathError: op, path, errno)."""
    d, _, record = diagnose_dev("m-0031")
    assert d.label == record["label"] == "permission_or_auth"
    assert d.fix.kind == record["fix_kind"] == "fix_path"


@pytest.mark.parametrize(
    "log",
    [
        "PermissionError: [Errno 13] 权限不够: '/data/out'\n",  # glibc zh_CN strerror(EACCES)
        "mkdir: ディレクトリ '/opt/models' を作成できません: 許可がありません\n",  # ja
        # Windows refusing a symlink without the privilege (huggingface_hub's cache on Windows)
        "OSError: [WinError 1314] A required privilege is not held by the client: 'C:\\\\hf\\\\blobs\\\\ab' -> 'C:\\\\x'\n",
    ],
)
def test_a_refused_file_in_the_systems_language_or_a_missing_privilege(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_path"), log


@pytest.mark.parametrize(
    "line",
    [
        # tensorflow/python/framework/errors_impl.py
        "tensorflow.python.framework.errors_impl.UnauthenticatedError: Could not authenticate the request",
        # azure/identity/_exceptions.py
        "azure.identity._exceptions.CredentialUnavailableError: EnvironmentCredential authentication unavailable. Environment variables are not fully configured.",
        # botocore/exceptions.py
        "botocore.exceptions.PartialCredentialsError: Partial credentials found in env, missing: AWS_SECRET_ACCESS_KEY",
        # Windows system error code 5, ERROR_ACCESS_DENIED
        "PermissionError: [WinError 5] Access is denied: 'C:\\\\runs\\\\ckpt'",
    ],
)
def test_credential_exception_classes_by_name(line: str) -> None:
    assert diagnose_log_text(TB + line + "\n").label == "permission_or_auth"


def test_grpc_status_unauthenticated() -> None:
    # grpcio's RPC error; status codes in https://github.com/grpc/grpc/blob/master/doc/statuscodes.md
    log = TB + (
        "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
        '\tstatus = StatusCode.UNAUTHENTICATED\n\tdetails = "Missing bearer token"\n>\n'
    )
    assert diagnose_log_text(log).label == "permission_or_auth"


def test_exception_class_named_for_a_refused_credential() -> None:
    # openai-python's documented error table: 401 AuthenticationError (the message is the server's JSON)
    log = TB + "openai.AuthenticationError: Error code: 401 - {'error': {'code': 'invalid_api_key'}}\n"
    assert diagnose_log_text(log).label == "permission_or_auth"


@root_line_cases(
    ("b-0016", "401 Client Error: Unauthorized"),
    ("b-0126", "api_key not configured"),
    ("b-0017", "Cannot access gated repo for url"),
)
def test_root_line_vocabulary_reads_permission_or_auth(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "permission_or_auth", quoted)


@pytest.mark.parametrize(
    "log",
    [
        "openai.APIStatusError: Error code: 402 - {'error': {'message': 'Insufficient credits. Add more using "
        "https://openrouter.ai/settings/credits', 'code': 402}}\n",
        "openai.RateLimitError: Error code: 429 - {'error': {'message': 'You exceeded your current quota, please check "
        "your plan and billing details.', 'type': 'insufficient_quota', 'code': 'insufficient_quota'}}\n",
        "requests.exceptions.HTTPError: 402 Client Error: Payment Required for url: https://api.example.com/v1/chat\n",
    ],
)
def test_a_paid_api_refusing_the_account_for_its_billing_is_a_credential_fix(log: str) -> None:
    d = diagnose_log_text(TB + log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials")


def test_an_upload_refused_for_an_expired_access_token() -> None:
    # the run's results went nowhere: Dropbox refused the token after the evaluation (retired blind v22)
    d, _, _ = diagnose_dev("zzzz-0006")
    assert d.label == "permission_or_auth"


def test_a_wandb_entity_the_key_cannot_write_to() -> None:
    """zzzza-0021: W&B's server answers a run under an entity that is not the user's with a 404 on upsertBucket."""
    log = "wandb: ERROR Error while calling W&B API: entity your_entity not found during upsertBucket (<Response [404]>)\n"
    assert diagnose_log_text(log).label == "permission_or_auth"


def test_the_hubs_private_or_gated_hint_under_a_missing_repo_is_not_a_gated_repo() -> None:
    """Retired v29 zzzzze-0201 and zzzzzg-0224 (permission_or_auth 0.92): huggingface_hub prints "If you are trying
    to access a private or gated repo, make sure you are authenticated." under every RepositoryNotFoundError; the
    ids were wrong ('t', 'Qwen2-VL-2B-Instruct' without its organisation). A gated repo says so in its own words."""
    missing = (
        "huggingface_hub.utils._errors.RepositoryNotFoundError: 404 Client Error. (Request ID: Root=1-65a7)\n"
        "Repository Not Found for url: https://huggingface.co/t/resolve/main/config.json.\n"
        "Please make sure you specified the correct `repo_id` and `repo_type`.\n"
        "If you are trying to access a private or gated repo, make sure you are authenticated.\n"
        "OSError: t is not a local folder and is not a valid model identifier listed on 'https://huggingface.co/models'\n"
    )
    d = diagnose_log_text(missing)
    assert (d.label, d.fix.kind) == ("file_not_found", "fix_path")
    gated = (
        "huggingface_hub.utils._errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-65f4)\n"
        "Cannot access gated repo for url https://huggingface.co/google/gemma-2b-it/resolve/main/config.json.\n"
        "Repo model google/gemma-2b-it is gated. You must be authenticated to access it.\n"
    )
    assert diagnose_log_text(gated).label == "permission_or_auth"
    for case_id in ("zzzzze-0201", "zzzzzg-0224"):
        assert diagnose_dev(case_id)[0].label != "permission_or_auth", case_id


def test_a_launcher_stopping_on_an_unset_credential_and_a_benign_notice_of_one() -> None:
    """Retired v30 zzzzzl-0008 (unknown): the job's own check, "Error: WANDB_API_KEY is not set", on an error line;
    a library's notice that a token is unset, in a run that goes on, is no failure."""
    log = (
        "Error: WANDB_API_KEY is not set. Set it for wandb tracking (e.g. export WANDB_API_KEY=...).\n"
        "srun: error: dgx022: task 0: Exited with exit code 1\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials")
    notice = "Warning: HF_TOKEN is not set; public models only.\nstep 1/10 loss 2.1\nstep 10/10 loss 1.2\nDone.\n"
    assert diagnose_log_text(notice).label == "healthy"


def test_numba_with_no_writable_cache_location_is_a_permission_problem() -> None:
    d, record = rules_dev("zzzzzzc-0002")
    assert (d.label, record["label"]) == ("permission_or_auth", "permission_or_auth")
    assert "cannot cache function" in d.evidence[0]


def test_the_kaggle_client_without_its_token_is_a_credential_to_place() -> None:
    d, record = rules_dev("zzzzzzd-0206")
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("permission_or_auth", "fix_credentials")


@pytest.mark.parametrize(
    "line",
    [
        "openai.OpenAIError: The api_key client option must be set either by passing api_key to the client or by "
        "setting the OPENAI_API_KEY environment variable",
        'TypeError: "Could not resolve authentication method. Expected either api_key or auth_token to be set. Or for '
        'one of the `X-Api-Key` or `Authorization` headers to be explicitly omitted"',
    ],
)
def test_a_hosted_model_sdk_started_without_its_api_key_is_a_credential(line: str) -> None:
    log = f'Traceback (most recent call last):\n  File "eval.py", line 12, in <module>\n    client = Client()\n{line}\n'
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("permission_or_auth", "fix_credentials")
    assert diagnose_log_text(log, rules_only=True).confidence >= 0.8
