"""What `previous_response_id` may use, by the policy's `responses` retention: recall a kept
conversation (scoped to the caller's tenant) and decide whether an answered one is kept. A
conversation is kept only when retention is on, the client did not say `store: false` and the
classification of the whole conversation is a data class the policy retains (by default never
special-category data)."""

from __future__ import annotations

from typing import Any

from gateway.core.errors import InvalidRequest
from gateway.openai_api.response_store import Items, ResponseStore
from gateway.openai_api.responses_wire import ResponsesRequest, input_items
from gateway.policy.schema import ResponsesRetention


class ResponseMemory:
    """One request's access to the kept responses of its tenant."""

    def __init__(self, store: ResponseStore, retention: ResponsesRetention, tenant: str) -> None:
        self._store = store
        self._retention = retention
        self._tenant = tenant

    def recall(self, req: ResponsesRequest) -> Items | None:
        """The conversation `previous_response_id` names; None when the request names none
        or retention is off (then the translation refuses the id as unsupported)."""
        rid = req.previous_response_id
        if rid is None or not self._retention.retention_s:
            return None
        items = self._store.get(self._key(rid))
        if items is None:
            raise InvalidRequest(
                "previous_response_id names no response this gateway keeps: unknown, expired "
                f"(responses are kept {self._retention.retention_s:g} s) or not retained for "
                "its data class; send the whole conversation in 'input'",
                param="previous_response_id",
                code="previous_response_not_found",
            )
        return items

    def will_keep(self, req: ResponsesRequest, data_class: str | None) -> bool:
        return (
            bool(self._retention.retention_s)
            and req.store is not False
            and data_class in self._retention.retain_classes
        )

    def keep(
        self,
        response_id: str,
        req: ResponsesRequest,
        earlier: Items | None,
        output: list[dict[str, Any]],
    ) -> None:
        """The conversation so far (earlier turns, this input, this answer's output)."""
        items = [*(earlier or ()), *input_items(req), *output]
        self._store.keep(self._key(response_id), items, self._retention.retention_s)

    def _key(self, response_id: str) -> str:
        return f"{self._tenant}\x00{response_id}"
