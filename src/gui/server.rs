//! The HTTP side: the embedded page at `/`, its assets, and `/ws`, where each WebSocket
//! connection becomes a [`session`](super::session) with its own engine process. Bound to
//! 127.0.0.1 only; a WebSocket from a page of another origin is refused, so that no other
//! web site open in the browser can drive the engine.

use std::sync::Arc;

use axum::Router;
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::Config;
use super::assets;
use super::session;

/// Binds 127.0.0.1:`port`, prints the URL and serves until the process ends.
pub async fn serve(config: Config, port: u16) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("gui: cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("gui: no local address: {e}"))?;
    let app = Router::new()
        .route("/ws", get(websocket))
        .fallback(get(asset))
        .with_state(Arc::new(config));
    {
        use std::io::Write as _;
        let mut out = std::io::stdout();
        let _ = writeln!(out, "Quartet GUI: http://{addr}/ (Ctrl-C ends it)");
        let _ = out.flush();
    }
    axum::serve(listener, app)
        .await
        .map_err(|e| format!("gui: server stopped: {e}"))
}

/// An embedded file, or 404.
async fn asset(uri: Uri) -> Response {
    match assets::find(uri.path()) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.content_type),
                (header::CACHE_CONTROL, "no-cache"),
                (
                    header::CONTENT_SECURITY_POLICY,
                    "default-src 'self'; img-src 'self' data: blob:",
                ),
            ],
            a.body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

/// Whether a WebSocket's `Origin` (if any) is this server's own page: `http://` then
/// `127.0.0.1` or `localhost`, then a port.
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true; // not a browser page: a local program
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    let host = origin.strip_prefix("http://").unwrap_or("");
    let name = host.rsplit_once(':').map_or(host, |(h, _)| h);
    name == "127.0.0.1" || name == "localhost"
}

/// `/ws`: one session per connection.
async fn websocket(
    ws: WebSocketUpgrade,
    headers: HeaderMap,
    State(config): State<Arc<Config>>,
) -> Response {
    if !origin_allowed(&headers) {
        return (StatusCode::FORBIDDEN, "foreign origin").into_response();
    }
    ws.max_message_size(super::request::MAX_REQUEST)
        .on_upgrade(move |socket| session::run(socket, config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn only_this_machines_pages_may_open_the_socket() {
        let with = |o: &str| {
            let mut h = HeaderMap::new();
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
            origin_allowed(&h)
        };
        assert!(origin_allowed(&HeaderMap::new()));
        assert!(with("http://127.0.0.1:8411"));
        assert!(with("http://localhost:8411"));
        assert!(!with("https://evil.example"));
        assert!(!with("http://127.0.0.1.evil.example:80"));
        assert!(!with("null"));
    }
}
