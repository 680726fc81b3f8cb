"""The missing_dependency family: real DEV-split cases (verbatim excerpts from public threads) and its edge cases."""

from __future__ import annotations

import pytest

from runshepherd.diagnosis import diagnose_log_text

from .real import assert_read_as, diagnose_dev, read_by_rules, root_line_cases, rules_dev

TB = 'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    main()\n'


@pytest.mark.parametrize("case_id", ["a-0020", "a-0051", "a-0166"])
def test_real_dev_cases(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"


def test_package_version_incompatibility_is_a_dependency_to_pin() -> None:
    log = "RuntimeError: jaxlib version 0.4.1 is newer than and incompatible with jax version 0.3.25.\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")


@pytest.mark.parametrize(
    "log",
    [
        # the dynamic linker (ld.so): a binary built against a newer glibc/libstdc++ than the image has
        "ImportError: /usr/lib/x86_64-linux-gnu/libstdc++.so.6: version `GLIBCXX_3.4.29' not found (required by "
        "/opt/conda/lib/python3.10/site-packages/x.so)\n",
        "OSError: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.32' not found (required by ./x.so)\n",
        # NumPy's ABI checks (numpy/core/include/numpy/__multiarray_api.h, NumPy 2's migration notice)
        "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash.\n",
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got "
        "88 from PyObject\n",
        "RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe\n",
        # torchvision's C++ ops built for another torch (torchvision/extension.py)
        "RuntimeError: operator torchvision::nms does not exist\n",
        "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major versions. "
        "PyTorch has CUDA Version=11.8 and torchvision has CUDA Version=12.1.\n",
        # torch.utils.cpp_extension building against a CUDA toolkit other than torch's
        "RuntimeError: The detected CUDA version (12.1) mismatches the version that was used to compile PyTorch "
        "(11.8). Please make sure to use the same CUDA versions.\n",
        # an ImportError that names its own remedy (transformers' availability checks)
        "ImportError: Using `bitsandbytes` 8-bit quantization requires Accelerate: `pip install accelerate`\n",
        "ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the "
        "package flash_attn seems to be not installed.\n",
        # conda's solver; gcc and setuptools when the compiler or a -dev header is not in the image
        "UnsatisfiableError: The following specifications were found to be incompatible with each other:\n",
        "x.c:1:10: fatal error: Python.h: No such file or directory\n",
        "error: command 'gcc' failed: No such file or directory\n",
    ],
)
def test_binary_and_version_incompatibilities_are_dependencies(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log


def test_a_cpu_only_build_of_torch_is_a_package_to_reinstall() -> None:
    d, _, record = diagnose_dev("a-0097")  # "Torch not compiled with CUDA enabled": pip gave the CPU wheel
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("missing_dependency", "add_dependency")


@pytest.mark.parametrize(
    "log",
    [
        "/usr/bin/env: 'python': No such file or directory\n",  # coreutils env(1): the shebang's interpreter
        "RuntimeError: Ninja is required to load C++ extensions\n",  # torch.utils.cpp_extension
        "pkg_resources.ContextualVersionConflict: (tokenizers 0.15.0, Requirement.parse('tokenizers<0.14'))\n",
    ],
)
def test_build_tools_interpreters_and_version_conflicts(log: str) -> None:
    assert diagnose_log_text(log).label == "missing_dependency", log


def test_the_interpreter_env_cannot_find_is_named() -> None:
    d = diagnose_log_text("/usr/bin/env: 'python': No such file or directory\n")
    assert "'python'" in d.explanation


@pytest.mark.parametrize(
    "log",
    [
        "bash: line 1: torchrun-missing: command not found\n",
        "ModuleNotFoundError: No module named 'einops'\n",
        "ImportError: libcudnn.so.8: cannot open shared object file: No such file or directory\n",
    ],
)
def test_the_explanation_does_not_claim_a_container_image(log: str) -> None:
    # A local or Slurm task runs on the machine itself: the diagnosis cannot know which, so it names both places.
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency"
    assert "where the task runs (its container image, or the machine itself)" in d.explanation


@pytest.mark.parametrize("case_id", ["l-0019", "l-0034"])
def test_a_gpu_library_older_than_the_build_or_one_its_loader_cannot_find(case_id: str) -> None:
    """JAX's backend check logged at info level ("Found cuSOLVER version 11002, but JAX was built against version
    11401"), cuDNN's loader ("Could not load library libcudnn_cnn_train.so.8 … Please make sure … is in your library
    path!")."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency" and d.fix.kind == "add_dependency"


@pytest.mark.parametrize(
    ("log", "named"),
    [
        # zsh and fish name the shell first and the command last
        ("zsh: command not found: torchrun\n", "torchrun"),
        # cmd.exe and PowerShell
        ("'python' is not recognized as an internal or external command,\noperable program or batch file.\n", "python"),
        (
            "conda : The term 'conda' is not recognized as the name of a cmdlet, function, script file, or operable "
            "program.\n",
            "conda",
        ),
    ],
)
def test_a_missing_program_in_other_shells_words(log: str, named: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and f"'{named}'" in d.explanation


@pytest.mark.parametrize(
    "log",
    [
        # pip building from source (pip/_internal's messages)
        "  error: subprocess-exited-with-error\n\n  × Building wheel for flash-attn (setup.py) did not run "
        "successfully.\n  ERROR: Failed building wheel for flash-attn\n",
        "ERROR: Could not build wheels for tokenizers, which is required to install pyproject.toml-based projects\n",
        "ERROR: Package 'transformers' requires a different Python: 3.7.3 not in '>=3.8.0'\n",
        # transformers too old for the checkpoint (models/auto: configuration_auto.py, tokenization_auto.py)
        "ValueError: The checkpoint you are trying to load has model type `qwen2` but Transformers does not recognize "
        "this architecture. This could be because of an issue with the checkpoint, or because your version of "
        "Transformers is out of date.\n",
        "ValueError: Tokenizer class LlamaTokenizer does not exist or is not currently imported.\n",
        "RuntimeError: Failed to import transformers.trainer because of the following error (look up to see its "
        "traceback):\ncannot import name 'x' from 'y'\n",
        # torch built against NumPy 1 with NumPy 2 installed (torch/csrc/utils/tensor_numpy.cpp)
        "RuntimeError: Numpy is not available\n",
        # CPython's ctypes on Windows, the Windows loader
        "FileNotFoundError: Could not find module 'C:\\Python\\Lib\\site-packages\\x\\lib\\x.dll' (or one of its "
        "dependencies). Try using the full path with constructor syntax.\n",
        'OSError: [WinError 1114] A dynamic link library (DLL) initialization routine failed. Error loading "c10.dll"\n',
        # CTranslate2 looking for cuDNN
        "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, libcudnn_ops.so.9, libcudnn_ops.so}\n",
    ],
)
def test_packages_that_could_not_be_installed_or_are_the_wrong_release(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")


def test_a_library_module_without_a_name_the_code_uses_is_a_release_to_pin() -> None:
    d = diagnose_log_text("AttributeError: module 'numpy' has no attribute 'float'.\n")
    assert d.label == "missing_dependency" and "installed version of 'numpy'" in d.explanation
    assert d.confidence < 0.8  # a bare exception of the user's code reads the same line: not a sure verdict


@pytest.mark.parametrize(
    "log",
    [
        "AttributeError: module 'dynamicmemory.DynamicMemoryModel' has no attribute 'trained_model'\n",
        "AttributeError: partially initialized module 'torch' has no attribute 'nn' (most likely due to a circular "
        "import)\n",
        "ImportError: cannot import name 'Net' from partially initialized module 'models' (most likely due to a "
        "circular import) (/home/u/proj/models.py)\n",
        # CPython names the module's file ("cannot import name %R from %R (%S)", Python/ceval.c import_from): one of
        # the project's own files, outside site-packages and the standard library, lacks the name
        "ImportError: cannot import name 'update_fn' from 'helpers' (/home/u/proj/helpers.py)\n",
    ],
)
def test_the_users_own_modules_and_circular_imports_stay_code_errors(log: str) -> None:
    assert read_by_rules(log).label == "user_code_error"


@pytest.mark.parametrize(
    "where",
    [
        "/opt/conda/lib/python3.10/site-packages/markupsafe/__init__.py",  # an installed release
        "/usr/lib/python3.10/collections/__init__.py",  # the standard library of another Python
        "C:\\Python310\\Lib\\site-packages\\markupsafe\\__init__.py",
        # a project's package __init__ re-exporting names behind an import that failed quietly
        "/home/u/LLaVA/llava/model/__init__.py",
        "unknown location",
    ],
)
def test_a_name_missing_from_an_installed_module_is_a_release_to_pin(where: str) -> None:
    d = diagnose_log_text(f"ImportError: cannot import name 'soft_unicode' from 'markupsafe' ({where})\n")
    assert d.label == "missing_dependency"


@pytest.mark.parametrize(
    "log",
    [
        # CPython's subprocess (Lib/subprocess.py _execute_child) raising for a program that is not on PATH
        'Traceback (most recent call last):\n  File "/usr/lib/python3.10/subprocess.py", line 1847, in _execute_child\n'
        "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'\n",
        '  File "C:\\Python310\\lib\\subprocess.py", line 1440, in _execute_child\n'
        "    hp, ht, pid, tid = _winapi.CreateProcess(executable, args,\n"
        "FileNotFoundError: [WinError 2] The system cannot find the file specified\n",
        # only the last line: the name is a well-known program, not a path
        "FileNotFoundError: [Errno 2] No such file or directory: 'ffmpeg'\n",
        # cffi's dlopen, Qt's platform plugin loader
        "OSError: cannot load library 'libsndfile.so': libsndfile.so: cannot open shared object file\n",
        'qt.qpa.plugin: Could not load the Qt platform plugin "xcb" in "" even though it was found.\n',
    ],
)
def test_a_program_or_library_the_code_loads_is_not_installed(log: str) -> None:
    assert diagnose_log_text(log).label == "missing_dependency"


@pytest.mark.parametrize(
    "log",
    [
        "FileNotFoundError: [Errno 2] No such file or directory: 'data'\n",
        '  File "/usr/lib/python3.10/subprocess.py", line 1847, in _execute_child\n'
        "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
        "FileNotFoundError: [Errno 2] No such file or directory: './scripts/prep.sh'\n",
    ],
)
def test_a_missing_folder_or_script_path_stays_a_path_to_fix(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found"


@pytest.mark.parametrize(
    "log",
    [
        "ImportError: Please install the sentencepiece library to use this tokenizer.\n",
        "RuntimeError:\n        CUDA Setup failed despite GPU being available. Please run the following command to get "
        "more information:\n",
        # spaCy's and NLTK's data packages (spacy/errors.py E050, nltk/data.py)
        "OSError: [E050] Can't find model 'en_core_web_sm'. It doesn't seem to be a Python package or a valid path "
        "to a data directory.\n",
        "LookupError:\n  Resource punkt not found.\n  Please use the NLTK Downloader to obtain the resource:\n",
        # R's library(), GNU ld, nvcc, pip over a distutils-installed package
        "Error in library(ggplot2) : there is no package called ‘ggplot2’\n",
        "/usr/bin/ld: cannot find -lcuda: No such file or directory\n",
        "nvcc fatal   : Unsupported gpu architecture 'compute_89'\n",
        "ERROR: Cannot uninstall 'PyYAML'. It is a distutils installed project and thus we cannot accurately "
        "determine which files belong to it which would lead to only a partial uninstall.\n",
    ],
)
def test_packages_data_and_toolchains_named_by_their_installers(log: str) -> None:
    assert diagnose_log_text(log).label == "missing_dependency"


def test_a_windows_dll_not_found_in_another_language() -> None:
    log = 'OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\\\\torch\\\\lib\\\\caffe2_nvrtc.dll" or one of its dependencies.\n'
    assert diagnose_log_text(log).label == "missing_dependency"


@pytest.mark.parametrize(
    "log",
    [
        "/usr/local/cuda/include/crt/host_config.h:132:2: error: #error -- unsupported GNU version! gcc versions "
        "later than 12 are not supported!\n",
        "RuntimeError: The current installed version of g++ (4.8.5) is less than the minimum required version by "
        "CUDA 12.1 (6.0.0). Please make sure to use an adequate version of g++ (>=6.0.0, <=12.0).\n",
        "RuntimeError: Error compiling objects for extension\n",
    ],
)
def test_an_extension_build_with_a_toolchain_cuda_does_not_support(log: str) -> None:
    assert diagnose_log_text(log).label == "missing_dependency"


def test_a_wheel_pip_could_not_build_is_explained_as_a_build_failure() -> None:
    log = "ERROR: Could not build wheels for tokenizers, which is required to install pyproject.toml-based projects\n"
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "could not build the package 'tokenizers'" in d.explanation


@pytest.mark.parametrize("case_id", ["s-0011", "p-0028"])
def test_a_registry_without_the_entry_and_uv_without_a_wheel(case_id: str) -> None:
    """mmcv's "'ReDet' is not in the models registry" (the package that registers it is not installed) and uv's
    "doesn't have a source distribution or wheel for the current platform": something to install or pin."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency" and d.fix.kind == "add_dependency"


@pytest.mark.parametrize(
    "log",
    [
        # uv's resolver (astral-sh/uv resolver errors, as uv prints them)
        "  × No solution found when resolving dependencies:\n  ╰─▶ Because flash-attn2 was not found in the package "
        "registry and you require flash-attn2, we can conclude that your requirements are unsatisfiable.\n",
        "  × Failed to build `flash-attn==2.5.8`\n  ├─▶ The build backend returned an error\n",
        # mmengine's registry (mmengine/registry/build_functions.py)
        "KeyError: 'CoDETR is not in the mmdet::model registry. Please check whether the value of `CoDETR` is correct "
        "or it was registered as expected. More details can be found at https://mmengine.readthedocs.io/en/latest/"
        "advanced_tutorials/config.html#import-the-custom-module'\n",
        # protobuf's runtime refusing generated code of another release (google/protobuf/descriptor.py)
        "TypeError: Descriptors cannot be created directly.\nIf this call came from a _pb2.py file, your generated "
        "code is out of date and must be regenerated with protoc >= 3.19.0.\n",
    ],
)
def test_resolvers_registries_and_generated_code_of_another_release(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log


TRACEBACK_START = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    import mymodels\n'


def test_a_module_of_an_installed_package_without_the_name_is_another_release() -> None:
    """The traceback shows the module under site-packages: a library at another version, not the project's code.
    The same error in a module of the project itself stays an error in the code."""
    frame = '  File "/opt/conda/lib/python3.10/site-packages/einops/layers/torch.py", line 3, in <module>\n'
    installed = TRACEBACK_START + frame + "AttributeError: module 'einops.layers' has no attribute 'Rearrange2'\n"
    d = diagnose_log_text(installed)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "einops.layers" in d.explanation
    own = TRACEBACK_START + '  File "/home/u/proj/mymodels/net.py", line 3, in <module>\n'
    own += "AttributeError: module 'mymodels.net' has no attribute 'Rearrange2'\n"
    assert diagnose_log_text(own).label == "user_code_error"


@pytest.mark.parametrize(
    "log",
    [
        "E: Unable to locate package libgl1-mesa-glxx\n",  # apt
        "node:internal/modules/cjs/loader:1080\n  throw err;\n  ^\n\nError: Cannot find module 'express'\n",
        'Exception in thread "main" java.lang.NoClassDefFoundError: org/apache/spark/sql/SparkSession\n'
        "\tat Main.main(Main.java:5)\n",
        "/usr/bin/luajit: /usr/share/lua/5.1/trepl/init.lua:389: module 'cunn' not found:No LuaRocks module found\n",
    ],
)
def test_package_managers_and_module_loaders_of_other_runtimes(log: str) -> None:
    assert diagnose_log_text(log).label == "missing_dependency", log


@pytest.mark.parametrize(
    "last",
    [
        # fvcore/detectron2's Registry.get, gym's and gymnasium's registries (timm's "Unknown model (x)" is a setting:
        # test_validation_error)
        "KeyError: \"No object named 'ResNeSt' found in 'BACKBONE' registry!\"",
        "gymnasium.error.NameNotFound: Environment `BreakoutNoFrameskip` doesn't exist.",
        "gym.error.UnregisteredEnv: No registered env with id: Humanoid-v2",
    ],
)
def test_a_library_registry_without_the_name_the_config_asks_for(last: str) -> None:
    d = diagnose_log_text(TRACEBACK_START + last + "\n")
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), last
    assert "registered" in d.explanation


def test_a_name_the_library_says_it_removed_in_a_release() -> None:
    d, _, record = diagnose_dev("p-0008")  # "`np.NaN` was removed in the NumPy 2.0 release"
    assert d.label == record["label"] == "missing_dependency"
    log = TRACEBACK_START + "ValueError: The 'fp16_backend' argument has been removed in version 4.40; use 'x'.\n"
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "another version" in d.explanation


@pytest.mark.parametrize(
    "log",
    [
        # Lmod and Environment Modules on HPC clusters, conda (conda/exceptions.py)
        'Lmod has detected the following error:  The following module(s) are unknown: "cuda/11.8"\n',
        "ERROR: Unable to locate a modulefile for 'cudnn/8.9'\n",
        "EnvironmentNameNotFound: Could not find conda environment: llama\n",
    ],
)
def test_an_environment_the_job_script_activates_that_the_machine_lacks(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log


@pytest.mark.parametrize(
    "log",
    [
        # pip on a system Python (PEP 668), libsolv under conda/mamba, apt, CMake's find_package, pkg-config
        "error: externally-managed-environment\n\n× This environment is externally managed\n",
        "nothing provides __cuda needed by pytorch-2.1.0-py3.10_cuda11.8_cudnn8.7.0_0\n",
        "E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution).\n",
        'CMake Error at CMakeLists.txt:10 (find_package):\n  Could not find a package configuration file provided by "Torch"'
        " with any of\n  the following names:\n",
        "Package cairo was not found in the pkg-config search path.\n",
    ],
)
def test_installers_and_build_tools_that_could_not_get_a_dependency(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log


def test_cmake_status_lines_about_optional_packages_are_not_a_failure() -> None:
    log = "-- Could NOT find OpenMP_C (missing: OpenMP_C_FLAGS OpenMP_C_LIB_NAMES)\n-- Configuring done\n"
    assert diagnose_log_text(log).label != "missing_dependency"


def test_a_library_that_uses_a_name_another_release_lacks() -> None:
    """Old setuptools on Python 3.12 (pkg_resources asks pkgutil for ImpImporter, removed in 3.12): the raising frame
    is a library's, so its release does not fit the others; a project's own module stays the code's error."""
    log = (
        'Traceback (most recent call last):\n  File "setup.py", line 3, in <module>\n    import pkg_resources\n'
        '  File "/venv/lib/python3.12/site-packages/pkg_resources/__init__.py", line 2191, in <module>\n'
        "    register_finder(pkgutil.ImpImporter, find_on_path)\n"
        "AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency") and "pkgutil" in d.explanation


def test_a_library_release_that_moved_a_name() -> None:
    # pydantic 2's migration errors (pydantic/_migration.py); torch 2.6's weights_only default is the torch.load
    # call's to change (test_user_code_error.py)
    log = (
        "pydantic.errors.PydanticImportError: `BaseSettings` has been moved to the `pydantic-settings` package. See "
        "https://docs.pydantic.dev/2.5/migration/ for more details.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "another version" in d.explanation, log


def test_any_stopping_exception_that_says_which_package_to_install() -> None:
    log = TRACEBACK_START + "ValueError: Using a `device_map` requires `accelerate`. You can install it with "
    log += "`pip install accelerate`\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency") and "accelerate" in d.explanation


@pytest.mark.parametrize(
    ("log", "program"),
    [("bash: nvcc: 未找到命令\n", "nvcc"), ("bash: torchrun : commande introuvable\n", "torchrun")],
)
def test_bashs_command_not_found_in_the_systems_language(log: str, program: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and f"'{program}'" in d.explanation


def test_pyyaml_6s_required_loader_and_annotations_newer_than_the_interpreter() -> None:
    d = diagnose_log_text(TRACEBACK_START + "TypeError: load() missing 1 required positional argument: 'Loader'\n")
    assert d.label == "missing_dependency" and "another version" in d.explanation
    log = TRACEBACK_START + "TypeError: unsupported operand type(s) for |: 'type' and 'NoneType'\n"
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "newer Python" in d.explanation


def test_a_model_type_the_installed_transformers_does_not_know() -> None:
    """transformers' Auto mapping (models/auto/configuration_auto.py) raises KeyError(model_type) for a type added in
    a later release; a KeyError of the code's own stays the code's."""
    frame = '  File "/usr/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", line 710, in '
    log = TRACEBACK_START + frame + "__getitem__\n    raise KeyError(key)\nKeyError: 'qwen2'\n"
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency") and "'qwen2'" in d.explanation
    own = (
        TRACEBACK_START
        + '  File "/home/u/proj/train.py", line 9, in main\n    x = lookup["qwen2"]\nKeyError: \'qwen2\'\n'
    )
    assert diagnose_log_text(own).label == "user_code_error"


@pytest.mark.parametrize(
    "case_id",
    [
        # slurmstepd's exec of a bare command name: "error: execve(): torchrun: No such file or directory"
        "v-0039",
        "v-0040",
        # Paddle's dynload: "Cannot load cudnn shared library", "[Hint: cudnn_dso_handle should not be null.]"
        "v-0001",
        "v-0002",
    ],
)
def test_a_command_or_library_the_loader_cannot_find_is_a_missing_dependency(case_id: str) -> None:
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"
    assert d.fix.kind == "add_dependency"


def test_execve_of_a_path_that_is_not_there_is_not_a_missing_program() -> None:
    d = diagnose_log_text("slurmstepd: error: execve(): /home/u/run.sh: No such file or directory\n")
    assert d.label == "file_not_found"


def test_tensorflow_op_not_registered_is_a_missing_op_library() -> None:
    # tensorflow/core/framework/op.cc: "Op type not registered '…' in binary running on …"
    line = (
        "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'SentencepieceOp' in binary "
        "running on worker-0. Make sure the Op and Kernel are registered in the binary running in this process."
    )
    assert diagnose_log_text(TB + line + "\n").label == "missing_dependency"


def test_ray_runtime_env_setup_error() -> None:
    # ray.exceptions.RuntimeEnvSetupError (https://docs.ray.io/en/latest/ray-core/api/exceptions.html)
    line = "ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment."
    d = diagnose_log_text(TB + line + "\n")
    assert d.label == "missing_dependency" and d.confidence < 0.8


def test_jvm_native_library_and_npm_registry_misses() -> None:
    # java.lang.UnsatisfiedLinkError (https://docs.oracle.com/en/java/javase/21/docs/api/java.base/java/lang/UnsatisfiedLinkError.html)
    jvm = 'Exception in thread "main" java.lang.UnsatisfiedLinkError: no hadoop in java.library.path\n'
    assert diagnose_log_text(jvm).label == "missing_dependency"
    # npm's E404 (https://docs.npmjs.com/common-errors)
    npm = "npm ERR! code E404\nnpm ERR! 404 Not Found - GET https://registry.npmjs.org/left-padd - Not found\n"
    assert diagnose_log_text(npm).label == "missing_dependency"


@root_line_cases(
    ("v-0039", "execve(): torchrun: No such file or directory"),
    ("p-0008", "was removed in the NumPy 2.0 release"),
)
def test_root_line_vocabulary_reads_missing_dependency(case_id: str, quoted: str) -> None:
    """The backoff before "unknown" (rootline.py) reads the case's root error line by this family's words alone."""
    assert_read_as(case_id, "missing_dependency", quoted)


def test_solver_and_version_check_headlines() -> None:
    # conda-libmamba-solver's headline, and transformers' require_version (transformers/utils/versions.py)
    mamba = (
        "Could not solve for environment specs\nThe following packages are incompatible\n"
        "└─ pytorch-cuda 12.4**  does not exist (perhaps a typo or a missing channel).\n"
    )
    assert diagnose_log_text(mamba).label == "missing_dependency"
    pinned = TB + (
        "ImportError: tokenizers>=0.11.1,!=0.11.3,<0.14 is required for a normal functioning of this module, "
        "but found tokenizers==0.15.0.\n"
    )
    assert diagnose_log_text(pinned).label == "missing_dependency"


def test_tensorflow_without_cudnn() -> None:
    # stream_executor cuda_dnn.cc: "DNN library is not found."
    log = TB + "tensorflow.python.framework.errors_impl.UnimplementedError: DNN library is not found.\n"
    assert diagnose_log_text(log).label == "missing_dependency"


def test_a_caught_failure_naming_a_well_known_program_is_the_program_missing() -> None:
    # "CIDEr computation failed: [Errno 2] No such file or directory: 'java'", logged, not raised
    d, _, record = diagnose_dev("zh-0012")
    assert d.label == record["label"] == "missing_dependency"
    assert any("'java'" in e for e in d.evidence)
    # a data file that is not there stays a path to fix
    d = diagnose_log_text("  evaluation failed: [Errno 2] No such file or directory: 'captions_val.json'\n")
    assert d.label == "file_not_found"


def test_pip_refusing_a_wheel_for_another_python_is_a_missing_dependency_named_by_its_wheel() -> None:
    d, _, record = diagnose_dev("zf-0008")
    assert d.label == record["label"] == "missing_dependency" and d.fix.kind == "add_dependency"
    assert "torch-1.12.0+cu102-cp38-cp38-linux_x86_64.whl" in d.explanation
    log = "ERROR: tensorflow-2.4.0-cp36-cp36m-manylinux2010_x86_64.whl is not a supported wheel on this platform.\n"
    assert diagnose_log_text(log).label == "missing_dependency"


def test_a_traceback_ending_in_a_librarys_dependency_check_is_a_missing_dependency() -> None:
    # LLaMA-Factory's check_dependencies (its extras/misc.py), the traceback cut off before its exception line
    # (back-test v8: read as unknown by the code of that time)
    d, _, record = diagnose_dev("y-0024")
    assert d.label == record["label"] == "missing_dependency"
    # transformers/utils check_min_version raising ImportError with a message no pattern knows: the frame it was
    # raised in says a package is too old
    frame = '  File "/opt/venv/lib/python3.10/site-packages/transformers/utils/__init__.py", line 250, in {}\n'
    msg = "    raise ImportError(\nImportError: This example needs a source build, found 4.38.2.\n"
    assert diagnose_log_text(TRACEBACK_START + frame.format("check_min_version") + msg).label == "missing_dependency"
    # the same ImportError raised in the user's own function is not read as a dependency check by its frame
    assert read_by_rules(TRACEBACK_START + frame.format("build_model") + msg).label != "missing_dependency"


@pytest.mark.parametrize(
    "log",
    [
        # Go's os/exec (and the container runtimes built on it) stat the program before starting it
        'ERROR: failed to start the hook: exec: "/usr/local/bin/gpu-hook": stat /usr/local/bin/gpu-hook: no such '
        "file or directory\n",
        # a shell ran a path into a folder of programs, behind a launcher's process column
        "(worker, pid=311) /bin/sh: 1: /opt/conda/envs/train/bin/python3.11: No such file or directory\n",
        "bash: line 4: /home/u/.local/bin/accelerate: No such file or directory\n",
        # a library that looks for a well-known program before it runs it
        "RuntimeError: Could not find ninja, and the build of the extension needs it\n",
        "Unable to run git; the version stamp is left empty.\n",
    ],
)
def test_a_program_whose_file_is_not_there_is_a_missing_program(log: str) -> None:
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and d.fix.kind == "add_dependency"


@pytest.mark.parametrize(
    "log",
    [
        # a script (an extension) in a bin folder, a data folder, a repository a tool looks for: paths, not programs
        "bash: ./bin/launch.sh: No such file or directory\n",
        "bash: ./bin/train: No such file or directory\n",  # the person's own program, by a relative path
        "bash: /data/corpus/bin/shard-0003.tar: No such file or directory\n",
        "fatal: Could not find git repository at /srv/ckpt\n",
    ],
)
def test_a_script_or_data_path_in_the_same_words_stays_a_path(log: str) -> None:
    assert diagnose_log_text(log).label == "file_not_found"


def test_a_bare_errno_2_gives_way_to_the_programs_own_words_about_it() -> None:
    # "[Errno 2]" naming no path, then the program saying the command it ran could not be run
    log = (
        "Running: ['conda', 'env', 'list']\n"
        "[Errno 2] No such file or directory\n"
        "Unable to run conda to build the environment from its specification.\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "conda" in d.explanation
    # alone, it is still a path that is not there
    assert diagnose_log_text("[Errno 2] No such file or directory\n").label == "file_not_found"


@pytest.mark.parametrize(
    "log",
    [
        # the program ran and exited non-zero: it is installed (a compile error above it is the failure)
        'csrc/flash_fwd.cu(12): error: identifier "foo" is undefined\nerror: failed to run make: exit status 2\n',
        "Installing dependencies\nerror: failed to execute git: exit status 1\n",
    ],
)
def test_a_program_that_ran_and_failed_is_not_a_missing_program(log: str) -> None:
    assert diagnose_log_text(log).label != "missing_dependency"


@pytest.mark.parametrize(
    "log",
    [
        # llama.cpp's loader (also under llama-cpp-python and Ollama) meeting a GGUF of a newer architecture
        "llama_model_loader: loaded meta data with 33 key-value pairs from ./models/gemma-2-9b-it-Q4_K_M.gguf\n"
        "llama_model_load: error loading model: error loading model architecture: unknown model architecture: "
        "'gemma2'\n"
        "llama_load_model_from_file: failed to load model\n"
        "ValueError: Failed to load model from file: ./models/gemma-2-9b-it-Q4_K_M.gguf\n",
        "pulling manifest\nError: pull model manifest: 412:\n\n"
        "The model you are attempting to pull requires a newer version of Ollama.\n",
        # datasets reading a parquet whose schema a newer datasets wrote
        TB + '  File "/opt/venv/lib/python3.11/site-packages/datasets/features/features.py", line 1474, in '
        "generate_from_dict\n    raise ValueError(f\"Feature type '{_type}' not found.\")\n"
        "ValueError: Feature type 'List' not found. Available feature types: ['Value', 'ClassLabel', 'Sequence']\n",
    ],
)
def test_a_reader_older_than_the_file_it_was_given_is_a_release_to_upgrade(log: str) -> None:
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log
    assert "older than the file" in d.explanation


def test_a_class_a_native_extension_registers_is_not_there() -> None:
    log = (
        TB + '  File "/opt/venv/lib/python3.12/site-packages/vllm/_custom_ops.py", line 30, in <module>\n'
        "    scalar_type = torch.classes._core_C.ScalarType\n"
        "RuntimeError: Tried to instantiate class '_core_C.ScalarType', but it does not exist! Ensure that it is "
        "registered via torch::class_\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "_core_C.ScalarType" in d.explanation


def test_a_saved_object_naming_what_the_installed_library_lacks_is_a_release_to_match() -> None:
    log = (
        TB + '  File "/opt/conda/lib/python3.6/site-packages/torch/serialization.py", line 510, in _load\n'
        "    magic_number = pickle_module.load(f)\n"
        "AttributeError: Can't get attribute '_rebuild_tensor_v2' on <module 'torch._utils' from "
        "'/opt/conda/lib/python3.6/site-packages/torch/_utils.py'>\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "torch._utils" in d.explanation
    # a class pickled from the program's own module is the code's, not a release
    own = log.replace("'torch._utils' from '/opt/conda/lib/python3.6/site-packages/torch/_utils.py'", "'__main__'")
    assert diagnose_log_text(own).label == "user_code_error"


def test_torch_compile_without_a_working_triton_is_a_package_to_install() -> None:
    log = (
        TB + '  File "C:\\\\envs\\\\t\\\\lib\\\\site-packages\\\\torch\\\\_inductor\\\\scheduler.py", line 5433, in '
        "create_backend\n    raise TritonMissing(inspect.currentframe())\n"
        # (a Windows console wrapping the line at its width, as the log came)
        "torch._inductor.exc.TritonMissing: Cannot find a working t\n"
        "riton installation. Either the package is not installed or\n"
        " it is too old.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")


_SITE = "/opt/conda/lib/python3.11/site-packages"


@pytest.mark.parametrize(
    "log",
    [
        # a name of the installed module's own namespace, left undefined by an optional import that failed
        TB + f'  File "{_SITE}/evalkit/models/engine.py", line 108, in __init__\n'
        "    self.model = LLM(**self.model_args)\n"
        "NameError: name 'LLM' is not defined. Did you mean: 'VLLM'?\n",
        # an attribute the installed package's own object reads (an object saved by another release of it)
        TB + f'  File "{_SITE}/sklearn/impute/_base.py", line 638, in transform\n'
        "    self._fill_dtype, copy=False\n    ^^^^^^^^^^^^^^^^\n"
        "AttributeError: 'SimpleImputer' object has no attribute '_fill_dtype'. Did you mean: '_fit_dtype'?\n",
        # the same with the frame's start cut off by the excerpt
        'conda/envs/x/lib/python3.10/site-packages/swift/trainers/trainers.py", line 220, in compute_loss\n'
        "    if self.state.global_step % self.sft_args.acc_steps == 0:\n"
        "AttributeError: 'Seq2SeqTrainer' object has no attribute 'sft_args'\n",
        # a TypeError while Python imports an installed package (an annotation this Python cannot evaluate)
        TB + f'  File "{_SITE}/vllm/model_executor/warmup.py", line 90, in warmup\n    import fastkern.comm\n'
        f'  File "{_SITE}/fastkern/comm/__init__.py", line 4, in <module>\n    from .fd import exchange\n'
        f'  File "{_SITE}/fastkern/comm/fd.py", line 55, in <module>\n'
        "    def _fd(fd: int) -> tuple[array.array[int]]:\n"
        "TypeError: type 'array.array' is not subscriptable\n",
    ],
)
def test_installed_code_failing_on_a_name_or_type_it_uses_is_a_release_to_fix(log: str) -> None:
    """The statement that failed is the installed package's own (its module's name, its own object's attribute, or its
    import): the person's code is not where the error is; the package does not fit what is installed beside it."""
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log


@pytest.mark.parametrize(
    "log",
    [
        # torch's Module.__getattr__ reports the CALLER's lookup of a name its module does not have
        TB + f'  File "{_SITE}/torch/nn/modules/module.py", line 1688, in __getattr__\n'
        "    raise AttributeError(f\"'{type(self).__name__}' object has no attribute '{name}'\")\n"
        "AttributeError: 'DistributedDataParallel' object has no attribute 'train_model'\n",
        # an attribute read on None: a value never set, not a name the package lacks
        TB + f'  File "{_SITE}/transformers/trainer_callback.py", line 498, in on_step_end\n'
        "    self.training_bar.update(state.global_step - self.current_step)\n"
        "AttributeError: 'NoneType' object has no attribute 'update'\n",
        # the library calls the person's own override with an argument it does not take (not at import)
        TB + f'  File "{_SITE}/transformers/trainer.py", line 3579, in training_step\n'
        "    loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)\n"
        "TypeError: MyTrainer.compute_loss() got an unexpected keyword argument 'num_items_in_batch'\n",
        # the person's own file
        TB + '  File "/home/u/proj/train.py", line 30, in main\n    x = self.head(y)\n'
        "AttributeError: 'Net' object has no attribute 'head'\n",
    ],
)
def test_the_callers_lookup_a_value_never_set_and_the_own_code_stay_code_errors(log: str) -> None:
    assert diagnose_log_text(log).label == "user_code_error", log


def test_an_exception_that_states_the_release_it_needs_is_a_dependency_to_install() -> None:
    for log in (
        "ValueError: FSDP requires PyTorch >= 2.1.0.a0+32f93b1\n",
        "AssertionError: DamoFdDetect: MMCV==1.7.0 is used but incompatible. Please install mmcv>=2.0.0rc4, <2.1.0.\n",
    ):
        d = diagnose_log_text(TB + log)
        assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency"), log
    # a setting's bound is not a release
    assert diagnose_log_text(TB + "ValueError: this mode requires num_gpus >= 2\n").label != "missing_dependency"


def test_a_logged_package_not_found_message_names_the_package_to_install() -> None:
    # importlib.metadata's PackageNotFoundError message, logged by the program's own handler without the class name
    log = (
        "2025-04-25 12:51:19,625 - finetune - INFO - loading the model in 4 bits\n"
        "2025-04-25 12:51:19,625 - finetune - ERROR - model load failed: No package metadata was found for bitsandbytes\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "bitsandbytes" in d.explanation


def test_an_optional_import_the_program_caught_and_logged_is_not_what_stopped_it() -> None:
    caught = (
        "[2026-05-25 18:18:16 TP0] Failed to import amdsmi with ModuleNotFoundError(\"No module named 'amdsmi'\")\n"
    )
    went_on = (
        "[2026-05-25 18:18:19 TP0] Load weight begin. avail mem=31.49 GB\n"
        "[2026-05-25 18:18:19 TP0] Multimodal attention backend not set. Use triton_attn.\n"
        "[2026-05-25 18:18:19 TP0] Using triton_attn as multimodal attention backend.\n"
    )
    assert diagnose_log_text(caught + went_on).label != "missing_dependency"
    # the same notice right before the program stops on an error still reads as the missing module
    stopped = (
        caught + 'Traceback (most recent call last):\n  File "serve.py", line 3, in <module>\n'
        "    import amdsmi\nModuleNotFoundError: No module named 'amdsmi'\n"
    )
    assert diagnose_log_text(stopped).label == "missing_dependency"


def test_an_extension_that_failed_to_build_at_first_use_is_the_build_environment() -> None:
    # DeepSpeed's cpu_adam compiled by torch.utils.cpp_extension at first use (zzzr-0102)
    log = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 12, in <module>\n'
        "    opt = DeepSpeedCPUAdam(params)\n"
        "RuntimeError: Error building extension 'cpu_adam'\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")


@pytest.mark.parametrize(
    "line",
    [
        # Lightning's strategy check, its install hint cut onto the next line (zzzza-0138)
        'pytorch_lightning.utilities.exceptions.MisconfigurationException: Requested `strategy="horovod"`, but Horovod '
        "is not installed.Install with",
        # spaCy's trained pipeline is a package of its own (zzzza-0219)
        "OSError: [E050] Can't find model 'en_core_web_lg'. It doesn't seem to be a shortcut link, a Python package or "
        "a valid path to a data directory.",
    ],
)
def test_a_librarys_own_check_for_an_optional_dependency_it_names(line: str) -> None:
    d = diagnose_log_text('Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n' + line + "\n")
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")


def test_gyms_missing_optional_dependency_under_hydras_own_formatting_error() -> None:
    """zzzza-0119: Hydra fails to format the exception (an AssertionError of its own) before the real one, gym's."""
    log = (
        "Error executing job with overrides: []\n"
        "An error occurred during Hydra's exception formatting:\n"
        "AssertionError()\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/.local/lib/python3.10/site-packages/hydra/_internal/utils.py", line 254, in run_and_report\n'
        "    assert mdl is not None\n"
        "AssertionError\n"
        "During handling of the above exception, another exception occurred:\n"
        "Traceback (most recent call last):\n"
        '  File "/home/u/.local/lib/python3.10/site-packages/gym/envs/box2d/bipedal_walker.py", line 25, in <module>\n'
        '    raise DependencyNotInstalled("box2D is not installed, run `pip install gym[box2d]`")\n'
        "gym.error.DependencyNotInstalled: box2D is not installed, run `pip install gym[box2d]`\n"
    )
    assert diagnose_log_text(log).label == "missing_dependency"


@pytest.mark.parametrize("case_id", ["zzzzl-0009", "zzzzn-0227"])
def test_a_tokenizer_needing_sentencepiece_or_torchaudio_without_an_audio_backend_is_a_missing_package(
    case_id: str,
) -> None:
    """transformers' "Please make sure you have `sentencepiece` installed" and torchaudio's "No audio I/O backend is
    available" name a package the environment lacks, though the exception is a ValueError/RuntimeError (retired
    blind v25's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"
    assert d.fix.kind == "add_dependency"


def test_make_sure_you_have_without_a_package_in_backticks_is_not_a_missing_package() -> None:
    log = "Traceback (most recent call last):\nValueError: make sure you have the right shape for the input tensor\n"
    assert diagnose_log_text(log).label != "missing_dependency"


@pytest.mark.parametrize("case_id", ["zzzzr-0212", "zzzzr-0219"])
def test_a_library_of_another_release_by_its_symbol_version_or_a_removed_trainer_helper(case_id: str) -> None:
    """The dynamic linker's "version `GOMP_4.0' not found (required by …libsox.so)" (not only GLIBC's) and Lightning
    2.0's removed "Trainer.add_argparse_args" say the installed release is not the one the code needs (retired blind
    v26's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"
    assert d.fix.kind == "add_dependency"


def test_a_version_tag_not_found_outside_the_linkers_message_is_not_a_missing_package() -> None:
    log = 'Traceback (most recent call last):\nKeyError: "version `MODEL_2\' not found in the registry"\n'
    assert diagnose_log_text(log).label != "missing_dependency"
    log = "Traceback (most recent call last):\nAttributeError: type object 'Trainer' has no attribute 'fit_loop_x'\n"
    assert diagnose_log_text(log).label != "missing_dependency"


def test_a_module_no_well_known_distribution_provides_is_named_with_less_confidence() -> None:
    # "No module named 'X'" is the same verdict either way; for a name no distribution is known by (the project's own
    # file run from the wrong directory, a typo) it is right less often, and the confidence says so
    tb = 'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n    import {mod}\n{error}\n'
    for error in ("ModuleNotFoundError: No module named '{mod}'", "ImportError: No module named {mod}"):
        # (a top-level name: a submodule of a known package is read less surely too, see the test below on moved names)
        known = diagnose_log_text(tb.format(mod="torchvision", error=error.format(mod="torchvision")))
        own = diagnose_log_text(tb.format(mod="rl_bot", error=error.format(mod="rl_bot")))
        assert known.label == own.label == "missing_dependency"
        assert known.confidence >= 0.8 > own.confidence, (known.confidence, own.confidence)
    # a name that starts like a well-known one is not it
    near = diagnose_log_text(tb.format(mod="torchx_utils", error="ModuleNotFoundError: No module named 'torchx_utils'"))
    assert near.label == "missing_dependency" and near.confidence < 0.8


@pytest.mark.parametrize("case_id", ["zzzzw-0009", "zzzzw-0104"])
def test_a_java_runtime_older_than_the_classes_or_atari_roms_not_installed(case_id: str) -> None:
    """Pyserini's jars "compiled by a more recent version of the Java Runtime" and atari-py's "ROM is missing for pong"
    are something to install (a newer JDK, the ROMs), not code to change (retired blind v27's misses)."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"
    assert d.fix.kind == "add_dependency"


def test_a_rom_or_java_word_inside_other_text_is_not_a_missing_install() -> None:
    log = "Traceback (most recent call last):\nValueError: the ROM size of this board is missing from the config\n"
    assert diagnose_log_text(log).label != "missing_dependency"


def test_jax_without_its_gpu_build_is_a_missing_dependency() -> None:
    log = (
        "An NVIDIA GPU may be present on this machine, but a CUDA-enabled jaxlib is not installed. Falling back to cpu.\n"
        'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
        '    jax.devices("cuda")\n'
        "RuntimeError: Unknown backend cuda. Available backends are ['cpu']\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and d.fix.kind == "add_dependency"


def test_the_torch7_cudnn_bindings_not_finding_libcudnn_is_a_missing_library() -> None:
    """Retired v29 zzzzzf-0213 and zzzzzf-0253 (both file_not_found): cudnn.torch's loader says "'libcudnn (R5) not
    found in library path." (cudnn/ffi.lua) when the cuDNN release it was written for is not installed or not on the
    library path; it is a library to install, not a path in the job to fix."""
    log = (
        "/usr/local/bin/luajit: /usr/local/share/lua/5.1/cudnn/ffi.lua:1599: 'libcudnn (R5) not found in library path.\n"
        "Please install CuDNN from https://developer.nvidia.com/cuDNN\n"
        "Then make sure files named as libcudnn.so.5 or libcudnn.5.dylib are placed in your library load path (for "
        "example /usr/local/lib , or manually add a path to LD_LIBRARY_PATH)\n"
        "stack traceback:\n"
        "\t[C]: in function 'error'\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "libcudnn" in d.explanation
    for case_id in ("zzzzzf-0213", "zzzzzf-0253"):
        assert diagnose_dev(case_id)[0].label == "missing_dependency", case_id


def test_a_library_naming_the_package_a_feature_needs_is_a_missing_package() -> None:
    """Retired v29 zzzzze-0225 (user_code_error): transformers converting a slow tokenizer to a fast one."""
    log = (
        '  File "/opt/conda/lib/python3.10/site-packages/transformers/convert_slow_tokenizer.py", line 1355, in convert\n'
        "ValueError: Couldn't instantiate the backend tokenizer from one of: (1) a `tokenizers` library serialization "
        "file, (2) a slow tokenizer instance to convert or (3) an equivalent slow tokenizer class to instantiate and "
        "convert.\n"
        "You need to have sentencepiece installed to convert a slow tokenizer to a fast one.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "sentencepiece" in d.explanation


@pytest.mark.parametrize("case_id", ["zzy-0013", "zzzzzf-0012"])
def test_a_packages_compiled_extension_that_was_never_built(case_id: str) -> None:
    """zzy-0013 ("No module named 'slora._kernels'") and retired v29 zzzzzf-0012 ("No module named
    '_ext.pointnet2._pointnet2'"), both imported from inside their own package and read as a launch from the wrong
    directory: a leading underscore names a compiled module, so the package is there and its native part was never
    built. A plain missing module of the project's own folder stays a code error."""
    d, _, record = diagnose_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], "add_dependency") == ("missing_dependency", "add_dependency")
    assert "compiled extension" in d.explanation and "build_ext" in d.fix.description
    own = (
        "Traceback (most recent call last):\n"
        '  File "/work/proj/models/net.py", line 3, in <module>\n'
        "    from models.backbone import Backbone\n"
        "ModuleNotFoundError: No module named 'models.backbone'\n"
    )
    assert diagnose_log_text(own).label == "user_code_error"


def test_a_binding_that_cannot_find_its_native_library_where_it_looks() -> None:
    """Retired v30 zzzzzj-0019 (file_not_found 0.6): dm_control looking for the MuJoCo binary it binds to."""
    log = (
        '  File "/opt/conda/lib/python3.6/site-packages/dm_control/mujoco/wrapper/util.py", line 124, in get_mjlib\n'
        '    raise OSError("Cannot find MuJoCo library at {}.".format(library_path))\n'
        "OSError: Cannot find MuJoCo library at /home/u/.mujoco/mujoco200_linux/bin/libmujoco200.so.\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency") and "MuJoCo" in d.explanation


def test_a_version_mismatch_that_names_no_package_is_not_a_missing_dependency() -> None:
    """robomimic's warning that a dataset was recorded under another simulator version, before a run that finished
    (dev zzzzzr-0108), is no dependency to install; a package that names the mismatch still is."""
    assert diagnose_dev("zzzzzr-0108")[0].label == "healthy"
    warned = "ROBOMIMIC WARNING(\n    Dataset and installed environment version mismatch!\n)\nstep 1/10\n"
    assert diagnose_log_text(warned).label != "missing_dependency"
    named = "RuntimeError: jaxlib version 0.4.1 is incompatible with jax version 0.4.20\n"
    assert diagnose_log_text(named).label == "missing_dependency"


@pytest.mark.parametrize("case_id", ["zzzzzt-0202", "zzzzzt-0203"])
def test_mujoco_binaries_off_the_library_path_are_a_missing_dependency(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("missing_dependency", "add_dependency")


@pytest.mark.parametrize("case_id", ["zzzzzu-0108", "zzzzza-0405"])
def test_a_compiled_extension_called_with_another_releases_arguments_is_a_version_mismatch(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert d.label == record["label"] == "missing_dependency"


@pytest.mark.parametrize(
    "case_id",
    [
        "zzzzzz-0103",  # pickle reading a Git LFS pointer ('v' of "version https://git-lfs..."): git-lfs was not installed
        "zzzzzza-0125",
        "zzzzzza-0119",  # a checkpoint's embeddings.position_ids unexpected by a newer transformers
        "zzzzzy-0201",  # hydra's own schema: Key 'chdir' not in 'JobConf' (hydra-core < 1.2)
        "zzzzzy-0202",
        "zzzzzy-0114",  # torch on Windows: Error loading "...fbgemm.dll" or one of its dependencies
        "zzzzzza-0117",  # a bundled extension that no longer compiles against the installed torch
    ],
)
def test_a_version_or_tooling_mismatch_is_read_as_a_dependency(case_id: str) -> None:
    d, record = rules_dev(case_id)
    assert (d.label, d.fix.kind) == (record["label"], record["fix_kind"]) == ("missing_dependency", "add_dependency")


def test_a_projects_own_config_key_refused_is_not_hydras_version() -> None:
    log = "Key 'lr_sched' not in 'TrainConfig'\n    full_key: train.lr_sched\n    object_type=TrainConfig\n"
    assert diagnose_log_text(log).label != "missing_dependency"


def test_dash_naming_the_script_then_a_program_it_lacks_is_a_missing_program() -> None:
    # Debian's /bin/sh (dash) puts the script and its line first; tar then finds no archive
    log = (
        "download_weights.sh: 4: download_weights.sh: gdown: not found\n"
        "tar (child): checkpoints.tar.gz: Cannot open: No such file or directory\n"
    )
    d = diagnose_log_text(log)
    assert d.label == "missing_dependency" and "gdown" in d.explanation
    assert diagnose_dev("zzzzzzm-0217")[0].label == "missing_dependency"


def test_a_moved_name_or_submodule_of_a_known_package_is_read_less_surely() -> None:
    # a name or submodule a release moved is as often fixed in the code as by a pin (dev: about 8 in 10 right)
    moved = diagnose_log_text(
        TB
        + "ImportError: cannot import name 'randn_tensor' from 'diffusers.utils' (/x/site-packages/diffusers/utils/__init__.py)\n"
    )
    sub = diagnose_log_text(TB + "ModuleNotFoundError: No module named 'flax.deprecated'\n")
    top = diagnose_log_text(TB + "ModuleNotFoundError: No module named 'flax'\n")
    assert moved.label == sub.label == top.label == "missing_dependency"
    assert moved.confidence < 0.8 and sub.confidence < 0.8 <= top.confidence


_BNB = (
    "[2025-06-20 18:54:22,342] [ERROR] [bitsandbytes.cextension.<module>:88] [PID:4129] Could not load bitsandbytes "
    "native library: /venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared "
    "object file: No such file or directory\n"
    "Traceback (most recent call last):\n"
    '  File "/venv/lib/python3.12/site-packages/bitsandbytes/cextension.py", line 85, in <module>\n'
    "    lib = get_native_library()\n"
    "OSError: /venv/lib/python3.12/site-packages/bitsandbytes/libbitsandbytes_cpu.so: cannot open shared object "
    "file: No such file or directory\n"
)


def test_bitsandbytes_logging_its_native_library_fallback_is_not_the_runs_failure() -> None:
    """bitsandbytes >= 0.43 logs a native library it cannot load at ERROR level, with the traceback, and goes on (real
    dev zzzzzzt-0201: an axolotl config refusal read as the missing library); before 0.43 it raised, and that stays a
    dependency to fix."""
    refused = _BNB + (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/axolotl/cli/train.py", line 40, in do_cli\n'
        "pydantic_core._pydantic_core.ValidationError: 2 validation errors for AxolotlConfigWCapabilities\n"
        "chat_template\n  Input should be 'alpaca', 'chatml' or 'mistral_v1' [type=enum, input_value='inst']\n"
    )
    d = diagnose_log_text(refused)
    assert d.label == "validation_error"
    assert d.evidence[0].startswith("pydantic_core._pydantic_core.ValidationError")
    finished = _BNB + "epoch 3/3 loss 0.41\nTraining complete. Model saved to out/model.safetensors\n"
    assert diagnose_log_text(finished).label == "healthy"
    raised = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 4, in <module>\n    import bitsandbytes\n'
        "RuntimeError:\n        CUDA Setup failed despite GPU being available. Please run the following command to "
        "get more information:\n\n        python -m bitsandbytes\n"
    )
    assert diagnose_log_text(raised).label == "missing_dependency"


def test_real_bitsandbytes_fallback_under_a_config_refusal() -> None:
    d, _, record = diagnose_dev("zzzzzzt-0201")
    assert d.label == record["label"] == "validation_error"


def test_a_file_missing_from_an_installed_packages_own_directory_is_a_broken_install() -> None:
    """A template or data file a package ships, missing under site-packages (real dev zzzzzzt-0401: peft's
    save_pretrained reading huggingface_hub's model-card template from a user-site copy) is a package to reinstall,
    not a path of the job's; a missing file of the job's own is still a path to fix."""
    broken = TB + (
        "FileNotFoundError: [Errno 2] No such file or directory: '/home/u/.local/lib/python3.8/site-packages/"
        "huggingface_hub/templates/modelcard_template.md'\n"
    )
    d = diagnose_log_text(broken)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "huggingface_hub" in d.explanation and "pip install --force-reinstall" in d.fix.description
    assert "huggingface-hub" in d.fix.description  # the distribution's name, not the import's
    own = TB + "FileNotFoundError: [Errno 2] No such file or directory: '/data/train/labels.csv'\n"
    assert diagnose_log_text(own).label == "file_not_found"


def test_real_file_missing_from_a_user_site_install() -> None:
    d, _, record = diagnose_dev("zzzzzzt-0401")
    assert d.label == record["label"] == "missing_dependency"


@pytest.mark.parametrize("case_id", ["zzzzzzj-0103", "zzzzzzj-0104"])
def test_keras_reading_h5_weights_under_h5py_3_is_a_release_to_pin(case_id: str) -> None:
    """h5py 3 reads HDF5 string attributes as str; Keras 2 still calls .decode() on them: pin h5py."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency" and d.fix.kind == "add_dependency"
    assert "h5py<3.0" in d.fix.description


def test_decode_on_text_in_the_programs_own_code_stays_a_code_error() -> None:
    log = (
        'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n'
        "    name = row['name'].decode('utf8')\nAttributeError: 'str' object has no attribute 'decode'\n"
    )
    assert diagnose_log_text(log).label == "user_code_error"


def test_decode_on_text_inside_an_installed_package_names_the_package() -> None:
    log = (
        'Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    read(p)\n'
        '  File "/usr/lib/python3.8/site-packages/oldlib/io.py", line 40, in read\n'
        "    return header.decode('ascii')\nAttributeError: 'str' object has no attribute 'decode'\n"
    )
    d = diagnose_log_text(log)
    assert (d.label, d.fix.kind) == ("missing_dependency", "add_dependency")
    assert "'oldlib'" in d.fix.description and "h5py" not in d.fix.description


@pytest.mark.parametrize("case_id", ["zzzzzzzj-0502", "zzzzzzzh-0111", "zzzzzzzi-0741"])
def test_python_2s_unquoted_cannot_import_name_reads_as_the_packages_release(case_id: str) -> None:
    """Python 2 words a name a module lacks without quotes or the module ("ImportError: cannot import name
    downsample"): the same release mismatch as Python 3's quoted form (Theano's removed downsample, Keras 1's Merge,
    TensorFlow's moved legacy_seq2seq), fixed on dev by a pin 10 times of 13."""
    d, _, record = diagnose_dev(case_id)
    assert d.label == record["label"] == "missing_dependency" and d.confidence < 0.8
    log = 'Traceback (most recent call last):\n  File "pool.py", line 6, in <module>\nImportError: cannot import name downsample\n'
    assert diagnose_log_text(log).label == "missing_dependency"


def test_pandas_missing_optional_dependency_names_the_package_to_install() -> None:
    """Dev zzzzzzzs-0726 (blind v42): pandas' "ImportError: Missing optional dependency 'tables'.  Use pip or conda to
    install tables." (to_hdf) was read as a code error."""
    tb = (
        "Traceback (most recent call last):\n"
        '  File "unify_monthly_matches.py", line 40, in <module>\n'
        "    df.to_hdf(out, key='data')\n"
        '  File "/opt/conda/lib/python3.7/site-packages/pandas/compat/_optional.py", line 118, in import_optional_dependency\n'
        "    raise ImportError(msg) from None\n"
        "ImportError: Missing optional dependency 'tables'.  Use pip or conda to install tables.\n"
    )
    d = diagnose_log_text(tb)
    assert (d.label, d.confidence >= 0.8) == ("missing_dependency", True)
    assert "'tables'" in d.explanation
    assert diagnose_dev("zzzzzzzs-0726")[0].label == "missing_dependency"


def test_an_import_error_a_library_raised_saying_what_it_needs_is_a_missing_package() -> None:
    """Dev zzb-0003: Keras' "ImportError: Could not import PIL.Image. The use of `load_img` requires PIL." was read
    as a code error."""
    tb = (
        "Traceback (most recent call last):\n"
        '  File "predict.py", line 9, in <module>\n'
        "    img = image.load_img(path, target_size=(224, 224))\n"
        "ImportError: Could not import PIL.Image. The use of `load_img` requires PIL.\n"
    )
    assert diagnose_log_text(tb).label == "missing_dependency"
    assert diagnose_dev("zzb-0003")[0].label == "missing_dependency"
