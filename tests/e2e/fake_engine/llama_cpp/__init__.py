"""A stand-in for llama-cpp-python that fails like an engine built for another CPU: it loads,
answers `/v1/models`, and dies of SIGSEGV on its first computation. Put this directory first on
PYTHONPATH of a `gateway serve` subprocess (never imported by the test process itself)."""
