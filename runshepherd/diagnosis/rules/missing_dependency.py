"""Missing Python modules, missing binaries (exit 127), missing shared libraries."""

from __future__ import annotations

import re

from runshepherd.diagnosis.fixes import fix_dependency
from runshepherd.diagnosis.rules.base import pat
from runshepherd.diagnosis.rules.family import exits, family

# Diagnosis does not know where the task ran (a container image on OSMO, the machine itself on local/Slurm),
# so the wording names both rather than guessing.
WHERE = "where the task runs (its container image, or the machine itself)"


def _explain(m: re.Match[str]) -> str:
    d = m.groupdict()
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
    d = m.groupdict()
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


FAMILY = family(
    "missing_dependency",
    origin="user",
    fix_kind="add_dependency",
    explanation=_explain,
    fix_description=_fix,
    patterns=(
        pat(r"ModuleNotFoundError: No module named '(?P<mod>[\w.]+)'", 0.9),
        pat(r"ImportError: No module named '?(?P<mod>[\w.]+)'?", 0.9),
        # (a name that starts with '-' is an option the shell ran as a command: a broken script, validation_error)
        pat(r"(?<![\w.+\-/])(?P<bin>[\w./+][\w.+\-/]*): command not found", 0.9),
        pat(r"^(?:/bin/(?:ba)?sh|sh|bash): (?:\d+: |line \d+: )?(?P<bin>[\w.+\-/]+): not found", 0.9),
        pat(r'exec: "?(?P<bin>[\w.+\-/]+)"?: executable file not found in \$PATH', 0.9),
        pat(r"executable file not found in \$PATH", 0.88),
        # a shared library of a package (libcudart.so.12 is the CUDA runtime a wheel ships; only the driver's
        # libcuda.so / libnvidia-* belong to the node)
        pat(r"error while loading shared libraries: (?P<lib>(?!libcuda\.so|libnvidia)lib[\w.\-+]+): cannot open", 0.87),
        pat(r"(?P<lib>(?!libcuda\.so|libnvidia)lib[\w.\-+]+): cannot open shared object file", 0.87),
        pat(r"undefined symbol: \w+|DLL load failed", 0.8),
        # building a CUDA extension needs the CUDA toolkit (nvcc), not just the driver
        pat(r"CUDA_HOME (?:does not exist|environment variable is not set)|MissingCUDAException", 0.86),
        # versions of two packages that must match (jaxlib/jax, torch/torchvision, CUDA builds of a wheel)
        pat(
            r"(?P<pkg>jaxlib|torchvision|torchaudio|tensorflow|numpy|transformers|flash[_-]attn|xformers)\b[^\n]{0,80}"
            r"\b(?:is )?(?:incompatible|not compatible) with\b|version mismatch|was compiled against .{0,40} but",
            0.86,
        ),
        pat(r"No module named '?(?P<mod>[\w.]+)'?", 0.88),
        pat(r"requires the (?P<pkg>[\w\- ]+?) library but it was not found in your environment", 0.88),
        pat(r"DistributionNotFound|Packages?NotFoundError|ResolvePackageNotFound", 0.84),
        # pip's resolver: the pinned versions cannot be installed together
        pat(r"ResolutionImpossible|because these package versions have conflicting dependencies", 0.86),
        pat(r"Could not find a version that satisfies the requirement (?P<pkg>\S+)", 0.84),
        pat(r"No matching distribution found for (?P<pkg>\S+)", 0.84),
        pat(r"ImportError: cannot import name '(?P<name>\w+)'", 0.8),
        pat(r"(?:Please|you need to) (?:run )?`?pip install (?P<pkg>[\w\-\[\]]+)", 0.7),
        pat(r"is not installed\. Please install", 0.75),
        # transformers' own checks: a pinned dependency version, and packages a remote modeling file imports
        pat(r"(?P<pkg>[\w\-]+)[<>=!~]=?[\w.]+ is required for a normal functioning of this module", 0.88),
        pat(r"requires the following packages that were not found in your environment: (?P<pkg>[\w\-]+)", 0.9),
        # the dynamic linker: a binary built against a newer C/C++ runtime than the image has
        # (``version `GLIBCXX_3.4.29' not found (required by …)``)
        pat(r"version [`'](?P<lib>(?:GLIBC|GLIBCXX|CXXABI)_[\d.]+)' not found", 0.88),
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
        # an ImportError that names its own remedy (transformers/accelerate/diffusers' availability checks)
        pat(r"^(?:\w+\.)*ImportError: .{0,300}(?:`?pip install|seems (?:to be )?not installed|is not installed)", 0.86),
        # conda/mamba's solver
        pat(r"(?:LibMamba)?UnsatisfiableError|found to be incompatible with each other", 0.84),
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
        pat(r"\[WinError 126\] The specified module could not be found", 0.82),
    ),
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
    fixer=fix_dependency,
    exceptions=r"^(?:\w+\.)*(?:ModuleNotFoundError|PackageNotFoundError|DistributionNotFound)$",
)
