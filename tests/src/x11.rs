//! Just enough of the X11 wire protocol to ask a window to close the way a window
//! manager's close button does: a `WM_PROTOCOLS` / `WM_DELETE_WINDOW` client message
//! (ICCCM §4.2.8.1). Xvfb has no window manager, `xdotool windowkill` severs the
//! client's connection instead, and this Debian's xdotool predates `windowclose`.
//!
//! Talks to a local display's Unix socket with no authorization (an Xvfb started
//! without `-auth`).

use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::time::Duration;

/// The socket of local display `:n`.
pub fn socket_path(display: u32) -> String {
    format!("/tmp/.X11-unix/X{display}")
}

struct Conn {
    stream: UnixStream,
}

impl Conn {
    fn open(display: u32) -> std::io::Result<Self> {
        let mut stream = UnixStream::connect(socket_path(display))?;
        stream.set_read_timeout(Some(Duration::from_secs(5)))?;
        // Connection setup: little-endian, protocol 11.0, no authorization.
        let mut setup = vec![b'l', 0];
        setup.extend_from_slice(&11u16.to_le_bytes());
        setup.extend_from_slice(&0u16.to_le_bytes());
        setup.extend_from_slice(&0u16.to_le_bytes()); // auth name length
        setup.extend_from_slice(&0u16.to_le_bytes()); // auth data length
        setup.extend_from_slice(&[0, 0]);
        stream.write_all(&setup)?;
        let mut head = [0u8; 8];
        stream.read_exact(&mut head)?;
        let extra = u16::from_le_bytes([head[6], head[7]]) as usize * 4;
        let mut rest = vec![0u8; extra];
        stream.read_exact(&mut rest)?;
        if head[0] != 1 {
            let reason = String::from_utf8_lossy(&rest[..(head[1] as usize).min(rest.len())]);
            return Err(std::io::Error::other(format!(
                "the X server refused the connection: {reason}"
            )));
        }
        Ok(Self { stream })
    }

    /// Reads one 32-byte reply; an X error is returned as an error.
    fn reply(&mut self) -> std::io::Result<[u8; 32]> {
        let mut r = [0u8; 32];
        self.stream.read_exact(&mut r)?;
        match r[0] {
            1 => {
                // Replies longer than 32 bytes carry more data: drain it.
                let more = u32::from_le_bytes([r[4], r[5], r[6], r[7]]) as usize * 4;
                let mut rest = vec![0u8; more];
                self.stream.read_exact(&mut rest)?;
                Ok(r)
            }
            0 => Err(std::io::Error::other(format!(
                "X error {} (major opcode {})",
                r[1], r[10]
            ))),
            // An event: not asked for, but skip it rather than misread it.
            _ => self.reply(),
        }
    }

    /// `InternAtom` (opcode 16).
    fn atom(&mut self, name: &str) -> std::io::Result<u32> {
        let pad = (4 - name.len() % 4) % 4;
        let len = (8 + name.len() + pad) / 4;
        let mut req = vec![16u8, 0];
        req.extend_from_slice(&(len as u16).to_le_bytes());
        req.extend_from_slice(&(name.len() as u16).to_le_bytes());
        req.extend_from_slice(&[0, 0]);
        req.extend_from_slice(name.as_bytes());
        req.extend(std::iter::repeat_n(0u8, pad));
        self.stream.write_all(&req)?;
        let r = self.reply()?;
        Ok(u32::from_le_bytes([r[8], r[9], r[10], r[11]]))
    }

    /// `SendEvent` (opcode 25) of a 32-bit `ClientMessage` to `window`, with an empty
    /// event mask: it goes to the client that created the window.
    fn client_message(&mut self, window: u32, kind: u32, data: [u32; 5]) -> std::io::Result<()> {
        let mut req = vec![25u8, 0];
        req.extend_from_slice(&11u16.to_le_bytes());
        req.extend_from_slice(&window.to_le_bytes());
        req.extend_from_slice(&0u32.to_le_bytes()); // event mask
        let mut event = vec![33u8, 32]; // ClientMessage, format 32
        event.extend_from_slice(&0u16.to_le_bytes()); // sequence (filled in by the server)
        event.extend_from_slice(&window.to_le_bytes());
        event.extend_from_slice(&kind.to_le_bytes());
        for d in data {
            event.extend_from_slice(&d.to_le_bytes());
        }
        req.extend_from_slice(&event);
        self.stream.write_all(&req)
    }

    /// `GetInputFocus` (opcode 43): a round trip, so everything sent before has been
    /// handled (or has failed) when it returns.
    fn sync(&mut self) -> std::io::Result<()> {
        self.stream.write_all(&[43, 0, 1, 0])?;
        self.reply().map(|_| ())
    }
}

/// Asks `window` on display `:display` to close, as a window manager would.
pub fn request_close(display: u32, window: u32) -> std::io::Result<()> {
    let mut c = Conn::open(display)?;
    let protocols = c.atom("WM_PROTOCOLS")?;
    let delete = c.atom("WM_DELETE_WINDOW")?;
    // data: the protocol, the time (CurrentTime), unused.
    c.client_message(window, protocols, [delete, 0, 0, 0, 0])?;
    c.sync()
}
