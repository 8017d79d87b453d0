"""Asking a home router to forward the host's port (issue 39): UPnP IGD, when the host asks.

What belongs here: ``PortMapping`` (find the router, ask it to forward the server's TCP port to
this computer, say what came of it in plain words, take the forwarding back when the server
stops), and the words for forwarding a port by hand. Nothing here runs unless the host switches
it on in the host screen: telling a router to open a port is the host's decision.

The library is ``miniupnpc`` (the MiniUPnP project's own Python binding): it is the reference
UPnP IGD client that routers' own firmware and programs such as Transmission are tested against,
it is still released (2.3), ships wheels, is small and has no dependencies. ``async-upnp-client``
is maintained too but brings aiohttp and four more packages for the same three calls;
``upnpclient`` and ``py-natpmp`` have had no release for years. NAT-PMP / PCP (Apple's
protocol) is not covered: the routers that speak only that are few, and the host screen says
how to forward by hand whatever happens.

Discovery blocks for up to ``DISCOVER_MS``, so ``start()`` runs it in a thread and the screen
reads ``status`` / ``line()`` each frame. The router is reached through a small interface
(``discover``, ``selectigd``, ``externalipaddress``, ``addportmapping``, ``deleteportmapping``,
``lanaddr``: miniupnpc's own names), so the tests drive a fake router.
"""
from __future__ import annotations

import ipaddress
import logging
import threading
from typing import Any, Callable, Optional

from ..words import i18n

log = logging.getLogger(__name__)

DISCOVER_MS = 2000  # how long routers are asked to answer the search (they answer in milliseconds)
LEASE = 0  # 0: until removed (some routers refuse a lease; the mapping is removed when the server stops)
DESCRIPTION = "Gonzaga online game"

WORKING, MAPPED, NO_ROUTER, REFUSED, UNREACHABLE, UNAVAILABLE = (
    "working", "mapped", "no_router", "refused", "unreachable", "unavailable")


def _miniupnpc() -> Any:
    import miniupnpc  # type: ignore[import-not-found,unused-ignore]  # imported only when the host asks: the game starts without it
    u = miniupnpc.UPnP()
    u.discoverdelay = DISCOVER_MS
    return u


def _shared(ip: str) -> bool:
    """An address the internet cannot reach: the router itself sits behind another router (a
    private address) or behind the provider's shared one (100.64.0.0/10, carrier-grade NAT)."""
    try:
        a = ipaddress.ip_address(ip)
    except ValueError:
        return True
    return a.version != 4 or a.is_unspecified or a.is_loopback or any(a in n for n in _BEHIND)


# the addresses a router gets from another router or from its provider's shared NAT (the
# documentation ranges, which Python also calls private, are left out: tests use them)
_BEHIND = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16",
                                                  "100.64.0.0/10", "169.254.0.0/16"))


class PortMapping:
    """One forwarding of ``port`` (TCP) on the router to this computer, asked for in a thread."""

    def __init__(self, port: int, router_factory: Optional[Callable[[], Any]] = None):
        self.port = port
        self.status = WORKING
        self.external_ip: Optional[str] = None
        self.reason = ""  # the router's own words when it refuses (kept for the log and the line)
        self._factory = router_factory  # None: miniupnpc, looked up when asked (tests replace it)
        self._router: Any = None  # miniupnpc's UPnP object, once a port is forwarded
        self._lock = threading.Lock()
        self._thread: Optional[threading.Thread] = None

    # ------------------------------------------------------------ asking

    def start(self) -> "PortMapping":
        self._thread = threading.Thread(target=self.run, name="gonzaga-portmap", daemon=True)
        self._thread.start()
        return self

    def join(self, timeout: Optional[float] = None) -> bool:
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    def run(self) -> str:
        """Find the router and ask it; the outcome is ``status`` (also returned)."""
        try:
            router = (self._factory or _miniupnpc)()
        except ImportError:
            return self._done(UNAVAILABLE)
        try:
            if not router.discover():
                return self._done(NO_ROUTER)
            router.selectigd()  # raises when none of the devices found is an internet gateway
        except Exception as e:  # miniupnpc raises a plain Exception("No UPnP device discovered")
            log.info("no UPnP router: %r", e)
            return self._done(NO_ROUTER)
        try:
            external = router.externalipaddress()
        except Exception as e:
            external = None
            log.info("the router does not tell its internet address: %r", e)
        try:
            ok = router.addportmapping(self.port, "TCP", router.lanaddr, self.port, DESCRIPTION, "", LEASE)
        except Exception as e:  # e.g. "ConflictInMappingEntry": the port goes to another computer
            log.info("the router refused to forward port %d: %r", self.port, e)
            return self._done(REFUSED, reason=str(e))
        if not ok:
            return self._done(REFUSED)
        with self._lock:
            self._router = router
        self.external_ip = external
        if not external or _shared(external):
            return self._done(UNREACHABLE)  # forwarded, but the router's own address is not the internet's
        return self._done(MAPPED)

    def _done(self, status: str, reason: str = "") -> str:
        self.reason = reason
        self.status = status
        log.info("port mapping of %d: %s %s", self.port, status, reason)
        return status

    def remove(self) -> None:
        """Take the forwarding back (the server stops); quiet when there is none or the router is gone."""
        with self._lock:
            router, self._router = self._router, None
        if router is None:
            return
        try:
            router.deleteportmapping(self.port, "TCP")
        except Exception as e:
            log.info("the router did not take back the forwarding of port %d: %r", self.port, e)

    # ------------------------------------------------------------ words

    def address(self, pin: Optional[str] = None) -> Optional[str]:
        """The address friends on the internet use, once the router forwards to a public address."""
        if self.status != MAPPED or not self.external_ip:
            return None
        url = f"wss://{self.external_ip}:{self.port}"
        return f"{url}#{pin}" if pin else url

    def line(self, lan: Optional[str] = None) -> str:
        """What the host screen says of it, in plain words, with how to forward by hand when needed."""
        by_hand = by_hand_words(self.port, lan)
        if self.status == WORKING:
            return i18n.t("portmap.working")
        if self.status == MAPPED:
            return i18n.t("portmap.mapped", port=self.port, ip=self.external_ip)
        if self.status == UNREACHABLE:
            return " ".join([i18n.t("portmap.unreachable", ip=self.external_ip or "?"), by_hand])
        if self.status == REFUSED:
            why = i18n.t("portmap.refused_why", reason=self.reason[:80]) if self.reason else ""
            return " ".join(x for x in (i18n.t("portmap.refused", port=self.port), why, by_hand) if x)
        if self.status == NO_ROUTER:
            return " ".join([i18n.t("portmap.no_router"), by_hand])
        return " ".join([i18n.t("portmap.unavailable"), by_hand])


def by_hand_words(port: int, lan: Optional[str]) -> str:
    """How to forward the port by hand on the router's own page."""
    return i18n.t("portmap.by_hand", port=port, computer=lan or i18n.t("portmap.this_computer"))
