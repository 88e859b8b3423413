//! The two ways to reach the server: its stdin and stdout (one client, the editor that
//! started it), and a Unix socket that several clients share, each on its own connection.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::os::fd::{AsFd, AsRawFd};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::rpc::{self, Line};
use super::server::{Outbox, Server};

/// How often a wait looks whether the server is to stop.
const TICK: Duration = Duration::from_millis(200);

/// Writes the client's lines as they come, until the server lets go of it or it stops
/// reading.
fn write_lines(outbox: Outbox, mut out: impl Write) {
    for line in outbox {
        if out.write_all(&line).and_then(|()| out.flush()).is_err() {
            return;
        }
    }
}

/// Serves the lines of `input` for `client` until it ends or the server stops.
fn read_lines(server: &Arc<Server>, client: u64, input: impl io::Read) {
    let mut reader = BufReader::new(input);
    while !server.stopping() {
        match rpc::read_line(&mut reader, rpc::MAX_LINE) {
            Ok(Line::End) | Err(_) => return,
            Ok(line) => server.serve_line(client, line),
        }
    }
}

/// stdin and stdout: until stdin ends, `shutdown`, or a signal. stdout carries the protocol
/// alone: the server keeps its own copy of it and points descriptor 1 at stderr, so that
/// nothing printed by the judge (or anything it links) can break a line.
pub fn stdio(server: &Arc<Server>) -> Result<()> {
    let protocol = io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .context("cannot keep stdout for the protocol")?;
    // SAFETY: dup2 onto descriptor 1, which this process owns; stdout's Rust buffer is
    // empty, nothing having been printed yet.
    if unsafe { libc::dup2(io::stderr().as_raw_fd(), 1) } < 0 {
        bail!(
            "cannot point stdout at stderr: {}",
            io::Error::last_os_error()
        );
    }
    let (client, outbox) = server.connect();
    let writer = std::thread::spawn(move || write_lines(outbox, File::from(protocol)));
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let reading = server.clone();
    // Not joined: a read of stdin cannot be interrupted, and the process ends after this.
    std::thread::spawn(move || {
        read_lines(&reading, client, io::stdin().lock());
        let _ = done.send(());
    });
    loop {
        match finished.recv_timeout(TICK) {
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if !server.stopping() => {}
            _ => break,
        }
    }
    // The tasks' last events reach the client before it is let go.
    server.stop_tasks();
    server.disconnect(client);
    let _ = writer.join();
    Ok(())
}

/// A connection of the socket: its threads, and a handle to close it.
struct Connection {
    stream: UnixStream,
    reader: JoinHandle<()>,
}

/// The socket at `path`: until `shutdown` or a signal. The file is removed when it ends.
/// `open` starts the server's other doors once the socket is bound.
pub fn socket(server: &Arc<Server>, path: &Path, open: impl FnOnce() -> Result<()>) -> Result<()> {
    let listener = bind(path)?;
    let _remove = Remove::new(path);
    open()?;
    listener
        .set_nonblocking(true)
        .context("cannot set up the socket")?;
    let _ = crate::report::notice::write_warning(
        &mut anstream::stderr(),
        format_args!("serving on `{}`", path.display()),
    );
    let mut connections: Vec<Connection> = Vec::new();
    while !server.stopping() {
        match listener.accept() {
            Ok((stream, _)) => match connect(server, stream) {
                Ok(connection) => connections.push(connection),
                Err(error) => warn(format_args!("a connection failed: {error}")),
            },
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => wait_readable(&listener),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => {
                warn(format_args!("cannot accept a connection: {error}"));
                std::thread::sleep(TICK);
            }
        }
        connections.retain(|c| !c.reader.is_finished());
    }
    server.stop_tasks();
    for connection in connections {
        let _ = connection.stream.shutdown(std::net::Shutdown::Both);
        let _ = connection.reader.join();
    }
    Ok(())
}

fn warn(message: std::fmt::Arguments<'_>) {
    let _ = crate::report::notice::write_warning(&mut anstream::stderr(), message);
}

/// Waits until a connection comes or a tick passes.
fn wait_readable(listener: &UnixListener) {
    use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
    let mut fds = [PollFd::new(listener.as_fd(), PollFlags::POLLIN)];
    let _ = poll(&mut fds, PollTimeout::from(TICK.as_millis() as u16));
}

fn connect(server: &Arc<Server>, stream: UnixStream) -> io::Result<Connection> {
    stream.set_nonblocking(false)?;
    let reading = stream.try_clone()?;
    let writing = stream.try_clone()?;
    let (client, outbox) = server.connect();
    let writer = std::thread::spawn(move || write_lines(outbox, writing));
    let server = server.clone();
    let reader = std::thread::spawn(move || {
        read_lines(&server, client, reading);
        // Its tasks are cancelled; its queue ends, and so its writer.
        server.disconnect(client);
        let _ = writer.join();
    });
    Ok(Connection { stream, reader })
}

/// Binds `path`, mode 0600. A socket file no server answers on (one that died) is replaced;
/// one a server answers on is an error; a file that is not a socket is never touched.
fn bind(path: &Path) -> Result<UnixListener> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_socket() => match UnixStream::connect(path) {
            Ok(_) => bail!(
                "a server is already listening on `{}` (hint: connect to it, or give another --socket)",
                path.display()
            ),
            Err(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
                std::fs::remove_file(path).with_context(|| {
                    format!("cannot remove the stale socket `{}`", path.display())
                })?;
            }
            Err(error) => bail!(
                "cannot tell whether a server listens on `{}`: {error}",
                path.display()
            ),
        },
        Ok(_) => bail!(
            "`{}` is there and is not a socket: it is not replaced (hint: give another --socket)",
            path.display()
        ),
        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
        Err(error) => bail!("cannot look at `{}`: {error}", path.display()),
    }
    // Made with no access for others from the start, not opened up until a chmod.
    // SAFETY: umask only swaps the process's mask; nothing else makes files meanwhile
    // (the server has not started a thread yet).
    let before = unsafe { libc::umask(0o177) };
    let bound = UnixListener::bind(path);
    // SAFETY: as above.
    unsafe { libc::umask(before) };
    let listener = bound.with_context(|| format!("cannot listen on `{}`", path.display()))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
        .with_context(|| format!("cannot make `{}` private", path.display()))?;
    Ok(listener)
}

/// Removes the socket file when the server ends, if it is still the one it made.
struct Remove {
    path: PathBuf,
    identity: Option<(u64, u64)>,
}

impl Remove {
    fn new(path: &Path) -> Remove {
        Remove {
            path: path.to_path_buf(),
            identity: identity(path),
        }
    }
}

fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|meta| (meta.dev(), meta.ino()))
}

impl Drop for Remove {
    fn drop(&mut self) {
        if self.identity.is_some() && identity(&self.path) == self.identity {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_socket_is_replaced_a_live_one_and_a_plain_file_are_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.sock");
        let first = bind(&path).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        let error = bind(&path).unwrap_err().to_string();
        assert!(error.contains("already listening"), "{error}");
        drop(first);
        // The file stays when a server dies without removing it: stale.
        assert!(path.exists());
        let _second = bind(&path).unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "mine").unwrap();
        let error = bind(&plain).unwrap_err().to_string();
        assert!(error.contains("not a socket"), "{error}");
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "mine");
    }
}
