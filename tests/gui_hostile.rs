//! `quartet gui` against hostile messages and requests (issue 22 §1-§2): each case says what
//! the server must answer. The server runs on a person's machine, so another local program
//! or a web page is the threat: no message may make it loop, grow or leave an engine behind,
//! and only this server's own page may reach it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A running `quartet gui --port 0`, ended when dropped.
struct Gui {
    child: Child,
    port: u16,
}

impl Gui {
    fn start(args: &[&str]) -> Gui {
        let mut child = Command::new(env!("CARGO_BIN_EXE_quartet"))
            .args(["gui", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start quartet gui");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("the URL line");
        let port = line
            .rsplit_once("127.0.0.1:")
            .and_then(|(_, rest)| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Gui { child, port }
    }

    fn connect(&self) -> Client {
        self.client("/ws")
    }

    /// A client on `path` (the socket's path and query), after its first state.
    fn client(&self, path: &str) -> Client {
        let (socket, _) =
            tungstenite::connect(format!("ws://127.0.0.1:{}{path}", self.port)).expect("connect");
        if let MaybeTlsStream::Plain(s) = socket.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(200)))
                .expect("timeout");
        }
        let mut c = Client {
            socket,
            seen: Vec::new(),
        };
        c.until(|m| m["t"] == "state");
        c
    }

    /// CPU seconds the server has used so far (user + system, from /proc).
    fn cpu_seconds(&self) -> f64 {
        let stat =
            std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).expect("/proc stat");
        let after = stat.rsplit_once(')').expect("comm").1;
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: f64 = fields[11].parse::<f64>().unwrap() + fields[12].parse::<f64>().unwrap();
        ticks / 100.0
    }

    /// The server's child processes (its engines).
    fn engines(&self) -> usize {
        let out = Command::new("pgrep")
            .args(["-P", &self.child.id().to_string()])
            .output()
            .expect("pgrep");
        String::from_utf8_lossy(&out.stdout).lines().count()
    }

    /// The number of engines once it is at most `n`, or after `seconds`.
    fn engines_within(&self, n: usize, seconds: u64) -> usize {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        while self.engines() > n && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        self.engines()
    }

    /// Asserts the server is idle: under 0.15 s of CPU in one second.
    fn assert_idle(&self, case: &str) {
        let before = self.cpu_seconds();
        std::thread::sleep(Duration::from_secs(1));
        let used = self.cpu_seconds() - before;
        assert!(
            used < 0.15,
            "{case}: the server used {used:.2} s of CPU in 1 s"
        );
    }

    /// One raw HTTP request; the status line of the answer.
    fn http(&self, request: &str) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("tcp");
        s.set_read_timeout(Some(Duration::from_secs(5)))
            .expect("timeout");
        s.write_all(request.as_bytes()).expect("write");
        // The status line; an upgraded socket stays open, so read no further than it.
        let mut answer = Vec::new();
        let mut byte = [0u8; 1];
        while !answer.ends_with(b"\r\n") && matches!(s.read(&mut byte), Ok(1)) {
            answer.push(byte[0]);
        }
        String::from_utf8_lossy(&answer).trim_end().to_string()
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One WebSocket to the server, with every message it received.
struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    seen: Vec<Value>,
}

impl Client {
    fn send(&mut self, v: Value) {
        self.send_text(v.to_string());
    }

    fn send_text(&mut self, text: String) {
        self.socket.send(Message::Text(text.into())).expect("send");
    }

    /// The messages up to the first that `done` accepts (within 20 s); that one is last.
    fn until(&mut self, done: impl Fn(&Value) -> bool) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut got = Vec::new();
        while Instant::now() < deadline {
            match self.socket.read() {
                Ok(Message::Text(t)) => {
                    let v: Value = serde_json::from_str(t.as_str()).expect("JSON from the server");
                    self.seen.push(v.clone());
                    got.push(v.clone());
                    if done(&v) {
                        return got;
                    }
                }
                Ok(Message::Close(_)) => panic!("closed; got {got:?}"),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("socket: {e}; got {got:?}"),
            }
        }
        panic!("no answer within 20 s; got {got:?}");
    }

    /// Sends `v` and returns the error it gets.
    fn error_for(&mut self, v: Value) -> String {
        self.send(v.clone());
        let got = self.until(|m| m["t"] == "error");
        got.last().expect("an error")["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The next full state (after a `record` request, which every state passes).
    fn state(&mut self) -> Value {
        self.send(json!({"t": "players", "p1": "human", "p2": "human"}));
        self.until(|m| m["t"] == "state").pop().expect("a state")
    }
}

fn apocalypse_by_hand(c: &mut Client) {
    c.send(json!({"t":"new_game","game":"apocalypse","p1":"human","p2":"human"}));
    c.until(|m| m["t"] == "state" && m["game"] == "apocalypse");
}

#[test]
fn a_joint_token_as_a_void_declaration_is_refused_once_and_the_server_stays_idle() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    apocalypse_by_hand(&mut c);
    // The issue's loop: '/' passed the token check, the engine refused the joint turn, and
    // the server retried it for ever.
    let e = c.error_for(json!({"t":"move","token":"a1b3/a5b3","void":true}));
    assert!(e.contains("not a legal declaration"), "{e}");
    c.send(json!({"t":"move","token":"a5b3"}));
    gui.assert_idle("a joint token declared void");
    let s = c.state();
    assert_eq!(s["moves"], json!([]), "nothing was played: {s}");
}

