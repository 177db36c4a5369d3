"""Before uvicorn starts, the page checks it can listen where the config says, and says why not in one line."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from fantan_table.web.server import _check_free

DOCUMENTATION_V4 = "192.0.2.1"
"""An address kept for documentation (RFC 5737): on no machine's interfaces."""
DOCUMENTATION_V6 = "2001:db8::1"
"""Its IPv6 counterpart (RFC 3849)."""


@pytest.fixture
def taken() -> Iterator[int]:
    """A port of 127.0.0.1 another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        yield other.getsockname()[1]


def test_a_taken_port_is_said_with_the_reason_and_what_to_do(taken: int) -> None:
    with pytest.raises(OSError, match=rf"cannot listen on 127\.0\.0\.1:{taken} \(Address already in use\): is another"):
        _check_free("127.0.0.1", taken)


def test_a_host_name_is_checked_on_every_address_it_names(taken: int) -> None:
    """localhost names ::1 as well as 127.0.0.1 on many systems, ::1 often first: uvicorn binds both, so both are
    checked (checking the first alone let a taken 127.0.0.1 through)."""
    assert ("127.0.0.1", taken) in [a[4][:2] for a in socket.getaddrinfo("localhost", taken, type=socket.SOCK_STREAM)]
    with pytest.raises(OSError, match=rf"cannot listen on localhost:{taken} \(Address already in use\)"):
        _check_free("localhost", taken)


def test_a_free_port_passes_and_stays_free() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    _check_free("127.0.0.1", port)
    with socket.socket() as again:
        again.bind(("127.0.0.1", port))  # the check let go of what it bound


def test_port_zero_needs_no_check() -> None:
    _check_free(DOCUMENTATION_V4, 0)  # not even the address is tried: the system picks where


def test_an_address_this_machine_lacks_says_so() -> None:
    with pytest.raises(OSError, match=r"\(Cannot assign requested address\): this machine has no such address now"):
        _check_free(DOCUMENTATION_V4, 8000)


def test_an_unknown_host_says_so() -> None:
    unknown = "no-such-host.invalid"  # a name no resolver may answer (RFC 6761)
    with pytest.raises(OSError, match=r"on no-such-host\.invalid:8000: no such host \(.*see \[web\] host\)$"):
        _check_free(unknown, 8000)


def test_an_ipv6_address_is_written_in_brackets() -> None:
    try:
        socket.socket(socket.AF_INET6).close()
    except OSError:
        pytest.skip("this machine's kernel has IPv6 turned off: there is no IPv6 address to refuse")
    with pytest.raises(OSError, match=rf"cannot listen on \[{DOCUMENTATION_V6}\]:8000 \("):
        _check_free(DOCUMENTATION_V6, 8000)
