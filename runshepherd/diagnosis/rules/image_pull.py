"""The container image could not be pulled: wrong name/tag, or missing registry credentials."""

from __future__ import annotations

import re

from runshepherd.diagnosis.models import FixKind, Origin
from runshepherd.diagnosis.prefilter import Gated
from runshepherd.diagnosis.rules.base import ORDER_STATUS, SCRIPT_EXEC_FORMAT, Context, FunctionRule, Signal
from runshepherd.diagnosis.rules.family import family, words

_PULL = re.compile(
    r"ErrImagePull|ImagePullBackOff|Failed to pull image|FAILED_IMAGE_PULL|manifest unknown|manifest for \S+ not found"
    r"|pull access denied|repository does not exist|InvalidImageName|ErrImageNeverPull|failed to resolve reference"
    # (pyxis's "couldn't start container" follows any start failure, an import's or a mount's: not a pull by itself)
    r"|pyxis: (?:failed|couldn't)(?! start\b)|enroot-import|(?:^|\[ERROR\] )URL https?://\S+ returned error code"
    r"|Error response from daemon: (?:manifest|pull|(?:Get|Head) \"?https?://[^\s\"]+/v2/)|no basic auth credentials"
    # apptainer/singularity building a SIF from a docker:// or oci registry reference
    r"|Unable to handle docker://\S+ uri|failed to get (?:checksum|SHA) (?:for|of) docker://"
    r"|While making image from oci registry|error fetching image to cache"
    # (a dataset's "Image folder not found: 'data/JPEGImages'" is a picture directory, not a container image)
    r"|Back-off pulling image|image (?!(?:folders?|dir(?:ectory|ectories|s)?|files?|paths?)\b)\S+ not found|trying and failing to pull image"
    # (the registry's error code, not google-api-core's ``exceptions.TooManyRequests`` class of any 429)
    r"|requested access to the resource is denied|(?<!\.)\btoomanyrequests\b|pull rate limit"
    r"|failed to fetch (?:anonymous|oauth) token"
    r"|repository \S+ not found|does not exist or no pull access|[\w.-]+\.(?:io|com)/[\w./-]+:[\w.-]+: not found"
    r"|no matching manifest for \S+ in the manifest list|While pulling \S+ image: |Failed to get manifest from"
    # BuildKit fetching a Dockerfile's base image (``failed to solve: …: failed to resolve source metadata for …``)
    r"|failed to resolve source metadata for",
    re.IGNORECASE,
)
_AUTH = re.compile(
    r"unauthori[sz]ed|authentication required|denied|\b40[13]\b|no basic auth credentials|forbidden"
    r"|insufficient_scope",
    re.IGNORECASE,
)
# Docker Hub's one answer for a repository it does not have and for a private one asked for without a login ("pull
# access denied for x, repository does not exist or may require 'docker login': denied: requested access to the
# resource is denied"): the words "denied" there are no proof that a credential is missing; most often the name is
# wrong (a local image never pushed, a typo). Another line saying "unauthorized" or "authentication required" is.
_EITHER = re.compile(
    r"pull access denied for \S+, repository does not exist or may require '?docker login'?(?:: denied)?"
    r"|(?:denied: )?requested access to the resource is denied",
    re.IGNORECASE,
)
# Docker Hub asked for a path that starts with another registry's host (``/v2/nvcr.io/nvidia/…``): the image
# reference was written so that the tool did not see the registry (enroot/pyxis want ``host#path``), and the
# 401 is Docker Hub's answer for a repository it does not have. The fix is the image reference, not a credential.
_MISADDRESSED = re.compile(r"registry-1\.docker\.io/v2/[\w-]+(?:\.[\w-]+)+(?::\d+)?/", re.IGNORECASE)
_PULLED = re.compile(
    r"Successfully pulled image|Container image \S+ already present on machine|\bPulled\b.*\bimage\b", re.IGNORECASE
)
_IMAGE = re.compile(r"""image "?(?P<image>[\w.\-/:@]+)"?""", re.IGNORECASE)
_DISK = re.compile(r"No space left on device|Disk quota exceeded", re.IGNORECASE)
# the importer refused a local path (enroot's runtime/cache directories, a squashfs it cannot write): the operating
# system's "Permission denied" on a file, not a registry's answer
_LOCAL_REFUSED = re.compile(r"['\"]?/[\w./-]+['\"]?: Permission denied|\[Errno 13\] Permission denied: ['\"]?/")
_PULL_G, _PULLED_G, _DISK_G = Gated.of(_PULL), Gated.of(_PULLED), Gated.of(_DISK)
# docker build's legacy builder prints the step, then the registry's bare answer for the base image it could not
# fetch (``Step 1/22 : FROM nvcr.io/…`` then ``unauthorized: authentication required``): that answer is the pull's
_FROM_STEP = re.compile(r"^Step \d+/\d+ : FROM\s+\S+", re.IGNORECASE)
# (bare, or after the request it answers, as the daemon quotes it: ``Get https://nvcr.io/v2/…/manifests/x: unauthorized:
# authentication required``)
_REGISTRY_ANSWER = re.compile(
    r"^(?:(?:Get|Head) \"?https?://[^\s\"]+/v2/[^\s\"]*\"?: )?"
    r"(?:unauthorized|denied|manifest unknown|not found|toomanyrequests|name unknown)\b(?::|\s*$)",
    re.IGNORECASE,
)


