//! A real HTTP/1.1 file server on 127.0.0.1 for download tests, with the faults real
//! servers and networks have: a connection dropped mid-file, a stall, wrong bytes, a
//! server that ignores `Range`, an error status, a slow line. Each request takes the next
//! scripted [`Fault`]; once the script is used up every request is served normally.
//!
//! Hand-written over a `TcpListener` on purpose: dropping a socket half-way through a
//! body, or going silent, is exactly what a mock framework smooths over.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Body bytes are written in pieces of this size.
const CHUNK: usize = 64 << 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Normal,
    /// Close the connection after this many body bytes.
    DropAfter(u64),
    /// Send this many body bytes, then nothing (the socket stays open).
    StallAfter(u64),
    /// Answer `200` with the whole file whatever the `Range` header says.
    IgnoreRange,
    /// Answer with this status and an empty body.
    Status(u16),
}

/// What the server saw of one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub range_start: Option<u64>,
    pub fault: Fault,
}

struct Shared {
    bytes: Vec<u8>,
    /// Flip one byte in the middle of every response (a corrupt mirror).
    corrupt: std::sync::atomic::AtomicBool,
    /// Pause between chunks, in microseconds (a slow line); 0 for full speed.
    chunk_delay_us: AtomicU64,
    script: Mutex<VecDeque<Fault>>,
    seen: Mutex<Vec<Seen>>,
}

/// The running server; it stops when the test's runtime ends.
#[derive(Clone)]
pub struct FileServer {
    addr: std::net::SocketAddr,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for FileServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileServer")
            .field("addr", &self.addr)
            .finish()
    }
}

impl FileServer {
    /// Serves `bytes` at every path.
    pub async fn start(bytes: Vec<u8>) -> std::io::Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            bytes,
            corrupt: false.into(),
            chunk_delay_us: AtomicU64::new(0),
            script: Mutex::new(VecDeque::new()),
            seen: Mutex::new(Vec::new()),
        });
        let s = shared.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, s.clone()));
            }
        });
        Ok(Self { addr, shared })
    }

    /// Serves the file at `path`.
    pub async fn serve_file(path: &Path) -> std::io::Result<Self> {
        Self::start(tokio::fs::read(path).await?).await
    }

    pub fn url(&self, name: &str) -> String {
        format!("http://{}/{name}", self.addr)
    }

    pub fn bytes(&self) -> &[u8] {
        &self.shared.bytes
    }

    /// Faults for the next requests, in order.
    pub fn script(&self, faults: &[Fault]) {
        if let Ok(mut s) = self.shared.script.lock() {
            s.extend(faults.iter().copied());
        }
    }

    pub fn set_corrupt(&self, on: bool) {
        self.shared.corrupt.store(on, Ordering::SeqCst);
    }

    /// Slows every response down to one 64 KiB chunk per `delay`.
    pub fn set_chunk_delay(&self, delay: Duration) {
        let us = u64::try_from(delay.as_micros()).unwrap_or(u64::MAX);
        self.shared.chunk_delay_us.store(us, Ordering::SeqCst);
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.shared
            .seen
            .lock()
            .map(|s| s.clone())
            .unwrap_or_default()
    }
}

async fn serve(mut socket: TcpStream, shared: Arc<Shared>) {
    let Some(range_start) = read_request(&mut socket).await else {
        return;
    };
    let fault = shared
        .script
        .lock()
        .ok()
        .and_then(|mut s| s.pop_front())
        .unwrap_or(Fault::Normal);
    if let Ok(mut seen) = shared.seen.lock() {
        seen.push(Seen { range_start, fault });
    }
    let _ = respond(&mut socket, &shared, range_start, fault).await;
}

/// Reads the request head; returns the start of a `Range: bytes=N-` header, if any.
async fn read_request(socket: &mut TcpStream) -> Option<Option<u64>> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = socket.read(&mut buf).await.ok()?;
        if n == 0 || head.len() > 16 << 10 {
            return None;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&head);
    Some(text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        if !name.trim().eq_ignore_ascii_case("range") {
            return None;
        }
        let spec = value.trim().strip_prefix("bytes=")?;
        spec.split('-').next()?.trim().parse().ok()
    }))
}

async fn respond(
    socket: &mut TcpStream,
    shared: &Shared,
    range_start: Option<u64>,
    fault: Fault,
) -> std::io::Result<()> {
    let len = shared.bytes.len() as u64;
    if let Fault::Status(code) = fault {
        let head =
            format!("HTTP/1.1 {code} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return socket.write_all(head.as_bytes()).await;
    }
    let start = match range_start {
        Some(s) if fault != Fault::IgnoreRange => s,
        _ => 0,
    };
    if start >= len && start > 0 {
        let head = format!(
            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{len}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        return socket.write_all(head.as_bytes()).await;
    }
    let head = if start > 0 {
        format!(
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{len}\r\nContent-Length: {}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n",
            len - 1,
            len - start
        )
    } else {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Length: {len}\r\nAccept-Ranges: bytes\r\nConnection: close\r\n\r\n"
        )
    };
    socket.write_all(head.as_bytes()).await?;
    send_body(socket, shared, start, fault).await
}

async fn send_body(
    socket: &mut TcpStream,
    shared: &Shared,
    start: u64,
    fault: Fault,
) -> std::io::Result<()> {
    let len = shared.bytes.len() as u64;
    let limit = match fault {
        Fault::DropAfter(n) | Fault::StallAfter(n) => (start + n).min(len),
        _ => len,
    };
    let corrupt_at = shared.corrupt.load(Ordering::SeqCst).then_some(len / 2);
    let mut pos = start;
    while pos < limit {
        let end = (pos + CHUNK as u64).min(limit);
        let mut chunk = shared.bytes[pos as usize..end as usize].to_vec();
        if let Some(at) = corrupt_at.filter(|at| (pos..end).contains(at)) {
            chunk[(at - pos) as usize] ^= 0xff;
        }
        socket.write_all(&chunk).await?;
        pos = end;
        let delay = shared.chunk_delay_us.load(Ordering::SeqCst);
        if delay > 0 {
            tokio::time::sleep(Duration::from_micros(delay)).await;
        }
    }
    socket.flush().await?;
    if let Fault::StallAfter(_) = fault {
        // Silent but open, like a dead Wi-Fi link: only the client's stall timer ends it.
        let mut sink = [0u8; 64];
        let _ = tokio::time::timeout(Duration::from_secs(600), socket.read(&mut sink)).await;
    }
    Ok(())
}
