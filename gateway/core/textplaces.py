"""Every place of a chat request that carries text, in one walk.

The classifier reads exactly these places, the redactor rewrites exactly these places, and the
upstream body builders send only fields whose text is enumerated here: the three can never
disagree about what leaves. The request schema is closed (`gateway.core.types`), so a field the
walk does not know cannot be in a request at all; `TEXT_FIELDS` and `PLAIN_FIELDS` together
name every top-level field (a test keeps them complete).

A place is (label, text). Labels look like `messages[0].content[1].text` or
`tools[0].function.parameters.properties.name` (a JSON object's key is its own place, labelled
`...#key`: property names of a schema are free text too). Content parts whose payload is not
text (images, audio, files, parts of a type this walk does not know) are reported as unreadable:
their text fields (a file name, a part's `text`) are still places, their base64 payload is not.

An embeddings request is classified as the chat request of `EmbeddingsRequest.as_chat`:
`input[i]` is read as `messages[i].content` and `user` as `user`."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from gateway.core.types import (
    ChatMessage,
    ChatRequest,
    ContentPart,
    FunctionCall,
    FunctionDef,
)

# content-part types whose payload is their `text` (or `refusal`)
TEXT_PART_TYPES = frozenset({"text", "input_text", "output_text", "refusal"})
# payload keys of unreadable parts that hold encoded bytes, not text
_ENCODED_KEYS = frozenset({"data", "file_data"})

# top-level fields whose values are walked for text ...
TEXT_FIELDS = (
    "messages",
    "tools",
    "functions",
    "tool_choice",
    "function_call",
    "response_format",
    "stop",
    "metadata",
    "user",
    "safety_identifier",
    "prompt_cache_key",
    "prediction",
    "audio",
    "web_search_options",
    "logit_bias",
)
# ... and those that hold no free text (numbers, booleans, enumerations, the gateway's alias)
PLAIN_FIELDS = (
    "model",
    "stream",
    "stream_options",
    "max_tokens",
    "max_completion_tokens",
    "temperature",
    "top_p",
    "seed",
    "n",
    "parallel_tool_calls",
    "presence_penalty",
    "frequency_penalty",
    "logprobs",
    "top_logprobs",
    "service_tier",
    "store",
    "modalities",
    "reasoning_effort",
    "verbosity",
)


class _KeyOf:
    """Marks a place that is a JSON object's key (rewritten by renaming the key)."""

    __slots__ = ("key",)

    def __init__(self, key: str) -> None:
        self.key = key


# (label, text, holder, slot): where the text sits, so it can be rewritten in place
_Place = tuple[str, str, Any, Any]


@dataclass(frozen=True, slots=True)
class Scan:
    """What one walk of a request found."""

    texts: tuple[str, ...]  # in walk order
    unreadable: tuple[str, ...] = ()  # labels of parts whose payload is not text, with type


# what most requests are: messages of role + string content and no other text-bearing field
_PLAIN_REQUEST = frozenset(PLAIN_FIELDS) | {"messages"}
_PLAIN_MESSAGE = frozenset({"role", "content"})


def scan(request: ChatRequest) -> Scan:
    """The texts of every place (the classifier's input) and the unreadable parts."""
    if request.model_fields_set <= _PLAIN_REQUEST:
        # the walk's answer for such a request, without walking it (the hot path)
        texts: list[str] = []
        for m in request.messages:
            content = m.content
            if type(content) is not str or not m.model_fields_set <= _PLAIN_MESSAGE:
                break
            if content:
                texts.append(content)
        else:
            return Scan(tuple(texts))
    unreadable: list[str] = []
    found = tuple(text for _, text, _, _ in _walk(request, unreadable))
    return Scan(found, tuple(unreadable))


def places(request: ChatRequest) -> list[tuple[str, str]]:
    """(label, text) of every text-bearing place, in walk order."""
    return [(label, text) for label, text, _, _ in _walk(request, [])]


def request_texts(request: ChatRequest) -> list[str]:
    return list(scan(request).texts)


def replace_texts(request: ChatRequest, texts: Sequence[str]) -> ChatRequest:
    """A deep copy of `request` with the text of each place (in walk order) replaced by
    `texts`; the original is left untouched."""
    new = request.model_copy(deep=True)
    found = list(_walk(new, []))
    if len(found) != len(texts):
        raise ValueError(f"{len(texts)} texts for {len(found)} places")
    renames: list[tuple[dict[str, Any], str, str]] = []
    for (_label, old, holder, slot), value in zip(found, texts, strict=True):
        if value == old:
            continue
        if isinstance(slot, _KeyOf):
            renames.append((holder, slot.key, value))
        elif isinstance(holder, BaseModel):
            setattr(holder, slot, value)
        else:
            holder[slot] = value
    for obj, old_key, new_key in reversed(renames):  # innermost objects first
        items = [(new_key if k == old_key else k, v) for k, v in obj.items()]
        obj.clear()
        obj.update(items)
    return new


