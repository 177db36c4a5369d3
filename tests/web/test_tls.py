"""The page over HTTPS, with a certificate made the way the README says: cookies are then Secure."""

from __future__ import annotations

import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fantan_table.table.wiring.config import ConfigFileError, load_config
from fantan_table.web.app import BANKER_COOKIE, CSRF_COOKIE, create_app
from fantan_table.web.server import Listen, WebServer, base_url

from .conftest import PIN, close_context, make_context


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1, made with the README's openssl command."""
    cert, key = folder / "tls.crt", folder / "tls.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-days", "825", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


@pytest.fixture
def https(tmp_path: Path) -> Iterator[tuple[httpx.Client, str]]:
    cert, key = certificate(tmp_path)
    ctx = make_context(tmp_path / "state", runner_devices=False)
    listen = Listen("127.0.0.1", 0, tls_certificate=str(cert), tls_key=str(key))
    ctx.secure_cookies = True
    web = WebServer(create_app(ctx), listen)
    web.start()
    ctx.base_url = base_url("", listen, web.port)
    with httpx.Client(base_url=ctx.base_url, verify=ssl.create_default_context(cafile=str(cert))) as client:
        yield client, ctx.base_url
    web.stop()
    close_context(ctx)


def test_the_page_over_https_sets_secure_cookies(https: tuple[httpx.Client, str]) -> None:
    client, url = https
    assert url.startswith("https://127.0.0.1:")
    page = client.get("/")
    assert page.status_code == 200 and "secure" in page.headers["set-cookie"].lower()
    csrf = {"X-CSRF-Token": client.cookies.get(CSRF_COOKIE) or ""}
    login = client.post("/api/banker/login", json={"pin": PIN}, headers=csrf)
    banker_cookie = next(c for c in login.headers.get_list("set-cookie") if c.startswith(BANKER_COOKIE))
    assert login.status_code == 200 and "secure" in banker_cookie.lower() and "httponly" in banker_cookie.lower()


def test_plain_http_is_not_answered_on_the_https_port(https: tuple[httpx.Client, str]) -> None:
    _, url = https
    with pytest.raises(httpx.HTTPError):
        httpx.get(url.replace("https://", "http://") + "/api/state", timeout=5)


def test_a_certificate_that_cannot_be_loaded_stops_the_start_with_the_reason(tmp_path: Path) -> None:
    (tmp_path / "tls.crt").write_text("not a certificate")
    (tmp_path / "tls.key").write_text("not a key")
    ctx = make_context(tmp_path / "state", runner_devices=False)
    listen = Listen("127.0.0.1", 0, tls_certificate=str(tmp_path / "tls.crt"), tls_key=str(tmp_path / "tls.key"))
    with pytest.raises(OSError, match="cannot serve HTTPS"):
        WebServer(create_app(ctx), listen)
    close_context(ctx)


def test_a_certificate_without_its_key_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[web]\ntls_certificate = "tls.crt"\n')
    with pytest.raises(ConfigFileError, match="go together"):
        load_config(config, "sim")
