"""Where sessions live: SQLite in the state dir (default) or PostgreSQL (`checkpointer: postgresql://…`), a lock
per session (a file lock; a PostgreSQL advisory lock), and pruning of old checkpoints.

Both savers write integer channel versions, so a session copied from SQLite to PostgreSQL (`orchestrate
migrate-sessions`) resumes there unchanged.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock, Timeout

from runshepherd.environment import damaged, database_problem
from runshepherd.errors import RunShepherdError
from runshepherd.names import check_id, quoted

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.checkpoint.postgres import PostgresSaver
    from langgraph.checkpoint.sqlite import SqliteSaver

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# seconds before an unreachable session database is an error, not a hang; the URL's `?connect_timeout=N` or
# PGCONNECT_TIMEOUT says otherwise (libpq's own knobs)
CONNECT_TIMEOUT = 4


class SessionBusy(RunShepherdError):
    exit_code = 2


class CheckpointerUnavailable(RunShepherdError):
    """The session database cannot be reached or opened; nothing was changed."""

    exit_code = 4


def is_postgres(url: str | None) -> bool:
    return bool(url) and str(url).startswith(POSTGRES_SCHEMES)


def shown_url(url: str) -> str:
    """The URL without its password, for messages."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    # libpq takes a password in the query too (`?password=…`): hidden the same way as one before the host
    pairs = [pair.partition("=") for pair in parts.query.split("&") if pair]
    if any(k.lower() == "password" and v for k, _, v in pairs):
        query = "&".join(f"{k}{eq}{'***' if k.lower() == 'password' and v else v}" for k, eq, v in pairs)
        parts = parts._replace(query=query)
    if parts.password is None:
        return parts.geturl()
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return parts._replace(netloc=netloc).geturl()


def db_path(state_dir: Path) -> Path:
    return Path(state_dir) / "sessions.sqlite"


def compact_saver_class() -> type[SqliteSaver]:
    """SqliteSaver with integer channel versions (the checkpoint base class's default).

    SqliteSaver's own versions are 49-character strings, one per channel and again per node that saw it, which
    is most of a small state's checkpoint; integers cut the bytes per monitor return by more than half.
    A database written with string versions keeps getting string versions, so old sessions still resume.
    """
    from langgraph.checkpoint.sqlite import SqliteSaver

    class CompactSqliteSaver(SqliteSaver):
        # SqliteSaver declares str versions; LangGraph's BaseCheckpointSaver allows int, which is what we return.
        def get_next_version(self, current: str | int | None, channel: None) -> str | int:  # type: ignore[override]
            if isinstance(current, str):
                return super().get_next_version(current, channel)
            return 1 if current is None else current + 1

    return CompactSqliteSaver


EMPTY_GRACE = 10.0  # seconds a 0-byte database may be one another process has just created


BLOB_MIN_CHARS = 8192  # strings this long (a spec, a proposed spec) are stored once, by content, not per checkpoint
_BLOB_KEY = "__runshepherd_blob_sha256__"