#[test]
fn a_void_declaration_the_engine_refuses_is_dropped_with_one_error() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    apocalypse_by_hand(&mut c);
    c.send(json!({"t":"move","token":"zz99","void":true}));
    c.send(json!({"t":"move","token":"a5b3"}));
    let got = c.until(|m| m["t"] == "error");
    let e = got.last().unwrap()["message"].as_str().unwrap().to_string();
    assert!(e.contains("zz99") && e.contains("refused"), "{e}");
    gui.assert_idle("a void declaration refused");
    let errors = c.seen.iter().filter(|m| m["t"] == "error").count();
    assert_eq!(errors, 1, "refused once: {:?}", c.seen);
    let s = c.state();
    assert_eq!(s["moves"], json!([]), "{s}");
    assert_eq!(
        s["declared"][0],
        Value::Null,
        "the void declaration is dropped: {s}"
    );
    assert_ne!(s["declared"][1], Value::Null, "the other side's stays: {s}");
}

#[test]
fn bad_json_unknown_kinds_and_fields_get_an_error_and_change_nothing() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    for text in [
        "{",
        "null",
        "[]",
        "\"move\"",
        r#"{"t":"launch"}"#,
        r#"{"t":"move"}"#,
        r#"{"t":"move","token":"d1d7","extra":1}"#,
        r#"{"t":"move","token":7}"#,
        r#"{"t":"new_game","game":"duell","p1":"robot","p2":"human"}"#,
    ] {
        c.send_text(text.to_string());
        let got = c.until(|m| m["t"] == "error");
        assert!(
            got.last().unwrap()["message"]
                .as_str()
                .unwrap()
                .starts_with("bad message"),
            "{text}: {got:?}"
        );
    }
    let s = c.state();
    assert_eq!(s["moves"], json!([]), "{s}");
    assert_eq!(s["engine_running"], json!(true), "{s}");
}

#[test]
fn huge_values_are_refused() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    for (v, says) in [
        (json!({"t":"speed","delay_ms": 1u64 << 63}), "at most"),
        (
            json!({"t":"limit","kind":"movetime","ms": u64::MAX}),
            "out of range",
        ),
        (
            json!({"t":"limit","kind":"depth","depth": 0}),
            "out of range",
        ),
        (
            json!({"t":"limit","kind":"nodes","nodes": u64::MAX}),
            "out of range",
        ),
        (
            json!({"t":"limit","kind":"clock","base_ms": 1, "inc_ms": u64::MAX}),
            "out of range",
        ),
        (json!({"t":"speed","delay_ms": 1e300}), "bad message"),
        (
            json!({"t":"new_game","game":"ludo","p1":"human","p2":"human","seed": -1}),
            "bad message",
        ),
    ] {
        let e = c.error_for(v.clone());
        assert!(e.contains(says), "{v}: {e}");
    }
    let s = c.state();
    assert_eq!(s["limit"], json!({"kind": "movetime", "ms": 1000}), "{s}");
}

#[test]
fn newlines_and_semicolons_in_every_field_never_reach_the_engine_as_lines() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let injected = ["\nquit", "x\r\nquit", "x;quit", "x\u{2028}quit", "x\0quit"];
    for bad in injected {
        for v in [
            json!({"t":"move","token": format!("d1d7{bad}")}),
            json!({"t":"move","token": format!("a1b3{bad}"),"void":true}),
            json!({"t":"new_game","game": format!("duell{bad}"),"p1":"human","p2":"human"}),
            json!({"t":"new_game","game":"duell","p1":"human","p2":"human",
                   "fen": format!("startpos{bad}")}),
            json!({"t":"set_option","name": format!("Hash{bad}"),"value":"16"}),
            json!({"t":"set_option","name":"Hash","value": format!("16{bad}")}),
        ] {
            let e = c.error_for(v.clone());
            assert!(!e.is_empty(), "{v}");
        }
    }
    let s = c.state();
    assert_eq!(
        s["engine_running"],
        json!(true),
        "no quit reached the engine: {s}"
    );
    assert_eq!(s["moves"], json!([]), "{s}");
    assert_eq!(gui.engines(), 1, "one engine, not restarted");
}

