//! What keeps other web sites out: every request must name this server in its `Host` (so a
//! page whose name was rebound to 127.0.0.1 cannot read the answers), an `Origin`, when the
//! browser sends one, must be the server's own page, and a question must come as
//! `application/json` (which a page elsewhere cannot send without the browser asking first).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use crate::error::WebError;
use crate::questions::web_failure;

/// The names a request may give in `Host`: `host:port`, lowercase.
#[derive(Clone, Debug)]
pub struct Hosts(Arc<Vec<String>>);

impl Hosts {
    /// The names of a server bound to `bound`: the loopback names when it listens there, the
    /// machine's addresses and its host name when it listens on all of them, and `extra`.
    pub fn of(bound: SocketAddr, extra: &[String]) -> Hosts {
        let port = bound.port();
        let mut ips: Vec<IpAddr> = Vec::new();
        let mut names: Vec<String> = extra.iter().map(|n| n.to_ascii_lowercase()).collect();
        let ip = bound.ip();
        if ip.is_loopback() || ip.is_unspecified() {
            ips.extend(["127.0.0.1".parse::<IpAddr>(), "::1".parse()].into_iter().flatten());
            names.push("localhost".into());
        }
        if ip.is_unspecified() {
            ips.extend(if_addrs::get_if_addrs().unwrap_or_default().into_iter().map(|i| i.ip()));
            if let Some(name) = host_name() {
                names.push(format!("{name}.local"));
                names.push(name);
            }
        } else {
            ips.push(ip);
        }
        let mut hosts: Vec<String> = ips
            .iter()
            .map(|ip| match ip {
                IpAddr::V4(v4) => format!("{v4}:{port}"),
                IpAddr::V6(v6) => format!("[{v6}]:{port}"),
            })
            .chain(names.iter().map(|n| format!("{n}:{port}")))
            .collect();
        if port == 80 {
            // A browser leaves out the default port.
            let bare: Vec<String> = hosts.iter().filter_map(|h| h.strip_suffix(":80").map(str::to_string)).collect();
            hosts.extend(bare);
        }
        hosts.sort();
        hosts.dedup();
        Hosts(Arc::new(hosts))
    }

    fn allows(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        self.0.contains(&host)
    }
}

/// This machine's name, as the system gives it.
fn host_name() -> Option<String> {
    let mut buffer = [0u8; 256];
    // SAFETY: the buffer is writable for its whole length, which is passed.
    let status = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
    if status != 0 {
        return None;
    }
    let end = buffer.iter().position(|b| *b == 0)?;
    let name = std::str::from_utf8(&buffer[..end]).ok()?.to_ascii_lowercase();
    (!name.is_empty()).then_some(name)
}

/// Refuses a request that names another host, comes from another site's page, or asks a
/// question in another type than JSON.
pub async fn guard(State(hosts): State<Hosts>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
    if !hosts.allows(host) {
        let e = WebError::ForeignHost { host: host.chars().take(100).collect() };
        return web_failure(StatusCode::FORBIDDEN, e);
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = origin.strip_prefix("http://").is_some_and(|o| hosts.allows(o));
        if !own {
            let e = WebError::ForeignOrigin { origin: origin.chars().take(100).collect() };
            return web_failure(StatusCode::FORBIDDEN, e);
        }
    }
    if request.method() == Method::POST {
        let kind = headers.get(header::CONTENT_TYPE).and_then(|c| c.to_str().ok()).unwrap_or("");
        let media = kind.split(';').next().unwrap_or("").trim();
        if !media.eq_ignore_ascii_case("application/json") {
            let e = WebError::NotJson { given: kind.chars().take(100).collect() };
            return web_failure(StatusCode::UNSUPPORTED_MEDIA_TYPE, e);
        }
    }
    next.run(request).await
}
