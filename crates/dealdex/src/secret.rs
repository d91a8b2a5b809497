//! Files that hold secrets (generation seeds, event keys): written once, to a new file only.
//!
//! A secret that replaced an older one would make the deals made from the older one
//! impossible to regenerate or prove, so a secret file is never overwritten: it is created
//! with `O_CREAT | O_EXCL` (which also refuses a symbolic link, dangling or not, instead of
//! following it) and mode 0600 from the start, so no other user can read it even briefly.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, ErrorKind, Result};

/// Why a secret file was not written ([`ErrorKind::Secret`]).
#[derive(Debug, derive_more::Display)]
#[non_exhaustive]
pub enum SecretFile {
    /// Something already exists at the path: a file, a directory or a symbolic link
    /// (which is not followed). Nothing was written.
    #[display("{}: {} exists; a secret is only written to a new file", path.display(), what_exists(path))]
    Exists {
        /// The path that was taken.
        path: PathBuf,
    },
    /// Creating or writing the file failed (missing directory, permissions, disk full, …);
    /// a partly written file has been removed.
    #[display("cannot write the secret file {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
}

impl SecretFile {
    /// [`BadInput`](crate::ErrorClass::BadInput) when something exists at the path (a secret
    /// is never overwritten), [`Io`](crate::ErrorClass::Io) when creating or writing the file
    /// failed.
    pub(crate) fn class(&self) -> crate::ErrorClass {
        match self {
            SecretFile::Exists { .. } => crate::ErrorClass::BadInput,
            SecretFile::Io { .. } => crate::ErrorClass::Io,
        }
    }

    /// The operating system's error of a file not written.
    pub(crate) fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SecretFile::Exists { .. } => None,
            SecretFile::Io { error, .. } => Some(error),
        }
    }

    /// The secret file's problem `error` is, or `error` when it is not one.
    pub(crate) fn of(error: Error) -> Result<SecretFile, Error> {
        match error.into_kind() {
            ErrorKind::Secret(problem) => Ok(problem),
            kind => Err(kind.into()),
        }
    }
}

/// "the file", or "a symbolic link" (never followed: it could point anywhere).
fn what_exists(path: &Path) -> &'static str {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => "a symbolic link",
        Ok(m) if m.is_dir() => "a directory",
        _ => "the file",
    }
}

/// Creates `path` as a new file holding `bytes`, readable and writable by its owner only
/// (mode 0600 on Unix), and syncs it to disk.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("k.seed");
/// dealdex::secret::write_new(&path, b"secret\n")?;
/// let taken = dealdex::secret::write_new(&path, b"another\n").unwrap_err();
/// assert!(matches!(
///     taken.kind(),
///     dealdex::ErrorKind::Secret(dealdex::secret::SecretFile::Exists { .. })
/// ));
/// assert_eq!(std::fs::read(&path)?, b"secret\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SecretFile::Exists`] if anything exists at `path`, a symbolic link included;
/// [`SecretFile::Io`] if the file cannot be created or written (then nothing is left
/// at `path`).
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    Ok(create(path, bytes)?)
}

/// [`write_new`], its problem as it is.
fn create(path: &Path, bytes: &[u8]) -> Result<(), SecretFile> {
    let mut opts = OpenOptions::new();
    // create_new is O_CREAT | O_EXCL: it fails on an existing path, symbolic links included.
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path).map_err(|error| match error.kind() {
        std::io::ErrorKind::AlreadyExists => SecretFile::Exists {
            path: path.to_owned(),
        },
        _ => SecretFile::Io {
            path: path.to_owned(),
            error,
        },
    })?;
    let written = f.write_all(bytes).and_then(|()| f.sync_all());
    if let Err(error) = written {
        drop(f);
        // The file is ours (we just created it), so removing it loses nothing.
        let _ = std::fs::remove_file(path);
        return Err(SecretFile::Io {
            path: path.to_owned(),
            error,
        });
    }
    Ok(())
}

