"""The pure parts of budget alerts: which thresholds a budget has reached, what the body holds
(and does not), the signature a receiver recomputes, and the settings that refuse an unsigned
webhook."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from gateway.service.webhook import signature, verify
from gateway.settings import Settings
from gateway.usage.budget_alerts import payload, reached
from gateway.usage.budgets import BudgetView

NOW = datetime(2026, 3, 4, 12, tzinfo=UTC).timestamp()


def _view(spent: str, reserved: str = "0", period: str = "2026-03-04") -> BudgetView:
    return BudgetView(
        "day:tag:project=atlas",
        "tag",
        "project=atlas",
        "USD",
        Decimal(10),
        Decimal(spent),
        Decimal(reserved),
        period,
        "day",
        None,
    )


@pytest.mark.parametrize(
    ("spent", "want"),
    [("4.99", []), ("5", [50]), ("7.99", [50]), ("8", [50, 80]), ("10", [50, 80, 100])],
)
def test_thresholds_follow_spend(spent: str, want: list[int]) -> None:
    assert reached(_view(spent), NOW) == want


def test_a_refusal_reaches_every_threshold_but_only_in_the_running_period() -> None:
    assert reached(_view("6", reserved="3.5"), NOW, refused=True) == [50, 80, 100]
    # the counters of yesterday: nothing (the first reservation today resets them)
    assert reached(_view("10", period="2026-03-03"), NOW) == []
    assert reached(_view("10", period="2026-03-03"), NOW, refused=True) == []


def test_the_body_names_figures_only() -> None:
    body = json.loads(payload(_view("8.25"), 80, NOW))
    assert body["threshold"] == 80 and body["used_percent"] == 82.5
    assert body["budget"]["spent"] == "8.25" and body["budget"]["limit"] == "10"
    assert set(body) == {"type", "id", "created", "budget", "threshold", "used_percent"}


def test_the_signature_is_hmac_sha256_of_timestamp_dot_body() -> None:
    body = b'{"a":1}'
    want = hmac.new(b"k" * 16, b"1700000000." + body, hashlib.sha256).hexdigest()
    assert signature("k" * 16, 1700000000, body) == "sha256=" + want
    headers = {"x-gecit-timestamp": "1700000000", "x-gecit-signature": "sha256=" + want}
    assert verify("k" * 16, body, headers, now=1700000100)
    assert not verify("k" * 16, body + b" ", headers, now=1700000100)  # another body
    assert not verify("k" * 16, body, headers, now=1700000400)  # a replay, 400 s later
    assert not verify("x" * 16, body, headers, now=1700000100)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"GECIT_BUDGET_ALERT_URL": "http://127.0.0.1:9/x"}, "SECRET"),
        (
            {
                "GECIT_BUDGET_ALERT_URL": "http://127.0.0.1:9/x",
                "GECIT_BUDGET_ALERT_SECRET": "short",
            },
            "at least 16",
        ),
        (
            {"GECIT_BUDGET_ALERT_URL": "ftp://x", "GECIT_BUDGET_ALERT_SECRET": "s" * 16},
            "http",
        ),
        ({"GECIT_BUDGET_ALERT_ATTEMPTS": "0"}, "ATTEMPTS"),
        ({"GECIT_BUDGET_ALERT_BACKOFF_S": "soon"}, "BACKOFF"),
    ],
)
def test_an_unsigned_or_malformed_webhook_setting_is_refused(
    env: dict[str, str], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Settings.from_env(env=env)


def test_the_webhook_settings_come_from_variables_and_flags() -> None:
    from gateway.cli import build_parser

    s = Settings.from_env(
        env={
            "GECIT_BUDGET_ALERT_URL": "https://hooks.example/x",
            "GECIT_BUDGET_ALERT_SECRET": "s" * 16,
        }
    )
    assert (s.budget_alert_url, s.budget_alert_check_s, s.budget_alert_attempts) == (
        "https://hooks.example/x",
        5.0,
        8,
    )
    args = build_parser("serve").parse_args(
        ["serve", "--budget-alert-attempts", "3", "--budget-alert-backoff-s", "0.5"]
    )
    assert (args.budget_alert_attempts, args.budget_alert_backoff_s) == (3, 0.5)
