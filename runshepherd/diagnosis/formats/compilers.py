"""A compiler's diagnostic at a source position, in the two formats compilers print: one place for the fact.

GNU's "file:line[:column]: [fatal ]error: message" (gcc, clang, mypy, and the tools that follow
https://www.gnu.org/prep/standards/html_node/Errors.html) and EDG/MSVC's "file(line[, column]): [catastrophic |fatal ]
error …" (nvcc, cl.exe). errorblock reads it as an error line (a CUDA or C++ extension the run builds as it goes can
fail so); user_code_error reads it as the program's own native code not building when the file is one of its sources.
"""

from __future__ import annotations

import re

_FILE = r"[^\s:()]+\.[A-Za-z]\w{0,5}"
_AT_ERROR = r"(?::\d+(?::\d+)?:|\(\d+(?:,\s*\d+)?\)\s*:)\s*(?:catastrophic |fatal )?error\b"

# for embedding in a larger alternation (no groups)
ERROR_AT_SOURCE = rf"^\s*{_FILE}{_AT_ERROR}"
# the same, naming the file
ERROR_AT_SOURCE_RE = re.compile(rf"^\s*(?P<file>{_FILE}){_AT_ERROR}")
# the sources a C, C++ or CUDA build compiles (headers included)
NATIVE_SOURCE = re.compile(r"\.(?:c|cc|cpp|cxx|cu|cuh|h|hh|hpp|hxx)$")
