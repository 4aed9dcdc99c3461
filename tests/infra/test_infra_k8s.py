"""Kubernetes manifests: strict schema validation (kubernetes-validate) and the intended shape."""

from __future__ import annotations

import copy

import infra_rules as r
import kubernetes_validate
import pytest
import yaml

K8S = r.INFRA / "k8s"
VERSIONS = ["1.30.0", "1.33.0"]


def documents() -> list[tuple[str, dict]]:
    kust = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    out = []
    for name in kust["resources"]:
        for doc in yaml.safe_load_all((K8S / name).read_text()):
            out.append((name, doc))
    return out


def by_kind(kind: str) -> dict:
    [doc] = [d for _, d in documents() if d["kind"] == kind]
    return doc


def test_kustomization_lists_every_manifest() -> None:
    kust = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    on_disk = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kust["resources"]) == on_disk


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(
    ("name", "doc"), documents(), ids=lambda v: v if isinstance(v, str) else v["kind"]
)
def test_manifest_passes_strict_schema(name: str, doc: dict, version: str) -> None:
    kubernetes_validate.validate(doc, version, strict=True)


def test_schema_check_rejects_a_typo() -> None:
    doc = copy.deepcopy(by_kind("Deployment"))
    c = doc["spec"]["template"]["spec"]["containers"][0]
    c["readinesProbe"] = c.pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(doc, VERSIONS[0], strict=True)


def test_deployment_probes_security_and_secrets() -> None:
    dep = by_kind("Deployment")
    pod = dep["spec"]["template"]["spec"]
    [c] = pod["containers"]
    assert c["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert c["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert c["securityContext"]["readOnlyRootFilesystem"] is True
    assert c["securityContext"]["allowPrivilegeEscalation"] is False
    assert pod["automountServiceAccountToken"] is False
    for env in c["env"]:
        assert "value" not in env and "secretKeyRef" in env["valueFrom"], env["name"]
    assert dep["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_policy_configmap_is_mounted_for_hot_reload() -> None:
    dep = by_kind("Deployment")
    pod = dep["spec"]["template"]["spec"]
    [c] = pod["containers"]
    settings = next(
        d
        for _, d in documents()
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "gecit-settings"
    )
    policy_cm = next(
        d
        for _, d in documents()
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "gecit-policy"
    )
    vol = next(v for v in pod["volumes"] if v.get("configMap", {}).get("name") == "gecit-policy")
    mount = next(m for m in c["volumeMounts"] if m["name"] == vol["name"])
    assert "subPath" not in mount  # subPath mounts never receive ConfigMap updates
    path = settings["data"]["GECIT_POLICY"]
    assert path.startswith(mount["mountPath"] + "/")
    assert path.rsplit("/", 1)[1] in policy_cm["data"]


def test_policy_configmap_is_valid_for_the_gateway() -> None:
    schema = pytest.importorskip("gateway.policy.schema")
    policy_cm = next(
        d
        for _, d in documents()
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "gecit-policy"
    )
    schema.Policy.model_validate(yaml.safe_load(policy_cm["data"]["policy.yaml"]))


def test_selectors_match_the_pods() -> None:
    dep = by_kind("Deployment")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    for kind, selector in (
        ("Service", by_kind("Service")["spec"]["selector"]),
        ("PodDisruptionBudget", by_kind("PodDisruptionBudget")["spec"]["selector"]["matchLabels"]),
        ("NetworkPolicy", by_kind("NetworkPolicy")["spec"]["podSelector"]["matchLabels"]),
    ):
        assert selector.items() <= labels.items(), kind
    hpa = by_kind("HorizontalPodAutoscaler")
    assert hpa["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": dep["metadata"]["name"],
    }
    assert hpa["spec"]["minReplicas"] >= 2
    assert by_kind("PodDisruptionBudget")["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_no_secret_object_is_committed() -> None:
    assert not [d for _, d in documents() if d["kind"] == "Secret"]
