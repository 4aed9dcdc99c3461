"""`sensitivity.when_uncertain`: what the engine does with a result the classifier was not sure
of. Default `prefer_on_prem`: on-prem when an on-prem backend can serve, otherwise as detected."""

from __future__ import annotations

from typing import Any

import pytest

from gateway.policy.decision import DropReason
from gateway.policy.engine import decide
from gateway.policy.inputs import RequestInfo
from tests.unit.policy.helpers import SCC, backend, policy

BOTH = {"c": backend("cloud", transfer=SCC), "l": backend()}


def req(band: str, cls: str = "public", **kw: Any) -> RequestInfo:
    return RequestInfo(alias="a", data_class=cls, band=band, **kw)  # type: ignore[arg-type]


def test_default_is_prefer_on_prem() -> None:
    p = policy(BOTH)
    assert p.sensitivity.when_uncertain == "prefer_on_prem"
    d = decide(p, req("uncertain"))
    assert d.candidates == ("l",)
    assert [(x.backend, x.code) for x in d.dropped] == [("c", DropReason.UNCERTAIN)]
    assert d.data_class == "public"
    assert d.trace()["sensitivity"]["band"] == "uncertain"


def test_prefer_on_prem_without_an_on_prem_backend_routes_as_detected() -> None:
    d = decide(policy({"c": backend("cloud", transfer=SCC)}), req("uncertain"))
    assert d.candidates == ("c",)


def test_prefer_on_prem_when_the_on_prem_backend_cannot_serve() -> None:
    p = policy({"c": backend("cloud", transfer=SCC), "l": backend(enabled=False)})
    assert decide(p, req("uncertain")).candidates == ("c",)


def test_confident_result_is_routed_as_detected() -> None:
    d = decide(policy(BOTH), req("confident"))
    assert set(d.candidates) == {"c", "l"}


def test_as_detected_ignores_the_band() -> None:
    p = policy(BOTH, sensitivity={"when_uncertain": "as_detected"})
    assert set(decide(p, req("uncertain")).candidates) == {"c", "l"}


@pytest.mark.parametrize("cls", ["public", "personal"])
def test_special_treats_an_uncertain_result_as_special(cls: str) -> None:
    p = policy(BOTH, sensitivity={"when_uncertain": "special"})
    d = decide(p, req("uncertain", cls))
    assert d.candidates == ("l",) and d.data_class == "special"
    assert [(x.backend, x.code) for x in d.dropped] == [("c", DropReason.ZONE)]
    assert decide(p, req("confident", cls)).data_class == cls


def test_special_blocks_when_only_a_cloud_backend_exists() -> None:
    p = policy({"c": backend("cloud", transfer=SCC)}, sensitivity={"when_uncertain": "special"})
    assert decide(p, req("uncertain")).candidates == ()


def test_unknown_value_is_refused() -> None:
    with pytest.raises(ValueError, match="when_uncertain"):
        policy(BOTH, sensitivity={"when_uncertain": "maybe"})
