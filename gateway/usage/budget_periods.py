"""What a budget is made of, as pure functions: its scopes, its span (day, ISO week, month),
the period key its counters belong to at a given time, and its id.

Ids: a monthly budget keeps the id it always had, `<scope>:<subject>` (so budgets made before
spans existed keep theirs); a daily or weekly one is `<span>:<scope>:<subject>`. Spans and
scopes are disjoint words, so an id's first part says which form it is, whatever the subject.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final, Literal

from gateway.policy.tags import KEY_PATTERN

Span = Literal["day", "week", "month"]
Scope = Literal["tenant", "app", "key", "alias", "tag"]
SPANS: Final[tuple[Span, ...]] = ("day", "week", "month")
SCOPES: Final[tuple[Scope, ...]] = ("tenant", "app", "key", "alias", "tag")
MAX_SUBJECT: Final = 128
ADJECTIVE: Final[dict[str, str]] = {"day": "daily", "week": "weekly", "month": "monthly"}

# tenants, apps, key ids and aliases: any printable text (names made before budgets had scopes
# were never restricted), without control characters or surrounding blanks
_NAME = re.compile(r"[^\x00-\x20\x7f](?:[^\x00-\x1f\x7f]*[^\x00-\x20\x7f])?")
_TAG_KEY = re.compile(KEY_PATTERN)
_TAG_VALUE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.:/@+-]{0,63}")


def period_key(span: str, ts: float) -> str:
    """The period `ts` falls in (UTC): YYYY-MM-DD, YYYY-Www (ISO week) or YYYY-MM."""
    at = datetime.fromtimestamp(ts, UTC)
    if span == "day":
        return at.strftime("%Y-%m-%d")
    if span == "week":
        year, week, _ = at.isocalendar()
        return f"{year}-W{week:02d}"
    return at.strftime("%Y-%m")


def budget_id(scope: str, subject: str, span: str = "month") -> str:
    return f"{scope}:{subject}" if span == "month" else f"{span}:{scope}:{subject}"


def span_of_id(bid: str) -> Span:
    head = bid.split(":", 1)[0]
    return "day" if head == "day" else "week" if head == "week" else "month"


def check_span(text: str) -> Span:
    for span in SPANS:
        if text == span:
            return span
    raise ValueError(f"a budget period is day, week or month, got {text[:20]!r}")


def check_subject(scope: str, subject: str) -> str:
    """The subject, checked for its scope: tenant, `tenant/app`, key id, alias, `name=value`."""
    if scope not in SCOPES:
        raise ValueError(f"a budget scope is one of {', '.join(SCOPES)}, got {scope!r}")
    if not subject or len(subject) > MAX_SUBJECT:
        raise ValueError(f"a budget's {scope} must be 1-{MAX_SUBJECT} characters")
    if scope == "app":
        tenant, sep, app = subject.partition("/")
        if not sep or not _NAME.fullmatch(tenant) or not _NAME.fullmatch(app) or "/" in app:
            raise ValueError(f"an app budget names TENANT/APP, got {subject!r}")
    elif scope == "tag":
        name, sep, value = subject.partition("=")
        if not sep or not _TAG_KEY.fullmatch(name) or not _TAG_VALUE.fullmatch(value):
            raise ValueError(
                f"a tag budget names NAME=VALUE (a tag the policy keeps), got {subject!r}"
            )
    elif not _NAME.fullmatch(subject):
        raise ValueError(f"a {scope} name is printable text, got {subject!r}")
    return subject


def tenant_of_subject(scope: str, subject: str) -> str | None:
    """The tenant a tenant or app budget belongs to (a key's is looked up; alias and tag
    budgets belong to no single tenant)."""
    if scope == "tenant":
        return subject
    if scope == "app":
        return subject.partition("/")[0]
    return None


def who(scope: str, subject: str) -> str:
    return f"{scope} '{subject}'"
