"""What the file-backed backends (local, Slurm) share: the workflow folder layout and its atomic records, task
preparation, the spec checks for commands run directly on a host, task log files and the follow loop, and the
file object store. Neither backend imports the other; both import from here.
"""
