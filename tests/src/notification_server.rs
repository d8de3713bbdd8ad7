//! A small `org.freedesktop.Notifications` server on the session bus: it records each
//! notification and lets a test press its buttons (`ActionInvoked`) or dismiss it
//! (`NotificationClosed`), as a desktop's notification daemon would.
//!
//! Only one process-wide owner of the name can exist on a bus, so tests that use it
//! hold [`exclusive_bus`] for their whole run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use zbus::fdo::{RequestNameFlags, RequestNameReply};
use zbus::message::Header;
use zbus::{Connection, OwnedVariant};

pub const NAME: &str = "org.freedesktop.Notifications";
pub const PATH: &str = "/org/freedesktop/Notifications";
const INTERFACE: &str = "org.freedesktop.Notifications";
/// `NotificationClosed` reasons from the specification.
pub const CLOSED_DISMISSED: u32 = 2;
pub const CLOSED_BY_CALL: u32 = 3;

/// How long a test waits for something to arrive over the bus before failing.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// Serializes the tests of one binary that own the notification server's name.
pub async fn exclusive_bus() -> tokio::sync::MutexGuard<'static, ()> {
    static BUS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    BUS.lock().await
}

/// Whether the D-Bus tests may run: they need a session bus (scripts/test.sh runs the
/// Rust tests in `dbus-run-session`). Without one they fail, unless
/// `CUBICLE_SKIP_DBUS=1` says to skip them knowingly.
pub fn session_bus_or_skip(test: &str) -> bool {
    if std::env::var("CUBICLE_SKIP_DBUS").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: {test} (CUBICLE_SKIP_DBUS=1)");
        return false;
    }
    let address = std::env::var("DBUS_SESSION_BUS_ADDRESS").unwrap_or_default();
    assert!(
        !address.trim().is_empty(),
        "DBUS_SESSION_BUS_ADDRESS is not set: run scripts/test.sh, or \
         `dbus-run-session -- cargo test -p cubicle-tests --test it notifications::`, \
         or set CUBICLE_SKIP_DBUS=1 to skip the D-Bus tests"
    );
    true
}

/// One `Notify` call as the server received it.
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    pub id: u32,
    pub app_name: String,
    pub summary: String,
    pub body: String,
    /// Flat pairs as on the wire: key, label, key, label, …
    pub actions: Vec<String>,
    pub hints: Vec<String>,
    /// The unique bus name of the connection that sent it.
    pub sender: String,
}

impl Recorded {
    /// The action keys offered (without their labels).
    pub fn action_keys(&self) -> Vec<&str> {
        self.actions.iter().step_by(2).map(String::as_str).collect()
    }

    pub fn label_of(&self, key: &str) -> Option<&str> {
        self.actions
            .chunks(2)
            .find(|pair| pair[0] == key)
            .and_then(|pair| pair.get(1))
            .map(String::as_str)
    }
}

/// The arguments of a `Notify` call, in the order the specification gives them.
#[derive(serde::Deserialize, zbus::zvariant::Type)]
struct NotifyCall {
    app_name: String,
    replaces_id: u32,
    _app_icon: String,
    summary: String,
    body: String,
    actions: Vec<String>,
    hints: HashMap<String, OwnedVariant>,
    _expire_timeout: i32,
}

#[derive(Default)]
struct State {
    next_id: u32,
    notifications: Vec<Recorded>,
    /// Ids the client asked to close (`CloseNotification`).
    closed_by_client: Vec<u32>,
}

struct Server {
    capabilities: Vec<String>,
    state: Arc<Mutex<State>>,
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[zbus::interface(name = "org.freedesktop.Notifications")]
impl Server {
    fn get_capabilities(&self) -> Vec<String> {
        self.capabilities.clone()
    }

    #[zbus(out_args("name", "vendor", "version", "spec_version"))]
    fn get_server_information(&self) -> (String, String, String, String) {
        (
            "cubicle-test-notifications".into(),
            "Cubicle".into(),
            "1".into(),
            "1.2".into(),
        )
    }

