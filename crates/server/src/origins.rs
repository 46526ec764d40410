//! Which pages may talk to the server: a request's `Origin` against the allowed ones and the
//! server's own host (the websocket and the account routes both ask).

use axum::http::{HeaderMap, header};

/// An origin as compared: lower case, without a trailing `/` or the scheme's default port.
pub(crate) fn normalize_origin(origin: &str) -> String {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    for (scheme, port) in [("http://", ":80"), ("https://", ":443")] {
        if origin.starts_with(scheme)
            && let Some(bare) = origin.strip_suffix(port)
        {
            return bare.to_owned();
        }
    }
    origin
}

/// Whether a request may come from its page: no `Origin` (not a browser, which could claim any
/// origin anyway), one of the `allowed` origins, or the server's own (the origin's host is the
/// request's `Host`, or the `X-Forwarded-Host` of a trusted proxy).
pub(crate) fn origin_allowed(
    headers: &HeaderMap,
    allowed: &[String],
    from_trusted_proxy: bool,
) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else { return true };
    let Ok(origin) = origin.to_str() else { return false };
    let origin = normalize_origin(origin);
    if allowed.contains(&origin) {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else { return false };
    let host_header = if from_trusted_proxy { headers.get("x-forwarded-host") } else { None };
    let Some(host) = host_header.or_else(|| headers.get(header::HOST)) else { return false };
    let Ok(host) = host.to_str() else { return false };
    let host = host.split(',').next().unwrap_or_default();
    normalize_origin(&format!("{scheme}://{host}")) == format!("{scheme}://{authority}")
}