class BlobSerde:
    """The saver's serializer, storing long strings once in a content-addressed table.

    SqliteSaver writes every channel's value into every checkpoint: a 500 KB spec became a fresh 500 KB copy
    on each monitor return. Here a long string in a checkpoint or a pending write becomes a reference to its
    sha256, its text stored once (`INSERT OR IGNORE`), so each distinct spec is held once however many
    checkpoints refer to it. Only plain dicts and lists are walked; anything else is passed through as is.
    """

    def __init__(self, inner: Any, conn: sqlite3.Connection, lock: Any) -> None:
        self.inner = inner
        self.conn = conn
        self.lock = lock  # the saver's (re-entrant) lock: put_writes calls us while holding it
        with lock:
            conn.execute("CREATE TABLE IF NOT EXISTS rs_blobs (sha TEXT PRIMARY KEY, text TEXT NOT NULL)")
            conn.commit()

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        return self.inner.dumps_typed(self._out(obj))

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        return self._in(self.inner.loads_typed(data))

    def _out(self, obj: Any) -> Any:
        if isinstance(obj, str) and len(obj) >= BLOB_MIN_CHARS:
            sha = hashlib.sha256(obj.encode("utf-8", "surrogatepass")).hexdigest()
            with self.lock:  # committed by the saver's own transaction, before or with the checkpoint row
                self.conn.execute("INSERT OR IGNORE INTO rs_blobs (sha, text) VALUES (?, ?)", (sha, obj))
            return {_BLOB_KEY: sha}
        if type(obj) is dict:
            return {k: self._out(v) for k, v in obj.items()}
        if type(obj) is list:
            return [self._out(v) for v in obj]
        return obj

    def _in(self, obj: Any) -> Any:
        if type(obj) is dict:
            if len(obj) == 1 and _BLOB_KEY in obj:
                with self.lock:
                    row = self.conn.execute("SELECT text FROM rs_blobs WHERE sha=?", (obj[_BLOB_KEY],)).fetchone()
                if row is None:
                    raise sqlite3.DatabaseError(f"checkpoint refers to a missing stored text {obj[_BLOB_KEY][:12]}")
                return row[0]
            return {k: self._in(v) for k, v in obj.items()}
        if type(obj) is list:
            return [self._in(v) for v in obj]
        return obj


