"""Cloud backends with no credentials anywhere are disabled without importing their SDKs (boto3,
google-auth); whenever a credential source might exist the SDK's own chain still decides."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.policy.schema import BedrockBackend
from gateway.providers.bedrock.factory import chain_is_empty
from gateway.providers.vertex.factory import adc_is_absent

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def bare_aws(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for var in list(os.environ):
        if var.startswith("AWS_") or var == "BOTO_CONFIG":
            monkeypatch.delenv(var)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt")  # not a credential
    return tmp_path


def spec(**kw: object) -> BedrockBackend:
    return BedrockBackend.model_validate(
        {"kind": "bedrock", "model": "m", "region": "eu-west-1", **kw}
    )


@pytest.mark.skipif(os.path.exists("/etc/boto.cfg"), reason="a legacy boto config exists here")
def test_aws_chain_is_empty_only_when_nothing_could_give_credentials(
    bare_aws: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert chain_is_empty(spec(), {})
    assert not chain_is_empty(spec(profile="p"), {})  # boto3 says what is wrong with it
    assert not chain_is_empty(spec(), {"AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"})
    for var in (
        "AWS_PROFILE",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "AWS_ROLE_ARN",
        "AWS_SOMETHING_NEW",
    ):
        with monkeypatch.context() as m:
            m.setenv(var, "x")
            assert not chain_is_empty(spec(), {}), var
    with monkeypatch.context() as m:
        m.setenv("AWS_EC2_METADATA_DISABLED", "false")  # an instance role may answer
        assert not chain_is_empty(spec(), {})
    missing = bare_aws / "nope"
    with monkeypatch.context() as m:
        m.setenv("AWS_SHARED_CREDENTIALS_FILE", str(missing))  # named, but not there
        assert chain_is_empty(spec(), {})
        missing.write_text("[default]\n")
        assert not chain_is_empty(spec(), {})
    (bare_aws / ".aws").mkdir()
    (bare_aws / ".aws" / "config").write_text("[default]\nregion = eu-west-1\n")
    assert not chain_is_empty(spec(), {})


def test_adc_is_absent_only_when_google_auth_could_find_nothing(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "CLOUDSDK_CONFIG": str(tmp_path / "gcloud"),
        "NO_GCE_CHECK": "true",
    }
    assert adc_is_absent(env)
    assert not adc_is_absent({**env, "NO_GCE_CHECK": "false"})  # may be on GCE
    assert not adc_is_absent({**env, "GOOGLE_APPLICATION_CREDENTIALS": "/x.json"})
    assert not adc_is_absent({**env, "APPENGINE_RUNTIME": "python27"})
    (tmp_path / "gcloud").mkdir()
    (tmp_path / "gcloud" / "application_default_credentials.json").write_text("{}")
    assert not adc_is_absent(env)


def test_default_policy_clouds_are_disabled_without_importing_sdks(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("AWS_", "GOOGLE_", "CLOUDSDK_", "REPLICATE_"))
    }
    env.update(HOME=str(tmp_path), AWS_EC2_METADATA_DISABLED="true", NO_GCE_CHECK="true")
    code = """
import sys
from gateway.policy.loader import load_file
from gateway.providers.registry import BackendDisabled, BuildContext, build_provider
from gateway.settings import DEFAULT_POLICY
import os
policy = load_file(DEFAULT_POLICY).policy
for name in ("bedrock", "vertex", "replicate"):
    try:
        build_provider(name, policy.backends[name], BuildContext(env=dict(os.environ),
                                                                 defer_blocking=True))
    except BackendDisabled as exc:
        print(name, type(exc).__name__, exc)
print(sorted(m for m in ("boto3", "botocore", "google.auth", "google.genai", "replicate")
             if m in sys.modules))
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT, check=True
    ).stdout.splitlines()
    assert out[0].startswith("bedrock BackendDisabled no AWS credentials found")
    assert out[1].startswith("vertex BackendDisabled no Google credentials")
    assert out[2].startswith("replicate BackendDisabled")
    assert out[3] == "[]"