#[test]
fn a_flood_of_messages_is_answered_and_leaves_the_server_idle() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    for i in 0..2000 {
        let v = match i % 4 {
            0 => json!({"t":"move","token":"zz"}),
            1 => json!({"t":"takeback"}),
            2 => json!({"t":"analyse","on": i % 8 == 2}),
            _ => json!({"t":"record"}),
        };
        c.send(v);
    }
    c.send(json!({"t":"new_game","game":"rnb","p1":"human","p2":"human"}));
    c.until(|m| m["t"] == "state" && m["game"] == "rnb");
    c.send(json!({"t":"analyse","on":false}));
    gui.assert_idle("after a flood");
    assert_eq!(gui.engines(), 1);
}

#[test]
fn a_record_over_a_mebibyte_gets_an_error_and_the_socket_stays() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let e = c.error_for(json!({"t":"load","text": "x".repeat(2 << 20)}));
    assert!(e.contains("1024 KiB"), "{e}");
    let s = c.state();
    assert_eq!(s["engine_running"], json!(true), "{s}");
}

#[test]
fn past_max_sessions_a_socket_is_told_so_and_no_engine_starts() {
    let gui = Gui::start(&["--max-sessions", "2", "--keep-seconds", "1"]);
    let _a = gui.connect();
    let _b = gui.connect();
    let (mut third, _) =
        tungstenite::connect(format!("ws://127.0.0.1:{}/ws", gui.port)).expect("connect");
    let first = third.read().expect("a message");
    let v: Value = serde_json::from_str(first.to_text().expect("text")).expect("JSON");
    assert_eq!(v["t"], "error", "{v}");
    assert_eq!(v["fatal"], true, "{v}");
    assert!(
        v["message"].as_str().unwrap().contains("--max-sessions"),
        "{v}"
    );
    assert_eq!(gui.engines(), 2);
    drop(_a);
    // A closed tab frees its place (and ends its engine) once it is no longer kept.
    assert_eq!(
        gui.engines_within(1, 6),
        1,
        "the closed tab's engine is ended"
    );
    let _c = gui.connect();
}

#[test]
fn a_closed_tab_leaves_no_engine_even_after_the_loop_case() {
    let gui = Gui::start(&["--keep-seconds", "1"]);
    let mut c = gui.connect();
    apocalypse_by_hand(&mut c);
    c.send(json!({"t":"move","token":"a1b3/a5b3","void":true}));
    c.send(json!({"t":"move","token":"a5b3"}));
    c.until(|m| m["t"] == "error");
    assert_eq!(gui.engines(), 1);
    drop(c);
    assert_eq!(gui.engines_within(0, 6), 0, "the engine outlived its tab");
}