@contextmanager
def open_saver(state_dir: Path, url: str | None = None) -> Iterator[BaseCheckpointSaver[Any]]:
    """The session store, closed on exit: PostgreSQL when ``url`` is a postgresql:// URL, else the production
    CompactSqliteSaver in the state dir. A full disk, a read-only folder or a damaged SQLite file (now or
    mid-session) is an EnvironmentProblem naming the file and what to do, never a traceback."""
    if url:
        with open_postgres(url) as pg:
            yield pg
        return
    path = db_path(state_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    _refuse_truncated(path)
    try:
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
    except sqlite3.Error as exc:
        raise database_problem(path, exc) from None
    try:
        try:
            saver = compact_saver_class()(conn)
            # re-entrant: BlobSerde stores texts from inside put_writes' locked cursor
            saver.lock = threading.RLock()  # type: ignore[assignment]
            saver.serde = BlobSerde(saver.serde, conn, saver.lock)
            saver.setup()
            conn.execute("SELECT count(*) FROM checkpoints").fetchone()  # a damaged file fails here, not later
        except sqlite3.Error as exc:
            raise database_problem(path, exc) from None
        try:
            yield saver
        except sqlite3.Error as exc:
            raise database_problem(path, exc) from exc
    finally:
        conn.close()


def has_session(state_dir: Path, session: str, url: str | None = None) -> bool:
    """Is ``session`` a session of this store? One indexed read (the checkpoints' primary key starts with the
    thread id), no graph compiled, no table counted; a state dir without a session store has none, and this does
    not create one (`orchestrate cancel WF` asks it of every id)."""
    sql = "SELECT 1 FROM checkpoints WHERE thread_id = {} LIMIT 1"
    if url:
        with open_postgres(url) as pg, pg._cursor() as cur:
            return cur.execute(sql.format("%s"), (session,)).fetchone() is not None
    path = db_path(state_dir)
    if not path.exists():
        return False
    _refuse_truncated(path)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            if not _has_table(conn, "checkpoints"):
                return False
            return conn.execute(sql.format("?"), (session,)).fetchone() is not None
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise database_problem(path, exc) from None


def _refuse_truncated(path: Path) -> None:
    """A 0-byte database that is not brand new lost its sessions (a crash, a full disk): say so, never read it
    as "no sessions yet"."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return
    if st.st_size == 0 and time.time() - st.st_mtime > EMPTY_GRACE:
        raise damaged(path, "it is empty: 0 bytes")


def check_reachable(url: str | None) -> None:
    """CheckpointerUnavailable (exit 4) now when ``url`` is a session database that cannot be reached: what a
    command that goes on elsewhere (a detached session, an MCP run) checks before it answers; nothing for SQLite."""
    if url:
        _connect(url).close()


def _connect(url: str) -> Any:
    import os

    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from psycopg.rows import dict_row

    if not is_postgres(url):
        raise CheckpointerUnavailable(f"checkpointer {shown_url(url)!r}: use a postgresql://USER@HOST:PORT/DB URL")
    try:
        given = "connect_timeout" in conninfo_to_dict(url) or os.environ.get("PGCONNECT_TIMEOUT")
        # the URL's (or the environment's) own timeout holds: a connect_timeout keyword would override it
        conninfo = url if given else make_conninfo(url, connect_timeout=CONNECT_TIMEOUT)
        return psycopg.Connection.connect(conninfo, autocommit=True, prepare_threshold=0, row_factory=dict_row)
    except psycopg.Error as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CheckpointerUnavailable(
            f"cannot reach the session database {shown_url(url)}: {first} — is PostgreSQL running "
            "(scripts/pg-up.sh starts one here)?"
        ) from None


def _lock_key(conn: Any, name: str) -> int:
    """The advisory-lock key of ``name``: per database and schema (two deployments in one database never block)."""
    sql = "SELECT hashtextextended('runshepherd-session:' || current_schema() || ':' || %s, 0) AS k"
    return int(conn.execute(sql, (name,)).fetchone()["k"])


@contextmanager
def open_postgres(url: str) -> Iterator[PostgresSaver]:
    conn = _connect(url)  # first: an unreachable database is said before langgraph's saver is imported
    from langgraph.checkpoint.postgres import PostgresSaver

    class CompactPostgresSaver(PostgresSaver):
        # Integer versions, as CompactSqliteSaver: a migrated session keeps comparable versions.
        def get_next_version(self, current: str | int | None, channel: None) -> str | int:  # type: ignore[override]
            if isinstance(current, str):
                return super().get_next_version(current, channel)
            return 1 if current is None else current + 1

    try:
        saver = CompactPostgresSaver(conn)
        # setup() creates tables and indexes (CONCURRENTLY, so no transaction): serialise first-time setup
        # across processes with an advisory lock instead.
        key = _lock_key(conn, "__setup__")
        conn.execute("SELECT pg_advisory_lock(%s)", (key,))
        try:
            saver.setup()
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (key,))
        yield saver
    finally:
        conn.close()


def _busy(session_id: str, who: str = "") -> SessionBusy:
    return SessionBusy(
        f"session {session_id} is being driven by another orchestrate process{who}; wait for it, or stop it "
        f"and run `orchestrate resume {quoted(session_id)}`"
    )


def _me() -> str:
    """This process as a session's driver: its pid and host, the command it runs (PostgreSQL keeps 63 bytes)."""
    import os
    import socket
    import sys

    word = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].isalpha() else ""
    return f"pid {os.getpid()} on {socket.gethostname()}" + (f", orchestrate {word}" if word else "")


def _driver_file(state_dir: Path, session_id: str) -> Path:
    return Path(state_dir) / "locks" / f"{session_id}.driver"


def driver(state_dir: Path, session_id: str, url: str | None = None) -> str | None:
    """Who drives the session now, as its driver recorded itself when it took the lock ("pid 4242 on host-a,
    orchestrate run, since 04:31:07 UTC"); None when no process holds the lock or none said who it is."""
    check_id(session_id, "session id")
    if url:
        row = _pg_holder(url, session_id)
        if row is None or not str(row["who"] or "").startswith("pid "):
            return None
        return f"{row['who']}, since {row['since']:%Y-%m-%d %H:%M:%S %Z}".rstrip()
    return _recorded(state_dir, session_id) if session_driven(state_dir, session_id) else None


def _recorded(state_dir: Path, session_id: str) -> str | None:
    """What the SQLite lock's holder wrote about itself (gone once it lets go)."""
    try:
        return _driver_file(state_dir, session_id).read_text(encoding="utf-8").strip() or None
    except OSError:
        return None


