"""Downloads and remote services unreachable (DNS, timeouts, 5xx, hub outages, data transfer failures)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import error_looking
from runshepherd.diagnosis.positive import progressed_after
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal, pat
from runshepherd.diagnosis.rules.family import exits, family, words

_EXPL = (
    "A download or a call to a remote service failed (the network, a name lookup or the remote server did "
    "not answer); this is usually transient or a missing network route, not a bug in the code."
)
_FIX = (
    "Retry; if it repeats, pre-download the model/data to storage and pass it as an input (or set "
    "HF_HUB_OFFLINE=1 with a local cache), and check that the cluster can reach that host."
)


_PIP_NOT_FOUND = re.compile(
    r"No matching distribution found for|Could not find a version that satisfies the requirement"
)
_PIP_UNREACHABLE = re.compile(
    r"Retrying \(Retry\(.*(?:NewConnectionError|Name or service not known|Temporary failure in name resolution"
    r"|ConnectTimeoutError|ReadTimeoutError|ProxyError|Network is unreachable|Connection refused)"
    r"|Could not fetch URL \S+: There was a problem confirming the ssl certificate"
)


def _pip_index_unreachable(ctx: Context) -> list[Signal]:
    """pip says "no matching distribution" when it never reached the index: its connection retries (printed as
    warnings) come first, so that is a network failure, not a missing package."""
    lines = ctx.log.lines
    missing = next((ln for ln in lines if ln.usable and _PIP_NOT_FOUND_G.search(ln.text, ln.folded)), None)
    if missing is None:
        return []
    retries = [ln for ln in lines[max(0, missing.index - 60) : missing.index] if _PIP_UNREACHABLE.search(ln.text)]
    if not retries:
        return []
    return [
        Signal(
            "network_download",
            "infra",
            0.9,
            retries[0].index,
            [retries[-1].raw.rstrip(), missing.raw.rstrip()],
            "pip could not reach the package index (its connection attempts failed), so it found no "
            "version of the package; the package itself is probably fine.",
            "retry",
            "Check that the task can reach the package index (or set a reachable mirror with "
            "PIP_INDEX_URL), bake the package into the image, or install from wheels shipped as an input.",
        )
    ]


# a reader finding the file's end missing: pickle ("pickle data was truncated"), torch's zip reader ("unexpected EOF.
# The file might be corrupted"); read by _CORRUPT and, without the download in view, by _CUT_SHORT
_ENDED_EARLY = r"pickle data was truncated|unexpected EOF\. The file might be corrupted"
# An archive that will not open (zipfile's "BadZipFile: File is not a zip file", zlib's "Error -3 while
# decompressing: invalid block type", gzip's "Not a gzip file", tarfile's ReadError, a stream cut short) is a
# download that came back broken or as an error page when the log also shows the download: a "Downloading … from"
# line (keras.utils.get_file, torchvision), a dataset built with download=True, or a download/load call in the frames
_CORRUPT = re.compile(
    r"\bBadZipFile\b|File is not a zip file|Error -3 while decompressing|Not a gzip file|CRC check failed"
    r"|Compressed file ended before the end-of-stream marker|\bReadError: (?:file could not be opened|unexpected end)"
    r"|not a valid (?:zip|gzip|tar) (?:file|archive)"
    # GNU tar and gzip on an archive cut short or not an archive at all ("tar: Unexpected EOF in archive", "tar:
    # Skipping to next header", "tar: This does not look like a tar archive", "gzip: stdin: unexpected end of file",
    # "gzip: stdin: not in gzip format")
    r"|^tar: (?:Unexpected EOF in archive|Skipping to next header|This does not look like a tar archive)"
    r"|^gzip: .{0,200}: (?:unexpected end of file|not in gzip format)"
    # pickle and torch.load reading a file whose end never arrived (_ENDED_EARLY)
    rf"|{_ENDED_EARLY}",
    re.IGNORECASE,
)
_DOWNLOADING = re.compile(
    r"\bDownloading\b.{0,80}\bfrom\b|\bdownload\s*=\s*True\b|\b(?:\w*download\w*|load_data|get_file|urlretrieve)\("
    r"|\bin (?:\w*download\w*|get_file|load_data|urlretrieve)\b"
    # a script's own word that it downloads ("Downloading Processed Dataset...", "downloading to default path"), or
    # a download script in the traceback or on the command line (download_data.py, download.sh)
    r"|^\W*Downloading\b|\bdownloading to\b|\bdownload\w*\.(?:py|sh)\b",
    re.IGNORECASE,
)
# an archive that ends before its end: cut short in transfer even where the log does not show the download (a tar
# fetched by an earlier step), read weakly (not a file that is no zip at all: a local file of another kind reads so);
# and tar -xzf's gzip finding no gzip data at all in the archive it was handed ("gzip: stdin: not in gzip format",
# then "tar: Child returned status 1"): a fetched .tar.gz that is an error page or a stub (dev: 2 of 2 so labelled)
_CUT_SHORT = re.compile(
    r"^tar: (?:Unexpected EOF in archive|Skipping to next header)|unexpected end of file|^gzip: stdin: not in gzip format"
    rf"|Compressed file ended before the end-of-stream marker|{_ENDED_EARLY}",
    re.IGNORECASE,
)
# (each run on every line of a log by its literal gate: most logs hold none of these words)
_PIP_NOT_FOUND_G, _CORRUPT_G, _DOWNLOADING_G = Gated.of(_PIP_NOT_FOUND), Gated.of(_CORRUPT), Gated.of(_DOWNLOADING)


def _corrupt_download(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    bad = next((ln for ln in reversed(lines) if not ln.code and _CORRUPT_G.search(ln.text, ln.folded)), None)
    if bad is None:
        return []
    seen = any(_DOWNLOADING_G.search(ln.text, ln.folded) for ln in lines)
    if not seen and not _CUT_SHORT.search(bad.text):
        return []
    return [
        Signal(
            "network_download",
            "infra",
            # (without the download in view, still above a bare exception's reading: the library says bytes are
            # missing, which a code error does not explain)
            0.84 if seen else 0.68,
            bad.index,
            [bad.raw.rstrip()],
            "A file the job downloaded could not be opened as an archive: the download came back broken or "
            "incomplete (or the server sent an error page instead of the file)."
            + ("" if seen else " The log does not show the download itself, so this is a weak reading."),
            "retry",
            "Delete the partly downloaded file from the cache/root directory and retry; if it repeats, download "
            "it by hand (check the URL still serves the file) and pass it as an input.",
        )
    ]


# a download tool answered 404 by the server it was pointed at (wget: "awaiting response... 404 Not Found", "ERROR 404:
# Not Found."; curl -f: "curl: (22) The requested URL returned error: 404"; the server's own 404 page saved in place of
# the file): a data or weights link in a script that no longer serves the file (moved or removed), not a path on this
# machine and not a network fault: retrying will not help, the link has to change
_DEAD_LINK = re.compile(
    r"awaiting response\.\.\. 404 Not Found|\bERROR 404: Not Found\.|\bcurl: \(22\) The requested URL returned error: 404"
    r"|<title>404 Not Found</title>"
)
_DEAD_LINK_G = Gated.of(_DEAD_LINK)


def _dead_link(ctx: Context) -> list[Signal]:
    hit = next((ln for ln in ctx.log.lines if _DEAD_LINK_G.search(ln.text, ln.folded)), None)
    if hit is None:
        return []
    return [
        Signal(
            "network_download",
            "infra",
            0.74,
            hit.index,
            [hit.raw.rstrip()],
            "A download tool (wget or curl) asked a server for a file and the server answered 404 Not Found: the "
            "link in the script no longer serves the file (it moved or was removed), so everything after it that "
            "reads the file fails too.",
            "fix_path",
            "Find where the file lives now (the project's README, its issues, the dataset's home page) and update the "
            "URL in the download script; retrying the same link will not help.",
        )
    ]


# pip's own retry notice (pip/_vendor/urllib3/connectionpool.py logs it as a warning): ``Retrying (Retry(total=3,
# …)) after connection broken by 'NewConnectionError(…)': /simple/numpy/``
_PIP_RETRY = re.compile(r"Retrying \(Retry\(total=\d+.*\) after connection broken by")
_PIP_RETRY_G = Gated.of(_PIP_RETRY)
# pip got through after all: it collected, downloaded or installed something after its last retry
_PIP_GOT_THROUGH = re.compile(
    r"Successfully (?:installed|downloaded|built)|^\s*(?:Collecting|Downloading|Using cached|Requirement already satisfied"
    r"|Installing collected packages|Obtaining|Processing|Building wheels?|Saved) "
)


def _pip_retries_unanswered(ctx: Context) -> list[Signal]:
    """pip retrying its connection to the index, and the log ends without pip getting through (a build or job cut
    off while pip was still retrying, or killed for it), with no other error in it: the network, weaker than pip's
    own verdict. Where the log shows an error, that error is the verdict (retries are pip's routine noise)."""
    lines = ctx.log.lines
    retries = [ln for ln in lines if _PIP_RETRY_G.search(ln.text, ln.folded)]
    if not retries:
        return []
    after = lines[retries[-1].index + 1 :]
    if any(_PIP_GOT_THROUGH.search(ln.text) for ln in after) or progressed_after(lines, retries[-1].index):
        return []
    if next(error_looking(lines), None) is not None:
        return []
    return [
        Signal(
            "network_download",
            "infra",
            0.72,
            retries[0].index,
            [retries[-1].raw.rstrip()],
            "pip kept retrying its connection to the package index and never got through (the log ends while it "
            "retries): the task could not reach the index.",
            "retry",
            "Check that the task can reach the package index (or set a reachable mirror with PIP_INDEX_URL), bake "
            "the packages into the image, or install from wheels shipped as an input; then resubmit.",
        )
    ]


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the socket errors' strerror texts
# ("Connection refused", "Connection reset by peer", "Network is unreachable", "No route to host"), the resolver's
# ("Name or service not known", "Temporary failure in name resolution"), TLS, HTTP 429 and 5xx (RFC 9110 §15.6,
# RFC 6585 §4), requests/urllib3 exception names (ConnectionError, MaxRetryError, ReadTimeout, ChunkedEncodingError)
# and a download or fetch that failed; a connection between a job's own ranks is nccl_or_distributed's
_BETWEEN_RANKS = (
    r"\b(?:NCCL|gloo|c10d|rendezvous|TCPStore|MASTER_(?:ADDR|PORT)|process ?group|ranks?|torch\.distributed)\b"
)
ROOT_WORDS = (
    words(
        r"\bconnection (?:refused|reset|aborted|error|closed|timed out|failed|broken)\b|\b(?:could not|couldn't|failed"
        r" to|unable to|cannot) (?:connect|reach|resolve|establish)\b|\bname or service not known\b|\bname resolution\b"
        r"|\bgetaddrinfo\b|\bnetwork (?:is )?unreachable\b|\bno route to host\b|\bhost (?:is )?unreachable\b"
        r"|\bremote (?:end|host) closed\b|\bECONNREFUSED\b|\bECONNRESET\b|\bEHOSTUNREACH\b|\bENETUNREACH\b"
        # (a proxy, but not a module of that name in a dotted path: torch.fx.proxy.TraceError is no network's)
        r"|(?<!\.)\bproxy\b(?!\.\w)|\bSSL\b|\bcertificate verify|\bhandshake\b|\bread timed? ?out\b|\bconnect(?:ion)? timeout\b"
        r"|\bConnection ?Error\b|\bMax ?Retry\b|\bIncomplete ?Read\b|\bChunked ?Encoding\b|\bRemote ?Disconnected\b"
        # huggingface_hub's LocalEntryNotFoundError: the file is not cached and the Hub could not be reached
        r"|\bLocal ?Entry ?Not ?Found\b"
        # a socket's own timeout (Python's socket.timeout, ssl's "The read operation timed out")
        r"|\bsocket\.timeout\b|\b(?:read|write|handshake) operation timed out\b"
        # a request to a service that ran out of time ("The request exceeded the maximum allowed time, please try
        # again", "request timed out"): the call over the network did not complete
        r"|\brequests?\b(?:[^.]|\.\S){0,40}\b(?:timed? ?out|exceeded\b(?:[^.]|\.\S){0,30}\btime)\b",
        0.61,
        "a network connection that failed",
        unless=_BETWEEN_RANKS,
    ),
    words(
        r"\b(?:HTTP(?: ?Error)?|status(?: code)?|code|error)\W{0,3}(?:5\d\d|429)\b|\b(?:5\d\d|429) (?:Server Error|Internal"
        r"|Bad Gateway|Service Unavailable|Gateway Time-?out|Too Many Requests)\b|\btoo many requests\b|\brate.?limit"
        r"|\bservice unavailable\b|\bbad gateway\b|\bgateway time-?out\b|\binternal server error\b",
        0.63,
        "a server refusing or failing a request (HTTP 429 or 5xx)",
    ),
    words(
        r"\bdownload\w*\b|\bfetch\w*\b|\bBad ?Zip ?File\b|\bnot a (?:zip|gzip) file\b"
        r"|\bError -3 while decompressing\b|\bunexpected end of (?:data|file|archive|stream)\b",
        0.58,
        "a download or fetch that failed",
        # a text codec's "unexpected end of data" is a byte sequence cut mid-character (a file read in the wrong
        # encoding), not a transfer cut short
        unless=_BETWEEN_RANKS + r"|\bcodec can't decode\b|\bUnicodeDecodeError\b",
    ),
    # TLS: a certificate the client could not verify (expired, self-signed, unknown issuer)
    words(
        r"\bcertificate\b(?:[^.]|\.\S){0,60}\b(?:expired|verif\w*|invalid|untrusted|not trusted|self[- ]signed)\b"
        r"|\b(?:cannot|could not|unable to|failed to) verify\b(?:[^.]|\.\S){0,60}\bcertificate\b",
        0.61,
        "a secure (TLS) connection whose certificate could not be verified",
    ),
)


# grpcio's RPC error prints its status on the lines after the exception's own ("<_InactiveRpcError of RPC that
# terminated with:" then "\tstatus = StatusCode.UNAVAILABLE", "\tdetails = …"): a service it could not reach or that
# did not answer in time (UNAVAILABLE 14, DEADLINE_EXCEEDED 4: https://github.com/grpc/grpc/blob/master/doc/statuscodes.md).
# The status is that exception's message, so it is read at the exception's line (not as a later echo of it).
_RPC_ERROR = re.compile(r"\b(?:_InactiveRpcError|AioRpcError|RpcError)\b.{0,40}\bRPC that terminated with:?\s*$")
_RPC_UNREACHED = re.compile(r"^\s*status = StatusCode\.(?:UNAVAILABLE|DEADLINE_EXCEEDED)\b")


def _rpc_unreached(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for ln in lines:
        if "terminated with" not in ln.text or not _RPC_ERROR.search(ln.text):
            continue
        status = next((nx for nx in lines[ln.index + 1 : ln.index + 4] if _RPC_UNREACHED.search(nx.text)), None)
        if status is not None:
            return [
                Signal(
                    "network_download",
                    "infra",
                    0.78,
                    ln.index,
                    [ln.raw.rstrip(), status.raw.rstrip()],
                    _EXPL,
                    "retry",
                    _FIX,
                )
            ]
    return []


FAMILY = family(
    "network_download",
    origin="infra",
    fix_kind="retry",
    explanation=_EXPL,
    fix_description=_FIX,
    patterns=(
        # wandb.init giving up on reaching the W&B server ("wandb.errors.CommError: Run initialization has timed out
        # after 60.0 sec."), whatever wraps it (a Hydra-instantiated logger: "InstantiationException: Error in call
        # to target '…WandbLogger'")
        pat(r"\bRun initialization has timed out after\b", 0.8, flags=0),
        # pip's own verdict comes before the timeout it quotes (first matching pattern wins)
        pat(r"Could not install requirement \S+ because of (?:HTTP )?error", 0.9),
        # transformers' OSError names two causes at once when neither the Hub nor a local directory had the file
        # ("We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files
        # and it looks like X is not the path to a directory containing a file named config.json"): a wrong local
        # path reads the same, so the line alone is weaker evidence than a socket error
        pat(r"We couldn't connect to '?https?://\S+ to load this file.{0,200}is not the path to a directory", 0.76),
        pat(r"We couldn't connect to '?https?://", 0.9),
        # torch.load (pickle) on an HTML page a download saved in place of the file (a sign-in or "virus scan" page
        # of a file host, an error page): its first byte is '<'
        pat(r"UnpicklingError: invalid load key, '<'", 0.8),
        pat(
            r"Temporary failure in name resolution|Name or service not known|Could not resolve host|getaddrinfo failed|nodename nor servname",
            0.88,
        ),
        pat(r"Max retries exceeded with url|MaxRetryError|NewConnectionError|ConnectTimeout|ReadTimeout", 0.84),
        # a download client that gave up after its own retries without naming the socket error: Ollama's pull
        # (server/download.go errMaxRetriesExceeded: "max retries exceeded")
        pat(r"^(?:Error: )?max retries exceeded\s*$", 0.8),
        pat(
            r"\bConnectionError\b|ConnectionRefusedError|RemoteDisconnected|ChunkedEncodingError|IncompleteRead|Connection broken",
            0.82,
        ),
        pat(
            r"LocalEntryNotFoundError|offline mode is enabled|cannot find the requested files in the local cache", 0.88
        ),
        pat(r"^socket\.(?:timeout|gaierror)\b|ConnectTimeoutError|ReadTimeoutError|NameResolutionError", 0.86),
        pat(
            r"URLError|HTTP Error 5\d\d|\b50[0234] Server Error|Service Unavailable|Bad Gateway|Gateway Time-?out",
            0.82,
        ),
        pat(r"SSLError|CERTIFICATE_VERIFY_FAILED|SSL: WRONG_VERSION", 0.8),
        # certificates as wget and curl word them; a service's rate limit (GitHub answers it with a 403)
        pat(r"cannot verify \S+ certificate|certificate (?:verify failed|has expired)|SSL certificate problem", 0.84),
        pat(r"\b(?:API )?rate limit exceeded\b|\b429 Too Many Requests\b", 0.9),
        # wget: each failed connection attempt, then its verdict
        pat(r"^\s*Giving up\.?\s*$|failed: (?:Connection timed out|Connection refused|No route to host)", 0.8),
        pat(r"Connection timed out|timed out while (?:downloading|connecting)|Read timed out", 0.78),
        pat(r"(?:download|fetch|transfer) (?:failed|error)|failed to (?:download|fetch)", 0.76),
        pat(r"EndpointConnectionError|Could not connect to the endpoint URL|Connect timeout on endpoint URL", 0.86),
        pat(
            r"dial tcp \S+: (?:i/o timeout|connect: connection refused|connect: no route to host)|Network is unreachable|No route to host",
            0.84,
        ),
        pat(r"Connection reset by peer", 0.62),
        pat(r"ClientPayloadError|Response payload is not completed|ServerDisconnectedError", 0.82),
        # curl's exit codes for a transfer the network broke (curl(1), EXIT CODES): 5/6 could not resolve the
        # proxy/host, 7 could not connect, 18 partial file, 28 timeout, 35 TLS handshake, 52 empty reply, 55/56
        # send/receive failure, 92 HTTP/2 stream error; git prints the same codes for its HTTPS transport
        pat(
            r"\bcurl: \((?:5|6|7|18|28|35|52|55|56|92)\) |\bRPC failed; (?:curl (?:5|6|7|18|28|35|52|55|56|92)\b|HTTP 5\d\d)",
            0.86,
        ),
        # git over HTTPS/SSH losing the connection mid-transfer
        pat(
            r"GnuTLS recv error|TLS connection was non-properly terminated|gnutls_handshake\(\) failed"
            r"|the remote end hung up unexpectedly|unexpected disconnect while reading sideband packet|\bearly EOF\b",
            0.82,
        ),
        # conda cannot reach its channel (HTTP 000 is conda's word for "no connection at all")
        pat(r"CondaHTTPError: HTTP (?:000 CONNECTION FAILED|5\d\d)|CondaSSLError|CONNECTION FAILED for url", 0.88),
        # huggingface_hub / transformers: nothing in the cache and the Hub not reachable (or offline mode set)
        pat(
            r"outgoing traffic has been disabled|cannot find the requested files in the (?:disk cache|cached path)"
            r"|cannot find the appropriate snapshot folder|error happened while trying to locate the files? on the Hub",
            0.88,
        ),
        pat(r"\b429 Client Error\b|HTTP Error 429\b", 0.88),
        # HTTP-status exception classes of the cloud and API clients, for a throttled or failing service
        # (429, 5xx): google-api-core's (https://github.com/googleapis/python-api-core/blob/main/google/api_core/
        # exceptions.py), the openai/anthropic SDKs' documented table ("Error code: 429", RateLimitError,
        # InternalServerError for >= 500), S3's throttling and server-side error codes as botocore quotes them
        # (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html), curl's 5xx answer (exit 22)
        pat(
            r"\bexceptions\.(?:ServiceUnavailable|TooManyRequests|InternalServerError|BadGateway|GatewayTimeout"
            r"|RetryError)\b|\b(?:openai|anthropic)\.(?:RateLimitError|InternalServerError)\b|\bError code: (?:429|5\d\d)\b"
            r"|An error occurred \((?:SlowDown|Throttling|ThrottlingException|RequestLimitExceeded|TooManyRequestsException"
            r"|ServiceUnavailable|InternalError|RequestTimeout|50[0234])\) when calling the \w+ operation"
            r"|The requested URL returned error: 5\d\d\b",
            0.84,
            flags=0,
        ),
        # an HTTP status of the 429/5xx classes (RFC 9110 §15.6, RFC 6585 §4) wherever a client states it by number:
        # "status code 503", "status_code=500", "response status 429", "HTTP/1.1 502", requests' "<Response [500]>"
        pat(
            r"\b(?:status(?:[ _]code)?|response status|HTTP(?:/\d(?:\.\d)?)?)\s*[:=]?\s*(?:429|50[0-4])\b|<Response \[(?:429|50[0-4])\]>",
            0.8,
        ),
        # urllib (torchvision's and Keras' dataset downloads, torch.hub) fetches public files with no credential:
        # its 403 is the host refusing or rate-limiting the download (a mirror gone, GitHub's API limit)
        pat(r"\bHTTP Error 403: ", 0.8, flags=0),
        # gdown refused by Google Drive (gdown/download.py): the file's download quota ("Too many users have viewed
        # or downloaded this file recently", lifted by waiting or a copy), or no public link it can read ("Cannot
        # retrieve the public link of the file": a private file, too many accesses, or an old gdown, per gdown's FAQ)
        pat(r"Too many users have viewed or downloaded this file recently", 0.86),
        pat(r"Cannot retrieve the public link of the file", 0.62),
        # torch.hub's check of a downloaded file against the hash in its name: the download came truncated or
        # altered (delete the file in the cache and fetch it again)
        pat(r"invalid hash value \(expected ", 0.8),
        # HDF5 finding a file shorter than its own superblock says it was written ("truncated file: eof = N, ...,
        # stored_eof = M", N < M): the file exists, and its end never arrived (a download or copy cut off). Unlike
        # an archive that will not open, the library itself says the bytes are missing, so fetch it again.
        pat(r"truncated file: eof = \d+, sblock->base_addr = \d+, stored_eof = \d+", 0.8),
        # the same for other serialised files, in each reader's words: torch's zip reader finding no central directory
        # at the file's end ("PytorchStreamReader failed reading zip archive: failed finding central directory"), or
        # fewer bytes than the header promised ("unexpected EOF, expected N more bytes. The file might be corrupted"),
        # pickle running out of bytes mid-stream ("EOFError: Ran out of input"), TensorFlow's table reader finding
        # no sstable magic number at the end of a checkpoint shard (a Git LFS pointer or a cut-off copy): the file is
        # there and incomplete, so fetch it again (dev 6 of 6 so labelled)
        pat(r"PytorchStreamReader failed reading zip archive: failed finding central directory", 0.76),
        pat(r"unexpected EOF, expected \d+ more bytes\. The file might be corrupted", 0.8),
        pat(r"^\s*EOFError: Ran out of input\s*$", 0.7),
        pat(r"not an sstable \(bad magic number\)", 0.7),
        # Winsock's words for a connection the remote end dropped (WSAECONNRESET 10054, WSAECONNABORTED 10053)
        pat(r"\[WinError 1005[34]\] |An existing connection was forcibly closed by the remote host", 0.76),
        # Winsock's WSAETIMEDOUT (10060) and WSAECONNREFUSED (10061), in their system-message wording
        pat(
            r"\[WinError 1006[01]\] |A connection attempt failed because the connected party did not properly respond"
            r"|No connection could be made because the target machine actively refused it",
            0.8,
        ),
        # the LLM API clients (openai, anthropic: ``APIConnectionError: Connection error.``, ``APITimeoutError``)
        pat(r"\bAPI(?:Connection|Timeout)Error\b", 0.8, flags=0),
        # TLS cut off mid-handshake or mid-stream (Python's ssl, OpenSSL 3)
        pat(r"SSLEOFError|SSLZeroReturnError|EOF occurred in violation of protocol|UNEXPECTED_EOF_WHILE_READING", 0.84),
        # aiohttp (fsspec, gcsfs, s3fs, datasets' streaming) and fsspec's own timeout
        pat(r"ClientConnectorError|Cannot connect to host \S+:\d+|ServerTimeoutError|FSTimeoutError", 0.86),
        # Go programs (docker, containerd, kubectl, git-lfs, rclone): name lookups and HTTP clients giving up
        pat(
            r"\blookup \S+(?: on \S+)?: (?:no such host|server misbehaving|i/o timeout|Temporary failure)"
            r"|net/http: (?:TLS handshake timeout|request canceled)|Client\.Timeout exceeded while awaiting headers",
            0.86,
        ),
        # wget's words for a host it could not resolve or a TLS session it could not open
        pat(r"unable to resolve host address|Unable to establish SSL connection", 0.86),
        # apt's fetcher (``Temporary failure resolving 'archive.ubuntu.com'``, ``Could not connect to host:80``)
        pat(r"Temporary failure resolving '|Could not resolve '[\w.-]+'|Could not connect to [\w.-]+:\d+", 0.86),
        # git over HTTPS: any transport failure but the server's own 401/403/404 answer (credentials, a wrong URL)
        pat(r"fatal: unable to access '[^']+': (?!The requested URL returned error: 40[134])", 0.84),
        # the socket errno of a connection that never happened: ENETUNREACH, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH,
        # and getaddrinfo's EAI_NONAME/EAI_AGAIN/EAI_NODATA (-2/-3/-5); urllib wraps them as ``<urlopen error …>``;
        # ENETDOWN (100) and EHOSTDOWN (112) likewise (Linux errno numbers, https://man7.org/linux/man-pages/man3/errno.3.html);
        # Rust's std::io::Error prints the same numbers as "(os error N)" (https://doc.rust-lang.org/std/io/struct.Error.html:
        # tokenizers, hf_transfer, uv)
        pat(
            r"\[Errno (?:100|101|110|111|112|113|-2|-3|-5)\] |<urlopen error |\(os error (?:100|101|110|111|112|113)\)",
            0.8,
        ),
        # urllib's short download, pip's own HTTP status line, a proxy that refused the request
        pat(r"ContentTooShortError|retrieval incomplete: got only|HTTP error 5\d\d while getting|\bProxyError\b", 0.84),
        # the same socket errors in a Chinese locale (glibc's zh_CN strerror: ETIMEDOUT, ECONNREFUSED, ENETUNREACH,
        # EHOSTUNREACH; wget's zh_CN "unable to resolve host address" and "failed: …")
        pat(
            r"失败：(?:连接超时|拒绝连接|网络不可达|没有到主机的路由)|无法解析主机地址|\[Errno (?:110|111|101|113)\] (?:连接超时|拒绝连接)",
            0.84,
        ),
        # Python's ssl module timing out mid-handshake or mid-read; huggingface_hub finding a download cut short
        pat(r"The (?:handshake|read|write) operation timed out", 0.82),
        # keras.utils.get_file wraps the HTTP or URL error it got ("Exception: URL fetch failure on http://…: None --
        # Forbidden", keras/utils/data_utils.py)
        pat(r"URL fetch failure on (?:https?|ftp)://", 0.86),
        pat(r"Consistency check failed: file should be of size \d+ but has size \d+", 0.84),
        # other runtimes' names for the same socket failures: libuv/Node errno names, reqwest (hf_transfer, Rust
        # clients), java.net, the AWS CLI
        pat(
            r"\b(?:ETIMEDOUT|ECONNRESET|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)\b"
            r"|error sending request for url|java\.net\.(?:UnknownHost|SocketTimeout|Connect|NoRouteToHost)Exception"
            r"|Connection was closed before we received a valid response from endpoint URL",
            0.8,
            flags=0,
        ),
    ),
    rules=(
        FunctionRule("pip_index_unreachable", _pip_index_unreachable),
        FunctionRule("pip_retries_unanswered", _pip_retries_unanswered),
        FunctionRule("corrupt_download", _corrupt_download),
        FunctionRule("dead_link", _dead_link),
        FunctionRule("rpc_unreached", _rpc_unreached),
    ),
    # OSMO 2010-2012: input download, mount or output upload failed
    exit_codes=(
        exits(
            2010,
            2011,
            2012,
            strength=0.8,
            explanation="Moving data in or out of the task failed (input download, mount or output upload).",
        ),
    ),
    # a failed download is often the echo of an earlier error; and one retried in vain leaves a module or file missing
    echo=True,
    causes=("missing_dependency", "file_not_found"),
    # the HTTP clients' exception modules, pip's vendored copies included (``pip._vendor.urllib3.exceptions``)
    # (and Python's own ConnectionError subclasses, raised bare by socket code: a reset, an abort, a refusal)
    # (and, in any library, an exception class named for a connection, the network, a name lookup, TLS, a proxy, a
    # throttled or failing server or a download: Python's ConnectionError family (PEP 3151), websockets'
    # ConnectionClosedError, urllib3's NameResolutionError, the SDKs' RateLimitError/ServiceUnavailable, yt-dlp's
    # DownloadError)
    # (not the URL refusals that happen before any connection: validation_error)
    # (urllib.error: the standard library's HTTP client answering a fetch, torchvision's dataset download_url)
    exceptions=r"^(?:pip\._vendor\.)?(?:urllib3|requests|socket|http\.client|aiohttp|httpx|ssl|urllib\.error)\."
    r"(?!exceptions\.LocationParseError$)"
    r"|^(?:builtins\.)?Connection(?:Reset|Aborted|Refused)Error$"
    r"|(?:^|\.)(?:Connection|Connect|Network|NameResolution|Socket|SSL|Proxy|RateLimit|TooManyRequests|Throttl\w*"
    r"|ServiceUnavailable|BadGateway|GatewayTimeout|RemoteDisconnected|Download)\w*(?:Error|Exception)$",
    frames=r"/(?:urllib3|requests|aiohttp|httpx)/|/socket\.py$|/http/client\.py$|/ssl\.py$|/urllib/request\.py$",
    # a traceback that ends (or is cut off) inside a library's download helper: torchvision's download_url and
    # download_and_extract_archive, TensorFlow's maybe_download/urlretrieve_with_retry, Keras' get_file-style
    # downloaders; what failed there is the fetch
    frame_functions=r"_*(?:\w+_)?download(?:_\w+)?|urlretrieve\w*|urlopen",
    root_words=ROOT_WORDS,
    # a 429 that is the account's quota, not throttling (OpenAI's insufficient_quota): waiting does not lift it, a
    # top-up or another key does (permission_or_auth's)
    exclude=r"\binsufficient_quota\b|exceeded your current quota",
)
