//! The test notification server ([`cubicle_tests::notification_server`]) as a process of
//! its own, for the desktop end-to-end suite (tests/e2e): it owns
//! `org.freedesktop.Notifications` on the session bus the app runs on, and talks JSON lines.
//!
//! Out (stdout), one object a line:
//! - `{"event":"ready","capabilities":[…]}` once the name is owned;
//! - `{"event":"notify","id","appName","summary","body","actions","hints","sender","senderPid"}`
//!   for each `Notify` call (`senderPid`: the process behind the sender's bus name, or null);
//! - `{"event":"closedByClient","id"}` when the client closes one itself;
//! - `{"event":"invoked","id","action"}` / `{"event":"dismissed","id"}` once a command is done;
//! - `{"event":"error","message"}` for a command that failed.
//!
//! In (stdin): `invoke <id> <action-key>` (the boss presses a button; the server emits
//! `ActionInvoked` then `NotificationClosed` as real servers do) and `dismiss <id>`.
//! The server leaves the bus when stdin closes.
//!
//! Capabilities: `--capabilities actions,body,body-markup` (the default: what GNOME Shell
//! offers, markup included, so a body that is not escaped would render as markup).

use std::sync::Arc;
use std::time::Duration;

use cubicle_tests::notification_server::{NotificationServer, Recorded};
use serde_json::{Value, json};
use tokio::sync::mpsc;

const DEFAULT_CAPABILITIES: &str = "actions,body,body-markup";

fn say(v: Value) {
    println!("{v}");
}

fn capabilities() -> Result<Vec<String>, String> {
    let mut args = std::env::args().skip(1);
    let mut caps = DEFAULT_CAPABILITIES.to_owned();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--capabilities" => caps = args.next().ok_or("--capabilities needs a value")?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(caps
        .split(',')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect())
}

/// Lines from stdin, read on a thread of their own; the channel closes at end of input.
fn stdin_lines() -> mpsc::UnboundedReceiver<String> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

async fn notice(server: &NotificationServer, n: &Recorded) -> Value {
    let pid = server.sender_pid(&n.sender).await.ok();
    json!({
        "event": "notify",
        "id": n.id,
        "appName": n.app_name,
        "summary": n.summary,
        "body": n.body,
        "actions": n.actions,
        "hints": n.hints,
        "sender": n.sender,
        "senderPid": pid,
    })
}

/// Runs one stdin command against the notifications received so far.
async fn command(server: &NotificationServer, line: &str) -> Value {
    let words: Vec<&str> = line.split_whitespace().collect();
    let find = |id: &str| -> Result<Recorded, String> {
        let id: u32 = id.parse().map_err(|_| format!("not an id: {id:?}"))?;
        server
            .notifications()
            .into_iter()
            .rev()
            .find(|n| n.id == id)
            .ok_or(format!("no notification {id}"))
    };
    let done = match words.as_slice() {
        ["invoke", id, key] => match find(id) {
            Ok(n) => server
                .invoke_action(&n, key)
                .await
                .map(|()| json!({"event": "invoked", "id": n.id, "action": key}))
                .map_err(|e| e.to_string()),
            Err(e) => Err(e),
        },
        ["dismiss", id] => match find(id) {
            Ok(n) => server
                .dismiss(&n)
                .await
                .map(|()| json!({"event": "dismissed", "id": n.id}))
                .map_err(|e| e.to_string()),
            Err(e) => Err(e),
        },
        _ => Err(format!(
            "unknown command {line:?} (invoke <id> <action> | dismiss <id>)"
        )),
    };
    done.unwrap_or_else(|message| json!({"event": "error", "message": message}))
}

#[tokio::main]
async fn main() {
    let caps = match capabilities() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cubicle-test-notifications: {e}");
            std::process::exit(2);
        }
    };
    let refs: Vec<&str> = caps.iter().map(String::as_str).collect();
    let server = match NotificationServer::start(&refs).await {
        Ok(s) => Arc::new(s),
        Err(e) => {
            eprintln!("cubicle-test-notifications: cannot serve on the session bus: {e}");
            std::process::exit(1);
        }
    };
    say(json!({"event": "ready", "capabilities": caps}));

    let mut input = stdin_lines();
    let (mut shown, mut closed) = (0, 0);
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    loop {
        tokio::select! {
            line = input.recv() => {
                let Some(line) = line else { break };
                if line.trim().is_empty() {
                    continue;
                }
                // A press waits until the client listens: keep reporting meanwhile.
                let server = Arc::clone(&server);
                tokio::spawn(async move { say(command(&server, &line).await) });
            }
            _ = tick.tick() => {
                let all = server.notifications();
                for n in &all[shown..] {
                    say(notice(&server, n).await);
                }
                shown = all.len();
                let gone = server.closed_by_client();
                for id in &gone[closed..] {
                    say(json!({"event": "closedByClient", "id": id}));
                }
                closed = gone.len();
            }
        }
    }
}