#[test]
fn only_requests_naming_this_server_and_its_own_origin_get_through() {
    let gui = Gui::start(&[]);
    let port = gui.port;
    let get = |host: &str| {
        gui.http(&format!(
            "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        ))
    };
    assert!(get(&format!("127.0.0.1:{port}")).contains("200"));
    assert!(get(&format!("localhost:{port}")).contains("200"));
    assert!(get("evil.example").contains("421"), "DNS rebinding");
    assert!(get(&format!("evil.example:{port}")).contains("421"));
    let page = {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(
            format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n")
                .as_bytes(),
        )
        .unwrap();
        let mut a = String::new();
        let _ = s.read_to_string(&mut a);
        a.to_ascii_lowercase()
    };
    assert!(page.contains("frame-ancestors 'none'"), "{page}");
    let upgrade = |origin: &str| {
        gui.http(&format!(
            "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: {origin}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
        ))
    };
    assert!(upgrade(&format!("http://127.0.0.1:{port}")).contains("101"));
    for foreign in [
        format!("http://127.0.0.1:{}", port.wrapping_add(1)),
        format!("http://localhost:{port}"),
        "https://evil.example".to_string(),
        "null".to_string(),
    ] {
        assert!(upgrade(&foreign).contains("403"), "{foreign}");
    }
    assert_eq!(
        gui.engines(),
        1,
        "only the accepted socket started an engine"
    );
}

/// The session id a client's `hello` named.
fn session_id(c: &Client) -> String {
    let hello = c.seen.iter().find(|m| m["t"] == "hello").expect("a hello");
    hello["session"].as_str().expect("a session id").to_string()
}

impl Gui {
    /// A client on `/ws?session=ID`, after its first state.
    fn claim(&self, id: &str) -> Client {
        self.client(&format!("/ws?session={id}"))
    }

    /// The first message a new socket gets.
    fn first_message(&self) -> Value {
        let (mut s, _) =
            tungstenite::connect(format!("ws://127.0.0.1:{}/ws", self.port)).expect("connect");
        serde_json::from_str(s.read().expect("a message").to_text().expect("text")).expect("JSON")
    }
}

#[test]
fn a_dropped_socket_gets_its_session_back() {
    let gui = Gui::start(&["--max-sessions", "2"]);
    let mut c = gui.connect();
    let id = session_id(&c);
    assert_eq!(id.len(), 32, "{id}");
    let pid = c.state()["pid"].clone();
    c.send(json!({"t":"new_game","game":"rnb","p1":"human","p2":"human"}));
    c.until(|m| m["t"] == "state" && m["game"] == "rnb");
    c.send(json!({"t":"move","token":"R@a1"}));
    c.until(|m| m["t"] == "state" && m["moves"] == json!(["R@a1"]));
    drop(c);
    std::thread::sleep(Duration::from_millis(300));
    let mut back = gui.claim(&id);
    let state = back.state();
    assert_eq!(state["game"], "rnb", "{state}");
    assert_eq!(state["moves"], json!(["R@a1"]), "{state}");
    assert_eq!(state["pid"], pid, "the same engine");
    assert_eq!(gui.engines(), 1);
}

#[test]
fn kept_sessions_give_way_to_a_new_page_and_their_engines_end() {
    // Issue 39 §1.1: with every place held by a kept session, a new page was refused.
    let gui = Gui::start(&["--max-sessions", "2"]);
    let a = gui.connect();
    let b = gui.connect();
    let (ida, idb) = (session_id(&a), session_id(&b));
    drop(a);
    std::thread::sleep(Duration::from_millis(200));
    drop(b);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(gui.engines(), 2, "both kept");
    let mut c = gui.connect();
    assert_eq!(c.state()["engine_running"], json!(true));
    assert_eq!(
        gui.engines_within(2, 5),
        2,
        "the oldest kept one's engine ended"
    );
    // The one that gave way is gone: its page, back, is told so and gets a new game.
    let mut again = gui.claim(&ida);
    let note = again
        .seen
        .iter()
        .find(|m| m["t"] == "note")
        .cloned()
        .unwrap_or_default();
    assert!(
        note["message"]
            .as_str()
            .is_some_and(|m| m.contains("no longer has")),
        "{:?}",
        again.seen
    );
    assert_ne!(session_id(&again), ida);
    assert_eq!(again.state()["moves"], json!([]));
    // The other one was given way too (the two live pages hold both places), and its page
    // back is told so in the same way: a live page never loses its place to it.
    let (mut late, _) =
        tungstenite::connect(format!("ws://127.0.0.1:{}/ws?session={idb}", gui.port))
            .expect("connect");
    let first: Value =
        serde_json::from_str(late.read().expect("a message").to_text().expect("text")).unwrap();
    assert_eq!(first["fatal"], true, "{first}");
    assert_eq!(gui.engines(), 2);
}

#[test]
fn leaving_and_coming_back_before_expiry_never_holds_every_place() {
    // Issue 39 §1.1: a program could hold every place for good by parking its sessions and
    // claiming them back before they expired.
    let gui = Gui::start(&["--max-sessions", "3"]);
    let mut ids: Vec<String> = (0..3).map(|_| session_id(&gui.connect())).collect();
    std::thread::sleep(Duration::from_millis(300));
    for round in 0..3 {
        // A page comes while all are kept: it gets a place.
        let page = gui.connect();
        assert_eq!(gui.first_message()["fatal"], json!(null), "round {round}");
        drop(page);
        std::thread::sleep(Duration::from_millis(300));
        // The program claims its sessions back and leaves again (one of them gave way and
        // comes back as a new session).
        ids = ids
            .iter()
            .map(|id| session_id(&gui.claim(id)))
            .collect::<Vec<_>>();
        std::thread::sleep(Duration::from_millis(300));
        assert!(gui.engines_within(3, 5) <= 3, "round {round}");
    }
    gui.assert_idle("after the program's rounds");
}

#[test]
fn a_socket_naming_a_live_session_takes_it_over_and_the_first_is_told_and_closed() {
    // Issue 39 §1.2, the way chosen: the newer tab takes the game over, the older is told.
    let gui = Gui::start(&["--max-sessions", "1"]);
    let mut first = gui.connect();
    let id = session_id(&first);
    first.send(json!({"t":"new_game","game":"duell","p1":"human","p2":"human"}));
    first.until(|m| m["t"] == "state" && m["game"] == "duell");
    let mut second = gui.claim(&id);
    assert_eq!(second.state()["game"], "duell", "the same game");
    assert_eq!(session_id(&second), id, "the same session");
    let told = first.until(|m| m["t"] == "taken");
    assert!(
        told.last().unwrap()["message"]
            .as_str()
            .unwrap()
            .contains("another tab")
    );
    // The first socket is closed by the server (a close frame, then the end).
    let deadline = Instant::now() + Duration::from_secs(5);
    let closed = loop {
        match first.socket.read() {
            Ok(Message::Close(_)) | Err(tungstenite::Error::ConnectionClosed) => break true,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) && Instant::now() < deadline => {}
            Err(_) => break true,
        }
        if Instant::now() >= deadline {
            break false;
        }
    };
    assert!(closed, "the first socket closed");
    // Taking it back and forth holds one place and one engine.
    for _ in 0..10 {
        second = gui.claim(&id);
    }
    assert_eq!(second.state()["game"], "duell");
    assert_eq!(gui.engines(), 1);
    gui.assert_idle("after taking a session back and forth");
}

#[test]
fn a_close_from_the_page_is_answered_at_once() {
    // Issue 39 §1.2: the server never answered a page's close, which stayed "connected"
    // (closing) until the browser gave up a minute later.
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    c.socket.close(None).expect("close");
    let deadline = Instant::now() + Duration::from_secs(5);
    let answered = loop {
        match c.socket.read() {
            Err(tungstenite::Error::ConnectionClosed) => break true,
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
        if Instant::now() >= deadline {
            break false;
        }
    };
    assert!(answered, "the server answered the close");
}

/// A Duell game by hand with two tokens on the main line and one variation leaving it after
/// the first (Black's other reply, played at the position after White's move); the state
/// with the variation.
fn duell_with_a_variation(c: &mut Client) -> Value {
    let tokens = |s: &Value| -> Vec<String> {
        s["legal"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|t| t.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let moves = |m: &Value| m["moves"].as_array().map_or(usize::MAX, Vec::len);
    c.send(json!({"t":"new_game","game":"duell","p1":"human","p2":"human"}));
    let s = c
        .until(|m| m["t"] == "state" && m["players"] == json!(["human", "human"]) && moves(m) == 0)
        .pop()
        .expect("a state");
    c.send(json!({"t":"move","token": tokens(&s)[0]}));
    let s = c
        .until(|m| m["t"] == "state" && moves(m) == 1)
        .pop()
        .expect("a state");
    let replies = tokens(&s);
    assert!(replies.len() >= 2, "{s}");
    c.send(json!({"t":"move","token": replies[0]}));
    c.until(|m| m["t"] == "state" && moves(m) == 2);
    c.send(json!({"t":"view","ply":1}));
    c.until(|m| m["t"] == "view");
    c.send(json!({"t":"move","token": replies[1]}));
    let s = c
        .until(|m| m["t"] == "state" && m["variations"].as_array().is_some_and(|v| v.len() == 1))
        .pop()
        .expect("a state");
    assert_eq!(s["variations"][0]["fork"], json!(1), "{s}");
    s
}

/// The lines of a state: the main line and the variations.
fn lines(s: &Value) -> Value {
    json!([s["moves"], s["variations"]])
}

#[test]
fn promote_delete_and_view_of_a_line_that_is_not_there_get_an_error_and_change_nothing() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let before = lines(&duell_with_a_variation(&mut c));
    let huge = usize::MAX;
    for (v, says) in [
        (json!({"t":"promote","line":1}), "there is no variation 1"),
        (json!({"t":"promote","line":huge}), "there is no variation"),
        (
            json!({"t":"delete_line","line":1}),
            "there is no variation 1",
        ),
        (
            json!({"t":"delete_line","line":huge}),
            "there is no variation",
        ),
        (
            json!({"t":"view","ply":2,"line":1}),
            "there is no variation 1",
        ),
        (
            json!({"t":"view","ply":2,"line":huge}),
            "there is no variation",
        ),
        // Variation 0 is two tokens from the start (one shared with the main line).
        (
            json!({"t":"view","ply":3,"line":0}),
            "the variation has 2 tokens, not 3",
        ),
        (
            json!({"t":"view","ply":huge,"line":0}),
            "the variation has 2 tokens",
        ),
        (json!({"t":"view","ply":huge}), "the game has 2 tokens"),
    ] {
        let e = c.error_for(v.clone());
        assert!(e.contains(says), "{v}: {e}");
        assert_eq!(lines(&c.state()), before, "{v} changed the lines");
    }
}

#[test]
fn promote_delete_and_view_with_wrong_types_are_bad_messages() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let before = lines(&duell_with_a_variation(&mut c));
    for kind in ["promote", "delete_line"] {
        for line in [
            json!(-1),
            json!("0"),
            json!(0.5),
            json!(1e300),
            json!(null),
            json!([0]),
            json!({"line": 0}),
            json!(true),
            json!(u128::MAX.to_string()),
        ] {
            let v = json!({"t": kind, "line": line});
            let e = c.error_for(v.clone());
            assert!(e.starts_with("bad message"), "{v}: {e}");
        }
        let e = c.error_for(json!({"t": kind}));
        assert!(e.starts_with("bad message"), "{kind} without a line: {e}");
    }
    for v in [
        json!({"t":"view","ply":-1}),
        json!({"t":"view","ply":"1"}),
        json!({"t":"view","ply":1e300}),
        json!({"t":"view","ply":1,"line":-1}),
        json!({"t":"view","ply":1,"line":"0"}),
        json!({"t":"view","line":0}),
    ] {
        let e = c.error_for(v.clone());
        assert!(e.starts_with("bad message"), "{v}: {e}");
    }
    assert_eq!(lines(&c.state()), before);
}

#[test]
fn the_main_line_cannot_be_deleted_and_promoting_back_and_forth_never_grows() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let s = duell_with_a_variation(&mut c);
    let before = lines(&s);
    // The main line has no index: one past the variations is no variation.
    let e = c.error_for(json!({"t":"delete_line","line":1}));
    assert!(e.contains("there is no variation 1"), "{e}");
    // Promoting variation 0 swaps the lines; twice, they are as they were.
    c.send(json!({"t":"promote","line":0}));
    let after_one = c
        .until(|m| m["t"] == "state" && lines(m) != before)
        .pop()
        .expect("a state");
    assert_eq!(
        after_one["moves"][1], s["variations"][0]["moves"][0],
        "{after_one}"
    );
    assert_eq!(after_one["variations"].as_array().map(Vec::len), Some(1));
    // Back and forth many times: one variation, the same two lines, and the server idle.
    for _ in 0..41 {
        c.send(json!({"t":"promote","line":0}));
    }
    gui.assert_idle("promoting back and forth");
    assert_eq!(lines(&c.state()), before, "an even number of swaps");
    // Deleting the variation leaves the main line whole; deleting it again is an error.
    c.send(json!({"t":"delete_line","line":0}));
    let s = c
        .until(|m| m["t"] == "state" && m["variations"] == json!([]))
        .pop()
        .expect("a state");
    assert_eq!(s["moves"], before[0], "the main line is kept");
    let e = c.error_for(json!({"t":"delete_line","line":0}));
    assert!(e.contains("there is no variation 0"), "{e}");
    let e = c.error_for(json!({"t":"promote","line":0}));
    assert!(e.contains("there is no variation 0"), "{e}");
    assert_eq!(c.state()["moves"], before[0]);
    assert_eq!(gui.engines(), 1);
}

#[test]
fn a_flood_of_hostile_line_messages_gets_one_error_each_and_leaves_the_server_idle() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let before = lines(&duell_with_a_variation(&mut c));
    let from = c.seen.len();
    let n = 1200;
    for i in 0..n {
        let v = match i % 6 {
            0 => json!({"t":"promote","line": 1 + i}),
            1 => json!({"t":"delete_line","line": usize::MAX - i}),
            2 => json!({"t":"view","ply": 2,"line": 5}),
            3 => json!({"t":"view","ply": 1000 + i}),
            4 => json!({"t":"promote","line": -1}),
            _ => json!({"t":"delete_line","line": "all"}),
        };
        c.send(v);
    }
    c.send(json!({"t":"promote","line": 999_999}));
    c.until(|m| m["t"] == "error" && m["message"] == "there is no variation 999999");
    let errors = c.seen[from..].iter().filter(|m| m["t"] == "error").count();
    assert_eq!(errors, n + 1, "one error for each message");
    gui.assert_idle("after a flood of line messages");
    assert_eq!(lines(&c.state()), before);
    assert_eq!(gui.engines(), 1);
}

