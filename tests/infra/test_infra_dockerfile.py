"""The gateway image: multi-stage, no compilers in the final stage, non-root, health check."""

from __future__ import annotations

import re

import infra_rules as r

COMPILERS = re.compile(r"\b(build-essential|gcc|g\+\+|clang|cmake|make|python3?-dev|libc6-dev)\b")


def stages(text: str) -> list[tuple[str, list[str]]]:
    text = re.sub(r"\\\n", " ", text)
    out: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.upper().startswith("FROM "):
            out.append((line, []))
        elif out:
            out[-1][1].append(line)
    return out


DOCKERFILE = (r.INFRA / "Dockerfile").read_text()


def test_multi_stage_with_compilers_only_in_the_builder() -> None:
    st = stages(DOCKERFILE)
    assert len(st) >= 2
    builder, final = st[0], st[-1]
    assert " AS builder" in builder[0]
    assert any(COMPILERS.search(i) for i in builder[1])
    assert not any(COMPILERS.search(i) for i in final[1] if i.upper().startswith("RUN"))
    assert any(i.startswith("COPY --from=builder /opt/venv") for i in final[1])
    assert any("pip install" in i and '".[${GECIT_EXTRAS}]"' in i for i in builder[1])


def test_final_stage_runs_as_non_root_with_healthcheck() -> None:
    final = stages(DOCKERFILE)[-1][1]
    users = [i.split()[1] for i in final if i.upper().startswith("USER ")]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    health = [i for i in final if i.upper().startswith("HEALTHCHECK ")]
    assert health and "/healthz" in health[0]
    assert 'ENTRYPOINT ["gateway"]' in final
    assert "EXPOSE 8080" in final


def test_the_stage_parser_sees_a_compiler_when_there_is_one() -> None:
    bad = DOCKERFILE + "\nRUN apt-get update && apt-get install -y gcc\n"
    assert any(COMPILERS.search(i) for i in stages(bad)[-1][1] if i.startswith("RUN"))
