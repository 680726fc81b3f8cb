"""Watching runs that already exist: a monitor that owns polling, keeps a short status artifact fresh, notifies
on state changes and escalations, and stops at a terminal state or when scheduler auth is blocked."""

# the shape of `watch --runs FILE`, said in `watch --help` and in the error for a file that does not have it
RUNS_SHAPE = (
    "runs: a list, each run {id: NAME, workflow_id: WF (local/OSMO) or job_id: ID (Slurm), "
    "backend: local|slurm|osmo (optional), notify: [TARGET, …] (optional)}"
)
