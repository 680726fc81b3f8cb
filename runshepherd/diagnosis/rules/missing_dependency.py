"""Missing Python modules, missing binaries (exit 127), missing shared libraries."""

from __future__ import annotations

import re

from runshepherd.diagnosis.errorblock import exception_type
from runshepherd.diagnosis.fixes import fix_dependency, pip_package
from runshepherd.diagnosis.frames import (
    FRAME_END,
    INSTALLED_DIR,
    INSTALLED_FILE,
    installed_or_stdlib,
    traceback_frames,
)
from runshepherd.diagnosis.packages import well_known_pattern
from runshepherd.diagnosis.positive import caught_import_went_on
from runshepherd.diagnosis.rules.base import Context, FunctionRule, Signal, compiled_extension, line_above, pat, raised
from runshepherd.diagnosis.rules.family import exits, family, words

# Diagnosis does not know where the task ran (a container image on OSMO, the machine itself on local/Slurm),
# so the wording names both rather than guessing.
WHERE = "where the task runs (its container image, or the machine itself)"


def _groups(m: re.Match[str]) -> dict[str, str]:
    """The match's named groups, with the numbered variants (``lib2``: a second alternative) under their name."""
    d: dict[str, str] = {}
    for k, v in m.groupdict().items():
        if v:
            d.setdefault(k.rstrip("0123456789"), v)
    return d


def _explain(m: re.Match[str]) -> str:
    d = _groups(m)
    if d.get("shipped"):
        return (
            f"A file the installed package '{d['shipped']}' ships is missing from its own directory under "
            "site-packages: the install is incomplete or broken (a partial copy, or a user-site copy under ~/.local "
            "shadowing the environment's), not a path of the job's."
        )
    if d.get("py"):
        return (
            "The code is written for a newer Python than the one running it (it writes types as `X | None`, which "
            "Python only accepts from 3.10): the interpreter is older than the project needs."
        )
    if d.get("rel"):
        return (
            "The code uses a library the way another release of it works: the installed release removed, moved or "
            "renamed the name, or changed an argument or a default (the error says so); the code was written for "
            "another version of it."
        )
    if d.get("newer"):
        return (
            f"The file is there but the installed program that reads it is older than the file ({d['newer']}): the "
            "file uses a format (a model architecture, a feature type) that came in a later release of its reader."
        )
    if d.get("pickled"):
        return (
            f"The saved file refers to a name in '{d['pickled']}' that the installed release of it does not have: the "
            "file was saved with another release of the library than the one loading it."
        )
    if d.get("ext"):
        return (
            f"The class '{d['ext']}' a native extension registers is not there: the extension's library did not load "
            "(it is built for another release of torch, or a library it links against is missing)."
        )
    if d.get("reg"):
        return (
            f"The config asks for '{d['reg']}', which no installed package has registered: the package (or the "
            "project's own module) that defines it is not installed, is another version, or is never imported."
        )
    if d.get("ver"):
        return (
            f"The installed version of '{d['ver']}' does not have a name the code uses: the code was written for an "
            "older or newer release of it than the one installed."
        )
    if d.get("build"):
        return (
            f"pip could not build the package '{d['build']}' from source, so it is not installed: there is no "
            "prebuilt wheel for this Python version or platform, or the compiler, CUDA toolkit or a header it needs "
            "is missing."
        )
    if d.get("wheel"):
        return (
            f"pip refused the wheel '{d['wheel']}': it is built for another Python version or platform than the one "
            "running, so the package was not installed."
        )
    if d.get("mod") and compiled_extension(d["mod"]):
        return (
            f"The module '{d['mod']}' is a compiled extension (a leading underscore names a package's C++/CUDA build "
            "product) and it is not there: the package's native part was never built, or was built in another "
            "environment than the one the job runs in."
        )
    if d.get("mod") and not d.get("known") and "known" in m.re.groupindex:
        return (
            f"The Python module '{d['mod']}' is not installed {WHERE}, or, if it is one of the project's own modules "
            "(no well-known package has that name), Python cannot find it from the directory the job runs in."
        )
    if d.get("mod"):
        return f"The Python module '{d['mod']}' is not installed {WHERE}."
    if d.get("bin"):
        return f"The script calls the program '{d['bin']}', which is not installed {WHERE}."
    if d.get("lib"):
        return f"The system library '{d['lib']}' is missing {WHERE}."
    if d.get("pkg"):
        return f"The package '{d['pkg']}' the code needs is not installed."
    return f"Something the code needs is not installed {WHERE} (or is the wrong version)."


def _fix(m: re.Match[str]) -> str:
    d = _groups(m)
    if d.get("shipped"):
        return (
            f"Reinstall '{d['shipped']}' in the environment the job uses (pip install --force-reinstall --no-cache-dir "
            f"{pip_package(d['shipped'])}), and check that no copy under ~/.local shadows it; then rerun."
        )
    if d.get("py"):
        return (
            "Run it with the Python version the project asks for (a newer base image, conda or venv interpreter), or "
            "write the types as Optional[X] / Union[X, Y]."
        )
    if d.get("rel"):
        return "Pin the library to the release the code was written for, or update the code to what the error suggests."
    if d.get("newer"):
        return (
            "Upgrade the program that reads the file (pip install -U, or rebuild it from a newer source) to a release "
            "that supports it, or use a file made for the installed release."
        )
    if d.get("pickled"):
        return (
            f"Install the release of the library that provides '{d['pickled']}' that the file was saved with (pin it), "
            "or save the file again with the installed release."
        )
    if d.get("ext"):
        return (
            "Reinstall the package that ships the extension built for the installed torch (or install the library it "
            "links against), then rerun."
        )
    if d.get("reg"):
        return (
            f"Install the package that provides '{d['reg']}' (the project's own package, from its source, rather than "
            "the plain library), or import the module that registers it (OpenMMLab configs: `custom_imports`); "
            "check the name's spelling in the config."
        )
    if d.get("ver"):
        return (
            f"Install the release of '{d['ver']}' the code was written for (pin that version in the requirements), "
            "or update the code to the installed release's API."
        )
    if d.get("build"):
        return (
            f"Install a release of '{d['build']}' that ships a wheel for this Python and platform (or a Python version "
            "it has wheels for), or install the build tools its error names, then reinstall."
        )
    if d.get("wheel"):
        return (
            "Pin a release (or wheel) built for this Python version and platform (the cpXY and platform tags in the "
            "wheel's name must match the interpreter), or run with the Python the wheel was built for."
        )
    if d.get("mod") and compiled_extension(d["mod"]):
        return (
            "Build the package's extensions in the environment the job runs in (`pip install -e .`, or "
            "`python setup.py build_ext --inplace` as its README says; a CUDA toolkit matching torch is needed), "
            "then rerun."
        )
    if d.get("mod"):
        return (
            f"Install it before the script runs (`pip install` the package that provides '{d['mod']}'), "
            "or use an image that already has it."
        )
    if d.get("bin"):
        b = d["bin"].rsplit("/", 1)[-1]
        return (
            f"Install it at the top of the entry script (e.g. `apt-get update && apt-get install -y {b}`, "
            "or apk/dnf per distribution), use a tool the image has, or switch to a base image that includes it."
        )
    if d.get("lib"):
        return "Install the system package that provides the library (apt-get) or use an image that has it."
    return "Add the missing package to the image or install it at the start of the task."


# A program the code runs through subprocess is not installed: CPython's _execute_child raises FileNotFoundError
# ("[Errno 2] No such file or directory: 'ffmpeg'", Windows: "[WinError 2] The system cannot find the file
# specified") with the program's name where a path would be. Read from the frame that raised it, or from a name
# that is a well-known program rather than a path.
_EXEC_FRAME = re.compile(
    r'subprocess\.py", line \d+, in _execute_child|, in (?:_execute_child|execvpe?|_spawn_posix)\b'
)
_NOT_THERE = re.compile(
    r"\[Errno 2\] No such file or directory|\[WinError 2\]"  # (Windows' own words are in the system's language)
)
_PROGRAMS = (
    r"ffmpeg|ffprobe|git|git-lfs|nvcc|ninja|gcc|g\+\+|cc|c\+\+|cmake|make|java|sox|espeak(?:-ng)?|nvidia-smi|docker"
    r"|unzip|wget|curl|aria2c|tesseract|pdflatex|latex|dot|rsync|ssh|sbatch|srun|squeue|scontrol|kubectl|conda|pip|pip3"
    r"|python3?(?:\.\d+)?|hipcc|clang|ld|as"
)
_PROGRAM = re.compile(r"\[Errno 2\] No such file or directory: '(?P<bin>" + _PROGRAMS + r")'")


