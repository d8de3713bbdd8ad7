//! A system tray on the session bus, as a desktop panel provides one: a minimal
//! `org.kde.StatusNotifierWatcher` that tray icons register with, and a reader of what
//! they publish — the item's properties and its `com.canonical.dbusmenu` menu, whose
//! entries it can click.
//!
//! On Linux the app's tray (tray-icon over libayatana-appindicator) looks for the
//! watcher at `org.kde.StatusNotifierWatcher` / `/StatusNotifierWatcher`, exports its
//! item at `/org/ayatana/NotificationItem/<id>` and calls `RegisterStatusNotifierItem`
//! with that object path (the KDE specification's form is a bus name; both are
//! accepted, as real watchers do). Only one owner of the watcher's name can exist on a
//! bus: tests hold [`crate::notification_server::exclusive_bus`] while one runs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use zbus::fdo::{RequestNameFlags, RequestNameReply};
use zbus::message::Header;
use zbus::object_server::SignalEmitter;
use zbus::{Connection, OwnedVariant, Variant};

pub const WATCHER_NAME: &str = "org.kde.StatusNotifierWatcher";
pub const WATCHER_PATH: &str = "/StatusNotifierWatcher";
const ITEM_INTERFACE: &str = "org.kde.StatusNotifierItem";
const MENU_INTERFACE: &str = "com.canonical.dbusmenu";
const PROPERTIES: &str = "org.freedesktop.DBus.Properties";
/// The item path the specification assumes when a bus name is registered.
const DEFAULT_ITEM_PATH: &str = "/StatusNotifierItem";

/// One registered tray icon: who owns it on the bus, and where its object lives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub service: String,
    pub path: String,
}

impl Item {
    /// The `RegisterStatusNotifierItem` argument from `sender`: an object path (what
    /// libappindicator sends) or a bus name (what the specification describes).
    fn from_registration(sender: &str, arg: &str) -> Self {
        if arg.starts_with('/') {
            Self {
                service: sender.to_owned(),
                path: arg.to_owned(),
            }
        } else {
            Self {
                service: arg.to_owned(),
                path: DEFAULT_ITEM_PATH.to_owned(),
            }
        }
    }

    /// As `RegisteredStatusNotifierItems` lists it: service and path run together.
    fn listed(&self) -> String {
        format!("{}{}", self.service, self.path)
    }
}

#[derive(Default)]
struct State {
    items: Vec<Item>,
    hosts: Vec<String>,
}