def _pulled_after(seq: list[str], last_hit: int) -> bool:
    """True when a line after the last pull failure says the same image (or an unnamed one) was pulled after all.

    Another container's image being pulled (a sidecar) does not count.
    """
    failed = {m.group("image") for t in seq[: last_hit + 1] if _PULL_G.search(t) and (m := _IMAGE.search(t))}
    for t in seq[last_hit + 1 :]:
        if _PULLED_G.search(t):
            m = _IMAGE.search(t)
            if m is None or not failed or m.group("image") in failed:
                return True
    return False


def _image_pull(ctx: Context) -> list[Signal]:
    hits: list[tuple[int, str, str]] = []
    seq: list[str] = []  # usable texts in reading order (failure message, events, log)
    last_hit = -1
    from_step = -10
    for order, ln in ctx.texts():
        seq.append(ln.text)
        if _FROM_STEP.search(ln.text):
            from_step = len(seq) - 1
        if _PULL_G.search(ln.text, ln.folded) or (len(seq) - 1 - from_step <= 3 and _REGISTRY_ANSWER.search(ln.text)):
            hits.append((order if order < 0 else ln.index, ln.raw.rstrip(), ln.text))
            last_hit = len(seq) - 1
    status_hit = ctx.status in {"FAILED_IMAGE_PULL", "FAILED_START_TIMEOUT"}
    if hits and any(_DISK_G.search(t) for t in seq[seq.index(hits[0][2]) :]):
        return []  # the image was fetched but could not be unpacked: the disk is full (disk_full says so)
    if hits and any(_LOCAL_REFUSED.search(t) for t in seq[seq.index(hits[0][2]) :]):
        return []  # the importer could not write its own directories: a file permission (permission_or_auth)
    if hits and not status_hit and _pulled_after(seq, last_hit):
        return []  # a transient pull failure that a later attempt got past
    if not hits and not status_hit:
        return []
    # the most informative line: one that says *why* (auth / not found), else the first
    why = [h for h in hits if re.search(r"Failed to pull|denied|unauthori|not found|manifest", h[2], re.I)]
    chosen = (why or hits)[:2]
    auth = any(_AUTH.search(_EITHER.sub(" ", h[2])) for h in hits) and not any(_MISADDRESSED.search(h[2]) for h in hits)
    image = next((m.group("image") for h in hits if (m := _IMAGE.search(h[2]))), None)
    name = f" '{image}'" if image else ""
    if auth:
        expl = (
            f"The container image{name} is in a private registry and the cluster has no valid credential "
            "for it, so the image could not be downloaded and the task never started."
        )
        fix = (
            "Register a registry credential with the scheduler (for OSMO: `orchestrate credential list` to check, "
            "then `orchestrate credential set <name> --type REGISTRY --registry <host>` — for nvcr.io it takes "
            "your NGC API key from $NGC_CLI_API_KEY without printing it; `osmo credential set` underneath); "
            "do not add credentials to the workflow spec."
        )
        kind: FixKind = "fix_credentials"
        origin: Origin = "config"
    else:
        expl = (
            f"The container image{name} could not be downloaded: the name or tag does not exist in the "
            "registry (or the registry was unreachable), so the task never started."
        )
        fix = (
            "Check that the image name and tag exist (fix the typo in `image:`), or try a known-good tag; "
            "if the registry was down, resubmit once."
        )
        kind, origin = "fix_image", "user"
    ev = [h[1] for h in chosen]
    if status_hit:
        ev = ev or [f"status: {ctx.status}"]
    order = ORDER_STATUS if status_hit else min(h[0] for h in hits)
    strength = 0.96 if (hits and ctx.status != "FAILED_START_TIMEOUT") or ctx.status == "FAILED_IMAGE_PULL" else 0.6
    # the pull failing again later (after the kubelet's retry notice) is the same failure repeated, not history
    again = []
    if len(hits) > 1 and hits[-1][0] > hits[0][0]:
        again.append(Signal("image_pull", origin, 0.0, hits[-1][0], [hits[-1][1]], expl, kind, fix, secondary=True))
    return again + [
        Signal(
            "image_pull",
            origin,
            strength,
            order,
            ev,
            expl,
            kind,
            fix,
            detail={"image": image or "", "auth": str(auth)},
        )
    ]


