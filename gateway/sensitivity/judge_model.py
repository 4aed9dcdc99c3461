"""The judge's language model: Gemma 3 270M (judge_file.py) run in this process by llama.cpp
(llama-cpp-python, the `local` extra), asked one question per sentence: is this text about a
specific person? It answers with the logits of the last position: the difference of the
' Yes' and ' No' logits and the logits of a fixed spread of vocabulary entries, which are a
linear image of the model's last hidden state (Gemma's output layer is its input embedding,
640 wide, and 1017 rows of it span that width), for a head trained here to read.

The instructions and eight worked examples come first and are evaluated once when the model
is loaded; each sentence then costs only its own tokens and the answer cue (the prefix stays
in the KV cache and only what follows it is removed between sentences).

Not thread-safe: a context is one sequence. `Judge` (judge.py) holds the lock."""

from __future__ import annotations

import ctypes
import hashlib
import json
import math
import time
from pathlib import Path
from typing import Any, Final

import numpy as np

PROMPT_PREFIX: Final = (
    "Each text mentions a sensitive topic (health, religion, ethnicity, politics, union, "
    "sexuality, crime, biometrics, genetics, dress). Answer Yes if the text is about a specific "
    "real person (the writer, a relative, a patient, a client, an employee, a named person), "
    "No if it is general talk, a question about the topic, news, teaching, law or code.\n\n"
    "Text: Hastam depresyonda, ilaç dozunu artırmalı mıyım?\nAbout a person: Yes\n\n"
    "Text: Depresyon belirtileri nelerdir, ne zaman doktora gidilmeli?\nAbout a person: No\n\n"
    "Text: My dad's chemo starts Monday so I need to work from home.\nAbout a person: Yes\n\n"
    "Text: Write a blog post on how chemotherapy works.\nAbout a person: No\n\n"
    "Text: Geçen seçimde CHP'ye oy verdim, müdürüm öğrenirse ne olur?\nAbout a person: Yes\n\n"
    "Text: CHP'nin kuruluş yılı nedir?\nAbout a person: No\n\n"
    "Text: I'm bisexual and scared to come out at work.\nAbout a person: Yes\n\n"
    "Text: What does the research say about bisexual visibility?\nAbout a person: No\n\n"
    "Text: "
)
PROMPT_SUFFIX: Final = "\nAbout a person:"
# the vocabulary rows whose logits are features: every 256th from 1000 to 1000 short of the
# end (1017 rows, a spread over the whole vocabulary, none of the control tokens at its
# start or the image tokens at its end)
FEATURE_TOKENS: Final = tuple(range(1000, 262_144 - 1000, 256))
YES_TOKEN: Final = " Yes"
NO_TOKEN: Final = " No"
MAX_SENTENCE_TOKENS: Final = 96
N_FEATURES: Final = 1 + len(FEATURE_TOKENS)
# the prefix (~260 tokens) and one sentence (<= 96 + 5) fit in 512 positions. llama.cpp
# reserves its compute buffer for a micro-batch whose every position has logits: 128
# positions x 262,144 vocabulary entries take 129 MB of private memory in every process,
# 512 took 515 MB (a sentence costs ~5% more time at 128). The batch sizes change llama.cpp's
# arithmetic slightly (a micro-batch of 32 moved the features by up to 0.9): they are part
# of what the head was trained for.
_CTX: Final = 1024
_BATCH: Final = 512
_UBATCH: Final = 128


class JudgeModelError(RuntimeError):
    pass


class JudgeTimeout(JudgeModelError):
    """A sentence's evaluation was stopped at its deadline."""


def prompt_digest() -> str:
    """What a trained head depends on: the model file, the prompt, the feature tokens and the
    batch sizes (they change the arithmetic). A head whose digest differs was trained for
    other features and is not used."""
    from gateway.sensitivity.judge_file import SHA256

    spec = json.dumps(
        [SHA256, PROMPT_PREFIX, PROMPT_SUFFIX, FEATURE_TOKENS, MAX_SENTENCE_TOKENS, _BATCH, _UBATCH]
    )
    return hashlib.sha256(spec.encode("utf-8")).hexdigest()


