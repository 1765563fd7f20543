//! The HTTP side: the embedded page at `/`, its assets, and `/ws`, where each WebSocket
//! connection becomes a [`session`](super::session) with its own engine process. Bound to
//! 127.0.0.1 only. Other local programs and web pages are the threat, so every request
//! must name this server in its `Host` header (`127.0.0.1:PORT` or `localhost:PORT`: a DNS
//! rebinding page names its own host), a WebSocket from a browser page must come from this
//! server's own origin exactly, the page may not be framed, and at most `max_sessions`
//! sessions (engines) run at once.

use std::sync::Arc;

use axum::Router;
use axum::extract::ws::{Message, WebSocket};
use axum::extract::{State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::Config;
use super::assets;
use super::io::close_socket;
use super::session::{self, Session, Start};
use super::sessions::{Place, Sessions};

/// The policy of every asset: nothing from elsewhere, and no framing by any page.
const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; frame-ancestors 'none'";

/// Largest WebSocket message read at all; one past `request::MAX_REQUEST` but within this
/// gets an error on the page, not a closed socket.
const MAX_MESSAGE: usize = 4 * super::request::MAX_REQUEST;

/// What every request sees: the sessions' configuration, the bound port (for the `Host`
/// and `Origin` checks) and the number of sessions open.
struct Server {
    config: Arc<Config>,
    port: u16,
    sessions: Arc<Sessions<Box<Session>>>,
}

/// Binds 127.0.0.1:`port`, prints the URL and serves until the process ends.
pub async fn serve(config: Config, port: u16) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("gui: cannot listen on 127.0.0.1:{port}: {e}"))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("gui: no local address: {e}"))?;
    let server = Server {
        sessions: Arc::new(Sessions::new(config.max_sessions, config.keep)),
        config: Arc::new(config),
        port: addr.port(),
    };
    let app = Router::new()
        .route("/ws", get(websocket))
        .fallback(get(asset))
        .with_state(Arc::new(server));
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

/// A refusal with its status, as plain text the browser may not take for anything else.
fn refuse(status: StatusCode, why: &'static str) -> Response {
    (status, [(header::X_CONTENT_TYPE_OPTIONS, "nosniff")], why).into_response()
}

/// An embedded file, or 404; 421 to a request that does not name this server. Every
/// answer is its declared type only (`nosniff`).
async fn asset(uri: Uri, headers: HeaderMap, State(server): State<Arc<Server>>) -> Response {
    if !host_allowed(&headers, server.port) {
        return refuse(StatusCode::MISDIRECTED_REQUEST, "not this server");
    }
    match assets::find(uri.path()) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.content_type),
                (header::CACHE_CONTROL, "no-cache"),
                (header::CONTENT_SECURITY_POLICY, CSP),
                (header::X_FRAME_OPTIONS, "DENY"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            a.body,
        )
            .into_response(),
        None => refuse(StatusCode::NOT_FOUND, "not found"),
    }
}

/// Whether the `Host` header is this server: `127.0.0.1:port` or `localhost:port`.
pub fn host_allowed(headers: &HeaderMap, port: u16) -> bool {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .is_some_and(|h| h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"))
}

/// Whether a WebSocket's `Origin` is this server's own page exactly: `http://` and the
/// `Host` it was asked by (already one of this server's two names and its port). No
/// `Origin` is a local program, not a browser page, and is let in.
pub fn origin_allowed(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    match (origin.to_str(), host) {
        (Ok(origin), Some(host)) => origin.strip_prefix("http://") == Some(host),
        _ => false,
    }
}

/// `/ws` (or `/ws?session=ID` to claim a kept session back): one session per connection,
/// while fewer than `max_sessions` are alive.
async fn websocket(
    ws: WebSocketUpgrade,
    uri: Uri,
    headers: HeaderMap,
    State(server): State<Arc<Server>>,
) -> Response {
    if !host_allowed(&headers, server.port) {
        return refuse(StatusCode::MISDIRECTED_REQUEST, "not this server");
    }
    if !origin_allowed(&headers) {
        return refuse(StatusCode::FORBIDDEN, "foreign origin");
    }
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| open_session(socket, server, claimed_id(&uri)))
}

/// The session id a page names in `?session=ID` (32 hex digits), if any.
fn claimed_id(uri: &Uri) -> Option<String> {
    let id = uri
        .query()?
        .split('&')
        .find_map(|kv| kv.strip_prefix("session="))?;
    (id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())).then(|| id.to_string())
}

/// Gives the socket its kept session back, or the live session it names (taken over from
/// the tab on it), or a new one (in a free place, or in the oldest kept session's), or
/// tells the page that none is free and closes.
async fn open_session(mut socket: WebSocket, server: Arc<Server>, id: Option<String>) {
    let sessions = Arc::clone(&server.sessions);
    let config = Arc::clone(&server.config);
    let refusal = match sessions.claim(id.as_deref(), socket) {
        Place::Resumed(s, socket, handover) => {
            session::run(Start::Resumed(s), socket, handover, config, sessions).await;
            return;
        }
        Place::New(new, socket, handover) => {
            let start = Start::New {
                id: new,
                lost: id.is_some(),
            };
            session::run(start, socket, handover, config, sessions).await;
            return;
        }
        Place::HandedOver => return,
        Place::Full(max, s) => {
            socket = s;
            format!(
                "{max} tabs are open, the most this server runs (quartet gui --max-sessions): \
                 close another tab and reload"
            )
        }
        Place::Busy(s) => {
            socket = s;
            "this game is being opened in other tabs: reload to try again".to_string()
        }
    };
    let v = serde_json::json!({"t": "error", "message": refusal, "fatal": true});
    let _ = socket.send(Message::Text(v.to_string().into())).await;
    close_socket(socket);
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.insert(name, HeaderValue::from_str(value).unwrap());
        }
        h
    }

    #[test]
    fn only_this_servers_own_page_may_open_the_socket() {
        let with = |o: &str| {
            origin_allowed(&headers(&[
                (header::HOST, "127.0.0.1:8411"),
                (header::ORIGIN, o),
            ]))
        };
        assert!(origin_allowed(&headers(&[(
            header::HOST,
            "127.0.0.1:8411"
        )])));
        assert!(with("http://127.0.0.1:8411"));
        assert!(
            !with("http://127.0.0.1:8412"),
            "another local server's page"
        );
        assert!(
            !with("http://localhost:8411"),
            "not the host the page was loaded from"
        );
        assert!(!with("https://127.0.0.1:8411"));
        assert!(!with("http://127.0.0.1:8411/"));
        assert!(!with("https://evil.example"));
        assert!(!with("http://127.0.0.1.evil.example:80"));
        assert!(!with("null"));
        assert!(!origin_allowed(&headers(&[(
            header::ORIGIN,
            "http://127.0.0.1:8411"
        )])));
    }

    #[test]
    fn only_requests_naming_this_server_are_served() {
        let host = |h: &str| host_allowed(&headers(&[(header::HOST, h)]), 8411);
        assert!(host("127.0.0.1:8411"));
        assert!(host("localhost:8411"));
        assert!(!host("evil.example"));
        assert!(!host("evil.example:8411"));
        assert!(!host("127.0.0.1:8412"));
        assert!(!host("127.0.0.1"));
        assert!(!host_allowed(&HeaderMap::new(), 8411));
    }
}
