"""Property checks over the deployment files (Terraform, compose, Kubernetes, Dockerfile).

Each rule returns a list of human-readable violations; an empty list means the rule holds.
The tests run every rule on the real tree (expecting no violation) and on small bad inputs
(expecting one), so no rule can pass vacuously.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import hcl2
from hcl2.utils import SerializationOptions

ROOT = Path(__file__).resolve().parents[2]
TERRAFORM = ROOT / "terraform"
INFRA = ROOT / "infra"

_OPTS = SerializationOptions(with_comments=False, strip_string_quotes=True)
WORLD = {"0.0.0.0/0", "::/0"}
BEDROCK_ACTIONS = {"bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"}
GCP_GATEWAY_ROLES = {"roles/aiplatform.user", "roles/cloudsql.client"}
STAR_RESOURCE_ACTIONS = {"ecr:GetAuthorizationToken"}  # no resource-level permissions exist


# --- loading ----------------------------------------------------------------------------------


def parse_tf(text: str) -> dict[str, Any]:
    return _clean(hcl2.loads(text, serialization_options=_OPTS))


def _clean(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _clean(v) for k, v in node.items() if not k.startswith("__")}
    if isinstance(node, list):
        return [_clean(v) for v in node]
    return node


def tf_files(root: Path = TERRAFORM) -> list[Path]:
    return sorted(p for p in root.rglob("*.tf") if ".terraform" not in p.parts)


@functools.cache
def load_module(directory: Path) -> dict[str, Any]:
    """Merge every .tf file of one directory (a Terraform module) into one document."""
    merged: dict[str, Any] = {}
    for path in sorted(directory.glob("*.tf")):
        merge_into(merged, parse_tf(path.read_text(encoding="utf-8")))
    return merged


def merge_into(merged: dict[str, Any], doc: dict[str, Any]) -> None:
    for key, value in doc.items():
        merged.setdefault(key, [])
        merged[key].extend(value if isinstance(value, list) else [value])


def blocks(doc: dict[str, Any], kind: str, type_: str | None = None) -> list[tuple[str, str, dict]]:
    """(type, name, body) for `resource`/`data` blocks; (name, name, body) for variable/output."""
    out = []
    for entry in doc.get(kind, []):
        for t, named in entry.items():
            if kind in ("variable", "output", "module"):
                out.append((t, t, named))
                continue
            if type_ is not None and t != type_:
                continue
            for name, body in named.items():
                out.append((t, name, body))
    return out


def locals_of(doc: dict[str, Any]) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for entry in doc.get("locals", []):
        merged.update(entry)
    return merged


def resolve(value: Any, doc: dict[str, Any]) -> Any:
    """Resolve a bare `${local.x}` reference (one level) so list-valued locals can be checked."""
    if isinstance(value, str):
        m = re.fullmatch(r"\$\{local\.(\w+)\}", value)
        if m and m.group(1) in locals_of(doc):
            return locals_of(doc)[m.group(1)]
        m = re.fullmatch(r"\$\{toset\(local\.(\w+)\)\}", value)
        if m and m.group(1) in locals_of(doc):
            return locals_of(doc)[m.group(1)]
    return value


def as_list(value: Any) -> list:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def first(body: dict, key: str) -> Any:
    """Blocks parse as lists of dicts; attributes as plain values."""
    v = body.get(key)
    return v[0] if isinstance(v, list) and v and isinstance(v[0], dict) else v


# --- Terraform rules --------------------------------------------------------------------------


def undocumented(doc: dict[str, Any], where: str) -> list[str]:
    bad = []
    for _, name, body in blocks(doc, "variable"):
        if not str(body.get("description", "")).strip():
            bad.append(f"{where}: variable {name} has no description")
        if "type" not in body:
            bad.append(f"{where}: variable {name} has no type")
    for _, name, body in blocks(doc, "output"):
        if not str(body.get("description", "")).strip():
            bad.append(f"{where}: output {name} has no description")
    return bad


def secret_defaults(doc: dict[str, Any], where: str) -> list[str]:
    """A variable that looks like a credential must not carry a default value."""
    bad = []
    for _, name, body in blocks(doc, "variable"):
        if re.search(r"(password|passwd|token|secret_key|api_key|access_key|private_key)", name):
            default = body.get("default")
            if isinstance(default, str) and default:
                bad.append(f"{where}: variable {name} has a default value")
    return bad


def _db_security_groups(doc: dict[str, Any]) -> set[str]:
    groups = set()
    for _, _, body in blocks(doc, "resource", "aws_db_instance"):
        for ref in as_list(body.get("vpc_security_group_ids")):
            m = re.fullmatch(r"\$\{aws_security_group\.(\w+)\.id\}", str(ref))
            if m:
                groups.add(m.group(1))
    return groups


def _sg_ref(value: Any) -> str | None:
    m = re.fullmatch(r"\$\{aws_security_group\.(\w+)\.id\}", str(value))
    return m.group(1) if m else None


def database_exposure(doc: dict[str, Any], where: str) -> list[str]:
    bad = []
    db_groups = _db_security_groups(doc)
    # AWS: RDS flags
    for _, name, body in blocks(doc, "resource", "aws_db_instance"):
        if body.get("publicly_accessible") is not False:
            bad.append(f"{where}: aws_db_instance.{name} publicly_accessible is not false")
        if not body.get("vpc_security_group_ids"):
            bad.append(f"{where}: aws_db_instance.{name} has no explicit security group")
    # AWS: ingress to a database security group may only come from other security groups
    for _, name, body in blocks(doc, "resource", "aws_vpc_security_group_ingress_rule"):
        if _sg_ref(body.get("security_group_id")) in db_groups:
            for key in ("cidr_ipv4", "cidr_ipv6", "prefix_list_id"):
                if body.get(key) is not None:
                    bad.append(f"{where}: database ingress rule {name} uses {key}")
    for _, name, body in blocks(doc, "resource", "aws_security_group_rule"):
        if body.get("type") == "ingress" and _sg_ref(body.get("security_group_id")) in db_groups:
            if body.get("cidr_blocks") or body.get("ipv6_cidr_blocks"):
                bad.append(f"{where}: database ingress rule {name} uses CIDR blocks")
    for _, name, body in blocks(doc, "resource", "aws_security_group"):
        for ing in as_list(body.get("ingress")):
            cidrs = set(as_list(ing.get("cidr_blocks"))) | set(as_list(ing.get("ipv6_cidr_blocks")))
            if name in db_groups and cidrs:
                bad.append(f"{where}: database security group {name} has CIDR ingress")
    # GCP: Cloud SQL without public IP or authorized networks
    for _, name, body in blocks(doc, "resource", "google_sql_database_instance"):
        ipc = first(first(body, "settings") or {}, "ip_configuration") or {}
        if ipc.get("ipv4_enabled") is not False:
            bad.append(f"{where}: google_sql_database_instance.{name} ipv4_enabled is not false")
        if ipc.get("authorized_networks"):
            bad.append(f"{where}: google_sql_database_instance.{name} has authorized_networks")
    return bad


def world_ingress(doc: dict[str, Any], where: str) -> list[str]:
    """No ingress rule anywhere may hard-code 0.0.0.0/0 (client ranges come from variables)."""
    bad = []
    for _, name, body in blocks(doc, "resource", "aws_vpc_security_group_ingress_rule"):
        if {body.get("cidr_ipv4"), body.get("cidr_ipv6")} & WORLD:
            bad.append(f"{where}: ingress rule {name} is open to the world")
    for _, name, body in blocks(doc, "resource", "aws_security_group_rule"):
        if body.get("type") == "ingress" and set(as_list(body.get("cidr_blocks"))) & WORLD:
            bad.append(f"{where}: ingress rule {name} is open to the world")
    for _, name, body in blocks(doc, "resource", "aws_security_group"):
        for ing in as_list(body.get("ingress")):
            if set(as_list(ing.get("cidr_blocks"))) & WORLD:
                bad.append(f"{where}: security group {name} has world ingress")
    return bad


def public_invoker(doc: dict[str, Any], where: str) -> list[str]:
    """allUsers / allAuthenticatedUsers only behind `count = var.allow_unauthenticated ? 1 : 0`."""
    bad = []
    for entry in doc.get("resource", []):
        for rtype, named in entry.items():
            for name, body in named.items():
                members = as_list(body.get("member")) + as_list(body.get("members"))
                if not set(members) & {"allUsers", "allAuthenticatedUsers"}:
                    continue
                count = str(body.get("count", ""))
                if "var.allow_unauthenticated" not in count:
                    bad.append(f"{where}: {rtype}.{name} grants public access unconditionally")
    for _, name, body in blocks(doc, "variable"):
        if name == "allow_unauthenticated" and body.get("default") is not False:
            bad.append(f"{where}: variable allow_unauthenticated must default to false")
    return bad


def _statements(policy_doc: dict) -> list[dict]:
    out = list(as_list(policy_doc.get("statement")))
    for dyn in as_list(policy_doc.get("dynamic")):
        for content in as_list((dyn.get("statement") or {}).get("content")):
            out.append(content)
    return out


def _key_policy_docs(doc: dict[str, Any]) -> set[str]:
    names = set()
    for _, _, body in blocks(doc, "resource", "aws_kms_key"):
        m = re.fullmatch(
            r"\$\{data\.aws_iam_policy_document\.(\w+)\.json\}", str(body.get("policy"))
        )
        if m:
            names.add(m.group(1))
    return names


def aws_iam(doc: dict[str, Any], where: str) -> list[str]:
    bad = []
    key_policies = _key_policy_docs(doc)
    docs = {name: body for _, name, body in blocks(doc, "data", "aws_iam_policy_document")}
    for name, body in docs.items():
        if name in key_policies:
            continue  # a key policy's "*" means the key itself
        for st in _statements(body):
            actions = as_list(resolve(st.get("actions"), doc))
            resources = as_list(resolve(st.get("resources"), doc))
            for a in actions:
                if a == "*" or str(a).endswith(":*"):
                    bad.append(f"{where}: policy {name} allows wildcard action {a}")
            if "*" in resources and not set(actions) <= STAR_RESOURCE_ACTIONS:
                bad.append(f"{where}: policy {name} grants {actions} on '*'")
    # The gateway task role: Bedrock invoke on the listed model ARNs, nothing else.
    task_roles = {n for _, n, b in blocks(doc, "resource", "aws_iam_role") if n == "task"}
    for role in task_roles:
        for _, name, body in blocks(doc, "resource", "aws_iam_role_policy_attachment"):
            if f"aws_iam_role.{role}." in str(body.get("role")):
                bad.append(f"{where}: managed policy attached to the task role ({name})")
        found = False
        for _, name, body in blocks(doc, "resource", "aws_iam_role_policy"):
            if f"aws_iam_role.{role}." not in str(body.get("role")):
                continue
            found = True
            m = re.fullmatch(
                r"\$\{data\.aws_iam_policy_document\.(\w+)\.json\}", str(body.get("policy"))
            )
            if not m or m.group(1) not in docs:
                bad.append(f"{where}: task role policy {name} is not a policy document")
                continue
            for st in _statements(docs[m.group(1)]):
                actions = set(as_list(resolve(st.get("actions"), doc)))
                if not actions or not actions <= BEDROCK_ACTIONS:
                    bad.append(f"{where}: task role may do {sorted(actions - BEDROCK_ACTIONS)}")
                if st.get("resources") != "${var.bedrock_model_arns}":
                    bad.append(f"{where}: task role resources are not var.bedrock_model_arns")
                if st.get("effect", "Allow") != "Allow" or st.get("not_actions"):
                    bad.append(f"{where}: task role statement uses deny/not_actions")
        if not found:
            bad.append(f"{where}: task role has no inline Bedrock policy")
    return bad


def gcp_iam(doc: dict[str, Any], where: str) -> list[str]:
    bad = []
    for t in ("google_project_iam_binding", "google_project_iam_policy"):
        for _, name, _ in blocks(doc, "resource", t):
            bad.append(f"{where}: authoritative {t}.{name} (use members)")
    for _, name, body in blocks(doc, "resource", "google_project_iam_member"):
        role = body.get("role")
        if role == "${each.value}":
            roles = set(as_list(resolve(body.get("for_each"), doc)))
        else:
            roles = {role}
        if not roles or not roles <= GCP_GATEWAY_ROLES:
            bad.append(
                f"{where}: project role(s) {sorted(roles - GCP_GATEWAY_ROLES)} granted ({name})"
            )
    for _, name, body in blocks(doc, "resource", "google_secret_manager_secret_iam_member"):
        if body.get("role") != "roles/secretmanager.secretAccessor":
            bad.append(f"{where}: secret IAM {name} grants {body.get('role')}")
    return bad


def tls(doc: dict[str, Any], where: str) -> list[str]:
    bad = []
    for _, name, body in blocks(doc, "resource", "google_sql_database_instance"):
        ipc = first(first(body, "settings") or {}, "ip_configuration") or {}
        if ipc.get("ssl_mode") not in ("ENCRYPTED_ONLY", "TRUSTED_CLIENT_CERTIFICATE_REQUIRED"):
            bad.append(f"{where}: Cloud SQL {name} accepts unencrypted connections")
    groups = {n: b for _, n, b in blocks(doc, "resource", "aws_db_parameter_group")}
    for _, name, body in blocks(doc, "resource", "aws_db_instance"):
        m = re.fullmatch(
            r"\$\{aws_db_parameter_group\.(\w+)\.name\}", str(body.get("parameter_group_name"))
        )
        params = as_list(groups[m.group(1)].get("parameter")) if m and m.group(1) in groups else []
        if not any(p.get("name") == "rds.force_ssl" and str(p.get("value")) == "1" for p in params):
            bad.append(f"{where}: RDS {name} does not force TLS (rds.force_ssl=1)")
    for _, name, body in blocks(doc, "resource", "aws_lb_listener"):
        if body.get("protocol") == "HTTPS":
            if not body.get("certificate_arn") or "TLS13" not in str(body.get("ssl_policy", "")):
                bad.append(
                    f"{where}: HTTPS listener {name} lacks a certificate or a TLS 1.2+/1.3 policy"
                )
            continue
        action = first(body, "default_action") or {}
        redirect = first(action, "redirect") or {}
        if action.get("type") != "redirect" or redirect.get("protocol") != "HTTPS":
            bad.append(f"{where}: listener {name} serves plain HTTP")
    for key, value in locals_of(doc).items():
        if "url" in key and "postgresql" in str(value) and "sslmode=require" not in str(value):
            bad.append(f"{where}: local.{key} connects to PostgreSQL without sslmode=require")
    return bad


# --- text rules -------------------------------------------------------------------------------

SECRET_PATTERNS = {
    "AWS access key id": re.compile(r"\bA(KIA|SIA)[0-9A-Z]{16}\b"),
    "private key": re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
    "OpenAI-style key": re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b"),
    "Replicate token": re.compile(r"\br8_[A-Za-z0-9]{20,}\b"),
    "Google API key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"),
}
_ASSIGN = re.compile(
    r"(?i)\b([A-Z_]*(?:PASSWORD|SECRET|TOKEN|ADMIN_KEY)[A-Z_]*)\s*(?:=|:\s)\s*(.*)$"
)
_REFERENCE = re.compile(r"^[A-Za-z_][\w-]*(\.[\w\[\]\"-]+)+$")  # var.x, random_password.y.result


def _literal_secret(value: str) -> bool:
    v = value.split(" #")[0].strip().strip(",").strip()
    if not v or v in ("{}", "[]", "null", "|", ">") or v.startswith(("${", "$(", "[", "{")):
        return False
    if _REFERENCE.match(v) or any(c in v for c in "()`"):
        return False
    v = v.strip("\"'")
    return len(v) >= 6 and not v.startswith(("placeholder", "${")) and " " not in v


def secrets_in_text(text: str, where: str) -> list[str]:
    bad = []
    for n, line in enumerate(text.splitlines(), 1):
        for label, pattern in SECRET_PATTERNS.items():
            if pattern.search(line):
                bad.append(f"{where}:{n}: looks like a {label}")
        m = _ASSIGN.search(line)
        if m and not line.lstrip().startswith(("#", "//")) and _literal_secret(m.group(2)):
            bad.append(f"{where}:{n}: {m.group(1)} has a literal value")
    return bad