#[test]
fn every_answer_says_nosniff() {
    let gui = Gui::start(&[]);
    let port = gui.port;
    let head = |path: &str, host: &str| {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.write_all(
            format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .unwrap();
        let mut a = String::new();
        let _ = s.read_to_string(&mut a);
        a.to_ascii_lowercase()
    };
    let here = format!("127.0.0.1:{port}");
    for (path, host) in [
        ("/", here.as_str()),
        ("/app.js", &here),
        ("/nothing", &here),
        ("/", "evil.example"),
    ] {
        let answer = head(path, host);
        assert!(
            answer.contains("x-content-type-options: nosniff"),
            "{path} {host}: {answer}"
        );
    }
}

#[test]
fn what_a_page_sent_is_said_back_cut_to_a_hundred_characters() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let long = "g".repeat(10_000);
    for v in [
        json!({"t":"new_game","game": long,"p1":"human","p2":"human"}),
        json!({"t":"set_option","name": long,"value":"1"}),
        json!({"t":"set_option","name":"Hash","value": long}),
        json!({"t":"move","token": long}),
    ] {
        let e = c.error_for(v.clone());
        assert!(
            e.contains(&"g".repeat(100)) && !e.contains(&"g".repeat(101)),
            "{e}"
        );
        assert!(e.chars().count() < 250, "{} characters", e.chars().count());
    }
}

