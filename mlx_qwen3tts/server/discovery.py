"""Zeroconf (mDNS / DNS-SD) announcement of the Wyoming service, so Home Assistant lists it under
"Discovered": its Wyoming integration browses `_wyoming._tcp.local.` and connects to the
announced address and port (homeassistant/components/wyoming config_flow, async_step_zeroconf).

Announced only when Wyoming listens beyond loopback (a loopback port is unreachable from Home
Assistant anyway), and never with --no-zeroconf. Runs on the Wyoming server's event loop.
"""

import ipaddress
import logging
import re
import socket
from typing import Optional, Sequence

log = logging.getLogger("mlx_qwen3tts.server.discovery")
SERVICE_TYPE = "_wyoming._tcp.local."
MAX_NAME_BYTES = 63  # a DNS label


def default_name() -> str:
    return f"mlx-qwen3tts-{socket.gethostname().split('.')[0]}"


def check_name(name: str) -> str:
    """The instance name as announced: printable, at most one DNS label long."""
    name = name.strip()
    if not name or len(name.encode()) > MAX_NAME_BYTES or not name.isprintable() or "." in name:
        raise ValueError(f"--zeroconf-name must be 1-{MAX_NAME_BYTES} bytes of printable text without '.'")
    return name


def addresses_for(host: str) -> list:
    """The addresses to announce for a bind address: itself, or for a wildcard (0.0.0.0, ::) every
    non-loopback address of the machine."""
    bound = ipaddress.ip_address(host.strip("[]"))
    if not bound.is_unspecified:
        return [str(bound)]
    import ifaddr  # zeroconf's own dependency

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            address = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            parsed = ipaddress.ip_address(address.split("%")[0])
            if parsed.version == bound.version or bound.version == 6:
                if not (parsed.is_loopback or parsed.is_link_local):
                    found.append(str(parsed))
    return found


def service_info(name: str, port: int, addresses: Sequence[str]):
    """The DNS-SD records of the service: `NAME._wyoming._tcp.local.` -> host, port, addresses."""
    from zeroconf import ServiceInfo

    server = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname().split(".")[0]) or "mlx-qwen3tts"
    return ServiceInfo(SERVICE_TYPE, f"{name}.{SERVICE_TYPE}", port=port, parsed_addresses=list(addresses),
                       server=f"{server}.local.", properties={})


class Announcer:
    """Registers the service on start, withdraws it (goodbye packets) on close."""

    def __init__(self, name: str, port: int, addresses: Sequence[str], interfaces: Optional[list] = None):
        self.name, self.port, self.addresses = check_name(name), port, list(addresses)
        self.interfaces, self.info, self.zc = interfaces, None, None

    async def start(self):
        """Register (a failure here, e.g. zeroconf not installed, is the caller's to report)."""
        from zeroconf import InterfaceChoice
        from zeroconf.asyncio import AsyncZeroconf

        self.info = service_info(self.name, self.port, self.addresses)
        self.zc = AsyncZeroconf(interfaces=self.interfaces or InterfaceChoice.All)
        # Another host may announce the same name: take "NAME (2)" rather than fail the start.
        await (await self.zc.async_register_service(self.info, allow_name_change=True))
        log.info("announced %s on port %d (%s)", self.info.name, self.info.port,
                 ", ".join(self.info.parsed_addresses()))

    async def close(self):
        if self.zc is not None:
            zc, self.zc = self.zc, None
            try:
                await (await zc.async_unregister_service(self.info))
            finally:
                await zc.async_close()