/// Writes a secret to `path`, or when that is taken to the first free of `<stem>-2<.ext>`,
/// `<stem>-3<.ext>`, … (`s.pbn.seed` → `s.pbn-2.seed`); `bytes` makes the content for the
/// path chosen (a key file names itself in its comment). Returns the path written.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("s.pbn.seed");
/// dealdex::secret::write_next_free(&path, |_| b"first\n".to_vec())?;
/// let second = dealdex::secret::write_next_free(&path, |_| b"second\n".to_vec())?;
/// assert_eq!(second, dir.path().join("s.pbn-2.seed"));
/// assert_eq!(std::fs::read(&path)?, b"first\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`SecretFile::Io`] as [`write_new`]; [`SecretFile::Exists`] for the last name
/// tried when 1,000 names are taken.
pub fn write_next_free(path: &Path, bytes: impl Fn(&Path) -> Vec<u8>) -> Result<PathBuf> {
    write_next_free_from(path, 1, |_| false, bytes)
}

/// [`write_next_free`] starting at the `first` name (1: `path` itself, 2: `<stem>-2<.ext>`,
/// …) and passing over the names `skip` rejects (e.g. files the caller is about to write).
///
/// ```
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("s.pbn.seed");
/// let out = dir.path().join("s.pbn-3.seed");
/// let written = dealdex::secret::write_next_free_from(&path, 3, |p| p == out, |_| b"k\n".to_vec())?;
/// assert_eq!(written, dir.path().join("s.pbn-4.seed"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`write_next_free`] (1,000 names are tried).
pub fn write_next_free_from(
    path: &Path,
    first: u32,
    skip: impl Fn(&Path) -> bool,
    bytes: impl Fn(&Path) -> Vec<u8>,
) -> Result<PathBuf> {
    let mut last = SecretFile::Exists {
        path: path.to_owned(),
    };
    let first = first.max(1);
    for n in first..first.saturating_add(1000) {
        let candidate = numbered(path, n);
        if skip(&candidate) {
            continue;
        }
        match create(&candidate, &bytes(&candidate)) {
            Ok(()) => return Ok(candidate),
            Err(taken @ SecretFile::Exists { .. }) => last = taken,
            Err(problem) => return Err(problem.into()),
        }
    }
    Err(last.into())
}

/// `path` for `n` = 1, else `path` with `-n` before its last extension.
fn numbered(path: &Path, n: u32) -> PathBuf {
    if n == 1 {
        return path.to_owned();
    }
    let mut name = path.file_stem().unwrap_or_default().to_owned();
    name.push(format!("-{n}"));
    if let Some(ext) = path.extension() {
        name.push(".");
        name.push(ext);
    }
    path.with_file_name(name)
}

/// A secret kept in a private temporary file until its final name is known (a set's seed
/// file is named for the set the store's transaction names): written with [`write_new`]
/// beside where it will go, as `.<name>.dealdex-<pid>-<k>.tmp`. Dropping it removes the
/// temporary file, unless a [`PendingSecret::settle`] failed: then the secret stays there,
/// not lost.
#[derive(Debug)]
pub struct PendingSecret {
    tmp: PathBuf,
    keep: bool,
}

/// Pending secrets made by this process so far (their names must differ).
static PENDING: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl PendingSecret {
    /// Writes `bytes` to a new private temporary file beside `path`.
    ///
    /// # Errors
    /// [`SecretFile::Io`] as [`write_new`] (nothing is left behind).
    pub fn write(path: &Path, bytes: &[u8]) -> Result<PendingSecret> {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let k = PENDING.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = path.with_file_name(format!(".{name}.dealdex-{}-{k}.tmp", std::process::id()));
        write_new(&tmp, bytes)?;
        Ok(PendingSecret { tmp, keep: false })
    }

    /// The temporary file holding the secret.
    pub fn path(&self) -> &Path {
        &self.tmp
    }

    /// Writes the secret to its final file with `write` (e.g. [`write_new`] or
    /// [`write_next_free_from`], which make it a new file) and removes the temporary file.
    ///
    /// # Errors
    /// `write`'s error; the temporary file is then kept (it still holds the secret).
    pub fn settle<T>(mut self, write: impl FnOnce() -> Result<T>) -> Result<T> {
        match write() {
            Ok(t) => Ok(t),
            Err(e) => {
                self.keep = true;
                Err(e)
            }
        }
    }
}

/// Removes the temporary file unless it is the only copy of the secret.
impl Drop for PendingSecret {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
