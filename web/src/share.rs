//! The addresses a class types to open the page when it is shared on a network (`--host
//! 0.0.0.0`), and a QR code of the first, for the terminal and for the page to show.

use std::net::{IpAddr, SocketAddr};

use qrcode::render::{svg, unicode};
use qrcode::QrCode;

/// The page's addresses that other machines can open: the machine's own non-loopback addresses
/// (IPv4 first, which a phone types most easily) when it listens on all of them, its one address
/// when it listens on another; none when only this machine can open it.
pub fn urls(bound: SocketAddr) -> Vec<String> {
    let port = bound.port();
    let ip = bound.ip();
    let mut ips: Vec<IpAddr> = if ip.is_unspecified() {
        if_addrs::get_if_addrs().unwrap_or_default().into_iter().map(|i| i.ip()).collect()
    } else {
        vec![ip]
    };
    ips.retain(|ip| !ip.is_loopback() && !ip.is_unspecified() && !is_link_local(ip));
    ips.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    ips.dedup();
    ips.into_iter()
        .map(|ip| match ip {
            IpAddr::V4(v4) => format!("http://{v4}:{port}/"),
            IpAddr::V6(v6) => format!("http://[{v6}]:{port}/"),
        })
        .collect()
}

/// IPv6 link-local addresses need a zone a browser cannot be given in a typed address.
fn is_link_local(ip: &IpAddr) -> bool {
    matches!(ip, IpAddr::V6(v6) if (v6.segments()[0] & 0xffc0) == 0xfe80)
}

/// A QR code of `text` as an SVG picture, black on white, for the page.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(code.render::<svg::Color<'_>>().min_dimensions(200, 200).quiet_zone(true).build())
}

/// A QR code of `text` in block characters, two rows of modules to a line, for a terminal.
pub fn qr_text(text: &str) -> Option<String> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<unicode::Dense1x2>()
            .dark_color(unicode::Dense1x2::Light)
            .light_color(unicode::Dense1x2::Dark)
            .quiet_zone(true)
            .build(),
    )
}