/// The engine lines the server sent (`>` in the console).
fn sent_lines(c: &Client) -> Vec<String> {
    c.seen
        .iter()
        .filter(|m| m["t"] == "console")
        .flat_map(|m| m["lines"].as_array().cloned().unwrap_or_default())
        .filter(|l| l[0] == ">")
        .map(|l| l[1].as_str().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn eval_file_names_only_a_regular_file_of_sane_size() {
    // Issue 39 §2: a page could give the engine a device or a pipe to read.
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    for bad in ["/dev/zero", "/dev/stdin", "/", "/nonexistent/net.nnue"] {
        let e = c.error_for(json!({"t":"set_option","name":"EvalFile","value": bad}));
        assert!(e.starts_with("option EvalFile:"), "{bad}: {e}");
    }
    c.state();
    assert!(
        !sent_lines(&c).iter().any(|l| l.contains("EvalFile")),
        "{:?}",
        sent_lines(&c)
    );
    assert_eq!(c.state()["engine_running"], json!(true));
    gui.assert_idle("after refused file options");
}

#[test]
fn hash_is_capped_so_that_every_session_together_stays_in_the_budget() {
    let gui = Gui::start(&["--max-sessions", "4", "--hash-budget", "64"]);
    let mut c = gui.connect();
    let hello = c.seen.iter().find(|m| m["t"] == "hello").cloned().unwrap();
    let hash = hello["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "Hash")
        .cloned()
        .unwrap();
    assert_eq!(hash["max"], json!(16), "{hash}");
    let e = c.error_for(json!({"t":"set_option","name":"Hash","value":"16384"}));
    assert!(e.contains("1..16"), "{e}");
    c.send(json!({"t":"set_option","name":"Hash","value":"16"}));
    c.state();
    assert!(sent_lines(&c).contains(&"setoption name Hash value 16".to_string()));
    assert!(!sent_lines(&c).iter().any(|l| l.contains("16384")));
}

#[test]
fn pings_and_review_continues_are_answered_and_leave_the_server_idle() {
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    c.send(json!({"t":"ping"}));
    c.until(|m| m["t"] == "pong");
    let e = c.error_for(json!({"t":"review_continue"}));
    assert!(e.contains("no review"), "{e}");
    for _ in 0..1000 {
        c.send(json!({"t":"ping"}));
        c.send(json!({"t":"review_continue"}));
    }
    c.send_text("{".to_string());
    c.until(|m| {
        m["t"] == "error"
            && m["message"]
                .as_str()
                .is_some_and(|t| t.starts_with("bad message"))
    });
    gui.assert_idle("after a flood of pings and continues");
    // A review cut short continues; one running cannot be continued again.
    c.send(json!({"t":"review","ms": 2000}));
    c.until(|m| m["t"] == "state" && m["review"]["running"] == json!(true));
    let e = c.error_for(json!({"t":"review_continue"}));
    assert!(e.contains("running"), "{e}");
    c.send(json!({"t":"review","nodes":0}));
    let s = c
        .until(|m| m["t"] == "state" && m["review"]["running"] == json!(false))
        .pop()
        .unwrap();
    assert_eq!(s["review"]["cut"], json!(true), "{s}");
    c.send(json!({"t":"review_continue"}));
    c.until(|m| m["t"] == "review_end" && m["cancelled"] == json!(false));
    gui.assert_idle("after the review");
    assert_eq!(gui.engines(), 1);
}

/// Two people's Duell game of `n` plies by the first legal token each time.
fn duell_by_hand(c: &mut Client, n: usize) {
    c.send(json!({"t":"new_game","game":"duell","p1":"human","p2":"human"}));
    let mut s = c
        .until(|m| m["t"] == "state" && m["game"] == "duell" && m["moves"] == json!([]))
        .pop()
        .expect("a state");
    for k in 1..=n {
        c.send(json!({"t":"move","token": s["legal"][0]}));
        s = c
            .until(|m| m["t"] == "state" && m["moves"].as_array().is_some_and(|a| a.len() == k))
            .pop()
            .expect("a state");
    }
}

#[test]
fn a_review_runs_on_an_engine_of_its_own_that_ends_with_it_and_with_the_page() {
    // Issue 39 §3: the review is quartet review's, run with an engine of its own while the
    // game goes on. It never outlives the review, nor a page that went away (it goes on when
    // the page is back), and starting and cancelling reviews in a flood runs one at a time.
    let gui = Gui::start(&[]);
    let mut c = gui.connect();
    let id = session_id(&c);
    duell_by_hand(&mut c, 6);
    c.send(json!({"t":"review","nodes": 5_000_000}));
    c.until(|m| m["t"] == "console" && m.to_string().contains("(review) go nodes 5000000"));
    assert_eq!(gui.engines(), 2, "the game's engine and the review's");
    // The game goes on meanwhile: a move is taken.
    c.send(json!({"t":"move","token":"x"}));
    c.until(|m| m["t"] == "error");
    // The page goes away: the review's engine ends, the game's is kept.
    drop(c);
    assert_eq!(
        gui.engines_within(1, 5),
        1,
        "the review's engine ended with the page"
    );
    gui.assert_idle("a review while no page looks");
    // Back, the review goes on; cancelled, its engine ends.
    let mut back = gui.claim(&id);
    back.until(|m| m["t"] == "console" && m.to_string().contains("(review) go nodes"));
    assert_eq!(gui.engines(), 2);
    back.send(json!({"t":"review","nodes":0}));
    back.until(|m| m["t"] == "review_end" && m["cancelled"] == json!(true));
    assert_eq!(
        gui.engines_within(1, 5),
        1,
        "the review's engine ended with the cancel"
    );
    // A flood of reviews started and cancelled: at most one review engine at any time.
    let mut most = 0;
    for i in 0..200 {
        if i % 2 == 0 {
            back.send(json!({"t":"review","nodes": 5_000_000}));
        } else {
            back.send(json!({"t":"review","nodes": 0}));
        }
        if i % 20 == 0 {
            most = most.max(gui.engines());
        }
    }
    back.send(json!({"t":"review","nodes":0}));
    // Everything sent has been taken once this is answered.
    let e = back.error_for(json!({"t":"move","token":"flood-end"}));
    assert!(e.contains("flood-end"), "{e}");
    assert!(most <= 2, "{most} engines at once");
    assert_eq!(gui.engines_within(1, 5), 1);
    gui.assert_idle("after a flood of reviews");
    // A short review to its end: its result is quartet review's JSON, kept for a reload,
    // and its engine ends before the end is told.
    back.send(json!({"t":"review","nodes": 500}));
    let end = back.until(|m| m["t"] == "review_log" && m["review"].is_object());
    let review = &end.last().unwrap()["review"];
    assert_eq!(
        review["plies"].as_array().map(Vec::len),
        Some(6),
        "{review}"
    );
    assert!(review["sides"]["first"]["accuracy"].is_number(), "{review}");
    assert_eq!(gui.engines(), 1);
    drop(back);
    std::thread::sleep(Duration::from_millis(300));
    let again = gui.claim(&id);
    let kept = again
        .seen
        .iter()
        .find(|m| m["t"] == "review_log")
        .expect("the review sent to the page back");
    assert_eq!(&kept["review"], review);
}

#[test]
fn temperature_maps_are_made_one_at_a_time_and_only_where_a_roll_is_due() {
    // gnubg's temperature map on demand, with an engine of its own: a flood of requests
    // never starts more than one, and where no roll is due none starts.
    let gui = Gui::start(&["--seed", "3"]);
    let mut c = gui.connect();
    c.send(json!({"t":"new_game","game":"ludo","p1":"human","p2":"human"}));
    c.until(|m| m["t"] == "state" && m["game"] == "ludo" && m["position"]["node"] == "chance");
    let from = c.seen.len();
    for _ in 0..300 {
        c.send(json!({"t":"temperature","nodes": 200_000}));
    }
    c.send(json!({"t":"promote","line": 999}));
    c.until(|m| m["t"] == "error" && m["message"] == "there is no variation 999");
    assert!(gui.engines() <= 2, "{} engines", gui.engines());
    let refused = c.seen[from..]
        .iter()
        .filter(|m| {
            m["t"] == "error"
                && m["message"]
                    .as_str()
                    .is_some_and(|t| t.contains("one at a time"))
        })
        .count();
    assert!(refused >= 290, "{refused} refused");
    let map = match c.seen.iter().find(|m| m["t"] == "temperature") {
        Some(m) => m.clone(),
        None => c.until(|m| m["t"] == "temperature").pop().unwrap(),
    };
    assert_eq!(map["map"].as_array().map(Vec::len), Some(6), "{map}");
    assert_eq!(gui.engines_within(1, 5), 1, "its engine ended with it");
    // After the roll a move is due: no map.
    c.send(json!({"t":"roll"}));
    c.until(|m| m["t"] == "state" && m["position"]["node"] != "chance");
    let e = c.error_for(json!({"t":"temperature","nodes": 100}));
    assert!(e.contains("where a roll is due"), "{e}");
    assert_eq!(gui.engines(), 1);
    gui.assert_idle("after the temperature maps");
}
