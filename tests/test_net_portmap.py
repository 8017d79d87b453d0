"""Issue 39, asking a home router to forward the host's port (``net/portmap.py``), against a fake
router with miniupnpc's interface (no real network here), and the host screen's switch for it.
"""
from __future__ import annotations

import pytest

from gonzaga.net import portmap as PM
from gonzaga.words import i18n


class FakeRouter:
    """miniupnpc.UPnP's calls, answering as a router configured by the test would."""

    lanaddr = "192.168.1.20"

    def __init__(self, devices: int = 1, igd: bool = True, external: str = "203.0.113.7", refuse: str = "",
                 answer: bool = True):
        self.devices, self.igd, self.external, self.refuse, self.answer = devices, igd, external, refuse, answer
        self.mappings: dict[tuple[int, str], tuple] = {}

    def discover(self) -> int:
        return self.devices

    def selectigd(self) -> str:
        if not self.igd:
            raise Exception("No UPnP device discovered")
        return "http://192.168.1.1:5000/ctl/IPConn"

    def externalipaddress(self) -> str:
        return self.external

    def addportmapping(self, eport, proto, host, iport, desc, remote, lease) -> bool:
        if self.refuse:
            raise Exception(self.refuse)
        if self.answer:
            self.mappings[(eport, proto)] = (host, iport, desc)
        return self.answer

    def deleteportmapping(self, eport, proto) -> bool:
        return self.mappings.pop((eport, proto), None) is not None


def test_a_router_that_forwards_gives_the_internet_address_and_takes_it_back():
    router = FakeRouter()
    m = PM.PortMapping(7373, lambda: router)
    assert m.run() == PM.MAPPED
    assert router.mappings == {(7373, "TCP"): ("192.168.1.20", 7373, PM.DESCRIPTION)}
    assert m.address("pin") == "wss://203.0.113.7:7373#pin"
    assert m.line() == i18n.t("portmap.mapped", port=7373, ip="203.0.113.7")
    m.remove()
    assert router.mappings == {} and m.address() is not None
    m.remove()  # twice: quiet


@pytest.mark.parametrize("router, status, words", [
    (FakeRouter(devices=0), PM.NO_ROUTER, "No router answered"),
    (FakeRouter(igd=False), PM.NO_ROUTER, "No router answered"),
    (FakeRouter(refuse="ConflictInMappingEntry"), PM.REFUSED, "It said: ConflictInMappingEntry."),
    (FakeRouter(answer=False), PM.REFUSED, "Your router refused to forward port 7373."),
    (FakeRouter(external="10.0.0.2"), PM.UNREACHABLE, "is not on the internet"),
    (FakeRouter(external="100.64.3.9"), PM.UNREACHABLE, "is not on the internet"),
])
def test_when_it_does_not_work_the_host_reads_why_and_how_to_forward_by_hand(router, status, words):
    m = PM.PortMapping(7373, lambda: router)
    assert m.run() == status and m.address() is None
    line = m.line("192.168.1.20")
    assert words in line
    assert line.endswith(i18n.t("portmap.by_hand", port=7373, computer="192.168.1.20"))
    assert "forward TCP port 7373 to 192.168.1.20" in line


def test_without_the_library_it_says_so():
    def missing():
        raise ImportError("No module named 'miniupnpc'")
    m = PM.PortMapping(7373, missing)
    assert m.run() == PM.UNAVAILABLE
    assert m.line().startswith("Automatic port forwarding is not available on this computer.")


def test_the_mapping_runs_in_a_thread():
    router = FakeRouter()
    m = PM.PortMapping(7000, lambda: router)
    assert m.status == PM.WORKING and m.line() == i18n.t("portmap.working")
    assert m.start().join(5) and m.status == PM.MAPPED