    /// `Notify(susssasa{sv}i)`: the call's arguments arrive as one typed [`NotifyCall`].
    fn notify(&self, #[zbus(header)] header: Header<'_>, call: NotifyCall) -> u32 {
        let NotifyCall {
            app_name,
            replaces_id,
            summary,
            body,
            actions,
            hints,
            ..
        } = call;
        let mut s = lock(&self.state);
        let id = if replaces_id != 0 {
            replaces_id
        } else {
            s.next_id += 1;
            s.next_id
        };
        let mut hints: Vec<String> = hints.into_keys().collect();
        hints.sort();
        s.notifications.push(Recorded {
            id,
            app_name,
            summary,
            body,
            actions,
            hints,
            sender: header.sender().map(|n| n.to_string()).unwrap_or_default(),
        });
        id
    }

    async fn close_notification(
        &self,
        #[zbus(connection)] conn: &Connection,
        id: u32,
    ) -> zbus::fdo::Result<()> {
        lock(&self.state).closed_by_client.push(id);
        conn.emit_signal(
            None::<()>,
            PATH,
            INTERFACE,
            "NotificationClosed",
            &(id, CLOSED_BY_CALL),
        )
        .await?;
        Ok(())
    }
}

/// The running server; it leaves the bus when dropped.
pub struct NotificationServer {
    conn: Connection,
    state: Arc<Mutex<State>>,
}

impl NotificationServer {
    /// A server offering buttons and a body, like GNOME's or dunst.
    pub async fn with_actions() -> zbus::Result<Self> {
        Self::start(&["actions", "body"]).await
    }

    /// A server that offers no buttons (`body` only).
    pub async fn without_actions() -> zbus::Result<Self> {
        Self::start(&["body"]).await
    }

    pub async fn start(capabilities: &[&str]) -> zbus::Result<Self> {
        let state = Arc::new(Mutex::new(State::default()));
        let server = Server {
            capabilities: capabilities.iter().map(|c| c.to_string()).collect(),
            state: Arc::clone(&state),
        };
        let conn = zbus::connection::Builder::session()
            .serve_at(PATH, server)
            .build()
            .await?;
        let server = Self { conn, state };
        server.claim_name().await?;
        Ok(server)
    }

    /// Owns the well-known name, taking it over from a server a previous test may not
    /// have released yet (allow replacement, replace, don't queue: the defaults).
    pub async fn claim_name(&self) -> zbus::Result<()> {
        let reply = self
            .conn
            .request_name_with_flags(NAME, RequestNameFlags::default())
            .await?;
        match reply {
            RequestNameReply::PrimaryOwner | RequestNameReply::AlreadyOwner => Ok(()),
            other => Err(zbus::Error::Failure(format!(
                "could not own {NAME}: {other:?}"
            ))),
        }
    }

    /// Leaves the name unowned: the session then has no notification daemon.
    pub async fn release_name(&self) -> zbus::Result<()> {
        self.conn.release_name(NAME).await.map(|_| ())
    }

    /// Every notification received so far, in order.
    pub fn notifications(&self) -> Vec<Recorded> {
        lock(&self.state).notifications.clone()
    }

    /// The process id behind a bus name (a [`Recorded::sender`]), as the bus daemon
    /// knows it: which program raised a notification.
    pub async fn sender_pid(&self, sender: &str) -> zbus::Result<u32> {
        let name = zbus::names::BusName::try_from(sender)?;
        let bus = zbus::fdo::DBusProxy::new(&self.conn).await?;
        Ok(bus.get_connection_unix_process_id(name).await?)
    }

    /// Ids the client closed itself.
    pub fn closed_by_client(&self) -> Vec<u32> {
        lock(&self.state).closed_by_client.clone()
    }