# The image was pulled but is built for another CPU architecture. The Docker CLI warns "The requested image's
# platform (linux/arm64) does not match the detected host platform (linux/amd64) and no specific platform was
# requested"; the kernel then refuses the foreign binary (ENOEXEC, "exec format error"), or the runtime cannot find
# the foreign dynamic loader and says "exec /path: no such file or directory" for a program the image does have.
_PLATFORM = re.compile(r"requested image's platform \(\S+\) does not match the detected host platform")
_EXEC_FORMAT = re.compile(r"\bexec format error\b", re.IGNORECASE)
# (a script refused the same way has no "#!" line naming its interpreter: user_code_error reads it)
_SCRIPT_EXEC = re.compile(SCRIPT_EXEC_FORMAT, re.IGNORECASE)
_EXEC_MISSING = re.compile(r"^(?:\S+: )?exec /\S+: no such file or directory\s*$")
_PLATFORM_EXPL = (
    "The container image is built for another CPU architecture than the machine (an arm64 image on an amd64 host, "
    "or the reverse), so its programs cannot run and the task stopped at start."
)
_PLATFORM_FIX = (
    "Use an image (tag or digest) built for the machine's platform, or ask for it explicitly "
    "(`docker run --platform linux/amd64`, a multi-arch tag); rebuild the image for that platform if it is yours."
)


def _wrong_platform(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    warned = next((ln.index for ln in lines if "platform (" in ln.text and _PLATFORM.search(ln.text)), None)
    for ln in lines:
        if "xec " not in ln.text:
            continue
        foreign = _EXEC_FORMAT.search(ln.text) is not None and not _SCRIPT_EXEC.search(ln.text)
        if foreign or (warned is not None and ln.index > warned and _EXEC_MISSING.search(ln.text)):
            ev = [lines[warned].raw.rstrip()] if warned is not None else []
            strength = 0.9 if warned is not None else 0.84
            sig = Signal(
                "image_pull",
                "user",
                strength,
                ln.index,
                [ln.raw.rstrip(), *ev],
                _PLATFORM_EXPL,
                "fix_image",
                _PLATFORM_FIX,
            )
            return [sig]
    return []


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): the kubelet's pull reasons (ErrImagePull,
# ImagePullBackOff, InvalidImageName) and a registry's refusal of an image, a manifest or a pull
ROOT_WORDS = (
    words(
        r"\b(?:failed|unable|cannot|could not) to (?:pull|import|fetch) (?:the )?(?:\w+ )?image\b"
        r"|\b(?:pull\w*|manifests?|registry|image)\b(?:[^.]|\.\S){0,60}\b(?:denied|not found|unauthori[sz]ed|forbidden"
        r"|does not exist|failed|unknown|invalid|timed out|back-?off)\b|\b(?:ErrImagePull|ImagePullBackOff"
        r"|InvalidImageName|ErrImageNeverPull)\b|\bmanifest unknown\b|\bpull access\b",
        0.63,
        "a container image that could not be pulled",
        # not a container image: a picture file (YOLOv5's "Image Not Found /data/images/001.jpg"), a GPU's kernel image
        # (CUDA's "device kernel image is invalid", a compiled binary)
        unless=r"\.(?:jpe?g|png|bmp|tiff?|webp|gif)\b|\bimage (?:files?|folders?|dir(?:ector(?:y|ies)|s)?|paths?)\b"
        r"|\bkernel image\b",
    ),
    # Docker's refusal of an image built for another platform ("no matching manifest for linux/arm64/v8 in the
    # manifest list entries")
    words(r"\bno matching manifest\b", 0.63, "a container image that could not be pulled"),
    # a container engine refused by a registry: the Docker daemon's errors ("Error response from daemon: …",
    # https://docs.docker.com/reference/cli/docker/), BuildKit's ("failed to solve: … failed to fetch anonymous
    # token: unexpected status: 401 Unauthorized", "failed to authorize"): what refuses such an engine with 401,
    # 403 or "unauthorized" is a registry (permission_or_auth reads the same words elsewhere; a local "permission
    # denied" the daemon reports, a mount or a socket, stays permission_or_auth's)
    words(
        r"\b(?:Error response from daemon|failed to solve|failed to authorize)\b(?:[^.]|\.\S){0,160}"
        r"\b(?:unauthori[sz]ed|401|403|forbidden|anonymous token)\b",
        0.64,
        "a container image that could not be pulled (the registry refused the engine)",
    ),
)


FAMILY = family(
    "image_pull",
    origin="user",
    fix_kind="fix_image",
    explanation="The container image could not be downloaded, so the task never started.",
    fix_description="Check the image name and tag (or the registry credential) and resubmit.",
    rules=(FunctionRule("image_pull", _image_pull), FunctionRule("wrong_platform", _wrong_platform)),
    applies=("failed", "running"),
    root_words=ROOT_WORDS,
)