class JudgeModel:
    """One llama.cpp model and context with the prompt's prefix evaluated."""

    def __init__(self, path: Path, threads: int = 1) -> None:
        import llama_cpp  # the `local` extra; imported only when the judge is used

        self._lib: Any = llama_cpp
        lib = self._lib
        lib.llama_backend_init()
        lib.llama_log_set(_QUIET, ctypes.c_void_p(0))
        params = lib.llama_model_default_params()
        # memory-mapped: the weights are the page cache's clean pages of one file, which
        # every process of the host shares
        params.load_mode = lib.LLAMA_LOAD_MODE_MMAP
        self._model = lib.llama_model_load_from_file(str(path).encode(), params)
        if not self._model:
            raise JudgeModelError(f"llama.cpp could not load {path.name}")
        self._vocab = lib.llama_model_get_vocab(self._model)
        self._n_vocab = int(lib.llama_vocab_n_tokens(self._vocab))
        cp = lib.llama_context_default_params()
        cp.n_ctx = _CTX
        cp.n_batch = _BATCH
        cp.n_ubatch = _UBATCH
        cp.n_seq_max = 1
        cp.n_threads = threads
        cp.n_threads_batch = threads
        self._ctx = lib.llama_init_from_model(self._model, cp)
        if not self._ctx:
            raise JudgeModelError("llama.cpp could not create a context")  # close() frees
        self._batch = lib.llama_batch_init(_BATCH, 0, 1)
        # llama.cpp asks this between the steps of a computation whether to stop: a sentence
        # is cut off at its deadline instead of overrunning the classifier's time budget
        self._deadline = math.inf
        self._abort = lib.ggml_abort_callback(self._past_deadline)
        lib.llama_set_abort_callback(self._ctx, self._abort, None)
        self._yes = self._single(YES_TOKEN)
        self._no = self._single(NO_TOKEN)
        self._features = np.asarray(FEATURE_TOKENS, dtype=np.int64)
        if int(self._features.max()) >= self._n_vocab:
            raise JudgeModelError("the model's vocabulary is smaller than the feature tokens")
        prefix = self.tokens(PROMPT_PREFIX, bos=True)
        self._suffix = self.tokens(PROMPT_SUFFIX)
        for at in range(0, len(prefix), _BATCH):
            self._decode(prefix[at : at + _BATCH], at)
        self._prefix_len = len(prefix)

    def _past_deadline(self, _data: int) -> bool:
        return time.perf_counter() > self._deadline

    def _single(self, text: str) -> int:
        toks = self.tokens(text)
        if len(toks) != 1:
            raise JudgeModelError(f"{text!r} is not one token of this model")
        return toks[0]

    def tokens(self, text: str, bos: bool = False) -> list[int]:
        data = text.encode("utf-8", "replace")
        room = len(data) + 8
        buf = (self._lib.llama_token * room)()
        n = self._lib.llama_tokenize(self._vocab, data, len(data), buf, room, bos, False)
        if n < 0:
            raise JudgeModelError("tokenizer overflow")
        return list(buf[:n])

    def _decode(self, toks: list[int], pos0: int) -> None:
        b = self._batch
        last = len(toks) - 1
        for i, t in enumerate(toks):
            b.token[i] = t
            b.pos[i] = pos0 + i
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = 0
            b.logits[i] = i == last
        b.n_tokens = len(toks)
        rc = self._lib.llama_decode(self._ctx, b)
        if rc == 2:  # stopped by the abort callback
            raise JudgeTimeout("the sentence's deadline passed")
        if rc != 0:
            raise JudgeModelError(f"llama_decode returned {rc}")

    def features(self, sentence: str, deadline: float = math.inf) -> list[float]:
        """The answer position's features for one sentence: [yes - no, logits of the feature
        tokens]. The sentence's whitespace is collapsed and it is cut at 96 tokens. Raises
        JudgeTimeout when time.perf_counter() passes `deadline` before the answer."""
        memory = self._lib.llama_get_memory(self._ctx)
        self._lib.llama_memory_seq_rm(memory, 0, self._prefix_len, -1)
        toks = self.tokens(" ".join(sentence.split()))[:MAX_SENTENCE_TOKENS] + self._suffix
        self._deadline = deadline
        try:
            self._decode(toks, self._prefix_len)
        finally:
            self._deadline = math.inf
        ptr = self._lib.llama_get_logits_ith(self._ctx, -1)
        logits = np.ctypeslib.as_array(ptr, shape=(self._n_vocab,))
        picked: list[float] = logits[self._features].astype(np.float64).tolist()
        return [float(logits[self._yes]) - float(logits[self._no]), *picked]

    def close(self) -> None:
        # also after a constructor that failed part-way (a llama.cpp without these symbols,
        # a file it cannot load): only what was made is freed, and nothing raises in __del__
        lib = getattr(self, "_lib", None)
        if lib is None:
            return
        batch, self._batch = getattr(self, "_batch", None), None
        if batch is not None:
            lib.llama_batch_free(batch)
        ctx, self._ctx = getattr(self, "_ctx", None), None
        if ctx:
            lib.llama_free(ctx)
        model, self._model = getattr(self, "_model", None), None
        if model:
            lib.llama_model_free(model)

    def __del__(self) -> None:
        self.close()


def _quiet(level: int, text: bytes, user_data: int) -> None:
    """llama.cpp's log sink: its load messages would go to the gateway's stderr."""


# a C callback must outlive every call that may log, so it is made once
_QUIET: Final = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_char_p, ctypes.c_void_p)(_quiet)