def _walk(request: ChatRequest, unreadable: list[str]) -> Iterator[_Place]:
    for i, m in enumerate(request.messages):
        yield from _message(m, f"messages[{i}]", unreadable)
    for i, t in enumerate(request.tools or ()):
        yield from _function_def(t.function, f"tools[{i}].function")
    for i, f in enumerate(request.functions or ()):
        yield from _function_def(f, f"functions[{i}]")
    r = request
    for name in ("tool_choice", "function_call", "stop", "metadata", "logit_bias"):
        value = getattr(r, name)
        if value is not None:
            yield from _json(r, name, value, name)
    if r.response_format is not None and r.response_format.json_schema is not None:
        rf = r.response_format
        yield from _json(rf, "json_schema", rf.json_schema, "response_format.json_schema")
    for name in ("user", "safety_identifier", "prompt_cache_key"):
        value = getattr(r, name)
        if value:
            yield name, value, r, name
    if r.prediction is not None:
        yield from _content(r.prediction, "prediction.content", unreadable)
    if r.audio is not None:
        yield "audio.voice", r.audio.voice, r.audio, "voice"
    ws = r.web_search_options
    if ws is not None and ws.user_location is not None:
        loc = ws.user_location.approximate
        for name in ("city", "country", "region", "timezone"):
            value = getattr(loc, name)
            if value:
                yield f"web_search_options.user_location.approximate.{name}", value, loc, name


def _message(m: ChatMessage, at: str, unreadable: list[str]) -> Iterator[_Place]:
    if m.content is not None:
        yield from _content(m, at + ".content", unreadable)
    for name in ("name", "refusal", "tool_call_id"):
        value = getattr(m, name)
        if value:
            yield f"{at}.{name}", value, m, name
    if m.audio is not None:
        yield f"{at}.audio.id", m.audio.id, m.audio, "id"
    for k, tc in enumerate(m.tool_calls or ()):
        yield f"{at}.tool_calls[{k}].id", tc.id, tc, "id"
        yield from _function_call(tc.function, f"{at}.tool_calls[{k}].function")
    if m.function_call is not None:
        yield from _function_call(m.function_call, f"{at}.function_call")


def _content(holder: Any, at: str, unreadable: list[str]) -> Iterator[_Place]:
    """A message's (or prediction's) `content`: a string or a list of parts."""
    content = holder.content
    if isinstance(content, str):
        if content:
            yield at, content, holder, "content"
        return
    for j, part in enumerate(content):
        yield from _part(part, f"{at}[{j}]", unreadable)


def _part(part: ContentPart, at: str, unreadable: list[str]) -> Iterator[_Place]:
    if part.type not in TEXT_PART_TYPES:
        unreadable.append(f"{at} ({part.type[:64]})")
        yield at + ".type", part.type, part, "type"
    elif part.image_url is not None or part.input_audio is not None or part.file is not None:
        unreadable.append(f"{at} ({part.type} with a payload)")
    for name in ("text", "refusal"):
        value = getattr(part, name)
        if value:
            yield f"{at}.{name}", value, part, name
    for name in ("image_url", "input_audio", "file"):
        value = getattr(part, name)
        if value is not None:
            yield from _json(part, name, value, f"{at}.{name}", skip=_ENCODED_KEYS)


def _function_call(fc: FunctionCall, at: str) -> Iterator[_Place]:
    yield at + ".name", fc.name, fc, "name"
    if fc.arguments:
        yield at + ".arguments", fc.arguments, fc, "arguments"


def _function_def(fd: FunctionDef, at: str) -> Iterator[_Place]:
    yield at + ".name", fd.name, fd, "name"
    if fd.description:
        yield at + ".description", fd.description, fd, "description"
    if fd.parameters is not None:
        yield from _json(fd, "parameters", fd.parameters, at + ".parameters")


def _json(
    holder: Any, slot: Any, value: Any, at: str, skip: frozenset[str] = frozenset()
) -> Iterator[_Place]:
    """Every string in a JSON value: string values, and the keys of objects."""
    if isinstance(value, str):
        if value and not (skip and (slot in skip or value.startswith("data:"))):
            yield at, value, holder, slot
    elif isinstance(value, dict):
        for k, v in list(value.items()):
            yield f"{at}.{k}#key", k, value, _KeyOf(k)
            yield from _json(value, k, v, f"{at}.{k}", skip)
    elif isinstance(value, list):
        for n, v in enumerate(value):
            yield from _json(value, n, v, f"{at}[{n}]", skip)
