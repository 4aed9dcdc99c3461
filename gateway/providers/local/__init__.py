"""The bundled llama.cpp engine (llama-cpp-python server + SmolLM2), run as a supervised child."""
