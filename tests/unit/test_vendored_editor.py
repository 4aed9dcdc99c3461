"""The policy editor vendored from npm (scripts/vendor-codemirror.sh) is what the script
recorded: each file's SHA-256 as in VENDORED.txt, the pinned version and tarball hash the
script's, the MIT licence beside it, and every file served by the console from the package."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from gateway.admin import pages

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "gateway" / "admin" / "static" / "vendor"


def _recorded() -> tuple[list[str], dict[str, str]]:
    first, *rest = (VENDOR / "VENDORED.txt").read_text().splitlines()
    digests = {name: digest for digest, name in (line.split() for line in rest)}
    return first.split(), digests


def test_the_files_are_the_pinned_release_and_unchanged() -> None:
    (name, version, integrity), digests = _recorded()
    script = (ROOT / "scripts" / "vendor-codemirror.sh").read_text()
    assert name == "codemirror"
    assert re.search(rf"^VERSION={re.escape(version)}$", script, re.M)
    assert re.search(rf"^INTEGRITY={re.escape(integrity)}$", script, re.M)
    assert len(digests) == 6
    for file, digest in digests.items():
        assert hashlib.sha256((VENDOR / file).read_bytes()).hexdigest() == digest, file
    assert (VENDOR / "CODEMIRROR-LICENSE.txt").read_text().startswith("MIT License")


def test_every_vendored_file_is_served_from_the_package() -> None:
    _, digests = _recorded()
    served = {path.removeprefix("vendor/"): url for url, (path, _media) in pages.STATIC.items()}
    for file in digests:
        url = served[file]
        response = pages.static_file(url)
        assert response is not None
        assert hashlib.sha256(bytes(response.body)).hexdigest() == digests[file]
    assert pages.static_file("../vendor/codemirror.js") is None
