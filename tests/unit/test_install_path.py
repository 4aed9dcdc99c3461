"""The install path (Makefile, CI, image). The bundled engine (llama-cpp-python compiles
llama.cpp at install) is built for any x86-64 CPU with AVX2/FMA/F16C, never for the build host:
a `-march=native` build (llama.cpp's default, GGML_NATIVE=ON) on a host with AVX-512/AMX dies
with SIGILL/SIGSEGV where those instructions are missing or trapped (a VM). These checks read
what the install path really uses, so they hold on any CPU; the last one looks at the engine
actually installed."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# every file on an install path: the Makefile (README's `make serve` / `make test`), CI, the
# image, the package metadata
INSTALL_PATH = [
    ROOT / "Makefile",
    ROOT / "pyproject.toml",
    *sorted((ROOT / "scripts").glob("*")),
    *sorted((ROOT / ".ci").glob("*")),
    *sorted((ROOT / "infra").glob("Dockerfile*")),
]
HOST_TUNED = re.compile(
    r"-march=native|-mtune=native|(GGML|LLAMA)_NATIVE=ON|"
    r"(GGML|LLAMA)_(AVX512\w*|AMX\w*)=ON",
    re.IGNORECASE,
)
REQUIRED = {
    "GGML_NATIVE": "OFF",
    "GGML_AVX": "ON",
    "GGML_AVX2": "ON",
    "GGML_FMA": "ON",
    "GGML_F16C": "ON",
    "GGML_AVX512": "OFF",
    "GGML_AMX_TILE": "OFF",
    "GGML_AMX_INT8": "OFF",
    "GGML_AMX_BF16": "OFF",
}


def defines(cmake_args: str) -> dict[str, str]:
    """`-DNAME=VALUE` flags as CMake reads them (the last one of a name wins)."""
    out: dict[str, str] = {}
    for word in shlex.split(cmake_args):
        m = re.fullmatch(r"-D([A-Za-z0-9_]+)(?::[A-Z]+)?=(.*)", word)
        if m:
            out[m.group(1)] = m.group(2).upper()
    return out


def make_exported_cmake_args(tmp_path: Path, **env: str) -> str:
    """CMAKE_ARGS as a recipe of the Makefile (so pip, and llama-cpp-python's build) sees it."""
    probe = tmp_path / "probe.mk"
    probe.write_text('print-cmake-args:\n\t@printf "%s" "$$CMAKE_ARGS"\n')
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CMAKE_ARGS", "LLAMA_CMAKE_ARGS", "MAKEFLAGS")
    }
    out = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "-f", "Makefile", "-f", str(probe), "print-cmake-args"],
        capture_output=True,
        text=True,
        check=True,
        env={**clean, **env},
        timeout=30,
    )
    return out.stdout


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_exports_portable_llama_cpp_flags(tmp_path: Path) -> None:
    args = make_exported_cmake_args(tmp_path)
    assert not HOST_TUNED.search(args), args
    got = defines(args)
    assert {k: got.get(k) for k in REQUIRED} == REQUIRED, args


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_a_users_cmake_args_come_last_and_so_win(tmp_path: Path) -> None:
    # README: CMAKE_ARGS="-DGGML_AVX2=OFF" make serve, for a CPU without AVX2
    args = make_exported_cmake_args(tmp_path, CMAKE_ARGS="-DGGML_AVX2=OFF")
    got = defines(args)
    assert got["GGML_AVX2"] == "OFF" and got["GGML_NATIVE"] == "OFF"


@pytest.mark.parametrize("path", INSTALL_PATH, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_install_file_asks_for_a_host_tuned_build(path: Path) -> None:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    code = "\n".join(ln for ln in lines if not ln.lstrip().startswith("#"))  # not the comments
    assert not HOST_TUNED.search(code), f"{path.name}: {HOST_TUNED.search(code)}"


def test_every_image_that_builds_the_engine_uses_the_makefile_flags(tmp_path: Path) -> None:
    make_flags = defines(
        re.search(r"^LLAMA_CMAKE_ARGS \?= (.*)$", (ROOT / "Makefile").read_text(), re.M).group(1)
    )  # type: ignore[union-attr]
    for dockerfile in sorted((ROOT / "infra").glob("Dockerfile*")):
        text = dockerfile.read_text()
        if "pip install" not in text or ".dockerignore" in dockerfile.name:
            continue
        arg = re.search(r'^ARG LLAMA_CMAKE_ARGS="([^"]*)"', text, re.M)
        assert arg is not None, f"{dockerfile.name} builds the `local` extra without flags"
        assert defines(arg.group(1)) == make_flags
        assert re.search(r'CMAKE_ARGS="\$\{LLAMA_CMAKE_ARGS\}"', text), dockerfile.name


def test_installed_engine_has_no_avx512_or_amx_code() -> None:
    """On a host with AVX-512/AMX, a host-tuned build reports them here; a portable build never
    does (on any host)."""
    llama_cpp = pytest.importorskip("llama_cpp")
    info = llama_cpp.llama_print_system_info()
    text = info.decode() if isinstance(info, bytes) else str(info)
    assert "AVX2 = 1" in text, text  # the build's features are listed at all
    enabled = re.findall(r"(AVX512\w*|AMX\w*)\s*=\s*1", text)
    assert enabled == [], f"the engine was built with {enabled}: rebuild with the Makefile flags"


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_serve_passes_args_to_gateway_serve() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "ARGS")}
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), "serve", "ARGS=--port 9000 --no-local-engine"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
        env=env,
    )
    last = [ln for ln in out.stdout.splitlines() if "gateway serve" in ln]
    assert last and last[-1].endswith("gateway serve --port 9000 --no-local-engine"), out.stdout
