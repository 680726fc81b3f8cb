"""Bounds on what a spec may cost to read: size, YAML nesting and alias expansion, task count.

A few hundred hostile bytes must not cost gigabytes: YAML aliases (`&a` / `*a`) make a tree that is small to
parse but exponential to walk (validation, JSON, checkpoints walk it expanded), and deep nesting exhausts the
recursion of every consumer. The loader here refuses both while composing, before anything walks the tree.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

MAX_SPEC_BYTES = 1_000_000  # the spec file, and the spec after Jinja rendering
MAX_TASKS = 1_000
MAX_YAML_DEPTH = 64
MAX_YAML_NODES = 200_000  # values in the document once aliases are expanded


class LimitExceeded(ValueError):
    """An input is over one of the limits above; the message names the limit and what to do."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader with a nesting-depth limit and a budget on the alias-expanded size."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                mark = self.peek_event().start_mark
                raise LimitExceeded(
                    f"YAML is nested more than {MAX_YAML_DEPTH} levels deep — flatten the structure",
                    mark.line + 1 if mark else None,
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def compose_document(self) -> Any:
        node = super().compose_document()
        expanded_size(node)
        return node

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        """A key written twice in one mapping is an error, as YAML 1.2 says: PyYAML kept the last silently, so a
        second `args:` in a task dropped the first without a word. (A key that overrides one merged in with
        `<<: *base` is not a repeat: merged keys are not in ``node.value`` until the merge is flattened.)"""
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key, _ in node.value:
                if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                    continue
                if key.value in seen:
                    raise yaml.constructor.ConstructorError(
                        None,
                        None,
                        f"the key {key.value!r} is given twice in one mapping (also on line {seen[key.value]}) — "
                        "YAML would keep only the last one: keep one, or merge them",
                        key.start_mark,
                    )
                seen[key.value] = key.start_mark.line + 1
        return super().construct_mapping(node, deep)


def expanded_size(root: yaml.Node | None, budget: int = MAX_YAML_NODES) -> int:
    """How many values the document holds with every alias expanded; raises past ``budget``.

    Shared nodes (what an alias points at) are sized once and counted at each use, so this is linear in the
    document as written, however large its expansion would be.
    """
    if root is None:
        return 0
    sizes: dict[int, int] = {}
    # iterative post-order walk: no recursion, whatever the input
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in sizes:
            continue
        children = _children(node)
        if not done:
            stack.append((node, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        total = 1 + sum(sizes.get(id(c), 0) for c in children)
        if total > budget:
            line = node.start_mark.line + 1 if node.start_mark else None
            raise LimitExceeded(
                f"YAML aliases (&anchor / *alias) expand this document to more than {budget:,} values "
                "— an alias bomb? Write the values out, or use fewer nested aliases",
                line,
            )
        sizes[id(node)] = total
    return sizes[id(root)]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def load_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    """Parse ``text`` once with the bounded loader: (data, composed root for line lookups)."""
    loader = BoundedLoader(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    finally:
        loader.dispose()
    return data, root


def read_small_text(path: Path, what: str) -> str:
    """A YAML file's text, never more than the limit read, whatever size it reports (/dev/zero and pipes say 0).

    Raises LimitExceeded past the limit and ValueError for text that is not UTF-8; both messages say what to do.
    """
    import stat

    if stat.S_ISFIFO(path.stat().st_mode):  # a named pipe, or <(…): never blocks on a pipe nobody writes to
        data = _read_pipe(path, MAX_SPEC_BYTES + 1)
    else:
        with path.open("rb") as fh:
            data = fh.read(MAX_SPEC_BYTES + 1)
    if len(data) > MAX_SPEC_BYTES:
        raise LimitExceeded(
            f"holds more than {MAX_SPEC_BYTES:,} bytes, the limit for {what} — is this really a YAML file?"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text — is this really a YAML file?") from None


PIPE_SECONDS = 10.0


def _read_pipe(path: Path, limit: int) -> bytes:
    """Up to ``limit`` bytes from a named pipe. Opened without blocking: `open()` of a FIFO with no writer
    waited forever (`orchestrate validate FIFO` hung); now a pipe that has not sent its whole text within
    `PIPE_SECONDS` (no writer, or a silent one) is refused."""
    import os
    import select
    import time

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        chunks: list[bytes] = []
        timeout = PIPE_SECONDS
        got, deadline = 0, time.monotonic() + timeout
        while got < limit:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LimitExceeded(
                    f"is a pipe that did not send its whole text within {timeout:g} s (is anything writing to it?) "
                    "— save the text to a file and give that file"
                )
            if not select.select([fd], [], [], left)[0]:
                continue
            try:
                chunk = os.read(fd, min(65536, limit - got))
            except BlockingIOError:
                continue
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def size_message(size: int, what: str) -> str:
    return (
        f"{what} is {size:,} bytes; the limit is {MAX_SPEC_BYTES:,} bytes — keep data out of the spec "
        "(pass it as an input dataset or a file next to the spec)"
    )


def check_size(text: str, what: str = "the spec") -> None:
    size = len(text.encode("utf-8", "surrogatepass")) if len(text) * 4 > MAX_SPEC_BYTES else len(text)
    if size > MAX_SPEC_BYTES:
        raise LimitExceeded(size_message(size, what))


# where a task sits in the document: workflow.tasks[*] and workflow.groups[*].tasks[*]
_TASK_ITEMS = frozenset({("workflow", "tasks", "-"), ("workflow", "groups", "-", "tasks", "-")})


def prescan_task_count(text: str) -> int | None:
    """The number of tasks the YAML in ``text`` declares, read from libyaml's event stream before any node is built.

    Building PyYAML's node tree in pure Python costs about a second per 2,000 tasks; libyaml's events cost a
    few milliseconds, so an oversized workflow is refused before the full read. None when libyaml is not
    installed, the text is not one well-formed document, or nesting passes MAX_YAML_DEPTH: the full, bounded
    read then gives the precise error (and checks the count again). An alias counts as one entry.
    """
    if not getattr(yaml, "__with_libyaml__", False):
        return None
    # one frame per open collection: (is a mapping, path of keys to it); a mapping also tracks key vs value
    frames: list[tuple[bool, tuple[str, ...] | None]] = []
    want_key: list[bool] = []  # per frame: the next node of this mapping is a key
    keys: list[str | None] = []  # per frame: the mapping's current key
    count = documents = 0
    try:
        for ev in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(ev, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    return None
                continue
            if isinstance(ev, yaml.CollectionEndEvent):
                frames.pop(), want_key.pop(), keys.pop()
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            path: tuple[str, ...] | None = ()
            if frames:
                is_map, parent = frames[-1]
                if is_map and want_key[-1]:  # a key: remember it (a complex key is never a task path)
                    keys[-1] = ev.value if isinstance(ev, yaml.ScalarEvent) else None
                    want_key[-1] = False
                    path = None
                elif is_map:
                    want_key[-1] = True
                    key = keys[-1]
                    path = (*parent, key) if parent is not None and key is not None else None
                else:
                    path = (*parent, "-") if parent is not None else None
            if path in _TASK_ITEMS:
                count += 1
            if isinstance(ev, yaml.CollectionStartEvent):
                if len(frames) >= MAX_YAML_DEPTH:
                    return None
                frames.append((isinstance(ev, yaml.MappingStartEvent), path))
                want_key.append(True)
                keys.append(None)
        return count
    except yaml.YAMLError:
        return None


def check_task_count(count: int) -> None:
    if count > MAX_TASKS:
        raise LimitExceeded(
            f"the workflow has {count:,} tasks; the limit is {MAX_TASKS:,} tasks — split it into several workflows"
        )
