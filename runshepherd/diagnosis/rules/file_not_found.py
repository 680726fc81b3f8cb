"""A file or directory the code reads does not exist (paths, checkpoints, model names, dataset files)."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import Line, exception_type
from runshepherd.diagnosis.frames import INSTALLED_DIR
from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal, pat
from runshepherd.diagnosis.rules.family import family, words


def _explain(m: re.Match[str]) -> str:
    path = m.groupdict().get("path")
    where = f" ('{path}')" if path else ""
    return (
        f"The code tried to open a file or folder that does not exist{where}: a wrong path, a missing input, "
        "or a file an earlier step did not produce."
    )


_FIX = (
    "Check the path: inputs are mounted under {{input:N}}, outputs go to {{output}}, files listed under `files:` land "
    "at their `path`. Fix the path in the command or make sure the earlier step writes the file."
)
# A reader that returns None instead of raising when the file is not there (OpenCV's imread: "If the image cannot be
# read (because of missing file, improper permissions, unsupported or invalid format), the function returns an empty
# matrix", None in Python): the error comes one line later, where the None is used as an image
_NONE_USED = re.compile(
    r"^(?:TypeError|AttributeError): 'NoneType' object (?:is not subscriptable|has no attribute "
    r"'(?:shape|__getitem__|astype|copy|convert|transpose|size|resize)')"
)
_IMAGE_READ = re.compile(
    r"\b(?:cv2\.imread|imread|read(?:_?rgb|_?image|_?img)|load_?(?:image|img)|Image\.open)\b", re.I
)
_IN_DATASET = re.compile(r"torch[/\\]utils[/\\]data[/\\]|, in __getitem__\b")
# an assertion that a path exists (``assert Path(working_dir).exists()``, ``assert os.path.isfile(ckpt)``), or that
# an image a reader returned is there (``assert img is not None`` after cv2.imread, which returns None for a path
# that is not there): when it fails, the file is not there, whatever the (often empty) message says
_PATH_CHECK = re.compile(
    r"\bassert\b.*(?:os\.path\.(?:exists|isfile|isdir|lexists)\s*\(|\.(?:exists|is_file|is_dir)\(\s*\))"
    r"|\bassert\s+(?:img|image|im|frame)\w*\s+is\s+not\s+None\b"
)


def _quoted_source(lines: list[Line], idx: int) -> list[Line]:
    """The quoted source lines of the frame that raised the exception on line ``idx`` (IPython's ``-->`` line
    first)."""
    window = [ln for ln in lines[max(0, idx - 8) : idx] if ln.code]
    marked = [ln for ln in window if ln.text.lstrip().startswith("-->")]
    return marked or window[-2:]


def _path_never_opened(ctx: Context) -> list[Signal]:
    """A missing file reported by the error it causes next: a None image used as an array, an assertion that the
    path exists."""
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        ln = lines[idx]
        et = exception_type(ln.text)
        if et is None:
            continue
        src = _quoted_source(lines, idx)
        if et[0].rsplit(".", 1)[-1] == "AssertionError":
            check = next((c for c in src if _PATH_CHECK.search(c.text)), None)
            if check is not None:
                ev = [check.raw.rstrip(), ln.raw.rstrip()]
                return [Signal("file_not_found", "user", 0.76, idx, ev, _explain_none(), "fix_path", _FIX)]
            continue
        if not _NONE_USED.match(ln.text.strip()):
            continue
        before = lines[max(0, idx - 60) : idx]
        reader = any(_IMAGE_READ.search(b.text) for b in before + src)
        dataset = any(_IN_DATASET.search(b.text) for b in before)
        if not (reader or dataset):
            continue
        strength = 0.74 if reader else 0.7
        return [Signal("file_not_found", "user", strength, idx, [ln.raw.rstrip()], _explain_none(), "fix_path", _FIX)]
    return []


# An empty file listing, read by the error it causes next. (1) The statement that raised "IndexError: list index out of
# range" indexes what a directory listing or a glob returned (``glob.glob(pattern)[0]``, ``os.listdir(d)[0]``,
# ``list(os.walk(d))[0][2]``) or a list named for paths or files (``image_paths[0]``), its first or last item:
# the pattern matched nothing (a later index may only be one too many).
# (2) The statement that raised ZeroDivisionError divides by the size of what was loaded (``/ len(dataset)``,
# ``% len(self.names)``, ``/ total_len``, ``/ count``): nothing was loaded. Both are most often a data path that
# holds nothing; both are also a code or data fault, so the reading stays unsure (dev: 8 of the 12 logs it reads were a path)
_LISTING_INDEXED = re.compile(
    r"\b(?:i?glob|listdir|scandir|walk|iterdir)\s*\(.*\)\s*\)*\s*\[\s*(?:0|-1)\s*\](?:\s*\[\s*\d+\s*\])*"
    r"|\b\w*(?:paths|files|file_list|filenames|fnames|img_list|image_list)\s*\[\s*(?:0|-1)\s*\]"
)
_SIZE_DIVIDED = re.compile(r"(?:/|//|%)=?\s*(?:len\(|(?:total|count|num)\w*\b(?!\s*[-+*(]))")


def _empty_listing(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        text = lines[idx].text.strip()
        if text.startswith("IndexError: list index out of range"):
            shape, what = (
                _LISTING_INDEXED,
                "indexed the list of files a listing or a pattern returned, and it was empty",
            )
        # (not the DataLoader's re-raise header "ZeroDivisionError: Traceback (most recent call last):": the worker's
        # own ZeroDivisionError line below it carries the statement)
        elif text.startswith("ZeroDivisionError:") and not text.endswith("Traceback (most recent call last):"):
            shape, what = _SIZE_DIVIDED, "divided by the number of items it had loaded, and that number was 0"
        else:
            continue
        code = next((c for c in reversed(_quoted_source(lines, idx)) if shape.search(c.text)), None)
        if code is None:
            continue
        explanation = (
            f"The code {what}: most often the data path it read holds no matching files (a wrong path or pattern, or "
            "data that is not there), sometimes a filter in the code that kept nothing."
        )
        fix = (
            "Check that the path the job reads holds the files the code expects (the directory, the file pattern) "
            "and that the earlier step produced them; if the files are there, check the code that lists them."
        )
        ev = [code.raw.rstrip(), lines[idx].raw.rstrip()]
        return [Signal("file_not_found", "user", 0.68, idx, ev, explanation, "fix_path", fix)]
    return []


def _explain_none() -> str:
    return (
        "The code read a file that is not there: its reader returned nothing (or a check that the path exists failed), "
        "so the first use of the result failed. A wrong path, a missing input, or a file an earlier step did not "
        "produce."
    )


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): strerror(ENOENT) "No such file or directory"
# (FileNotFoundError, Errno 2), and the plain words programs use for a path, file or model id that is not there;
# surer when the line names a path or a file
_PATH_LIKE = (
    r"(?:^|[\s'\"`(=:\[])(?:/|\./|\.\./|~/|[A-Za-z]:\\)[\w.\-]"
    r"|\.(?:json|ya?ml|txt|csv|pt|pth|ckpt|bin|safetensors|h5|npy|npz|pkl|parquet|jsonl|tfrecords?|png|jpe?g|wav"
    r"|mp4|tar|gz|zip|py|sh|cfg|ini|toml|onnx|engine|model|lmdb|arrow|index)\b"
)
_NOT_THERE = (
    r"\bno such file\b|\bnot found\b|\bdoes ?n[o']t exist\b|\bdo not exist\b|\b(?:cannot|can't|could not|couldn't"
    r"|unable to|failed to) (?:find|locate|open|load|stat|access)\b|\bmissing (?:file|directory|folder|path)\b"
    r"|\bnot a (?:file|directory)\b|\bis a directory\b|\bnot a valid (?:path|file|directory|model identifier)\b"
    r"|\bno (?:files?|checkpoints?|images?|data|such \w+) (?:were |was )?found\b|\bFile ?Not ?Found\b|\bErrno 2\b"
    r"|\bENOENT\b|\bpath\b(?:[^.]|\.\S){0,40}\b(?:invalid|not exist|not found)\b"
    # the adjective for the same ("Cannot save file into a non-existent directory", "nonexistent paths: […]")
    r"|\bnon-?existent\b"
    # a folder the program was pointed at that holds nothing it can read ("The directory /data/train does not contain
    # any images", "checkpoint path /x is empty")
    r"|\b(?:directory|folder|dir|path)\b(?:[^.]|\.\S){0,60}\b(?:is empty|(?:does not|doesn't) contain any|contains no)\b"
    # a store that has no such item (W&B's CommError "Project x/y does not contain artifact: \"data.csv:latest\"")
    r"|\b(?:does not|doesn't) contain (?:the )?(?:artifact|file|dataset|object|blob)s?\b"
)
ROOT_WORDS = (
    words(_NOT_THERE, 0.6, "a path or file that is not there", when=_PATH_LIKE),
    # (not a name looked up in an object the program holds: PEFT's "Target modules [] not found in the base model",
    # a key "not found in the state dict", a column "not found in the dataframe")
    words(
        _NOT_THERE,
        0.56,
        "something (a file, a path, a model or data name) that is not there",
        unless=r"\bnot found in (?:the )?(?:base )?(?:model|config(?:uration)?|state[_ ]?dict|dict(?:ionary)?"
        r"|vocab(?:ulary)?|module|keys|columns?|data ?frame)\b"
        # (Python's UnboundLocalError since 3.11: "cannot access local variable 'x' where it is not associated with a
        # value", a variable the code never set, not a path)
        r"|\bcannot access local variable\b",
    ),
    # workflow engines' missing inputs (Snakemake's MissingInputException "Missing input files for rule")
    words(r"\bmissing input\b", 0.6, "input files that are not there"),
)


FAMILY = family(
    "file_not_found",
    origin="user",
    fix_kind="fix_path",
    explanation=_explain,
    fix_description=_FIX,
    rules=(FunctionRule("path_never_opened", _path_never_opened), FunctionRule("empty_listing", _empty_listing)),
    # a shared library or a module that cannot be found is a missing dependency, not a path to fix
    # (nor is a file missing from an installed package's own directory: the install is broken, missing_dependency's)
    exclude=r"shared (?:object|librar)|\.so(?:\.\d+)*\b(?!/)|\.dylib\b|\.dll\b|\bNo module named\b|\bModuleNotFoundError\b"
    rf"|No such file or directory\b.*?: '[^']*{INSTALLED_DIR}[^'/\\]+[/\\]",
    # the exception types that mean a path is not there, whatever their message says
    # (huggingface_hub's RepositoryNotFoundError and RevisionNotFoundError: a model or dataset id, or a revision, that
    # the Hub does not have, most often a local path that is not there read as a repo id, or a typo; datasets'
    # DataFilesNotFoundError and EmptyDatasetError: the data files or directory it was pointed at hold nothing)
    # (the documented classes, FileNotFoundError, IsADirectoryError, huggingface_hub's and datasets' not-found errors,
    # are rows of diagnosis/formats/exceptions.py) any library's class named for a file, path, dataset, model,
    # checkpoint or stored object that is not there (Java's FileNotFoundException and NoSuchFileException, datasets'
    # DatasetNotFoundError, azure's ResourceNotFoundError, S3's NoSuchKey); not huggingface_hub's
    # LocalEntryNotFoundError, which is the Hub unreachable with nothing cached (network_download)
    exceptions=r"(?:^|\.)(?:(?:File|Path|Dir(?:ectory)?|Folder|Dataset|Model|Repo(?:sitory)?|Blob|Object|Bucket|Entry|Resource"
    r"|Checkpoint|Ckpt|Weights?)NotFound|NoSuch(?:File|Key|Bucket|Object|Path|Directory))(?:Error|Exception)?$",
    patterns=(
        pat(r"FileNotFoundError\b.*?(?:: '(?P<path>[^']+)')?$", 0.86),
        pat(r"can't open file '(?P<path>[^']+)': \[Errno 2\]", 0.88),
        # requests/certifi given a CA bundle path that does not exist (REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, verify=…):
        # "Could not find a suitable TLS CA certificate bundle, invalid path: /x/cacert.pem" (requests/adapters.py)
        pat(r"Could not find a suitable TLS CA certificate bundle, invalid path: (?P<path>\S+)", 0.84),
        # (a bare "[Errno 2] No such file or directory" that names no path is no proof of one: the program's own words
        # around it say what was not there, a program it ran as well as a file; the plain pattern below reads it)
        pat(r"\[Errno 2\] No such file or directory(?:: '(?P<path>[^']+)'|:\s*\S)", 0.86),
        pat(r"^(?:/bin/)?(?:ba)?sh: (?:line \d+: )?(?P<path>\S+): No such file or directory", 0.84),
        pat(r"(?<!shared object file: )No such file or directory", 0.76),
        pat(r"does not appear to have a file named (?P<path>\S+)", 0.86),
        # a loader that found nothing to read where the configuration points (PaddleOCR: "No Images in train dataset,
        # please ensure … The annotation file and path in the configuration file are provided normally")
        pat(
            r"\bNo (?:images?|samples|files?) (?:found )?in (?:the )?(?:\w+ )?(?:dataset|data ?set|folder|directory)\b",
            0.8,
        ),
        # a tokenizer class built from a directory that lacks its vocabulary file: from_pretrained finds no file for
        # the argument and the constructor is called without it
        pat(
            r"__init__\(\) missing \d+ required positional arguments?: '(?:vocab_file|merges_file|spm_file|sp_model_file)'",
            0.8,
        ),
        # pickle (torch.load) reading a file that is not the checkpoint asked for: another format's weights; a Git LFS
        # pointer ('v') is missing_dependency's, an HTML page saved by a failed download ('<') network_download's
        pat(r"UnpicklingError: invalid load key, '(?![<v]')", 0.82),
        # YOLOv5/v7's attempt_download on a weights path that is not a local file: it asks GitHub's release API for
        # an asset of that name and finds none ("KeyError: 'assets'"), so the path given is what is wrong
        pat(r"^(?:\w+\.)*KeyError: 'assets'$", 0.72),
        # a fetch the server answered 404 Not Found: the URL, object or file is not there (RFC 9110 §15.5.5), in the
        # clients' wordings: requests ("404 Client Error: Not Found for url"), httpx ("Client error '404 Not Found'"),
        # urllib ("HTTP Error 404: Not Found"), wget ("ERROR 404: Not Found."), curl/git ("The requested URL returned
        # error: 404"); weaker than a client's own not-found exception (pip's own 404 is an index, not a path)
        pat(
            # (410 Gone, RFC 9110 §15.5.11: the same, for good)
            # (a download tool's 404 for a link in a script, wget's and curl's, is network_download's: a dead link)
            r"\b4(?:04|10) Client Error\b|Client error '4(?:04 Not Found|10 Gone)'|\bHTTP Error 4(?:04|10)\b"
            r"|(?<!curl: \(22\) )\bThe requested URL returned error: 404\b",
            0.78,
        ),
        # ... and a 404/410 stated by number or with its reason phrase ("status code 404", "<Response [404]>",
        # "…: 404 Not Found"; apt's "404  Not Found [IP: …]" of a stale index is not here)
        pat(
            r"\b(?:status(?:[ _]code)?|response status)\s*[:=]?\s*(?:404|410)\b|<Response \[(?:404|410)\]>"
            r"|(?<!awaiting response\.\.\. )(?<!<title>)\b404 Not Found\b",
            0.78,
        ),
        # cloud storage keys and buckets that are not there: S3's error codes as botocore quotes them
        # (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html: NoSuchBucket, NoSuchKey), Google's
        # NotFound (google/api_core/exceptions.py, a 404), gRPC's NOT_FOUND (code 5, grpc doc/statuscodes.md)
        pat(
            r"An error occurred \((?:NoSuchBucket|NoSuchKey|NoSuchVersion)\) when calling the \w+ operation"
            r"|\bexceptions\.NotFound: 404\b",
            0.86,
        ),
        pat(r"\bStatusCode\.NOT_FOUND\b", 0.76, flags=0),
        pat(r"is not a local folder and is not a valid model identifier|Incorrect path_or_model_id", 0.84),
        pat(r"Can't load (?:tokenizer|config|the model|weights|the configuration) for '(?P<path>[^']+)'", 0.78),
        pat(r"NotFoundError: .*(?:not found|No such file|does not exist)", 0.86),
        pat(r"(?:IsADirectoryError|NotADirectoryError)", 0.82),
        pat(
            r"(?:checkpoint|ckpt|file|path|directory|folder|dataset|data set) .{0,80}(?:does not exist|doesn't exist|not found)",
            0.78,
        ),
        pat(r"Unable to open file \(unable to open file", 0.84),
        # a config's path setting left unset: OmegaConf's mandatory value ("Missing mandatory value: data_dir") or an
        # interpolation of a key nobody defined ("Interpolation key 'local.log_dir' not found") whose name is a
        # path's (dir, path, root, folder, file, x_base): the run does not know where its data or output go. Above
        # validation_error's reading of the same exception (0.86): any other key stays a config error
        pat(
            r"(?:MissingMandatoryValue: Missing mandatory value:|InterpolationKeyError: Interpolation key) ['\"]?"
            r"(?:[\w\-]+\.)*(?P<path>\w*(?:dir|path|root|folder|file)s?|\w+_base)['\"]?(?: not found)?\s*$",
            0.9,
            flags=0,
        ),
        # an exception whose whole message is a path that is not there ("Exception: ./img/crop_img/x.jpg does not
        # exist!", PaddleOCR's dataset reader, which logs the same as ", error happened with msg: ./img/x.jpg does not
        # exist!" when it goes on to the next sample)
        pat(
            r"^(?:(?:[\w.]+\.)?(?:[A-Z]\w*)?(?:Error|Exception): |,? ?error happened with msg: )['\"]?(?P<path>[\w.~\-]*[/\\][^\s'\"]+)['\"]? (?:does not exist|"
            r"doesn't exist|not found|is not found|cannot be found)!?\s*$",
            0.84,
            flags=0,
        ),
        pat(r"EntryNotFoundError|Dataset .* doesn't exist on the Hub", 0.82),
        # (not a logger's INFO line, nor a run saying it starts from scratch: "SSD.trainer INFO: No checkpoint found.")
        pat(r"^(?!.*\bINFO\b)(?!.*\b(?:from scratch|starting fresh)\b).*No (?:valid )?checkpoint (?:found|file)", 0.74),
        # Caffe's WriteProtoToBinaryFile failing to open the snapshot it writes (io.cpp: "Check failed:
        # proto.SerializeToOstream(&output)"): the folder of the solver's snapshot_prefix does not exist
        pat(r"Check failed: proto\.SerializeToOstream\(&output\)", 0.8),
        # Torch7's DiskFile failing to open the file a script reads or writes (TH/THDiskFile.c: "cannot open <%s> in
        # mode %c%c"): a file to read that is not there, or a folder to write into that does not exist
        pat(r"cannot open <(?P<path>[^>\n]+)> in mode\s+[rw]", 0.86),
        # a script's own word for an input it checked for (Kaldi's steps/*.sh: "$0: no such file $f", with no "or
        # directory" after it), and TensorFlow's Saver.restore given a prefix with no checkpoint files behind it
        pat(r"^\S+: no such file (?P<path>\S+)\s*$", 0.8),
        pat(r"The passed save_path is not a valid checkpoint: (?P<path>\S+)", 0.84),
        # workflow managers naming inputs that are not there (Snakemake), the kubelet's check of a hostPath mount
        pat(r"MissingInputException|Missing input files for rule", 0.85),
        pat(
            r"hostPath type check failed|MountVolume\.SetUp failed .*(?:not a directory|does not exist|no such file)",
            0.86,
        ),
        # ... and the API object a pod mounts or reads its environment from that is not there: the kubelet's
        # MountVolume failure and the CreateContainerConfigError reason (kubernetes pkg/kubelet: 'configmap "x" not
        # found', 'secret "x" not found', 'persistentvolumeclaim "x" not found'; event reasons FailedMount and
        # CreateContainerConfigError, https://kubernetes.io/docs/reference/kubernetes-api/ and the kubelet's events)
        pat(
            r"(?:MountVolume\.\w+ failed for volume \S+ :|CreateContainerConfigError:?) .{0,40}"
            r"\b(?:configmaps?|secrets?|persistentvolumeclaims?)\s+\"?[\w.-]+\"? not found",
            0.84,
        ),
        # Windows' wording of ENOENT (WinError 2/3), Java's NIO exception (its message is only the path)
        pat(r"The system cannot find the (?:file|path) specified", 0.84),
        # Windows refusing a path's syntax (a drive letter inside a path, a ':' in a file name): WinError 123
        pat(r"\[WinError 123\]", 0.8),
        # the same codes in any language (Windows words its messages in the system's: "[WinError 3] 系统找不到指定的路径。")
        pat(r"\[WinError [23]\]", 0.84),
        # glibc's strerror(ENOENT) in the locales forum pastes come in (zh_CN, ja, de, fr, es, ko): shells and
        # tools print it in the system's language
        pat(
            r"没有那个文件或目录|そのようなファイルやディレクトリはありません|Datei oder Verzeichnis nicht gefunden"
            r"|Aucun fichier ou dossier de ce type|No existe el fichero o el directorio|그런 파일이나 디렉터리가 없습니다",
            0.8,
            flags=0,
        ),
        pat(r"\bNoSuchFileException\b(?::\s*(?P<path>\S+))?", 0.86),
        # a path that opened nothing, in the words readers use ("could not open file", "unable to find
        # directory"); a shared library or module that cannot be opened is a missing dependency, not a path
        pat(
            r"(?:could not|couldn't|cannot|can't|can not|unable to|failed to) (?:open|find|locate|read) (?:the |a |any )?"
            r"(?:input |data |config(?:uration)? |model |checkpoint )?(?:files?|director(?:y|ies)|folders?|path|dataset"
            r"|checkpoint)\b"
            # a prebuilt file set a tool reads by its base name (an aligner's genome index: "Could not locate a Bowtie
            # index corresponding to basename …")
            r"|(?:could not|couldn't|cannot|can't|unable to|failed to) (?:find|locate) (?:the |a |an |any )?(?:\w++ )?"
            r"index (?:corresponding to|for|at|named) (?:basename|prefix|path)?",
            0.74,
        ),
        # the data path matched no files, so the dataset is empty: PyTorch's RandomSampler
        # (torch/utils/data/sampler.py: "num_samples should be a positive integer value, but got num_samples=0")
        # and OpenCV reading an image path that is not there (imread returns an empty Mat, the next call asserts)
        pat(r"num_samples should be a positive integ\w* value, but got num_samples=0", 0.78),
        pat(
            r"\bNo (?:[\w.*-]+ ){0,2}(?:files?|images?|videos?|samples?|models?)(?: were| was)? found (?:in|at|under)\b"
            r"|\bFound 0 (?:files|images)\b|\b0 (?:files|images) found in\b",
            0.76,
        ),
        # the image a reader returned for a path it could not open: OpenCV's imread returns None instead of raising,
        # and the first use of the image fails on its shape
        pat(r"'NoneType' object has no attribute 'shape'", 0.74),
        # torchvision's dataset classes: an ImageFolder whose class folders hold no image ("Found no valid file for
        # the classes …"), a built-in dataset not under its root ("Dataset not found or corrupted. You can use
        # download=True to download it"); a data loader that found nothing under the path it was given
        pat(r"Found no valid file for the classes|Dataset not found or corrupted\. You can use download=True", 0.84),
        pat(r"^No (?:training |train |input )?(?:data|images|samples|image files) (?:was |were )?found\b", 0.74),
        # TensorFlow's glob over a checkpoint or data path that matched nothing (TensorSliceReader, tf.data)
        pat(r"Failed to find any matching files for (?P<path>\S+)", 0.84),
        # a data folder a loader could not recognise or launch from: 3D Gaussian Splatting's scene reader (neither
        # COLMAP's sparse/ nor a transforms_train.json under the --source_path it was given: "Could not recognize scene
        # type!") and ML-Agents' launcher ("Couldn't launch the X environment. Provided filename does not match any
        # environments"): the path given does not hold what it should
        pat(r"Could not recognize scene type|Provided filename does not match any environments", 0.82),
        # a file pattern or storage prefix that named nothing: tf.data's Dataset.list_files ("No files matched
        # pattern: …", dataset_ops.py), the SageMaker SDK's S3 input ("No S3 objects found under S3 URL \"s3://…\"")
        pat(
            r"\b(?:No files matched pattern:|No S3 objects found under S3 URL) ?\"?(?P<path>[^\s\"\]]+)?",
            0.8,
        ),
        # Transformers looking for weights in a local directory that has none
        # (modeling_utils: "Error no file named pytorch_model.bin, … found in directory x")
        pat(r"Error no file named .{0,160} found in directory (?P<path>\S+)", 0.84),
        # huggingface_hub read a local path that does not exist as a Hub repo id and rejected it
        # (utils/_validators.py validate_repo_id: "Repo id must be in the form 'repo_name' or 'namespace/repo_name'")
        pat(r"HFValidationError: Repo id must (?:be in the form|use alphanumeric chars)", 0.8),
        pat(r"\[Errno 20\] Not a directory|\[Errno 21\] Is a directory", 0.82),
        # a path that was never set: CPython's os.fspath on None ("expected str, bytes or os.PathLike object, not
        # NoneType", or pandas' own wording below); libsndfile opening an audio path that is not there ("Error opening 'x.wav': System error.")
        # (pandas' read_* given None: "Invalid file path or buffer object type: <class 'NoneType'>")
        pat(
            r"expected str, bytes or os\.PathLike object, not NoneType"
            r"|Invalid file path or buffer object type: <class 'NoneType'>",
            0.74,
        ),
        pat(r"Error opening '(?P<path>[^']+)': System error", 0.78),
        # OpenCV's check that its input image is not empty, in whichever function got the empty Mat an imread of a
        # missing path returned (CV_Assert: color.cpp cvtColor "!_src.empty()", resize.cpp "!ssize.empty()", imgcodecs
        # imwrite "!_img.empty()", highgui imshow "size.width>0 && size.height>0")
        pat(r"\(-215(?::Assertion failed)?\) (?:!\w+\.empty\(\)|size\.width\s*>\s*0 && size\.height\s*>\s*0)", 0.76),
        # OpenCV's dnn importers opening a model file that is not there (modules/dnn/src/caffe/caffe_io.cpp
        # ReadProtoFromTextFile / ReadProtoFromBinaryFile: CV_Assert-style "FAILED: fs.is_open(). Can't open \"<path>\""),
        # printed as "OpenCV Error: …" or a cv::Exception's what() before "terminate called …"
        pat(r"FAILED: fs\.is_open\(\)\. Can't open \"(?P<path>[^\"]+)\"", 0.86, flags=0),
        # object stores: a missing key (S3 answers HeadObject with a bare 404)
        pat(
            r"NoSuchKey|The specified key does not exist|\(404\) when calling the (?:HeadObject|GetObject) operation",
            0.86,
        ),
        # TensorFlow's file systems report an OS error as "<path>; <strerror>" (tsl/platform/errors.h, IOError:
        # StrCat(context, "; ", strerror(errno))), raised as NotFoundError when the path is not there (a debugger's
        # popup names the class alone: "Exception has occurred: NotFoundError")
        pat(r"(?:errors_impl\.|^)NotFoundError: (?P<path>[^\s;]+);(?:\s|$)", 0.82, flags=0),
        # huggingface_hub's refusal of an id it has no repository or revision for (utils/_http.py: "Repository Not
        # Found for url: …", "Revision Not Found for url: …")
        pat(r"\b(?:Repository|Revision) Not Found for url: ", 0.8, flags=0),
        # an exception saying no file (checkpoint, weights, dataset …) of the kind it needs was found where it looked
        # ("No file with name: consolidated.00.pth found in /tmp/x", "No checkpoint files found in dir")
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): (?:.{0,80}\b)?(?i:No (?:such )?(?:\w+ ){0,2}(?:files?"
            r"|director(?:y|ies)|folders?|checkpoints?|weights?|datasets?)\b).{0,160}?\b(?i:found|exists?)\b",
            0.78,
            flags=0,
        ),
        # transformers asking the Hub for a revision it does not have (utils/hub.py: "x is not a valid git identifier
        # (branch name, tag name or commit id) that exists for this model name"); a path an assertion says is no
        # directory or file
        pat(r"is not a valid git identifier \(branch name, tag name or commit id\)", 0.8, flags=0),
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): .{0,200}?(?P<path>[\w.~\-]*[/\\][\w.\-/\\]+)['\"]? is not a"
            r" (?:valid )?(?:directory|file|folder)\b",
            0.76,
            flags=0,
        ),
        # ... or says first that something is not there, then names the path ("Checkpoint file not found: ckpts/last.ckpt",
        # "model weights do not exist at /models/x.bin"); "in" is left out: "Key x not found in model.ckpt" is a
        # file that is there without the key
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): .{0,120}?(?i:\bnot found|\bdoes not exist|\bdo not exist"
            r"|\bdoesn't exist|\bcannot be found|\bcould not be found)(?::|\s+at)\s*['\"`]?(?P<path>[\w.~\-]*[/\\]"
            r"[\w.\-/\\]+|[\w\-]+\.(?:json|jsonl|ya?ml|txt|csv|tsv|pt|pth|bin|ckpt|safetensors|h5|hdf5|pkl|pickle|npy"
            r"|npz|jpe?g|png|wav|parquet|arrow|onnx|tar|zip|gz)\b)",
            0.78,
            flags=0,
        ),
        # an exception that could not find (load, open) something and asks to check where the files or data are
        # ("Could not find a task with the ID 101. Make sure … nnU-Net knows where raw and preprocessed data are
        # located", "Can't load tokenizer for x … make sure 'x' is the correct path to a directory")
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): .*(?i:could not|couldn't|cannot|can't|unable to|failed to) "
            r"(?i:find|locate|load|open)\b.*(?i:\b(?:make sure|check|verify|ensure)\b.{0,80}\b(?:path|file|director"
            r"(?:y|ies)|folder|dataset|data)s?\b)",
            0.74,
            flags=0,
        ),
        # a dataset the run names that the program's list of datasets does not define ("Undefined dataset x in
        # dataset_info.json"): the list read is not the one meant, or the dataset was never added to it
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): .{0,80}?(?i:\b(?:Undefined|Unregistered) dataset\b"
            r"|\bdataset \S+ (?:is )?not (?:defined|registered) in\b)",
            0.74,
            flags=0,
        ),
        # an exception whose message names a path (a folder in it, or a data/checkpoint file's extension) and says it
        # is not there, in any of the words programs use
        pat(
            r"^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): .{0,200}?(?P<path>(?:[\w.~\-]*[/\\][\w.\-/\\]+|\b[\w\-]+\."
            r"(?:json|jsonl|ya?ml|txt|csv|tsv|pt|pth|bin|ckpt|safetensors|h5|hdf5|pkl|pickle|npy|npz|jpe?g|png|wav|mp3|flac"
            r"|parquet|arrow|onnx|tar|zip|gz))\b)['\"]?.{0,40}?\b(?:not found|does not exist|doesn't exist|cannot be found"
            r"|could not be found|no such file|is missing|not exist)",
            0.78,
        ),
        # a configured path that is there but not a file, or not there at all, in a program's own check
        # ("Config annotation dataset/x.json is not a file, dataset config is not valid", PaddleDetection)
        pat(r"(?P<path>[\w.~\-]*[/\\][\w.\-/\\]+) is not a file\b", 0.8, flags=0),
    ),
    # Kaldi's table readers warn for each entry whose file they cannot open (util/kaldi-table-inl.h
    # EnsureObjectLoaded: "Failed to open file <path>"), and the job fails when too few were read: a scp list
    # pointing at files that are not there
    warning_patterns=(
        pat(r"^WARNING \([\w.+-]+(?:\[[^\]]*\])?:EnsureObjectLoaded\(\)[^)]*\) Failed to open file ", 0.7),
    ),
    root_words=ROOT_WORDS,
)
