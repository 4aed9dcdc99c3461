"""Where a SQLite ledger URL points on disk (no database driver imported: the CLI asks before
it opens anything)."""

from __future__ import annotations

from pathlib import Path


def sqlite_file(url: str) -> Path | None:
    """The file of a `sqlite:///PATH` URL; None for other databases and in-memory SQLite."""
    if not url.startswith("sqlite"):
        return None
    _, _, rest = url.partition(":///")
    path = rest.split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    return Path(path)


def missing_sqlite_directory(url: str) -> Path | None:
    """The directory a SQLite ledger would be created in, when it does not exist."""
    path = sqlite_file(url)
    if path is None or path.parent.exists():
        return None
    return path.parent
