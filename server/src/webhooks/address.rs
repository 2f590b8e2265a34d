//! Where deliveries may go: https only, and never a private, loopback or link-local address,
//! unless the operator allows them (`WEBHOOK_ALLOW_PRIVATE`, docs/webhooks.md). A name is
//! checked again at every delivery, on the addresses it resolves to then, so a name that later
//! points inside the network is refused too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::Url;

use crate::error::Msg;

/// The longest address accepted.
pub const MAX_URL: usize = 2000;

/// Parses an endpoint's address under the rules; the refusal's message otherwise.
pub fn check_url(raw: &str, allow_private: bool) -> Result<Url, Msg> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > MAX_URL {
        return Err(Msg::WebhookUrlInvalid);
    }
    let url = Url::parse(raw).map_err(|_| Msg::WebhookUrlInvalid)?;
    match url.scheme() {
        "https" => {}
        "http" if allow_private => {}
        "http" => return Err(Msg::WebhookUrlNotHttps),
        _ => return Err(Msg::WebhookUrlInvalid),
    }
    let private = match url.host() {
        None => return Err(Msg::WebhookUrlInvalid),
        Some(url::Host::Ipv4(ip)) => !is_public(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => !is_public(IpAddr::V6(ip)),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
    };
    if private && !allow_private {
        return Err(Msg::WebhookUrlPrivate);
    }
    Ok(url)
}

/// Whether an address is on the public internet: not loopback, private (RFC 1918, unique
/// local), shared (100.64/10), link-local, multicast, unspecified, broadcast or documentation.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => is_public_v4(ip),
        IpAddr::V6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(ip),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_loopback()
        || ip.is_unspecified()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || first == 0x2001 && ip.segments()[1] == 0x0db8)
}

/// The resolver of the delivery client: the system's, keeping only the addresses the rules
/// allow; a name left with none fails the attempt.
pub struct GuardedResolver {
    pub allow_private: bool,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        Box::pin(async move {
            let found: Vec<SocketAddr> = tokio::net::lookup_host((name.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> =
                found.into_iter().filter(|addr| allow_private || is_public(addr.ip())).collect();
            if allowed.is_empty() {
                return Err(format!("{} resolves to no public address", name.as_str()).into());
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_to_a_public_address_is_the_only_kind_allowed_by_default() {
        assert!(check_url("https://hooks.example.com/loyalty", false).is_ok());
        assert!(check_url("https://8.8.8.8/x", false).is_ok());
        for (url, refusal) in [
            ("http://hooks.example.com/loyalty", Msg::WebhookUrlNotHttps),
            ("ftp://hooks.example.com/", Msg::WebhookUrlInvalid),
            ("not a url", Msg::WebhookUrlInvalid),
            ("", Msg::WebhookUrlInvalid),
            ("https://localhost/x", Msg::WebhookUrlPrivate),
            ("https://api.localhost./x", Msg::WebhookUrlPrivate),
            ("https://127.0.0.1:8443/x", Msg::WebhookUrlPrivate),
            ("https://10.1.2.3/x", Msg::WebhookUrlPrivate),
            ("https://172.20.0.1/x", Msg::WebhookUrlPrivate),
            ("https://192.168.1.10/x", Msg::WebhookUrlPrivate),
            ("https://169.254.169.254/latest", Msg::WebhookUrlPrivate),
            ("https://100.64.0.1/x", Msg::WebhookUrlPrivate),
            ("https://0.0.0.0/x", Msg::WebhookUrlPrivate),
            ("https://[::1]/x", Msg::WebhookUrlPrivate),
            ("https://[fd00::1]/x", Msg::WebhookUrlPrivate),
            ("https://[fe80::1]/x", Msg::WebhookUrlPrivate),
            ("https://[::ffff:127.0.0.1]/x", Msg::WebhookUrlPrivate),
        ] {
            assert_eq!(check_url(url, false).map(|_| ()), Err(refusal), "{url}");
        }
    }

    #[test]
    fn allowing_private_addresses_allows_http_and_loopback_too() {
        assert!(check_url("http://127.0.0.1:9000/hook", true).is_ok());
        assert!(check_url("http://localhost:9000/hook", true).is_ok());
        assert!(check_url("https://10.0.0.5/hook", true).is_ok());
        assert_eq!(check_url("ftp://127.0.0.1/", true).map(|_| ()), Err(Msg::WebhookUrlInvalid));
    }
}
