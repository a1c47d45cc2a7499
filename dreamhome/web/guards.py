"""The guards of every request to `dreamhome serve`: the Host and Origin it must name, the
headers every answer carries, and the server's folders scrubbed from every message.

Why (app.py's docstring has the whole story): the server binds to 127.0.0.1, but any web page
the person opens could send requests to it. The Host header must name the server, always
(`HostGuard`: the loopback names, the address bound and the names given with `--allow-host`;
a wildcard is never accepted, so DNS rebinding fails on any `--host`); a request that changes
something and carries an `Origin` must come from one of those names; every answer carries a
Content-Security-Policy that allows only the server's own files (`SecurityHeaders`); an error
never names a path of the server's disk (`Scrubber`).
"""

from __future__ import annotations

import ipaddress
import os
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dreamhome.web.answers import error_response

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'none'; frame-ancestors 'none'; base-uri 'none'"
)
LOCAL_HOSTS = ["127.0.0.1", "localhost", "::1"]
"""Host names always served: the loopback names (the address bound and `--allow-host` add others)."""
HOST_NAME = re.compile(r"(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class BadHostError(ValueError):
    """A name given to `--allow-host` that is not a host name or an IP address."""


def host_name(name: str) -> str:
    """`name` as the Host check compares it: lower case, IPv6 without brackets; `BadHostError`
    for a wildcard, a port or anything else that is not one host name or IP address."""
    text = name.strip().lower().rstrip(".")
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        pass
    else:
        if address.is_unspecified:  # 0.0.0.0 or ::: "every interface" is no name a browser sends
            raise BadHostError(f"{name[:80]!r} is the unspecified address, not a host a browser names")
        return str(address)
    if HOST_NAME.fullmatch(text) is None:
        raise BadHostError(f"{name[:80]!r} is not a host name or an IP address (no wildcards, no port)")
    return text


def _host_of(header: str) -> str | None:
    """The host of a Host header or an Origin's netloc, without its port; None if malformed."""
    text = header.strip()
    if text.startswith("["):
        end = text.find("]")
        if end < 0 or (text[end + 1 :] and not re.fullmatch(r":\d{1,5}", text[end + 1 :])):
            return None
        text = text[: end + 1]
    else:
        name, _, port = text.partition(":")
        if port and not port.isdigit():
            return None
        text = name
    try:
        return host_name(text) if text else None
    except BadHostError:
        return None


class Scrubber:
    """Removes the server's own folders from a message before it is answered: an error must
    never tell a client where the server keeps its files (the data folder, the package, Python's
    prefix, the home folder); any other absolute path left is shown as `<path>`."""

    ABSOLUTE = re.compile(r"(?<![\w.~])/(?:[^\s/'\"(),:;]+/)+[^\s/'\"(),:;]*")

    def __init__(self, folders: list[str]):
        variants = {f for folder in folders if folder for f in (folder, os.path.realpath(folder))}
        self.folders = sorted((v.rstrip("/") for v in variants if len(v) > 1), key=len, reverse=True)

    def __call__(self, message: str) -> str:
        for folder in self.folders:
            message = message.replace(folder, "<server>")
        return self.ABSOLUTE.sub("<path>", message)


class HostGuard:
    """The Host header must name the server, always; a changing request's Origin too.

    Against DNS rebinding: a page of evil.example whose name is made to resolve to this machine
    sends `Host: evil.example`, refused here whatever address the server listens on. Against a
    cross-site request: a browser names the page's origin on a POST; one not served is refused
    (403). A request without Origin (curl, a non-browser client) is not a cross-site one."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope.get("headers", [])}
        host = _host_of(headers.get(b"host", b"").decode("latin-1"))
        problem: tuple[int, str] | None = None
        if host is None or host not in self.hosts:
            problem = (400, "this server does not answer to that Host name (dreamhome serve --allow-host adds names)")
        elif scope.get("method", "GET") not in SAFE_METHODS:
            origin = headers.get(b"origin")
            if origin is not None and not self._own_origin(origin.decode("latin-1")):
                problem = (403, "requests from another site are refused")
            elif headers.get(b"sec-fetch-site", b"").lower() == b"cross-site":
                problem = (403, "requests from another site are refused")
        if problem is not None:
            await error_response(*problem)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _own_origin(self, origin: str) -> bool:
        scheme, sep, rest = origin.strip().partition("://")
        if not sep or scheme.lower() not in ("http", "https") or "/" in rest or "@" in rest:
            return False
        host = _host_of(rest)
        return host is not None and host in self.hosts


class SecurityHeaders:
    """CSP and friends on every answer (the replay page brings its own CSP for its inline script)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                if b"content-security-policy" not in names:
                    headers.append((b"content-security-policy", CSP.encode()))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