fn lock(state: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

struct Watcher {
    state: Arc<Mutex<State>>,
}

#[zbus::interface(name = "org.kde.StatusNotifierWatcher")]
impl Watcher {
    async fn register_status_notifier_item(
        &self,
        #[zbus(header)] header: Header<'_>,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
        service: String,
    ) -> zbus::fdo::Result<()> {
        let sender = header.sender().map(|n| n.to_string()).unwrap_or_default();
        let item = Item::from_registration(&sender, &service);
        let listed = item.listed();
        {
            let mut s = lock(&self.state);
            if !s.items.contains(&item) {
                s.items.push(item);
            }
        }
        Self::status_notifier_item_registered(&emitter, &listed).await?;
        Ok(())
    }

    async fn register_status_notifier_host(
        &self,
        #[zbus(signal_emitter)] emitter: SignalEmitter<'_>,
        service: String,
    ) -> zbus::fdo::Result<()> {
        lock(&self.state).hosts.push(service);
        Self::status_notifier_host_registered(&emitter).await?;
        Ok(())
    }

    #[zbus(property)]
    fn registered_status_notifier_items(&self) -> Vec<String> {
        lock(&self.state).items.iter().map(Item::listed).collect()
    }

    /// This test process is the host that shows the items.
    #[zbus(property)]
    fn is_status_notifier_host_registered(&self) -> bool {
        true
    }

    #[zbus(property)]
    fn protocol_version(&self) -> i32 {
        0
    }

    #[zbus(signal)]
    async fn status_notifier_item_registered(
        emitter: &SignalEmitter<'_>,
        service: &str,
    ) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn status_notifier_item_unregistered(
        emitter: &SignalEmitter<'_>,
        service: &str,
    ) -> zbus::Result<()>;

    #[zbus(signal)]
    async fn status_notifier_host_registered(emitter: &SignalEmitter<'_>) -> zbus::Result<()>;
}

/// One entry of a dbusmenu: its id (what a click names) and label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuEntry {
    pub id: i32,
    pub label: String,
    /// "separator" for a separator, else empty ("standard").
    pub kind: String,
    pub enabled: bool,
}

/// The running watcher; it leaves the bus when dropped.
pub struct TrayHost {
    conn: Connection,
    state: Arc<Mutex<State>>,
}

impl TrayHost {
    pub async fn start() -> zbus::Result<Self> {
        let state = Arc::new(Mutex::new(State::default()));
        let conn = zbus::connection::Builder::session()
            .serve_at(
                WATCHER_PATH,
                Watcher {
                    state: Arc::clone(&state),
                },
            )
            .build()
            .await?;
        let reply = conn
            .request_name_with_flags(WATCHER_NAME, RequestNameFlags::default())
            .await?;
        if !matches!(
            reply,
            RequestNameReply::PrimaryOwner | RequestNameReply::AlreadyOwner
        ) {
            return Err(zbus::Error::Failure(format!(
                "could not own {WATCHER_NAME}: {reply:?}"
            )));
        }
        Ok(Self { conn, state })
    }

    /// Every item registered so far.
    pub fn items(&self) -> Vec<Item> {
        lock(&self.state).items.clone()
    }

    /// Waits for the first item registered, for at most `patience`.
    pub async fn wait_for_item(&self, patience: Duration) -> Option<Item> {
        poll(patience, || async { self.items().into_iter().next() }).await
    }

    /// Whether `item`'s owner is still on the bus.
    pub async fn is_alive(&self, item: &Item) -> zbus::Result<bool> {
        let dbus = zbus::fdo::DBusProxy::new(&self.conn).await?;
        let name = zbus::names::BusName::try_from(item.service.as_str())?;
        Ok(dbus.name_has_owner(name).await?)
    }

    /// One property of the item, read fresh (no cache).
    pub async fn item_property(&self, item: &Item, name: &str) -> zbus::Result<OwnedVariant> {
        let reply = self
            .conn
            .call_method(
                Some(item.service.as_str()),
                item.path.as_str(),
                Some(PROPERTIES),
                "Get",
                &(ITEM_INTERFACE, name),
            )
            .await?;
        reply.body().deserialize::<OwnedVariant>()
    }

    /// A string property of the item (`XAyatanaLabel`, `Title`, `Status`, …).
    pub async fn item_string(&self, item: &Item, name: &str) -> zbus::Result<String> {
        let v = self.item_property(item, name).await?;
        text(&v).ok_or_else(|| zbus::Error::Failure(format!("{name} is not a string: {v:?}")))
    }

    /// The object path of the item's menu.
    pub async fn menu_path(&self, item: &Item) -> zbus::Result<String> {
        let v = self.item_property(item, "Menu").await?;
        match &*v {
            Variant::ObjectPath(p) => Ok(p.to_string()),
            other => Err(zbus::Error::Failure(format!(
                "Menu is not a path: {other:?}"
            ))),
        }
    }

    /// The menu's top-level entries, in order (`GetLayout` on the root, one level).
    pub async fn menu(&self, item: &Item) -> zbus::Result<Vec<MenuEntry>> {
        let path = self.menu_path(item).await?;
        let reply = self
            .conn
            .call_method(
                Some(item.service.as_str()),
                path.as_str(),
                Some(MENU_INTERFACE),
                "GetLayout",
                &(0i32, 1i32, Vec::<String>::new()),
            )
            .await?;
        type Layout = (i32, HashMap<String, OwnedVariant>, Vec<OwnedVariant>);
        let (_revision, (_root, _props, children)): (u32, Layout) = reply.body().deserialize()?;
        children
            .iter()
            .map(|c| entry(c).ok_or_else(|| zbus::Error::Failure(format!("odd menu entry: {c:?}"))))
            .collect()
    }

    /// The labels of the menu's entries that are not separators.
    pub async fn menu_labels(&self, item: &Item) -> zbus::Result<Vec<String>> {
        Ok(self
            .menu(item)
            .await?
            .into_iter()
            .filter(|e| e.kind != "separator")
            .map(|e| e.label)
            .collect())
    }

    /// Waits until the menu's labels satisfy `done`; the last labels either way.
    pub async fn wait_for_menu(
        &self,
        item: &Item,
        patience: Duration,
        done: impl Fn(&[String]) -> bool,
    ) -> Result<Vec<String>, Vec<String>> {
        let last = Mutex::new(Vec::new());
        let got = poll(patience, || async {
            let labels = self.menu_labels(item).await.ok()?;
            let ok = done(&labels);
            *last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = labels.clone();
            ok.then_some(labels)
        })
        .await;
        got.ok_or_else(|| last.into_inner().unwrap_or_default())
    }

    /// The boss clicks the menu entry labelled `label`, as a panel does: `AboutToShow`
    /// on the root, then `Event(id, "clicked")`.
    pub async fn click(&self, item: &Item, label: &str) -> zbus::Result<()> {
        let path = self.menu_path(item).await?;
        let entry = self
            .menu(item)
            .await?
            .into_iter()
            .find(|e| e.label == label)
            .ok_or_else(|| zbus::Error::Failure(format!("no menu entry {label:?}")))?;
        let service = item.service.as_str();
        self.conn
            .call_method(
                Some(service),
                path.as_str(),
                Some(MENU_INTERFACE),
                "AboutToShow",
                &(0i32,),
            )
            .await?;
        let timestamp = 0u32;
        self.conn
            .call_method(
                Some(service),
                path.as_str(),
                Some(MENU_INTERFACE),
                "Event",
                &(entry.id, "clicked", Variant::from(0i32), timestamp),
            )
            .await?;
        Ok(())
    }
}

/// A string inside a variant (however deeply wrapped).
fn text(v: &Variant<'_>) -> Option<String> {
    match v {
        Variant::Str(s) => Some(s.to_string()),
        Variant::Variant(inner) => text(inner),
        _ => None,
    }
}

fn boolean(v: &Variant<'_>) -> Option<bool> {
    match v {
        Variant::Bool(b) => Some(*b),
        Variant::Variant(inner) => boolean(inner),
        _ => None,
    }
}

/// One child of `GetLayout`: a variant holding `(id, properties, children)`.
fn entry(v: &Variant<'_>) -> Option<MenuEntry> {
    let fields = match v {
        Variant::Structure(s) => s.fields(),
        Variant::Variant(inner) => return entry(inner),
        _ => return None,
    };
    let Some(Variant::I32(id)) = fields.first() else {
        return None;
    };
    let Some(Variant::Dict(props)) = fields.get(1) else {
        return None;
    };
    let mut e = MenuEntry {
        id: *id,
        label: String::new(),
        kind: String::new(),
        enabled: true,
    };
    for (k, v) in props.iter() {
        match text(k).as_deref() {
            // GTK mnemonics ("_Quit") are not part of what the boss reads.
            Some("label") => e.label = text(v).unwrap_or_default().replace('_', ""),
            Some("type") => e.kind = text(v).unwrap_or_default(),
            Some("enabled") => e.enabled = boolean(v).unwrap_or(true),
            _ => {}
        }
    }
    Some(e)
}

/// Calls `check` every 100 ms until it yields, for at most `patience`.
pub async fn poll<T, F, Fut>(patience: Duration, mut check: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + patience;
    loop {
        if let Some(v) = check().await {
            return Some(v);
        }
        if tokio::time::Instant::now() >= deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
