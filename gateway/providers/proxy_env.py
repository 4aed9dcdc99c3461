"""Which proxy an upstream URL goes through, read from the environment the way httpx reads it
(`trust_env`), so the lean HTTP/1.1 pool and the httpx clients take the same route.

httpx takes `urllib.request.getproxies()` (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, NO_PROXY, in
either case, the lower-case name winning; HTTP_PROXY ignored under CGI), turns every entry into
a URL pattern and uses the most specific pattern that matches: NO_PROXY entries map to "no
proxy", `*` in NO_PROXY turns every proxy off, and a bare domain also covers its subdomains.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass

import httpx

__all__ = ["proxy_for"]


def _environment_proxies(env: Mapping[str, str]) -> dict[str, str]:
    """`urllib.request.getproxies_environment`, over a given mapping."""
    proxies: dict[str, str] = {}
    for name, value in env.items():
        low = name.lower()
        if value and low.endswith("_proxy"):
            proxies[low[:-6]] = value
    if "REQUEST_METHOD" in env:  # CGI: HTTP_PROXY may come from a client's "Proxy:" header
        proxies.pop("http", None)
    for name, value in env.items():
        if name.endswith("_proxy"):  # the lower-case spelling wins, set or empty
            if value:
                proxies[name[:-6]] = value
            else:
                proxies.pop(name[:-6], None)
    return proxies


def _is_ip(hostname: str, version: type[ipaddress.IPv4Address | ipaddress.IPv6Address]) -> bool:
    try:
        version(hostname.split("/")[0])
    except ValueError:
        return False
    return True


def _mounts(env: Mapping[str, str]) -> dict[str, str | None]:
    info = _environment_proxies(env)
    mounts: dict[str, str | None] = {}
    for scheme in ("http", "https", "all"):
        if info.get(scheme):
            proxy = info[scheme]
            mounts[f"{scheme}://"] = proxy if "://" in proxy else f"http://{proxy}"
    for hostname in (h.strip() for h in info.get("no", "").split(",")):
        if hostname == "*":
            return {}
        if not hostname:
            continue
        if "://" in hostname:
            mounts[hostname] = None
        elif _is_ip(hostname, ipaddress.IPv4Address):
            mounts[f"all://{hostname}"] = None
        elif _is_ip(hostname, ipaddress.IPv6Address):
            mounts[f"all://[{hostname}]"] = None
        elif hostname.lower() == "localhost":
            mounts[f"all://{hostname}"] = None
        else:
            mounts[f"all://*{hostname}"] = None
    return mounts


@dataclass(frozen=True, slots=True)
class _Pattern:
    scheme: str
    host: str
    port: int | None
    host_regex: re.Pattern[str] | None

    @classmethod
    def parse(cls, pattern: str) -> _Pattern:
        url = httpx.URL(pattern)
        host = "" if url.host == "*" else url.host
        regex = None
        if url.host.startswith("*."):  # subdomains only
            regex = re.compile(f"^.+\\.{re.escape(url.host[2:])}$")
        elif url.host.startswith("*"):  # the domain and its subdomains
            regex = re.compile(f"^(.+\\.)?{re.escape(url.host[1:])}$")
        elif host:
            regex = re.compile(f"^{re.escape(url.host)}$")
        return cls("" if url.scheme == "all" else url.scheme, host, url.port, regex)

    def matches(self, url: httpx.URL) -> bool:
        if self.scheme and self.scheme != url.scheme:
            return False
        if self.host_regex is not None and not self.host_regex.match(url.host):
            return False
        return self.port is None or self.port == url.port

    @property
    def priority(self) -> tuple[int, int, int]:
        """Most specific first: a port, then a longer host, then a longer scheme."""
        return (0 if self.port is not None else 1, -len(self.host), -len(self.scheme))


def proxy_for(url: str, env: Mapping[str, str]) -> httpx.URL | None:
    """The proxy `url` is sent through given `env`, or None for a direct connection."""
    target = httpx.URL(url)
    patterns = sorted(
        ((_Pattern.parse(p), proxy) for p, proxy in _mounts(env).items()),
        key=lambda item: item[0].priority,
    )
    for pattern, proxy in patterns:
        if pattern.matches(target):
            return None if proxy is None else httpx.URL(proxy)
    return None
