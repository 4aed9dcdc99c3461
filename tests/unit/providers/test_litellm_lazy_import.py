"""litellm is imported only when a policy uses a litellm backend. Runs in a subprocess with a
stand-in `litellm` package first on the path, so the probe works whether or not the real one is
installed (and cannot pass just because litellm is absent)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = r'''
import sys

import gateway, gateway.app, gateway.providers.litellm  # noqa: E401,F401
from gateway.policy.loader import load_text
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider

POLICY = """
version: 1
backends:
  vllm: {kind: openai_compat, base_url: "http://127.0.0.1:9/v1", model: m, zone: on_prem}
  gpu: {kind: ollama, model: llama3.2}
  rep: {kind: replicate, model: meta/meta-llama-3-8b-instruct}
  tail: {kind: litellm, model: openai/m, api_base: "http://127.0.0.1:9/v1"}
aliases:
  chat: {backends: [vllm, gpu, rep]}
"""
policy = load_text(POLICY).policy
ctx = BuildContext(env={"REPLICATE_API_TOKEN": "r8_x"})
built = []
for name in ("vllm", "gpu", "rep"):
    built.append(build_provider(name, policy.backends[name], ctx).name)
assert built == ["vllm", "gpu", "rep"], built
print("before:", "litellm" in sys.modules)
provider = build_provider("tail", policy.backends["tail"], ctx)
print("after:", "litellm" in sys.modules, getattr(sys.modules.get("litellm"), "STAND_IN", False))
'''


def test_only_a_litellm_backend_imports_litellm(tmp_path: Path) -> None:
    fake = tmp_path / "litellm"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "STAND_IN = True\n\nasync def acompletion(**kwargs):\n    raise RuntimeError\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.getcwd()])}
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert "before: False" in lines, out.stdout
    assert "after: True True" in lines, out.stdout
