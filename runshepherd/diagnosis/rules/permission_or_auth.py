"""Missing or wrong credentials, and permission errors on files."""

from __future__ import annotations

import re

from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import exits, family, fixes_by_evidence, words

# The operating system refusing a file (``[Errno 13] Permission denied: '/tmp/x'``, ``execve(): run.sh: Permission
# denied``) is fixed on the file or the path (its mode, its owner, a directory the job may write), not with a
# credential; a service refusing a request (401/403, a token, a key) is fixed with a credential.
_FILE_REFUSED = re.compile(
    r"\[Errno 13\] Permission denied: ['\"]?[/.~\w]|\bexecve\(\): \S+: Permission denied"
    r"|^(?:\S+: )?(?:cannot (?:open|create|access|execute) )?['\"]?(?:/|\./)[\w./-]+['\"]?: Permission denied"
    # coreutils' own words (``mkdir: cannot create directory '/run/enroot': Permission denied``), wherever quoted
    r"|\b(?:mkdir|touch|cp|mv|ln|rm|chmod|chown|install|tee): cannot [\w ]+ ['\"]?/[^'\"]+['\"]?: Permission denied"
    # a file system mounted read-only (EROFS, [Errno 30]) and a file operation the OS refuses (EPERM, [Errno 1]):
    # the job has to write somewhere else, no credential changes that
    r"|权限不够|拒绝访问|許可がありません|Keine Berechtigung|Permission non accordée|Permiso denegado"
    r"|허가 거부|\[WinError 1314\]|\bRead-only file system\b|\[Errno 1\] Operation not permitted: ['\"]?[/.~\w]"
    # Go's os.PathError, "<op> <path>: <errno text>" (ollama, docker, kubelet: "mkdir /usr/share/x: permission denied")
    r"|\[WinError 5\] Access is denied"
    r"|\b(?:open|mkdir|stat|lstat|remove|rename|chmod|chown|symlink|link|readlink|unlinkat|openat) (?:/|\./|~/)\S*:"
    r" (?:permission denied|operation not permitted|read-only file system)",
    re.MULTILINE,
)
_PATH_FIX = (
    "The operating system refused a file: make the script executable (`chmod +x`), give the job's user access "
    "to the file or directory (owner/mode), or point the job at a directory it may write (its own scratch or "
    "output path instead of a shared /tmp one)."
)


_EXPL = (
    "Access was refused: the task has no (or wrong, or expired) credentials for a service it uses, or no "
    "permission on a file or bucket."
)
_FIX = (
    "Check which credential the service needs (storage keys, Hugging Face token for gated models, W&B key), "
    "register it with the scheduler's credential store (for OSMO: `osmo credential set`), accept the model's "
    "licence if it is gated, or fix the file's permissions. Never paste secrets into the spec."
)

# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): strerror(EACCES) "Permission denied" and
# strerror(EPERM) "Operation not permitted" (PermissionError, Errno 13), HTTP 401 Unauthorized and 403 Forbidden
# (RFC 9110 §15.5.2, §15.5.4), and the words cloud SDKs and hubs use for a missing, invalid or expired token or key
ROOT_WORDS = (
    words(
        r"\bpermission denied\b|\baccess (?:is )?denied\b|\bdenied\b|\bunauthori[sz]ed\b|\bforbidden\b"
        r"|\b(?:status(?: code)?|HTTP(?: Error)?|error|code)\W{0,3}(?:401|403)\b|\b(?:401|403) (?:Client Error|Unauthorized"
        r"|Forbidden)\b|\boperation not permitted\b|\bEACCES\b|\bEPERM\b|\bErrno 13\b"
        # the Hugging Face Hub's gated repositories (huggingface_hub GatedRepoError: "Cannot access gated repo")
        r"|\bgated (?:repo|model)\b",
        0.62,
        "access being refused (permission, login or token)",
        # the CUDA runtime's stream-capture errors (cudaErrorStreamCaptureUnsupported, 900: "operation not permitted
        # when stream is capturing", https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html): a CUDA
        # graph capturing code that may not run under capture, not access refused
        unless=r"\bwhen stream is capturing\b|\bstream capture\b",
    ),
    words(
        r"\bauthenticat\w*\b(?:[^.]|\.\S){0,40}\b(?:fail\w*|error|required|invalid)\b|\b(?:invalid|expired|missing|bad|revoked)"
        r"\b(?:[^.]|\.\S){0,20}\b(?:token|credentials?|api[ _-]?key|password|secret|access key)\b|\b(?:token|credentials?"
        r"|api[ _-]?key|access key)\b(?:[^.]|\.\S){0,30}\b(?:invalid|expired|missing|not (?:found|set|provided|valid)|required"
        r"|rejected)\b|\bnot logged in\b|\blog ?in (?:required|failed)\b|\bgated (?:repo|model)\b"
        r"|\bNo ?Credentials\b|\bread-only file ?system\b|\bEROFS\b",
        0.6,
        "missing or invalid credentials (a token, a key, a login)",
    ),
    # an API key or login a client says is not set up (wandb: "api_key not configured (no-tty). call wandb.login")
    words(
        r"\b(?:api[ _-]?key|token|credentials?|login)\b(?:[^.]|\.\S){0,20}\bnot (?:configured|supplied|present)\b"
        r"|\bno (?:api[ _-]?key|token|credentials?) (?:found|provided|set|configured)\b",
        0.61,
        "missing or invalid credentials (a token, a key, a login)",
    ),
)


