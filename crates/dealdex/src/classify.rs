//! From any error to dealdex's view of it: [`as_classify`] finds the [`Classify`] of a
//! dealdex error behind a `&dyn Error` (a cause of an `anyhow::Error`, a `Box<dyn Error>`),
//! and [`classify`] the class of a whole chain of causes, which is what the binary turns
//! into its exit code.
//!
//! Each error type registers itself beside its `impl Classify`, with
//! `crate::classified!(Type);` (other forms of [`classified!`] also write the impl): a
//! downcaster to its [`Classify`] goes into a distributed slice (the `linkme` crate), which
//! [`as_classify`] walks. Stable Rust cannot cast a
//! `&dyn Error` to a `&dyn Classify` directly, and this way no file lists the error types.
//! A unit test fails for an error type of the library (a type deriving or implementing
//! `std::error::Error`) that does not implement [`Classify`] and register in its own file.

use std::error::Error;

use crate::{Classify, ErrorClass};

/// One error type's registration (written by [`classified!`]): its name and its downcaster.
pub(crate) struct Classified {
    /// [`std::any::type_name`] of the type (for the unit test that checks the registrations).
    #[cfg_attr(not(test), allow(dead_code))]
    name: fn() -> &'static str,
    /// `Some` when the error is of this type.
    cast: for<'a> fn(&'a (dyn Error + 'static)) -> Option<&'a (dyn Classify + 'static)>,
}

impl Classified {
    /// The registration of `T` (for [`classified!`]).
    pub(crate) const fn of<T: Classify + 'static>() -> Classified {
        Classified {
            name: std::any::type_name::<T>,
            cast: cast::<T>,
        }
    }
}

/// `error` as a `T`, seen as its [`Classify`].
fn cast<'a, T: Classify + 'static>(
    error: &'a (dyn Error + 'static),
) -> Option<&'a (dyn Classify + 'static)> {
    error
        .downcast_ref::<T>()
        .map(|e| e as &(dyn Classify + 'static))
}

/// The registered error types, in no particular order: each error value is of exactly one
/// type and the unit test refuses a type registered twice, so at most one of them matches
/// it and the order does not matter.
#[linkme::distributed_slice]
pub(crate) static CLASSIFIED: [Classified];

/// Registers an error type, so that [`as_classify`] (and so [`classify`] and the binary's
/// exit code) knows it; written beside the type. Three forms:
///
/// - `crate::classified!(Type);` beside a hand-written `impl Classify for Type`;
/// - `crate::classified!(Type => BadInput);` also writes the impl for a type always of one
///   [`ErrorClass`] (the reason as a comment at the call);
/// - `crate::classified!(Type => wraps A, B);` also writes the impl for an enum each of
///   whose variants `A(e)`, `B(e)` wraps (transparently) one dealdex error: `e`'s class and
///   position, and `e` as the wrapped error.
macro_rules! classified {
    ($t:ty) => {
        const _: () = {
            #[linkme::distributed_slice($crate::classify::CLASSIFIED)]
            static CLASSIFIED_TYPE: $crate::classify::Classified =
                $crate::classify::Classified::of::<$t>();
        };
    };
    ($t:ty => wraps $($variant:ident),+ $(,)?) => {
        $crate::classified!($t);
        impl $crate::Classify for $t {
            fn class(&self) -> $crate::ErrorClass {
                match self {
                    $(Self::$variant(e) => $crate::Classify::class(e),)+
                }
            }

            fn position(&self) -> Option<$crate::InputPosition> {
                match self {
                    $(Self::$variant(e) => $crate::Classify::position(e),)+
                }
            }

            fn wrapped(&self) -> Option<&(dyn std::error::Error + 'static)> {
                match self {
                    $(Self::$variant(e) => Some(e),)+
                }
            }
        }
    };
    ($t:ty => $class:ident) => {
        $crate::classified!($t);
        impl $crate::Classify for $t {
            fn class(&self) -> $crate::ErrorClass {
                $crate::ErrorClass::$class
            }
        }
    };
}
pub(crate) use classified;

/// The [`Classify`] of `error` when it is one of dealdex's error types (any public error
/// type of the library); `None` for other errors (I/O, SQLite, a caller's own). Only
/// `error` itself is looked at, not its sources ([`classify`] walks them).
///
/// ```
/// use dealdex::{ErrorClass, as_classify};
/// let e: Box<dyn std::error::Error> = dealdex::parse_deal("N:AKQ.x").unwrap_err().into();
/// let c = as_classify(&*e).unwrap();
/// assert_eq!((c.class(), c.position().unwrap().column), (ErrorClass::BadInput, Some(7)));
/// ```
pub fn as_classify<'a>(error: &'a (dyn Error + 'static)) -> Option<&'a (dyn Classify + 'static)> {
    CLASSIFIED.iter().find_map(|c| (c.cast)(error))
}

/// The class of `error` and its sources ([`Error::source`], e.g. the chain of an
/// `anyhow::Error`): [`ErrorClass::Interrupted`] when any of them is interrupted; else the
/// first input class ([`ErrorClass::is_input`]: bad input, a corrupt store) among them, as
/// a failure caused by bad input is the input's fault whatever wraps it; else the class of
/// the first of dealdex's errors; `None` when there is none ([`as_classify`]).
///
/// ```
/// use dealdex::{ErrorClass, classify};
/// let e: Box<dyn std::error::Error> = dealdex::parse_deal("N:AKQ.x").unwrap_err().into();
/// assert_eq!(classify(&*e), Some(ErrorClass::BadInput));
/// let e: Box<dyn std::error::Error> = std::io::Error::other("disk full").into();
/// assert_eq!(classify(&*e), None);
/// ```
pub fn classify(error: &(dyn Error + 'static)) -> Option<ErrorClass> {
    let mut first = None;
    let mut input = None;
    let mut next = Some(error);
    while let Some(e) = next {
        if let Some(class) = as_classify(e).map(Classify::class) {
            if class == ErrorClass::Interrupted {
                return Some(class);
            }
            if class.is_input() {
                input.get_or_insert(class);
            }
            first.get_or_insert(class);
        }
        next = e.source();
    }
    input.or(first)
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;

    /// An error type defined in the library's sources: its file and its full name as
    /// [`std::any::type_name`] gives it.
    #[derive(Debug)]
    struct Defined {
        file: PathBuf,
        name: String,
        full: String,
    }

    /// The library's `.rs` files (not the binary's: `main.rs`, `cli/`).
    fn library_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "cli") {
                    library_files(&path, out);
                }
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "main.rs")
            {
                out.push(path);
            }
        }
    }

    /// `dealdex::workflow::import` for `crates/dealdex/src/workflow/import.rs`, `dealdex::event` for
    /// `crates/dealdex/src/event/mod.rs`, `dealdex` for `crates/dealdex/src/lib.rs`.
    fn module_of(src: &Path, file: &Path) -> String {
        let rel = file.strip_prefix(src).unwrap().with_extension("");
        let mut parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
            parts.pop();
        }
        std::iter::once("dealdex".to_owned())
            .chain(parts)
            .collect::<Vec<_>>()
            .join("::")
    }

    /// The name of the public type an item line defines (`pub enum X {`, `pub struct
    /// X(…);`); `None` for other items, `pub(crate)` and private ones included.
    fn item_name(line: &str) -> Option<String> {
        let rest = line.trim_start().strip_prefix("pub ")?;
        let rest = rest
            .strip_prefix("enum ")
            .or_else(|| rest.strip_prefix("struct "))?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    }

    /// Every public type of the library that derives `thiserror::Error` or implements
    /// `std::error::Error` by hand, outside `#[cfg(test)]` modules.
    fn error_types() -> Vec<Defined> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        library_files(&src, &mut files);
        let mut out = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let mut names = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                // A test module ends the file's items (`#[cfg(test)]` then `mod …`).
                if *line == "#[cfg(test)]"
                    && lines.get(i + 1).is_some_and(|l| l.starts_with("mod "))
                {
                    break;
                }
                let line = line.trim_start();
                if line.starts_with("#[derive(") {
                    // The attribute up to its `)]`, then the item after the other attributes
                    // and doc comments.
                    let mut j = i;
                    let mut derive = String::new();
                    while j < lines.len() {
                        derive.push_str(lines[j]);
                        j += 1;
                        if derive.contains(")]") {
                            break;
                        }
                    }
                    let derives_error = derive
                        .split(|c: char| !(c.is_alphanumeric() || c == ':' || c == '_'))
                        .any(|t| t == "Error" || t.ends_with("::Error"));
                    if !derives_error {
                        continue;
                    }
                    let item = lines[j..]
                        .iter()
                        .find(|l| {
                            let l = l.trim_start();
                            !(l.starts_with("#[") || l.starts_with("///") || l.starts_with("//"))
                        })
                        .unwrap();
                    names.extend(item_name(item));
                }
                for prefix in ["impl std::error::Error for ", "impl Error for "] {
                    if let Some(rest) = line.strip_prefix(prefix) {
                        let name = rest.split([' ', '<', '{']).next().unwrap();
                        let public = format!("pub struct {name}");
                        if text.contains(&public) || text.contains(&format!("pub enum {name}")) {
                            names.push(name.to_owned());
                        }
                    }
                }
            }
            let module = module_of(&src, &file);
            for name in names {
                out.push(Defined {
                    full: format!("{module}::{name}"),
                    file: file.clone(),
                    name,
                });
            }
        }
        out
    }

    /// The guard of the one error story: every error type of the library implements
    /// [`Classify`] in the file that defines it and registers there (`crate::classified!`), so
    /// that [`as_classify`] knows it (and the binary gives its class an exit code). A new
    /// error type fails here until both are done.
    #[test]
    fn every_error_type_is_classified_beside_its_definition() {
        let defined = error_types();
        assert!(defined.len() >= 50, "the scan found only {defined:?}");
        let known: Vec<&str> = CLASSIFIED.iter().map(|c| (c.name)()).collect();
        let mut missing = Vec::new();
        for d in &defined {
            let text = std::fs::read_to_string(&d.file).unwrap();
            // `crate::classified!(Name => …);` registers and implements.
            let both = text.contains(&format!("crate::classified!({} => ", d.name));
            if !both && !text.contains(&format!("Classify for {} {{", d.name)) {
                missing.push(format!(
                    "{}: {} has no `impl Classify for {}` beside its definition",
                    d.file.display(),
                    d.name,
                    d.name
                ));
            }
            if !(both || text.contains(&format!("crate::classified!({});", d.name)))
                || !known.contains(&d.full.as_str())
            {
                missing.push(format!(
                    "{}: {} is not registered beside its definition (write \
                     `crate::classified!({});` above its `impl Classify`)",
                    d.file.display(),
                    d.name,
                    d.name
                ));
            }
        }
        for (i, k) in known.iter().enumerate() {
            if !defined.iter().any(|d| d.full == *k) {
                missing.push(format!(
                    "{k} is registered (`crate::classified!`), but the scan did not find it"
                ));
            }
            if known[..i].contains(k) {
                missing.push(format!("{k} is registered twice"));
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }

    /// `error.rs` names no type of the crate (its doc comments may link to them): the class,
    /// position and kind of each error type live beside the type.
    #[test]
    fn the_error_module_uses_nothing_of_the_crate() {
        let code: Vec<&str> = include_str!("error.rs")
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .filter(|l| l.contains("crate::") || l.contains("super::"))
            .collect();
        assert!(code.is_empty(), "{code:?}");
    }

    /// A caller's error that wraps another as its source.
    #[derive(Debug, thiserror::Error)]
    #[error("wrapped: {0}")]
    struct Wrapped(#[source] Box<dyn Error + Send + Sync>);

    #[test]
    fn a_chain_takes_interrupted_then_an_input_class_then_the_first() {
        let store = || crate::StoreError::NoDatabase {
            path: "x.db".into(),
        };
        let input = Wrapped(Box::new(crate::workflow::lookup::LookupError::Store(
            store(),
        )));
        assert_eq!(classify(&input), Some(ErrorClass::BadInput));
        let interrupted = Wrapped(Box::new(crate::workflow::sql::SqlError::Interrupted));
        assert_eq!(classify(&interrupted), Some(ErrorClass::Interrupted));
        // A deal argument's error as the `number` job's source: the argument's column.
        let deal = crate::workflow::number::NumberJobError::Deal(
            crate::parse_deal_argument("N:AKQ.x").unwrap().unwrap_err(),
        );
        assert_eq!(classify(&deal), Some(ErrorClass::BadInput));
        let c = as_classify(&deal).unwrap();
        assert_eq!(c.position().and_then(|p| p.column), Some(7));
        let write = crate::workflow::output::WriteError {
            path: None,
            error: std::io::Error::other("disk full"),
        };
        assert_eq!(classify(&Wrapped(Box::new(write))), Some(ErrorClass::Io));
        assert_eq!(
            classify(&Wrapped(Box::new(std::io::Error::other("x")))),
            None
        );
    }
}