def _program_not_installed(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        ln = lines[idx]
        if exception_type(ln.text) is None or not _NOT_THERE.search(ln.text):
            continue
        named = _PROGRAM.search(ln.text)
        frame = next((f for f in reversed(lines[max(0, idx - 6) : idx]) if _EXEC_FRAME.search(f.text)), None)
        if named is None and frame is None:
            continue
        if named is None and re.search(r"'[^']*[/\\][^']*'\s*$", ln.text):
            continue  # a path (a script, a working directory) that is not there: a path to fix, not a program
        m = named or re.search(r"'(?P<bin>[^'/\\]+)'\s*$", ln.text)
        what = f"the program '{m.group('bin')}'" if m else "a program"
        ev = [ln.raw.rstrip()] + ([frame.raw.rstrip()] if frame is not None else [])
        return [
            Signal(
                "missing_dependency",
                "user",
                0.95 if frame is not None else 0.88,  # the frame that raised it is proof; a name alone is not
                idx,
                ev,
                f"The code runs {what} as a separate process, and it is not installed {WHERE} (the operating "
                "system could not find it, so the call failed with 'No such file or directory').",
                "add_dependency",
                _PROGRAM_FIX,
            )
        ]
    # a caught and logged failure naming a well-known program ("CIDEr computation failed: [Errno 2] No such file or
    # directory: 'java'"): the same missing program, read on any line (file_not_found reads the line's words too)
    for ln in lines:
        if "Errno 2" in ln.text and (named := _PROGRAM.search(ln.text)):
            expl = (
                f"The code runs the program '{named.group('bin')}' as a separate process, and it is not installed "
                f"{WHERE} (the operating system could not find it, so the call failed with 'No such file or "
                "directory')."
            )
            return [
                Signal(
                    "missing_dependency",
                    "user",
                    0.88,
                    ln.index,
                    [ln.raw.rstrip()],
                    expl,
                    "add_dependency",
                    _PROGRAM_FIX,
                )
            ]
    return []


_PROGRAM_FIX = (
    "Install the program (e.g. `apt-get install -y` the package that provides it, or conda/brew), make sure it is on "
    "PATH for the job, or use an image that includes it."
)


# a module of an installed package lacks a name the code uses: the traceback shows the package under site-packages
# (or dist-packages), so it is a library at another release than the code expects, not the project's own module;
# likewise when the code that asks for the name is itself a library's (the deepest frame is under site-packages):
# one library expects another release of a module it uses (old setuptools on Python 3.12: "module 'pkgutil' has no
# attribute 'ImpImporter'")
_LIBRARY_FRAME = re.compile(r'^\s*File "[^"]*[/\\](?:site|dist)-packages[/\\]')
_MODULE_ATTR = re.compile(r"^(?:\w+\.)*AttributeError: module '(?P<ver>[\w.]+)' has no attribute '\w+'")


def _installed_module_lacks(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx, ln, m in raised(ctx, _MODULE_ATTR):
        if "partially initialized module" in ln.text:
            continue
        top = re.escape(m.group("ver").split(".")[0])
        installed = re.compile(r"[/\\](?:site|dist)-packages[/\\]" + top + r"(?:[/\\]|\.py\b)")
        frame = next((f for f in lines[max(0, idx - 60) : idx] if installed.search(f.text)), None)
        explanation = _explain(m)
        if frame is None:
            deepest = line_above(ctx, idx)
            frame = deepest if deepest is not None and _LIBRARY_FRAME.match(deepest.text) else None
            explanation = (
                f"An installed library uses a name that '{m.group('ver')}' does not have in the release installed "
                "here: the library was written for another version of it (or of Python)."
            )
        if frame is None:
            continue
        ev = [ln.raw.rstrip(), frame.raw.rstrip()]
        return [Signal("missing_dependency", "user", 0.74, idx, ev, explanation, "add_dependency", _fix(m))]
    return []


# An installed package's own code failing on a name or a type it uses. The person who ran the program wrote none of
# that code and gave it no value: the package does not fit the Python or the packages installed beside it (another
# release; an optional import it guards that failed and left a name undefined), so the fix is the installed release.
# Two forms, read from where the exception was raised: (1) the statement that failed is in an installed file and the
# error is a name of its own module (NameError) or an attribute of its own object (AttributeError on ``self.<attr>``,
# the statement quoted reads it); (2) the failure happens while an installed package is imported (a frame ``in
# <module>`` of an installed file, and only installed or standard-library frames from there down), with an error of
# the code kinds (TypeError, AttributeError, NameError). Not a ``raise`` inside ``__getattr__`` (torch's Module,
# tokenizers: it reports the caller's lookup), not an attribute read on None (a value never set), not a worker's
# re-raise; a library calling the person's own override with a new argument (TypeError outside an import) is left to
# the code (TRAIN labels those both ways). TRAIN (stop 35): 44 logs fail while importing an installed package, 37
# missing_dependency and the other 7 read by stronger families
_CODE_KINDS = re.compile(
    r"^(?:\w++\.)*+(?P<kind>NameError: name '(?P<name>\w+)' is not defined"
    r"|AttributeError: (?:'(?P<cls>[\w.]+)' object|module '[\w.]+'|type object '[\w.]+') has no attribute '(?P<attr>\w+)'"
    r"|TypeError: )"
)
_REPORTS_LOOKUP = frozenset({"__getattr__", "__getattribute__", "reraise"})


def _installed_package(path: str) -> str | None:
    """The top-level name of the installed package a traceback frame's file belongs to, or None for a file of the
    program's own."""
    pkg = INSTALLED_FILE.search(path.replace("\\", "/"))
    return pkg.group("pkg").split(".")[0].split("-")[0] if pkg else None


_FITTING_RELEASE = (
    "Install the release of '{}' that fits the installed Python and libraries (pin the versions the project was "
    "written for)"
)


def _installed_code_fails(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx in ctx.log.exceptions[:6]:
        m = _CODE_KINDS.match(lines[idx].text.strip())
        if m is None or m.group("cls") == "NoneType":
            continue
        frames = traceback_frames(lines, idx)
        if not frames:
            continue
        path, func, code = frames[-1]
        name = _installed_package(path)
        if name is None or func in _REPORTS_LOOKUP:
            continue
        k = len(frames)
        while k > 0 and installed_or_stdlib(frames[k - 1][0]):
            k -= 1
        importing = any(f == "<module>" and INSTALLED_FILE.search(p) for p, f, _ in frames[k:])
        own = bool(m.group("name")) or bool(
            m.group("attr")
            and m.group("cls")
            and any(re.search(r"\bself\." + m.group("attr") + r"\b", c) for c in code)
        )
        if not (importing or own):
            continue
        first = next(i for i in ctx.log.exceptions if lines[i].text.strip() == lines[idx].text.strip())
        frame_line = next((ln for ln in reversed(lines[max(0, idx - 8) : idx]) if FRAME_END.match(ln.text)), None)
        ev = [lines[idx].raw.rstrip()] + ([frame_line.raw.rstrip()] if frame_line is not None else [])
        how = "while Python imported it" if importing else "in its own code"
        return [
            Signal(
                "missing_dependency",
                "user",
                0.74,
                first,
                ev,
                f"The error was raised inside the installed package '{name}' {how}, on a name or type its code uses: "
                "the package does not fit the Python or the packages installed beside it (another release than the "
                "one it was written for, or an optional import it needs that failed).",
                "add_dependency",
                _FITTING_RELEASE.format(name)
                + ", or install the optional package its code needs; the program's own code is not where the error is.",
            )
        ]
    return []


# An installed library calling ``.decode()`` on a value that is already text: its code was written for a release that
# handed it bytes (Python 2, or h5py before 3.0, which read HDF5 string attributes as bytes; from 3.0 they are str, so
# Keras 2's ``f.attrs['keras_version'].decode('utf8')`` fails). The person's code gave the library no such value: the
# fix is the release the library was written with
_DECODE_ON_STR = re.compile(r"^AttributeError: 'str' object has no attribute 'decode'")
_HDF5_FRAME = re.compile(r"hdf5|\bh5py\b|\.h5\b", re.I)


def _decode_on_text(ctx: Context) -> list[Signal]:
    lines = ctx.log.lines
    for idx, ln, _ in raised(ctx, _DECODE_ON_STR):
        frames = traceback_frames(lines, idx)
        if not frames:
            continue
        name = _installed_package(frames[-1][0])
        if name is None:
            continue
        hdf5 = any(_HDF5_FRAME.search(f"{p} {f} {' '.join(c)}") for p, f, c in frames[-3:])
        which = "h5py (before 3.0 it read HDF5 string attributes as bytes)" if hdf5 else "Python or a library it reads"
        fix = (
            "Install the h5py release the library was written for (`pip install 'h5py<3.0'`), or a release of "
            f"'{name}' that reads text attributes."
            if hdf5
            else _FITTING_RELEASE.format(name) + "."
        )
        ev = [ln.raw.rstrip()] + [c.rstrip() for c in frames[-1][2][-1:]]
        explanation = (
            f"The installed package '{name}' calls .decode() on a value that is already text: it was written for "
            f"another release of {which}, which handed it bytes."
        )
        return [Signal("missing_dependency", "user", 0.74, idx, ev, explanation, "add_dependency", fix)]
    return []


# transformers' Auto classes look a checkpoint's model_type up in their mapping (models/auto/configuration_auto.py,
# _LazyConfigMapping.__getitem__ raises KeyError(key)): a KeyError raised there names a model type the installed
# transformers does not know, one added in a later release ("KeyError: 'qwen2'")
_AUTO_MAPPING = re.compile(r'transformers[/\\]models[/\\]auto[/\\]\w+_auto\.py", line \d+, in __getitem__')
_KEY_ERROR = re.compile(r"^(?:\w+\.)*KeyError: '(?P<key>[\w\-]+)'\s*$")


def _model_type_unknown(ctx: Context) -> list[Signal]:
    for idx, ln, m in raised(ctx, _KEY_ERROR):
        frame = line_above(ctx, idx)
        if frame is None or not _AUTO_MAPPING.search(frame.text):
            continue
        return [
            Signal(
                "missing_dependency",
                "user",
                0.8,
                idx,
                [ln.raw.rstrip(), frame.raw.rstrip()],
                f"The installed transformers does not know the model type '{m.group('key')}' of the checkpoint: "
                "it is older than the model (support for it came in a later release).",
                "add_dependency",
                "Upgrade transformers to a release that supports the model (the model card names the minimum), then "
                "rerun.",
            )
        ]
    return []


# Root-line vocabulary (the engine's backoff, see diagnosis/rootline.py): Python's import system (ModuleNotFoundError
# "No module named", ImportError "cannot import name"), the shell's "command not found", the dynamic loader's
# "cannot open shared object file", "undefined symbol", Windows' "DLL load failed", pip's resolver ("No matching
# distribution", "ResolutionImpossible"), and the version checks libraries print ("requires torch>=2.1", "not compiled
# with CUDA enabled", "version … incompatible")
ROOT_WORDS = (
    words(
        r"\bno module named\b|\bcannot import (?:name )?\S|\b(?:could not|couldn't|failed to|unable to) import\b"
        r"|\bcommand not found\b|\bnot found in (?:\$?PATH|path)\b|\bexecutable (?:file )?not found\b"
        r"|\bcannot open shared object\b|\bundefined symbol\b|\bsymbol lookup error\b|\bDLL load failed\b"
        r"|\b(?:cannot|can't|could not|couldn't|unable to|failed to) (?:open|load|find|locate|dlopen)\b(?:[^.]|\.\S){0,60}"
        r"(?:\.so\b|\.so\.\d|\.dll\b|\.dylib\b|shared (?:object|librar)|dynamic librar|\bDSO\b)"
        r"|(?:\.so(?:\.\d+)*|\.dll|\.dylib|\blibrar(?:y|ies))\b(?:[^.]|\.\S){0,60}\b(?:not found|missing|not loaded|cannot be "
        r"(?:found|loaded|opened)|could not be (?:found|loaded|opened)|failed to load)",
        0.64,
        "a module, library or command that cannot be found or loaded",
    ),
    words(
        r"\bnot installed\b|\bplease (?:pip )?(?:install|upgrade|update|reinstall)\b|\bpip install\b|\bconda install\b"
        r"|\b(?:package|module|plugin|extension|backend|dependency|dependencies)\b(?:[^.]|\.\S){0,50}\b(?:not found|not "
        r"installed|missing|not available|unavailable|cannot be (?:found|loaded)|could not be (?:found|loaded)|failed "
        r"to load)|\bmissing (?:\w+ )?(?:package|module|dependency|dependencies|plugin|extension)\b",
        0.6,
        "a package that is not installed",
    ),
    words(
        r"\bversions?\b(?:[^.]|\.\S){0,60}\b(?:mismatch|incompatib\w*|not (?:supported|compatible)|too (?:old|new|low|high)"
        r"|unsupported)|\b(?:incompatib\w*|not compatible|mismatch\w*)\b(?:[^.]|\.\S){0,60}\bversions?\b"
        r"|\brequires? (?:\w+ )?[\w.\-]+\s*(?:[<>=!~]=|>|<)\s*\d|\b[\w.\-]+\s*(?:>=|==|<=)\s*\d[\w.]*,? (?:is |are )?required\b"
        r"|\bnot compiled with\b|\b(?:was|were)(?:n't| not) (?:compiled|built) with\b|\b(?:compiled|built) without\b"
        r"|\bno matching distribution\b|\bcould not find a version that satisfies\b|\bResolutionImpossible\b"
        r"|\bdependency conflict|\bconflicting dependencies\b",
        0.6,
        "an installed version that does not fit (too old, too new, or built without a feature)",
        unless=r"\bdriver\b",
    ),
    # a name a release removed ("`np.NaN` was removed in the NumPy 2.0 release"), and a bare command the kernel
    # could not execute (Slurm's "execve(): torchrun: No such file or directory": not on PATH in the job's environment)
    words(
        r"\b(?:was|were|has been|have been) removed in (?:the )?(?:\w+ )?v?\d+(?:\.\d+)*\b"
        r"|\bexecve?\(?\)?:? (?![^:\s]*/)[\w.+-]+: No such file or directory\b",
        0.63,
        "a command or a name that the installed software does not have",
    ),
)


def _caught_optional_import(ctx: Context, s: Signal) -> bool:
    """The program caught this import error, logged it and went on (:func:`positive.caught_import_went_on`)."""
    return caught_import_went_on(ctx.log.lines, s.order)


# the module named is a well-known distribution's (its top-level name, then a dot or the end of the name); when it is
# not, the verdict's confidence is at most 0.78 (on the dev corpus about eight such verdicts in ten were right); nor
# when it is a submodule of one ("No module named 'flax.deprecated'": the module moved or went in another release of
# an installed package, which the code is as often changed for as the package pinned: 26 of 33 dev verdicts right)
_KNOWN = rf"(?:(?=(?P<known>{well_known_pattern()})(?!\w)(?P<top>(?!\.))?)|)"
_UNKNOWN_CAP = 0.78

FAMILY = family(
    "missing_dependency",
    origin="user",
    fix_kind="add_dependency",
    explanation=_explain,
    fix_description=_fix,
    patterns=(
        # a module named that no well-known distribution provides is as often the project's own file as a missing
        # package: the verdict stands, less sure (packages.py)
        pat(
            rf"ModuleNotFoundError: No module named '{_KNOWN}(?P<mod>[\w.]+)'",
            0.9,
            cap=_UNKNOWN_CAP,
            uncapped_by="top",
        ),
        # a file an installed package ships (a template, a config, a data file) missing from its own directory under
        # site-packages or dist-packages: the install is incomplete or broken (a partial copy, a user-site install
        # shadowing the environment's), which reinstalling the package fixes; no path of the job's to correct
        pat(
            r"(?:FileNotFoundError|\[Errno 2\] No such file or directory)\b.*?: '[^']*"
            + INSTALLED_DIR
            + r"(?P<shipped>[^'/\\]+)[/\\][^']*'",
            0.9,
        ),
        # TensorFlow loading a graph whose op no loaded library registered (tensorflow/core/framework/op.cc:
        # "Op type not registered '…' in binary running on …"): the package with that op (tensorflow-text,
        # tensorflow-addons, a custom op) is not installed or not imported, or is built for another TensorFlow
        pat(r"Op type not registered '(?P<reg>[\w>]+)'", 0.86),
        # TensorFlow's UnimplementedError when no cuDNN library could be loaded (stream_executor's cuda_dnn.cc: "DNN
        # library is not found."); a missing libcudnn is a dependency of the image, as its dlopen error is
        pat(r"\bDNN library is not found\b", 0.84),
        # Ray could not build a task's runtime environment (pip/conda packages, working_dir): RuntimeEnvSetupError
        # (https://docs.ray.io/en/latest/ray-core/api/exceptions.html)
        pat(r"\bRuntimeEnvSetupError\b|runtime env failed to be created", 0.76),
        # npm asking its registry for a package (or version) it does not have (npm's error code E404,
        # https://docs.npmjs.com/common-errors)
        pat(r"^npm ERR! (?:code E404|404 Not Found - GET )", 0.86, flags=0),
        pat(rf"ImportError: No module named '?{_KNOWN}(?P<mod>[\w.]+)'?", 0.9, cap=_UNKNOWN_CAP, uncapped_by="top"),
        # pip refusing a wheel built for another Python or platform (pip's "… is not a supported wheel on this
        # platform."): the pinned package file does not fit the interpreter, so nothing got installed
        pat(r"(?P<wheel>[\w.+\-]+\.whl) is not a supported wheel on this platform", 0.86),
        # zsh and fish put the shell's name first and the command last ("zsh: command not found: torchrun",
        # "fish: Unknown command: nvcc"); Windows' cmd.exe ("'python' is not recognized as an internal or external
        # command") and PowerShell ("The term 'conda' is not recognized as the name of a cmdlet, …")
        pat(r"^(?:zsh|fish): (?:command not found|Unknown command):? (?P<bin>[\w.+\-/]+)", 0.9),
        pat(r"['‘\"](?P<bin>[^'‘’\"\s]+)['’\"] is not recognized as an internal or external command", 0.9),
        pat(r"The term ['‘](?P<bin>[^'‘’\s]+)['’] is not recognized as (?:the|a) name of a cmdlet", 0.9),
        # (a name that starts with '-' is an option the shell ran as a command: a broken script, validation_error)
        pat(r"(?<![\w.+\-/])(?P<bin>[\w./+][\w.+\-/]*): command not found", 0.9),
        pat(r"^(?:/bin/(?:ba)?sh|sh|bash): (?:\d+: |line \d+: )?(?P<bin>[\w.+\-/]+): not found", 0.9),
        # dash (Debian's /bin/sh) running a script names the script and its line first ("download.sh: 4: download.sh:
        # gdown: not found")
        pat(r"^[\w./\-]+: \d+: [\w./\-]+: (?P<bin>[\w.+\-/]+): not found\b", 0.9),
        # bash's "command not found" in the system's language (zh_CN, ja, de, fr, es; the prefilter has no literal for
        # a cased script such as Cyrillic, so Russian is left out)
        pat(
            r"^(?:[\w./\-]+: )?(?:line \d+: )?(?P<bin>[\w.+\-/]+) ?: (?:未找到命令|コマンドが見つかりません"
            r"|Befehl nicht gefunden|commande introuvable|orden no encontrada)",
            0.88,
            flags=0,
        ),
        # a launcher's exec of a bare command name (no '/': looked up on PATH, so it is not installed in the image;
        # slurmstepd: "error: execve(): torchrun: No such file or directory"); a path that is not there is
        # file_not_found's
        pat(r"\bexecve?\(\): (?P<bin>[\w.+\-]+): No such file or directory", 0.9),
        pat(r'exec: "?(?P<bin>[\w.+\-/]+)"?: executable file not found in \$PATH', 0.9),
        # a program whose file is not there, named as one: Go's os/exec and the container runtimes built on it stat the
        # program before they start it ('exec: "/usr/bin/nvidia-container-cli": stat /usr/bin/nvidia-container-cli: no
        # such file or directory'), and a shell ran a path into a folder of programs (…/bin/, …/sbin/: "bash:
        # /usr/bin/python: No such file or directory"; a name with an extension there, run.sh, is a script, a path; so is
        # a relative one, ./bin/train: the person's own file, not an installed program)
        pat(r'\bexec: "(?P<bin>[^"\s]+)": stat \S+: no such file or directory', 0.9),
        pat(
            r"(?<![\w./\-])(?:/bin/)?(?:ba|da|z)?sh: (?:\d+: |line \d+: )?"
            r"(?P<bin>(?:~/|/)(?:\S*/)?s?bin/[\w+\-]+(?:\.\d+)*): No such file or directory",
            0.9,
        ),
        # a program a library looks for before it runs it, named by a well-known program's name ("RuntimeError: Could
        # not find nvcc and default cuda_home='/usr/local/cuda' doesn't exist", "Unable to run conda package manager")
        pat(
            r"\b(?:could not|couldn't|cannot|can't|unable to|failed to) (?:find|locate|run|execute|launch) (?:the )?"
            r"(?:program |executable |binary |command )?['\"`]?(?P<bin>" + _PROGRAMS + r")['\"`]?"
            r"(?: (?:package manager|binary|executable|compiler|program|command))?(?=\s*(?:$|[.,;:)]|\b(?:and|in|on|or|to)\b))"
            # ("failed to run make: exit status 2" is a program that ran and failed: it is there)
            r"(?!\s*:\s*(?:exit|returned|return code|status|error code|signal|killed)\b)",
            0.88,
        ),
        pat(r"executable file not found in \$PATH", 0.88),
        # a shared library of a package (libcudart.so.12 is the CUDA runtime a wheel ships; only the driver's
        # libcuda.so / libnvidia-* belong to the node)
        pat(r"error while loading shared libraries: (?P<lib>(?!libcuda\.so|libnvidia)lib[\w.\-+]+): cannot open", 0.87),
        pat(r"(?P<lib>(?!libcuda\.so|libnvidia)lib[\w.\-+]+): cannot open shared object file", 0.87),
        pat(r"undefined symbol: \w+|DLL load failed", 0.8),
        # building a CUDA extension needs the CUDA toolkit (nvcc), not just the driver
        pat(r"CUDA_HOME (?:does not exist|environment variable is not set)|MissingCUDAException", 0.86),
        # JAX asked for a GPU backend its installed jaxlib was built without (jax/_src/xla_bridge.py: "Unknown
        # backend cuda. Available backends are ['cpu']"): the CUDA build (jax[cuda12]) is what is missing
        pat(r"Unknown backend:? '?(?:cuda|gpu|rocm)'?\.? Available backends are \['cpu'(?:, 'interpreter')?\]", 0.86),
        # versions of two packages that must match (jaxlib/jax, torch/torchvision, CUDA builds of a wheel); a
        # "version mismatch" that names no package is someone else's (NVML's driver/library is cuda_driver's, a
        # dataset recorded under another simulator version a warning: robomimic's "Dataset and installed environment
        # version mismatch!" before a run that finished)
        pat(
            r"(?P<pkg>jaxlib|torchvision|torchaudio|tensorflow|numpy|transformers|flash[_-]attn|xformers)\b[^\n]{0,80}"
            r"\b(?:(?:is )?(?:incompatible|not compatible) with\b|version mismatch)|was compiled against .{0,40} but",
            0.86,
        ),
        pat(rf"No module named '?{_KNOWN}(?P<mod>[\w.]+)'?", 0.88, cap=_UNKNOWN_CAP, uncapped_by="top"),
        pat(r"requires the (?P<pkg>[\w\- ]+?) library but it was not found in your environment", 0.88),
        # the same said by transformers' tokenizers ("This tokenizer cannot be instantiated. Please make sure you have
        # `sentencepiece` installed in order to use this tokenizer.") and torchaudio finding no audio library to read
        # files with ("RuntimeError: No audio I/O backend is available.": soundfile, sox or ffmpeg is missing)
        pat(r"\bmake sure you have `(?P<pkg>[\w.\-]+)` installed\b|\bNo audio I/O backend is available\b", 0.86),
        # spaCy's trained pipelines are packages of their own (`python -m spacy download en_core_web_sm`): E050
        # "Can't find model 'en_core_web_sm'. It doesn't seem to be a Python package or a valid path to a data directory"
        pat(r"\[E050\] Can't find model '(?P<pkg>[\w.\-]+)'", 0.86),
        # a library's own check for an optional dependency, naming the command that installs it (gym's
        # DependencyNotInstalled "box2D is not installed, run `pip install gym[box2d]`", Lightning's "Requested
        # `strategy=\"horovod\"`, but Horovod is not installed. Install with `… pip install horovod[pytorch]`")
        pat(
            r"\bDependencyNotInstalled\b|\b(?P<pkg>[\w.\-]+) (?:is|are) not installed\b"
            r"(?:.{0,60}?(?:pip3?|conda|uv pip) install\b|\.\s*(?:Please )?[Ii]nstall (?:it )?(?:with|via|using)\b)",
            0.86,
        ),
        # pandas' import_optional_dependency (pandas/compat/_optional.py): "Missing optional dependency 'tables'.  Use
        # pip or conda to install tables." when a reader or writer needs a package pandas does not require
        pat(r"\bMissing optional dependency '(?P<pkg>[\w.\-]+)'", 0.88),
        # an ImportError a library raised itself, saying what it could not import or what it needs (Keras' "Could not
        # import PIL.Image. The use of `load_img` requires PIL.")
        pat(r"\bImportError: (?:Could not import\b|.{0,200}\brequires\b)", 0.84),
        pat(r"DistributionNotFound|Packages?NotFoundError|ResolvePackageNotFound", 0.84),
        # pip's resolver: the pinned versions cannot be installed together
        pat(r"ResolutionImpossible|because these package versions have conflicting dependencies", 0.86),
        # uv's resolver and installer (astral-sh/uv: "No solution found when resolving dependencies:", "Because x
        # was not found in the package registry …, we can conclude that your requirements are unsatisfiable.",
        # "Distribution `x @ registry+…` can't be installed because it doesn't have a source distribution or wheel for
        # the current platform", "x has no wheels with a matching platform tag", "Failed to build `x`"), and the
        # PubGrub wording Poetry shares ("… version solving failed.")
        pat(
            r"No solution found when resolving dependencies|we can conclude that (?:your |the )?(?:project's )?"
            r"requirements are unsatisfiable|\b(?P<pkg>[\w.\-]+)(?:[<>=!~][^\s,]*)? was not found in the package registry"
            r"|doesn't have a source distribution or wheel for the current platform|has no wheels with a matching"
            r" (?:platform|Python(?: ABI)?|Python implementation) tag|\bversion solving failed\b",
            0.84,
        ),
        pat(r"Failed to (?:download and )?build `(?P<build>[\w.\-]+)", 0.82, flags=0),
        pat(r"Could not find a version that satisfies the requirement (?P<pkg>\S+)", 0.84),
        pat(r"No matching distribution found for (?P<pkg>\S+)", 0.84),
        # (a circular import of the user's own modules, or a file named like the package, is the code's: "cannot
        # import name 'x' from partially initialized module 'y' (most likely due to a circular import)"; so is a name
        # missing from one of the project's own files: CPython names the module's file after it, "cannot import name
        # %R from %R (%S)" in Python/ceval.c import_from, and a file outside site-packages, dist-packages and the
        # standard library (lib/pythonX.Y) is the project's, not an installed release; not a package's __init__.py,
        # which often re-exports names behind an import that failed quietly, such as a missing optional dependency)
        pat(
            r"ImportError: cannot import name '(?P<name>\w+)'(?!.*partially initialized module)"
            r"(?! from '[\w.]+' \((?![^)]*(?:[/\\](?:site|dist)-packages[/\\]|[/\\][Ll]ib[/\\]python\d))[^)]*"
            r"[/\\](?!__init__\.py)\w+\.py\)\s*$)",
            # (a name a release moved or removed: as often fixed in the code as by a pin, 43 of 56 dev verdicts right)
            0.78,
        ),
        # Python 2 says the same without quotes or the module ("ImportError: cannot import name downsample"): on dev,
        # 10 of 13 such roots were a package to pin or install (Theano's removed downsample, Keras 1's Merge)
        pat(r"^ImportError: cannot import name (?P<bare>[A-Za-z_]\w*)\s*$", 0.78, flags=0),
        # a library module that lacks a name the code uses: the installed version is older or newer than the one the
        # code was written for (NumPy 1.24 removed np.float, torch.compile came with torch 2.0, Python 3.10 moved
        # collections.Mapping); a module of the user's own code, or a partially initialised one, is the code's
        pat(
            r"^(?:\w+\.)*AttributeError: module '(?P<ver>numpy|torch|tensorflow|keras|jax|jaxlib|scipy|pandas|sklearn"
            r"|cv2|PIL|torchvision|torchaudio|transformers|accelerate|peft|datasets|huggingface_hub|diffusers|deepspeed"
            r"|bitsandbytes|triton|lightning|pytorch_lightning|torchmetrics|timm|networkx|matplotlib|setuptools"
            r"|pkg_resources|google\.protobuf|collections|distutils|onnx|onnxruntime|xformers|flash_attn|trl|wandb"
            r"|librosa|numba|sympy|gym|gymnasium|mmcv|jinja2|markupsafe|charset_normalizer|urllib3|attr|typing_extensions"
            r")(?:\.[\w.]+)?' has no attribute '\w+'",
            0.74,
        ),
        # package managers and module loaders of other runtimes: apt ("E: Unable to locate package x", "E: Package
        # 'x' has no installation candidate"), Node's resolver ("Error: Cannot find module 'x'"), the JVM's class
        # loader (ClassNotFoundException, NoClassDefFoundError: a jar missing from the classpath), Lua's require
        # ("module 'cunn' not found:")
        pat(
            r"^E: Unable to locate package (?P<pkg>\S+)|^E: Package '(?P<pkg2>[^']+)' has no installation candidate",
            0.84,
        ),
        pat(r"\bError: Cannot find module '(?P<mod>[^']+)'", 0.86, flags=0),
        pat(r"\bjava\.lang\.(?:ClassNotFoundException|NoClassDefFoundError)\b", 0.8, flags=0),
        pat(r"\bmodule '(?P<mod>[\w.]+)' not found:", 0.86, flags=0),
        # software environments a job script activates that the machine does not have: HPC module systems (Lmod:
        # "The following module(s) are unknown: \"cuda/11.8\"", Environment Modules: "Unable to locate a modulefile
        # for 'cuda/11.8'"), conda (conda/exceptions.py EnvironmentNameNotFound: "Could not find conda environment: x")
        pat(
            r"The following module\(s\) are unknown: \"?(?P<pkg>[^\"\s]+)|Unable to locate a modulefile for '(?P<pkg2>[^']+)'"
            r"|EnvironmentNameNotFound|Could not find conda environment: (?P<pkg3>\S+)|EnvironmentLocationNotFound",
            0.86,
        ),
        # installers and build tools that could not get or find a dependency: pip refusing a system Python (PEP 668:
        # "error: externally-managed-environment"), setup.py without the wheel package ("invalid command
        # 'bdist_wheel'"), libsolv under conda/mamba ("nothing provides __cuda needed by pytorch-2.1"), apt ("E: Unmet
        # dependencies", "The following packages have unmet dependencies"), CMake's find_package ("Could not find a
        # package configuration file provided by \"Torch\""; not its "-- Could NOT find X" status lines, which
        # builds that succeed print for optional packages), pkg-config ("Package x was not found in the pkg-config
        # search path")
        pat(
            r"\berror: externally-managed-environment\b|invalid command 'bdist_wheel'|\bnothing provides (?P<pkg>\S+) needed"
            r" by\b|^E: Unmet dependencies\b|\bThe following packages have unmet dependencies\b|Could not find a package"
            r" configuration file provided by \"(?P<pkg2>[^\"]+)\"|\bPackage (?P<pkg3>[\w.+\-]+) was not found in the"
            r" pkg-config search path",
            0.84,
            flags=0,
        ),
        # an OpenMMLab registry with no entry of the name a config asks for (mmcv/utils/registry.py: "x is not in the
        # models registry"; mmengine/registry/build_functions.py: "x is not in the mmdet::model registry. Please check
        # whether the value of `x` is correct or it was registered as expected"): maintainers' answer is nearly
        # always the package that registers it (installed from its source, another version, or never imported)
        pat(r"\b(?P<reg>[\w.]+) is not in the (?:[\w.]+::)?\w+ registry\b", 0.76),
        # the same for other registries an ML library builds its names from: fvcore/detectron2 ("No object named 'x'
        # found in 'BACKBONE' registry!"), gym and gymnasium environments ("No registered env with id: x", NameNotFound
        # "Environment `x` doesn't exist.": the package that registers them, Atari's or MuJoCo's, is not installed or
        # imported). (timm's create_model "Unknown model (x)" is validation_error's: real runs misspelled the name.)
        pat(
            r"No object named '(?P<reg>[^']+)' found in '[^']+' registry|No registered env with id: (?P<reg3>\S+)"
            r"|NameNotFound: Environment `?(?P<reg4>[\w\-/]+)`? doesn't exist",
            0.76,
        ),
        # a library telling that a name moved to another package (pydantic 2: "`BaseSettings` has been moved to the
        # `pydantic-settings` package"), or that a release removed a name (Lightning 2.0 dropped the Trainer's
        # argparse helpers add_argparse_args, from_argparse_args and parse_argparser: "type object 'Trainer' has no
        # attribute 'add_argparse_args'"). (torch 2.6's "we changed the default value of the `weights_only` argument"
        # is user_code_error's: the fix is the torch.load call; 5 of 6 dev cases say so)
        pat(
            r"(?P<rel>\bhas been moved to the `?[\w.\-]+`? package\b"
            r"|type object 'Trainer' has no attribute '(?:add_argparse_args|from_argparse_args|parse_argparser)')",
            0.8,
            flags=0,
        ),
        # PyYAML 6 made yaml.load's Loader argument required ("load() missing 1 required positional argument:
        # 'Loader'"): code written for PyYAML 5; an `X | None` annotation evaluated by Python < 3.10 ("unsupported
        # operand type(s) for |: 'type' and 'NoneType'"): the interpreter is older than the code
        pat(r"(?P<rel>\bload\(\) missing 1 required positional argument: 'Loader')", 0.82, flags=0),
        pat(
            r"(?P<py>unsupported operand type\(s\) for \|: '(?:type|types\.GenericAlias|_GenericAlias)' and '\w+')",
            0.8,
            flags=0,
        ),
        # the stopping exception says the name the code uses was removed in a release of the library ("`np.NaN` was
        # removed in the NumPy 2.0 release"): the code was written for another version
        pat(
            r"^(?:\w+\.)*[A-Z]\w*(?:Error|Exception): .*?(?P<rel>\b(?:was|were|has been|have been) (?:removed|renamed)\b"
            r".{0,40}?\b(?:in|since|as of|from)\b.{0,30}?(?:\bv?\d+\.\d+|\bversion\b|\brelease\b)|\bis no longer "
            r"(?:supported|available)\b.{0,30}?\b(?:in|since|as of)\b.{0,30}?(?:\bv?\d+\.\d+|\bversion\b|\brelease\b))",
            0.8,
            flags=0,
        ),
        # protobuf's runtime refusing code generated for another protobuf release (google/protobuf/descriptor.py:
        # "Descriptors cannot be created directly. If this call came from a _pb2.py file, your generated code is out
        # of date and must be regenerated with protoc >= 3.19.0.")
        pat(r"Descriptors cannot (?:not )?be created directly", 0.84),
        # pip could not build a package from source (no wheel for this Python/platform, a compiler or header missing)
        # (pip/_internal: "Failed building wheel for x", "Could not build wheels for x, which is required to install
        # pyproject.toml-based projects", "Failed to build installable wheels", "subprocess-exited-with-error")
        pat(
            r"Failed building wheel for (?P<build>[\w.\-]+)|Could not build wheels for (?P<build2>[\w.\-]+)"
            r"|Failed to build installable wheels|^(?:ERROR: |error: )?subprocess-exited-with-error"
            r"|Getting requirements to build wheel did not run successfully",
            0.82,
        ),
        # pip's interpreter check ("Package 'x' requires a different Python: 3.7.3 not in '>=3.8'")
        pat(r"Package '(?P<pkg>[\w.\-]+)' requires a different Python", 0.86),
        # a lazily imported library module failed to import: transformers' "Failed to import transformers.x because
        # of the following error (look up to see its traceback)"; its checkpoint or tokenizer needs a newer release
        # ("… has model type `qwen2` but Transformers does not recognize this architecture", "Tokenizer class X
        # does not exist or is not currently imported.")
        pat(r"Failed to import [\w.]+ because of the following error", 0.78),
        pat(r"Transformers does not recognize this architecture|your version of Transformers is out of date", 0.84),
        pat(r"Tokenizer class \w+ does not exist or is not currently imported", 0.82),
        # a reader older than the file it was given (the file is there: its format came in a later release of the
        # reader, so no path fixes it): llama.cpp's loader, also under Ollama and llama-cpp-python ("error loading model
        # architecture: unknown model architecture: 'gemma2'"), Ollama's own ("The model you are attempting to pull
        # requires a newer version of Ollama"), Hugging Face datasets reading data written by a newer datasets
        # ("Feature type 'List' not found. Available feature types: [...]")
        pat(
            r"(?P<newer>unknown model architecture: '[\w.\-]+'|requires a newer version of \w+"
            r"|Feature type '\w+' not found)",
            0.86,
        ),
        # ... and pickle loading an object that names a function or class the installed release of its library does
        # not have ("AttributeError: Can't get attribute '_rebuild_tensor_v2' on <module 'torch._utils' from
        # '…/site-packages/torch/_utils.py'>": the file was saved by a newer torch); a module of the project's own
        # code there (a class pickled from __main__) is the code's
        pat(
            r"Can't get attribute '\w+' on <module '(?P<pickled>[\w.]+)' from '[^']*[/\\](?:site|dist)-packages[/\\]",
            0.8,
        ),
        # pickle (torch.load) reading a Git LFS pointer in place of the file: its first byte is the 'v' of "version
        # https://git-lfs.github.com/spec/v1", left by a clone made without git-lfs; installing git-lfs and running
        # `git lfs pull` fetches the real file
        pat(r"UnpicklingError: invalid load key, 'v'", 0.74),
        # a checkpoint saved by an older transformers, which kept the position_ids buffer in the state dict (4.31 made
        # it non-persistent): loading it strictly finds them unexpected; the transformers version is what differs
        pat(r"Unexpected key\(s\) in state_dict: .{0,2000}?\bembeddings\.position_ids\b", 0.76),
        # Hydra's own config schema refusing a key the project's config sets under hydra: ("Key 'chdir' not in
        # 'JobConf'", "Key 'name' not in 'HydraConf'"): the key belongs to another hydra-core version than the one
        # installed (hydra.job.chdir came in 1.2, hydra.name left in 1.0), so the version is what to change
        pat(r"^\s*Key '\w+' not in '(?:HydraConf|JobConf|RuntimeConf|OverridesConf|RunDir|SweepDir|HelpConf)'", 0.74),
        # torch on Windows failing to load one of its own DLLs ('Error loading "...\torch\lib\fbgemm.dll" or one of its
        # dependencies.', torch/__init__.py): a runtime it links against (the MSVC/OpenMP redistributable) is absent
        pat(r'Error loading "[^"\n]+\.dll\b', 0.8),
        # a bundled C++/CUDA extension that no longer compiles against the installed torch: the name it lacks is one
        # of torch's own C++ APIs ("dcn_v2_cpu.cpp:224:9: error: 'THFloatBlas_gemv' was not declared in this scope":
        # the TH library went in torch 1.11; "'AT_CHECK' was not declared", "'THCState' has not been declared",
        # "'getCurrentCUDAStream' is not a member of 'at::cuda'"); a name of the program's own is its code's
        pat(
            r"\.(?:cpp|cc|cu|cuh|h|hpp):\d+:\d+: error: [‘'](?:THC?\w*|AT_\w+|at::\w+|c10::\w+|torch::\w+)[’']"
            r" (?:was not declared in this scope|has not been declared)"
            r"|\.(?:cpp|cc|cu|cuh|h|hpp):\d+:\d+: error: [‘']\w+[’'] is not a member of [‘'](?:at|c10|torch|THC?)\b",
            0.74,
        ),
        # TorchScript asked for a class a native extension registers (torch/csrc/jit: "Tried to instantiate class
        # '_core_C.ScalarType', but it does not exist! Ensure that it is registered via torch::class_"): the
        # extension's shared library did not load, built for another torch or missing a library it links against
        pat(r"Tried to instantiate class '(?P<ext>[\w.]+)', but it does not exist", 0.84),
        # torch.compile's Inductor without a usable Triton (torch/_inductor/exc.py TritonMissing: "Cannot find a working
        # triton installation. Either the package is not installed or it is too old."); the class name ends in neither
        # Error nor Exception, so the exception table does not see it
        pat(r"\b(?P<pkg>Triton)Missing\b(?::|$)", 0.86),
        # torch built against NumPy 1 running with NumPy 2 (torch/csrc/utils/tensor_numpy.cpp)
        pat(r"^(?:\w+\.)*RuntimeError: Numpy is not available\b", 0.82),
        # shared libraries named by the loaders that look for them: cuDNN's ("Could not load library
        # libcudnn_cnn_train.so.8. Error: …", "Please make sure libcudnn_cnn_train.so.8 is in your library path!",
        # "Could not locate zlibwapi.dll"), CTranslate2's ("Unable to load any of {libcudnn_ops.so.9.1.0, …}"),
        # CPython's ctypes on Windows ("Could not find module 'x.dll' (or one of its dependencies)")
        pat(
            r"Could not (?:load library|locate) (?P<lib>[\w.\-+]+\.(?:so|dll)[\w.]*)"
            r"|Please make sure (?P<lib2>[\w.\-+]+\.(?:so|dll)[\w.]*) is in your library path"
            r"|Unable to load any of \{(?P<lib3>lib[\w.\-+]+\.so)"
            # the Torch7 cuDNN bindings' loader (cudnn/ffi.lua: "libcudnn (R5) not found in library path.")
            r"|(?P<lib4>lib\w+) \(R\d+\) not found in library path",
            0.86,
        ),
        pat(r"Could not find module '[^']+\.(?:dll|pyd)' \(or one of its dependencies\)", 0.86),
        # cffi's dlopen ("OSError: cannot load library 'libsndfile.so': …"), soundfile's own check ("sndfile library
        # not found"), Qt's plugin loader on a machine without the X libraries it needs ("Could not load the Qt
        # platform plugin "xcb" in "" even though it was found.")
        pat(r"cannot load library '(?P<lib>[^']+)'|\bsndfile library not found\b", 0.84),
        # a binding that looks for its native library at a fixed place (dm_control's "Cannot find MuJoCo library at
        # ~/.mujoco/mujoco200_linux/bin/libmujoco200.so"): the library is not installed there
        pat(r"\bCannot find (?P<lib>[\w.+-]+) library at \S+", 0.84),
        # mujoco-py's own check that MuJoCo's binaries are not on the library path ("Missing path to your environment
        # variable. Current values LD_LIBRARY_PATH= … Please add following line to .bashrc: export
        # LD_LIBRARY_PATH=$LD_LIBRARY_PATH:~/.mujoco/mujoco210/bin")
        pat(r"^\s*Missing path to your environment variable\.?\s*$", 0.82, flags=0),
        # a compiled extension (pybind11) called with arguments its build does not take ("TypeError:
        # causal_conv1d_fwd(): incompatible function arguments. The following argument types are supported:"): the
        # extension and the code calling it come from different releases (causal-conv1d built for another mamba-ssm)
        pat(
            r"^(?:\w+\.)*TypeError: [\w.]+\(\): incompatible function arguments\. The following argument types are "
            r"supported",
            0.74,
            flags=0,
        ),
        # a framework's own dynamic loader (Paddle's dynload: "Cannot load cudnn shared library. Cannot invoke method
        # cudnnGetVersion", "[Hint: cudnn_dso_handle should not be null.]"): the GPU library is not installed or not
        # on the library path
        pat(r"\bCannot load (?P<lib>\w+) shared library\b|\b(?P<lib2>\w+)_dso_handle should not be null", 0.88),
        pat(r'Could not load the Qt platform plugin "\w+"', 0.8),
        # an ImportError that asks for a package in other words ("ImportError: Please install the sentencepiece
        # library", bitsandbytes' "CUDA Setup failed despite GPU being available. Please run the following command to
        # get more information: python -m bitsandbytes")
        pat(r"^(?:\w+\.)*ImportError: .{0,200}\b[Pp]lease install\b", 0.84),
        # a library naming the package a feature needs (transformers converting a slow tokenizer: "You need to have
        # sentencepiece installed to convert a slow tokenizer to a fast one.")
        pat(r"\bYou need to have (?P<pkg>[A-Za-z][\w.-]*) installed\b", 0.84),
        pat(r"CUDA Setup failed despite GPU being available", 0.84),
        # data packages installed separately from their library: spaCy's models ("[E050] Can't find model
        # 'en_core_web_sm'. It doesn't seem to be a Python package or a valid path to a data directory."), NLTK's
        # resources ("Resource punkt not found. Please use the NLTK Downloader to obtain the resource")
        pat(r"Can't find model '(?P<pkg>[\w.\-]+)'\. It doesn't seem to be a Python package", 0.88),
        pat(r"Please use the NLTK Downloader to obtain the resource", 0.86),
        # R's library() ("there is no package called 'x'"); the linker and nvcc when a library or the toolkit's
        # support for the GPU is not there ("/usr/bin/ld: cannot find -lcuda", "nvcc fatal   : Unsupported gpu
        # architecture 'compute_89'"); pip unable to replace a package the OS installed
        pat(r"there is no package called ['‘](?P<pkg>[\w.]+)['’]", 0.9),
        pat(r"\bld(?:\.\w+)?: cannot find -l(?P<lib>[\w.+\-]+)", 0.86),
        pat(r"nvcc fatal\s*: Unsupported gpu architecture", 0.82),
        # building a CUDA/C++ extension with a toolchain the CUDA toolkit or torch does not support (crt/host_config.h:
        # "#error -- unsupported GNU version! gcc versions later than 12 are not supported!"; torch.utils.cpp_extension:
        # "The current installed version of g++ (…) is less than the minimum required version by CUDA", and its
        # summary of a failed build, "Error compiling objects for extension")
        pat(r"unsupported (?:GNU|clang|Microsoft Visual Studio) version!", 0.86),
        pat(r"The current installed version of \S+ \([\d.]+\) is (?:less|greater) than the (?:minimum|maximum)", 0.84),
        pat(r"Error compiling objects for extension", 0.78),
        pat(r"Cannot uninstall '?[\w.\-]+'?\. It is a distutils installed project", 0.82),
        # Windows' loader: a DLL's own initialisation failed (WinError 1114, a missing runtime) or it was built for
        # another architecture (WinError 193)
        pat(r"\[WinError (?:1114|193)\]", 0.8),
        # a GPU library older than the one a framework was built against (JAX's backend check: "Unable to initialize
        # backend 'cuda': Found cuSOLVER version 11002, but JAX was built against version 11401, which is newer")
        pat(r"Found \w+ version [\d.]+, but \w+ was built against version [\d.]+", 0.84),
        pat(r"(?:Please|you need to) (?:run )?`?pip install (?P<pkg>[\w\-\[\]]+)", 0.7),
        pat(r"is not installed\. Please install", 0.75),
        # transformers' own checks: a pinned dependency version, and packages a remote modeling file imports
        pat(r"(?P<pkg>[\w\-]+)[<>=!~]=?[\w.]+ is required for a normal functioning of this module", 0.88),
        pat(r"requires the following packages that were not found in your environment: (?P<pkg>[\w\-]+)", 0.9),
        # the dynamic linker: a binary built against a newer C/C++ runtime than the image has
        # (``version `GLIBCXX_3.4.29' not found (required by …)``), or against another release of any versioned
        # library (OpenMP's ``version `GOMP_4.0' not found (required by /usr/lib/…/libsox.so.2)``)
        pat(
            r"version [`'](?P<lib>(?:GLIBC|GLIBCXX|CXXABI)_[\d.]+)' not found"
            r"|version [`'](?P<lib2>[A-Z][A-Za-z]*_[\d.]+)' not found \(required by ",
            0.88,
        ),
        # NumPy's ABI checks: an extension built against another NumPy major version than the one installed
        pat(
            r"compiled using NumPy 1\.x cannot be run in|numpy\.dtype size changed, may indicate binary incompatibility"
            r"|module compiled against (?:API|ABI) version \w+ but this version of numpy is"
            r"|numpy\.core\.multiarray failed to import|_ARRAY_API not found",
            0.86,
        ),
        # torchvision's compiled ops do not match the installed torch
        pat(
            r"operator torchvision::\w+ does not exist|were compiled with different CUDA (?:major )?versions"
            r"|Couldn't load custom C\+\+ ops",
            0.86,
        ),
        # torch.utils.cpp_extension: the CUDA toolkit that would build the extension is not the one torch was built with
        pat(r"The detected CUDA version \([\d.]+\) mismatches the version that was used to compile PyTorch", 0.86),
        # a package built without GPU support was installed where the GPU build is needed (pip's CPU wheel of torch)
        pat(
            r"Torch not compiled with CUDA enabled"
            r"|installed version of (?P<pkg>bitsandbytes) was compiled without GPU support",
            0.86,
        ),
        # the Java runtime older than the class files a library ships (Pyserini's Anserini jars via pyjnius, Spark):
        # the JVM's UnsupportedClassVersionError, "compiled by a more recent version of the Java Runtime (class file
        # version 55.0)": a newer JDK is the remedy, not a code change
        pat(
            r"has been compiled by a more recent version of the Java Runtime|\bUnsupportedClassVersionError\b",
            0.88,
        ),
        # Atari game ROMs no longer ship with atari-py/ale-py releases (atari-py's games.py: "ROM is missing for pong,
        # see https://github.com/openai/atari-py#roms"; ale-py: 'Unable to find game "Pong", did you import Pong with
        # ale-import-roms?'): they are installed separately (AutoROM, gym[accept-rom-license])
        pat(r"\bROM is missing for \w+|Unable to find game \S+, did you import", 0.88),
        # an ImportError that names its own remedy (transformers/accelerate/diffusers' availability checks)
        pat(r"^(?:\w+\.)*ImportError: .{0,300}(?:`?pip install|seems (?:to be )?not installed|is not installed)", 0.86),
        # ... or any stopping exception that says it needs a package and how to install it ("ValueError: Using a
        # `device_map` requires Accelerate: `pip install accelerate`"): the value check of a setting (validation_error)
        # reads "requires" too, this names what to install
        pat(
            r"^(?:\w+\.)*[A-Z]\w*(?:Error|Exception): .{0,300}\b(?i:requires?|needs?|install(?:ed)?)\b.{0,120}`?pip3? "
            r"install (?:-U |--upgrade )?['\"]?(?P<pkg>[\w\-\[\]]+)",
            0.8,
            flags=0,
        ),
        # ... or one that states the release it needs ("ValueError: FSDP requires PyTorch >= 2.1.0", "AssertionError: …
        # MMCV==1.7.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.1.0"): a dotted version bound after a
        # package name is a release to install (a setting's bound, "requires num_gpus >= 2", has no dot; the hardware's,
        # CUDA or a GPU's compute capability, is not a package)
        pat(
            r"^(?:\w+\.)*[A-Z]\w*(?:Error|Exception): .{0,300}\b(?:requires?|[Pp]lease (?:install|upgrade(?: to)?))\s+`?"
            r"(?!(?i:cuda|gpu|compute|driver|python)\b)(?P<pkg>[A-Za-z][\w\-]*)`?\s*(?:version\s*)?(?:>=|==|>|~=)\s*v?\d+\.\d",
            0.78,
            flags=0,
        ),
        # conda/mamba's solver
        pat(r"(?:LibMamba)?UnsatisfiableError|found to be incompatible with each other", 0.84),
        # conda's libmamba solver's headline for the same ("Could not solve for environment specs", then "The
        # following packages are incompatible"; conda-libmamba-solver's LibMambaUnsatisfiableError) and
        # transformers' require_version check (transformers/utils/versions.py: "<req> is required for a normal
        # functioning of this module, but found <pkg>==<version>.")
        pat(
            r"Could not solve for environment specs|is required for a normal functioning of this module, but found "
            r"[\w.-]+==",
            0.86,
        ),
        # building a C/C++ extension: the compiler, or a header of a -dev package, is not in the image
        pat(r"fatal error: (?P<lib>[\w./+-]+\.(?:h|hpp|hh|cuh)): No such file or directory", 0.88),
        pat(r"(?:error: command|unable to execute) '(?P<bin>[\w./+-]+)'(?: failed)?: No such file or directory", 0.88),
        # env(1) cannot find the interpreter a script's shebang names (``/usr/bin/env: 'python': No such file``)
        pat(r"/usr/bin/env: ['‘\"]?(?P<bin>[\w.+-]+)['’\"]?: No such file or directory", 0.9),
        # torch.utils.cpp_extension and MSVC builds: the build tool or compiler is not installed
        pat(r"Ninja is required to load C\+\+ extensions|Microsoft Visual C\+\+ [\d.]+ or greater is required", 0.88),
        # pkg_resources: an installed distribution's version does not satisfy a requirement
        pat(r"(?:Contextual)?VersionConflict\b", 0.84),
        # Windows' loader: a DLL (or one it depends on) is missing
        # (the code alone: Windows words its messages in the system's language, "[WinError 126] 找不到指定的模块。")
        pat(r"\[WinError 126\]", 0.82),
        # importlib.metadata's PackageNotFoundError, whose message CPython words "No package metadata was found for
        # {name}" (Lib/importlib/metadata/__init__.py): a program that logs the message alone, without the class
        pat(r"\bNo package metadata was found for (?P<pkg>[\w.\-]+)", 0.84, flags=0),
        # torch.utils.cpp_extension compiling an op at first use (DeepSpeed's cpu_adam, fused kernels): "Error building
        # extension 'cpu_adam'" means the compiler, the CUDA toolkit or headers the build needs are not what is
        # installed; the fix is the build environment or a prebuilt wheel, not the program
        pat(r"\bError building extension '(?P<pkg>[\w.\-]+)'", 0.74, flags=0),
    ),
    # a version check the framework logs at info or warning level before it carries on without the GPU
    warning_patterns=(pat(r"Found \w+ version [\d.]+, but \w+ was built against version [\d.]+", 0.8),),
    applies=("failed", "running"),
    # 127 is the shell's 'command not found', even when the line that said so was cut off
    exit_codes=(
        exits(
            127,
            strength=0.62,
            explanation="The task exited with code 127: the shell could not find a command the script runs.",
            fix_description="Install the missing program at the top of the entry script (apt-get/apk/dnf), or use "
            "a base image that includes it.",
        ),
    ),
    rules=(
        FunctionRule("program_not_installed", _program_not_installed),
        FunctionRule("installed_module_lacks", _installed_module_lacks),
        FunctionRule("installed_code_fails", _installed_code_fails),
        FunctionRule("model_type_unknown", _model_type_unknown),
        FunctionRule("decode_on_text", _decode_on_text),
    ),
    fixer=fix_dependency,
    recovered=_caught_optional_import,
    # (its exception classes, ModuleNotFoundError, PackageNotFoundError, UnsatisfiedLinkError…, are rows of the
    # documented table, diagnosis/formats/exceptions.py)
    # a traceback that ends (or is cut off) inside a library's check of the packages it needs: transformers'
    # require_version/require_version_core (transformers/utils/versions.py), dep_version_check
    # (transformers/dependency_versions_check.py), requires_backends (transformers/utils/import_utils.py),
    # check_min_version (transformers/utils, diffusers/utils), and any check_/verify_/ensure_ function named for
    # dependencies, requirements or versions (LLaMA-Factory's extras/misc.py check_dependencies)
    frame_functions=r"require_version(?:_core)?|dep_version_check|requires_backends|check_min_version"
    r"|_*(?:check|verify|ensure)_\w*(?:dependenc|requirement|min_version|package_version)\w*",
    root_words=ROOT_WORDS,
)