    /// Waits until at least `n` notifications arrived; panics after [`PATIENCE`].
    pub async fn wait_for_notifications(&self, n: usize) -> Vec<Recorded> {
        let got = wait_until(|| {
            let all = self.notifications();
            (all.len() >= n).then_some(all)
        })
        .await;
        got.unwrap_or_else(|| {
            panic!(
                "expected {n} notification(s), got {:?}",
                self.notifications()
            )
        })
    }

    /// Waits until the client closed notification `id`; panics after [`PATIENCE`].
    pub async fn wait_for_close(&self, id: u32) {
        let closed = wait_until(|| self.closed_by_client().contains(&id).then_some(())).await;
        assert!(
            closed.is_some(),
            "notification {id} was never closed by the client (closed: {:?})",
            self.closed_by_client()
        );
    }

    /// The boss presses button `key` on notification `n`: once its sender listens for
    /// actions (or has gone), the server emits `ActionInvoked` and then, as servers do,
    /// `NotificationClosed`.
    pub async fn invoke_action(&self, n: &Recorded, key: &str) -> zbus::Result<()> {
        self.wait_until_listening(&n.sender).await?;
        self.emit_action(n.id, key).await?;
        self.emit_closed(n.id, CLOSED_DISMISSED).await
    }

    /// The boss dismisses notification `n` without pressing anything.
    pub async fn dismiss(&self, n: &Recorded) -> zbus::Result<()> {
        self.wait_until_listening(&n.sender).await?;
        self.emit_closed(n.id, CLOSED_DISMISSED).await
    }

    /// `ActionInvoked(id, key)` right now, whoever listens.
    pub async fn emit_action(&self, id: u32, key: &str) -> zbus::Result<()> {
        self.conn
            .emit_signal(None::<()>, PATH, INTERFACE, "ActionInvoked", &(id, key))
            .await
    }

    pub async fn emit_closed(&self, id: u32, reason: u32) -> zbus::Result<()> {
        self.conn
            .emit_signal(
                None::<()>,
                PATH,
                INTERFACE,
                "NotificationClosed",
                &(id, reason),
            )
            .await
    }

    /// A client subscribes to `ActionInvoked` after `Notify` returns; a signal sent
    /// before that is lost to it. The bus daemon's statistics interface says when the
    /// subscription is in place (or that the client's connection is gone).
    async fn wait_until_listening(&self, sender: &str) -> zbus::Result<()> {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            match self.listens_for_actions(sender).await? {
                Some(true) | None => return Ok(()),
                Some(false) if tokio::time::Instant::now() >= deadline => {
                    return Err(zbus::Error::Failure(format!(
                        "{sender} never subscribed to ActionInvoked"
                    )));
                }
                Some(false) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }

    /// Whether `sender` listens for `ActionInvoked` (`None`: it is not on the bus). A
    /// client adds that rule, then one for `NotificationClosed`, and only then reads its
    /// signals: a signal sent between the two is lost to it, so both must be in place —
    /// at least as many of the second, when an earlier notification of the same connection
    /// still waits.
    /// The rules are read as plain text: a real app's connections (GLib, WebKit, AT-SPI)
    /// hold rules that zbus's typed `MatchRule` does not parse, which would fail the call.
    async fn listens_for_actions(&self, sender: &str) -> zbus::Result<Option<bool>> {
        let reply = self
            .conn
            .call_method(
                Some("org.freedesktop.DBus"),
                "/org/freedesktop/DBus",
                Some("org.freedesktop.DBus.Debug.Stats"),
                "GetAllMatchRules",
                &(),
            )
            .await?;
        let rules: HashMap<String, Vec<String>> = reply.body().deserialize()?;
        Ok(rules.get(sender).map(|rules| {
            let count = |member: &str| {
                let rule = format!("member='{member}'");
                rules.iter().filter(|r| r.contains(&rule)).count()
            };
            let actions = count("ActionInvoked");
            actions > 0 && count("NotificationClosed") >= actions
        }))
    }
}

/// Polls `check` every 20 ms until it yields, for at most [`PATIENCE`].
pub async fn wait_until<T>(mut check: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(v) = check() {
            return Some(v);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
