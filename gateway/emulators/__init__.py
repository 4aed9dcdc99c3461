"""Local servers that speak each vendor's real wire protocol, for offline policy trials and tests.

Every emulator shares the control surface in `base`: a behaviour mode (answer normally, fail
with a status, throttle, hang before the first byte, cut a stream mid-way, send a malformed
frame) and a log of what the client sent, both reachable over HTTP under `/_emulator/`.
"""