# A driver waits this long for the SQLite session lock before calling the session busy: `session_driven` (the
# `sessions` listing) can only look at a flock by taking it for an instant, and that look must not turn a resume
# away. A real second driver holds the lock for the whole run, so it is still told the session is busy.
PROBE_GRACE_S = 0.5


@contextmanager
def session_lock(state_dir: Path, session_id: str, url: str | None = None) -> Iterator[None]:
    """One process drives a session at a time; a second gets a clear message instead of a corrupt run.

    SQLite: a file lock in the state dir. PostgreSQL: a session-level advisory lock on its own connection, so
    every machine sharing the database sees it, and a killed process releases it when its connection drops.
    """
    check_id(session_id, "session id")  # it becomes a file name below: never a path
    if url:
        conn = _connect(url)
        try:
            key = _lock_key(conn, session_id)
            if not conn.execute("SELECT pg_try_advisory_lock(%s) AS ok", (key,)).fetchone()["ok"]:
                who = driver(state_dir, session_id, url)
                raise _busy(session_id, f" ({who})" if who else "")
            conn.execute("SELECT set_config('application_name', %s, false)", (_me()[:63],))  # who holds the lock
            yield
        finally:
            conn.close()  # ends the advisory lock with the connection
        return
    locks = Path(state_dir) / "locks"
    locks.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(locks / f"{session_id}.lock"))
    try:
        lock.acquire(timeout=PROBE_GRACE_S)
    except Timeout:
        who = _recorded(state_dir, session_id)
        raise _busy(session_id, f" ({who})" if who else "") from None
    try:
        from datetime import UTC, datetime

        since = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        _driver_file(state_dir, session_id).write_text(f"{_me()}, since {since}\n", encoding="utf-8")
        yield
    finally:
        _driver_file(state_dir, session_id).unlink(missing_ok=True)
        lock.release()


def session_driven(state_dir: Path, session_id: str, url: str | None = None) -> bool:
    """True when a process holds the session's lock now, i.e. some `orchestrate` process is driving it.

    PostgreSQL: read from `pg_locks` without taking the lock. SQLite: the file lock (flock) offers no look
    without a try, so it is taken and released at once; a driver starting in that instant waits for it
    (`PROBE_GRACE_S`) instead of being told the session is busy.
    """
    check_id(session_id, "session id")
    if url:
        return _pg_holder(url, session_id) is not None
    path = Path(state_dir) / "locks" / f"{session_id}.lock"
    if not path.exists():
        return False
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=PROBE_GRACE_S)
    except Timeout:
        return True
    lock.release()
    return False


def _pg_holder(url: str, session_id: str) -> dict[str, Any] | None:
    """The connection holding the session's advisory lock (its `application_name`, when it started), read from
    `pg_locks` without taking the lock; None when nobody holds it."""
    conn = _connect(url)
    try:
        key = _lock_key(conn, session_id) & 0xFFFF_FFFF_FFFF_FFFF  # pg_locks splits the bigint in two oids
        row: dict[str, Any] | None = conn.execute(
            "SELECT a.application_name AS who, a.backend_start AS since FROM pg_locks l"
            " LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            " AND l.classid::text::bigint = %s AND l.objid::text::bigint = %s LIMIT 1",
            (key >> 32, key & 0xFFFF_FFFF),
        ).fetchone()
        return row
    finally:
        conn.close()