FAMILY = family(
    "permission_or_auth",
    origin="config",
    fix_kind="fix_credentials",
    applies=("failed", "running"),
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        # numba asked to cache a jitted function where it may not write ("cannot cache function 'f': no locator
        # available for file '.../site-packages/x.py'", numba/core/caching.py): a read-only install; NUMBA_CACHE_DIR
        # pointing at a writable directory is the fix
        pat(r"cannot cache function '[^']+': no locator available for file", 0.78),
        # the Kaggle API client finding no credentials (kaggle/api/kaggle_api_extended.py: "Could not find
        # kaggle.json. Make sure it's located in ~/.kaggle. Or use the environment method."): an API token to place
        pat(r"Could not find kaggle\.json\b", 0.84),
        # (not huggingface_hub's hint under every RepositoryNotFoundError, "If you are trying to access a private or
        # gated repo, make sure you are authenticated": that names what a missing repo *might* be, and most often
        # the id is wrong)
        pat(
            r"GatedRepoError|(?<!private or )gated repo|Access to model .* is restricted|You must be authenticated to access it",
            0.92,
        ),
        pat(
            # (urllib's "HTTP Error 403: …" is not here: urllib fetches public files anonymously, see network_download)
            r"\b40[13] Client Error|HTTP Error 401|HTTP error 403 while getting|status(?: code)?:? 40[13]\b"
            r"|\b403 Forbidden|\b401 Unauthorized",
            0.88,
        ),
        pat(
            # (gdown's "Access denied with the following error:" heads Google Drive's reason: network_download's)
            r"AccessDenied|Access Denied(?! with the following error)|InvalidAccessKeyId|SignatureDoesNotMatch|ExpiredToken|TokenExpired|InvalidToken",
            0.88,
        ),
        pat(
            r"NoCredentialsError|Unable to locate credentials|could not find default credentials|DefaultCredentialsError",
            0.88,
        ),
        pat(r"PermissionError|PermissionDeniedError", 0.86, flags=0),
        # a launcher's own check that stops on a credential the job's environment lacks ("Error: WANDB_API_KEY is not
        # set"); only on a line that says error, since a library's notice of an unset token is often benign
        pat(
            r"^\s*(?:\[?(?:ERROR|Error|error|FATAL|Fatal)\]?:?)\s.*\b(?P<var>[A-Z][A-Z0-9_]*(?:API_KEY|TOKEN|SECRET"
            r"|ACCESS_KEY|PASSWORD)[A-Z0-9_]*)\b.{0,20}\bnot set\b",
            0.84,
            flags=0,
        ),
        pat(r"\(Forbidden\): .* cannot (?:create|get|list|patch|delete|watch|update) resource", 0.88),
        # the Kubernetes API refusing a service account (client libraries' wording), ssh between nodes refused
        pat(r"\bforbidden: User \S+ cannot \w+ resource|ApiException: \(40[13]\)", 0.88),
        pat(
            r"Permission denied \(publickey|Host key verification failed|not reachable via ssh"
            r"|\bssh\b.*(?:non-zero exit status|exit(?:ed with)? (?:code|status)) 255\b",
            0.84,
        ),
        pat(r"Permission denied", 0.82),
        pat(
            r"api[_ ]key not configured|Invalid (?:user )?token|token is (?:invalid|expired)|invalid service token"
            # OAuth error tags of an access token the service no longer takes (Dropbox's AuthError tags)
            r"|\b(?:expired|invalid)_access_token\b",
            0.84,
        ),
        pat(r"AuthenticationError|authentication (?:failed|required)|not authorized|Unauthorized", 0.8),
        # (not the CUDA runtime's cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing")
        pat(r"Operation not permitted(?! when stream is capturing)|Read-only file system", 0.74),
        pat(r"could not read (?:Username|Password) for|terminal prompts disabled|Authentication failed for '", 0.86),
        # git hosts refusing the credential (GitHub's removed password auth, GitLab's basic-auth refusal)
        pat(
            r"remote: (?:Invalid username or (?:password|token)|HTTP Basic: Access denied)"
            r"|Support for password authentication was removed",
            0.86,
        ),
        # huggingface_hub asked for a token and none is configured
        pat(r"LocalTokenNotFoundError|no token was found\. You need to provide a token or be logged in", 0.88),
        # a hosted model's SDK built without its key: the SDKs generated from an OpenAPI spec by Stainless (OpenAI,
        # Groq, Together, …: "The api_key client option must be set either by passing api_key to the client or by
        # setting the OPENAI_API_KEY environment variable") and Anthropic's ("Could not resolve authentication
        # method. Expected either api_key or auth_token to be set")
        pat(
            r"The api_key client option must be set\b|Could not resolve authentication method\. Expected either api_key",
            0.88,
            flags=0,
        ),
        # credential exception classes by name, whatever their message: TensorFlow's UnauthenticatedError
        # (tensorflow/python/framework/errors_impl.py), Azure Identity's CredentialUnavailableError and
        # AuthenticationRequiredError (azure/identity/_exceptions.py), botocore's credential errors
        # (https://github.com/boto/botocore/blob/develop/botocore/exceptions.py: PartialCredentialsError,
        # NoAuthTokenError, CredentialRetrievalError, UnauthorizedSSOTokenError, SSOTokenLoadError, TokenRetrievalError)
        pat(
            r"\b(?:UnauthenticatedError|CredentialUnavailableError|AuthenticationRequiredError|PartialCredentialsError"
            r"|NoAuthTokenError|CredentialRetrievalError|UnauthorizedSSOTokenError|SSOTokenLoadError|TokenRetrievalError)\b",
            0.86,
            flags=0,
        ),
        # gRPC's status codes in grpcio's RPC error ("status = StatusCode.PERMISSION_DENIED"; codes 7 and 16,
        # https://github.com/grpc/grpc/blob/master/doc/statuscodes.md)
        pat(r"\bStatusCode\.(?:PERMISSION_DENIED|UNAUTHENTICATED)\b", 0.86, flags=0),
        # Windows' ERROR_ACCESS_DENIED (system error code 5) as Python words it
        pat(r"\[WinError 5\] Access is denied", 0.84),
        # curl's (22) message, which git's HTTPS transport repeats: the server answered 401/403
        pat(r"The requested URL returned error: 40[13]\b", 0.86),
        # cloud SDKs: botocore's ``An error occurred (403) when calling the HeadObject operation``, google-cloud's
        # ``exceptions.Forbidden: 403`` and IAM wording, Azure's authentication errors, gRPC's status names
        pat(
            r"An error occurred \((?:40[13]|Forbidden|Unauthorized|UnauthorizedOperation|AuthFailure"
            r"|UnrecognizedClientException|InvalidClientTokenId)\) when calling the \w+ operation"
            r"|exceptions\.(?:Forbidden|Unauthorized|Unauthenticated|PermissionDenied): 40[13]\b"
            r"|does not have [\w.]+ access to|ClientAuthenticationError|AuthorizationPermissionMismatch"
            r"|Server failed to authenticate the request",
            0.88,
        ),
        pat(r"\b(?:PERMISSION_DENIED|UNAUTHENTICATED): ", 0.84, flags=0),
        # a paid API refusing the account for its billing (HTTP 402 Payment Required; OpenAI's insufficient_quota, "You
        # exceeded your current quota, please check your plan and billing details"; OpenRouter's "Insufficient credits"):
        # the key works, the account behind it must be topped up or another key used
        pat(
            r"\b(?:Error code|status(?: code)?|HTTP(?: Error)?)\W{0,3}402\b|\b402 (?:Payment Required|Client Error)"
            r"|\binsufficient_quota\b|exceeded your current quota|\bInsufficient (?:credits|balance)\b",
            0.84,
        ),
        # libuv/Node errno names for a refused file or operation; sudo without a way to ask for the password
        pat(r"\b(?:EACCES|EPERM)\b", 0.82, flags=0),
        pat(
            r"sudo: (?:a terminal is required|no tty present and no askpass program specified|a password is required)",
            0.84,
        ),
        # glibc's strerror(EACCES) in other locales (zh_CN, ja, de, fr, es, ko), Windows' ERROR_ACCESS_DENIED in
        # Chinese; Windows refusing to create a symlink without the privilege (WinError 1314, huggingface_hub's cache);
        # Google's OAuth refusing a refresh token (google.auth.exceptions.RefreshError: "invalid_grant")
        pat(
            r"权限不够|拒绝访问|許可がありません|Keine Berechtigung|Permission non accordée|Permiso denegado|허가 거부"
            r"|\[WinError 1314\]|\bRefreshError\b.*\binvalid_grant\b",
            0.82,
            flags=0,
        ),
        pat(r"Invalid credentials in Authorization header", 0.88),
        # W&B's server answers a run created under an entity (team or user) the key may not write to, or that is not
        # there, with "entity <name> not found during upsertBucket" (HTTP 404): the entity setting or the login
        pat(r"\bentity \S+ not found during upsertBucket\b", 0.84),
        pat(r"(?:do not|don't) have permission to (?:access|perform|use)", 0.82),
    ),
    # 126 = found but not executable; OSMO 2013/2014/2020 = data or service authorisation failures
    exit_codes=(exits(126, strength=0.55), exits(2013, 2014, 2020, strength=0.8)),
    # exception classes named for a refused credential or permission, in any library (botocore's
    # NoCredentialsError, google-auth's DefaultCredentialsError, azure's ClientAuthenticationError, openai's
    # AuthenticationError and PermissionDeniedError, TensorFlow's UnauthenticatedError)
    exceptions=r"(?:^|\.)(?:No|Default|Invalid|Missing|Partial|Client|Bad|Expired)?(?:Unauthori[sz]ed|Unauthenticated"
    r"|Authentication|Authori[sz]ation|Credentials?|Forbidden|AccessDenied|PermissionDenied|(?:Invalid|Expired|Missing)"
    r"Token|Token(?:Expired|Invalid))\w*(?:Error|Exception)$",
    fix_from_evidence=fixes_by_evidence((_FILE_REFUSED, "fix_path", _PATH_FIX), evidence_only=True),
    root_words=ROOT_WORDS,
)