def prune_saver(saver: BaseCheckpointSaver[Any], session: str) -> None:
    """Drop superseded checkpoints of ``session`` in the production savers (in-memory ones are left alone)."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    if isinstance(saver, SqliteSaver):
        # Under the saver's own lock: fan-out branches may be writing checkpoints on the same connection from
        # worker threads while this thread reads the stream (unlocked, that raised "cannot start a transaction
        # within a transaction" in a 1000-task fan-out).
        with saver.lock:
            prune(saver.conn, session)
        return
    from langgraph.checkpoint.postgres import PostgresSaver  # psycopg: only where sessions are on PostgreSQL

    if isinstance(saver, PostgresSaver):
        import psycopg

        try:
            saver.prune([session], strategy="keep_latest")  # its own lock and one transaction per thread
        except (psycopg.errors.SerializationFailure, psycopg.errors.DeadlockDetected):
            # Another process changed the thread meanwhile: housekeeping only, the next prune catches up.
            return


def prune(conn: sqlite3.Connection, thread_id: str) -> None:
    """Keep only the latest checkpoint per namespace (and its writes); the session still resumes.

    Stored texts (`rs_blobs`) that only the dropped rows referred to are deleted in the same transaction: a
    session whose spec changed five times keeps the spec it has now, not all five. A text another checkpoint
    (of any session) still refers to is kept.
    """
    superseded = (
        " FROM checkpoints WHERE thread_id=? AND checkpoint_id NOT IN ("
        " SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id=? GROUP BY checkpoint_ns)"
    )
    stale_writes = (
        " FROM writes WHERE thread_id=? AND (checkpoint_ns, checkpoint_id) NOT IN ("
        " SELECT checkpoint_ns, checkpoint_id FROM checkpoints WHERE thread_id=?)"
    )
    with conn:
        released = _blob_refs(conn.execute("SELECT checkpoint" + superseded, (thread_id, thread_id)))
        conn.execute("DELETE" + superseded, (thread_id, thread_id))
        released |= _blob_refs(conn.execute("SELECT value" + stale_writes, (thread_id, thread_id)))
        conn.execute("DELETE" + stale_writes, (thread_id, thread_id))
        if released and _has_table(conn, "rs_blobs"):
            unused = [(sha,) for sha in sorted(released) if not _blob_referenced(conn, sha)]
            conn.executemany("DELETE FROM rs_blobs WHERE sha=?", unused)


# A reference as the inner serializer writes it (msgpack: the key, a 2-byte string header, the hex digest).
_BLOB_REF = re.compile(re.escape(_BLOB_KEY.encode()) + rb"[\x00-\xff]{1,4}?([0-9a-f]{64})")


def _blob_refs(rows: Iterable[tuple[Any, ...]]) -> set[str]:
    found: set[str] = set()
    for (data,) in rows:
        if isinstance(data, bytes | bytearray | memoryview) and _BLOB_KEY.encode() in bytes(data):
            found.update(m.decode() for m in _BLOB_REF.findall(bytes(data)))
    return found


def _blob_referenced(conn: sqlite3.Connection, sha: str) -> bool:
    """Does any remaining checkpoint or pending write (of any session) still refer to stored text ``sha``?"""
    needle = sha.encode()
    for sql in (
        "SELECT 1 FROM checkpoints WHERE instr(checkpoint, ?) > 0 LIMIT 1",
        "SELECT 1 FROM writes WHERE instr(value, ?) > 0 LIMIT 1",
    ):
        if conn.execute(sql, (needle,)).fetchone() is not None:
            return True
    return False


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (name,)).fetchone() is not None


def compact(conn: sqlite3.Connection) -> None:
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def thread_ids(saver: BaseCheckpointSaver[Any]) -> list[str]:
    """Session ids in the saver, newest first."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    sql = "SELECT thread_id, max(checkpoint_id) AS last FROM checkpoints GROUP BY thread_id ORDER BY last DESC"
    if isinstance(saver, SqliteSaver):
        return [r[0] for r in saver.conn.execute(sql).fetchall()]
    from langgraph.checkpoint.postgres import PostgresSaver  # psycopg: only where sessions are on PostgreSQL

    if isinstance(saver, PostgresSaver):
        with saver._cursor() as cur:  # the saver's lock and connection
            return [r["thread_id"] for r in cur.execute(sql).fetchall()]
    return []  # an in-memory saver (tests) has no table to list
