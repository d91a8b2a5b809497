//! The guard of the one error story, over every crate of the library: each error type
//! implements [`Classify`](crate::Classify) beside its definition and registers there
//! (`classified!`, dealdex-model's classify.rs), and a chain of errors takes the class
//! [`classify`] says.

use std::error::Error;
use std::path::{Path, PathBuf};

use crate::{ErrorClass, as_classify, classify};

/// An error type defined in the library's sources: its file and its full name as
/// [`std::any::type_name`] gives it; `declared` when `classified! { … pub struct Name(…) }`
/// declares it (and so registers it and implements `Classify`).
#[derive(Debug)]
struct Defined {
    file: PathBuf,
    name: String,
    full: String,
    declared: bool,
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

/// `dealdex::workflow::import` for `crates/dealdex/src/workflow/import.rs` (crate
/// `dealdex`), `dealdex::workflow::event` for `crates/dealdex/src/workflow/event/mod.rs`,
/// `dealdex` for `crates/dealdex/src/lib.rs`, `dealdex_event::error` for
/// `crates/event/src/error.rs` (crate `dealdex_event`).
fn module_of(krate: &str, src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    std::iter::once(krate.to_owned())
        .chain(parts)
        .collect::<Vec<_>>()
        .join("::")
}

/// The name of the public type an item line defines (`pub enum X {`, `pub struct
/// X(…);`); `None` for other items, `pub` and private ones included.
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
    let mut out = Vec::new();
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (krate, src) in [
        ("dealdex", here.join("src")),
        ("dealdex_model", here.join("../model/src")),
        ("dealdex_solver", here.join("../solver/src")),
        ("dealdex_formats", here.join("../formats/src")),
        ("dealdex_generation", here.join("../generation/src")),
        ("dealdex_query", here.join("../query/src")),
        ("dealdex_store", here.join("../store/src")),
        ("dealdex_dealer", here.join("../dealer/src")),
        ("dealdex_records", here.join("../records/src")),
        ("dealdex_event", here.join("../event/src")),
    ] {
        error_types_of(krate, &src, &mut out);
    }
    out
}

/// [`error_types`] of one crate's sources.
fn error_types_of(krate: &str, src: &Path, out: &mut Vec<Defined>) {
    let mut files = Vec::new();
    library_files(src, &mut files);
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut names = Vec::new();
        let mut declared = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            // `classified! {` declaring the crate's error: its `pub struct` line.
            if line.ends_with("classified! {") {
                let item = lines[i..].iter().find_map(|l| item_name(l)).unwrap();
                declared.push(item);
            }
            // A test module ends the file's items (`#[cfg(test)]` then `mod …`).
            if *line == "#[cfg(test)]" && lines.get(i + 1).is_some_and(|l| l.starts_with("mod ")) {
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
        let module = module_of(krate, src, &file);
        let names =
            (names.into_iter().map(|n| (n, false))).chain(declared.into_iter().map(|n| (n, true)));
        for (name, declared) in names {
            out.push(Defined {
                full: format!("{module}::{name}"),
                file: file.clone(),
                name,
                declared,
            });
        }
    }
}

/// The guard of the one error story: every error type of the library implements
/// [`Classify`] in the file that defines it and registers there (`crate::classified!`), so
/// that [`as_classify`] knows it (and the binary gives its class an exit code). A new
/// error type fails here until both are done.
#[test]
fn every_error_type_is_classified_beside_its_definition() {
    let defined = error_types();
    // A floor that catches a scan gone blind, not a count: one error type a crate (issue 51)
    // makes fewer types (46 once the event and records crates had theirs; 19 once the
    // engine's workflows shared its one `Error`: each crate's `Error` and `ErrorKind` count
    // two, as do the store's `StoreError` and `StoreErrorKind` and the solver's `DdError` and
    // `DdErrorKind`).
    assert!(defined.len() >= 16, "the scan found only {defined:?}");
    let known: Vec<&str> = dealdex_model::classify::registered_names().collect();
    let mut missing = Vec::new();
    for d in &defined {
        let text = std::fs::read_to_string(&d.file).unwrap();
        // `classified!(Name => …);` registers and implements (`crate::classified!` in the
        // engine and the model, `dealdex_model::classified!` in the crates between).
        let both = d.declared || text.contains(&format!("classified!({} => ", d.name));
        if !both && !text.contains(&format!("Classify for {} {{", d.name)) {
            missing.push(format!(
                "{}: {} has no `impl Classify for {}` beside its definition",
                d.file.display(),
                d.name,
                d.name
            ));
        }
        if !(both || text.contains(&format!("classified!({});", d.name)))
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

/// A caller's error that wraps another as its source.
#[derive(Debug, thiserror::Error)]
#[error("wrapped: {0}")]
struct Wrapped(#[source] Box<dyn Error + Send + Sync>);

#[test]
fn a_chain_takes_interrupted_then_an_input_class_then_the_first() {
    use crate::ErrorKind;
    let store = || {
        crate::StoreError::from(crate::StoreErrorKind::NoDatabase {
            path: "x.db".into(),
        })
    };
    let input = Wrapped(Box::new(crate::Error::from(store())));
    assert_eq!(classify(&input), Some(ErrorClass::BadInput));
    let interrupted = Wrapped(Box::new(crate::Error::from(ErrorKind::SqlInterrupted)));
    assert_eq!(classify(&interrupted), Some(ErrorClass::Interrupted));
    // A deal argument's error as the `number` job's: the argument's column.
    let deal = crate::Error::from(ErrorKind::Deal(
        crate::parse_deal_argument("N:AKQ.x").unwrap().unwrap_err(),
    ));
    assert_eq!(classify(&deal), Some(ErrorClass::BadInput));
    let c = as_classify(&deal).unwrap();
    assert_eq!(c.position().and_then(|p| p.column), Some(7));
    let write = crate::Error::write(None, std::io::Error::other("disk full"));
    assert_eq!(classify(&Wrapped(Box::new(write))), Some(ErrorClass::Io));
    assert_eq!(
        classify(&Wrapped(Box::new(std::io::Error::other("x")))),
        None
    );
}

/// The library's error messages name no CLI flag (issue 51): they name the parameter in
/// words, and the binary adds its flags (`src/cli/hints.rs`), Python its keywords. Cargo's own
/// `--features` (how to build a solver in) is not a flag of dealdex.
#[test]
fn error_messages_name_no_cli_flag() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut flagged = Vec::new();
    for krate in [
        "dealdex",
        "model",
        "solver",
        "formats",
        "generation",
        "query",
        "store",
        "dealer",
        "records",
        "event",
    ] {
        let src = match krate {
            "dealdex" => here.join("src"),
            other => here.join("..").join(other).join("src"),
        };
        let mut files = Vec::new();
        library_files(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let mut rest = text.as_str();
            while let Some(at) = rest.find("#[error(") {
                rest = &rest[at..];
                let end = rest.find(")]").unwrap_or(rest.len());
                let attribute = &rest[..end];
                let flag = attribute
                    .match_indices("--")
                    .any(|(i, _)| attribute[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()));
                if flag && !attribute.contains("`--features dds`") {
                    flagged.push(format!("{}: {attribute}", file.display()));
                }
                rest = &rest[end.min(rest.len())..];
                rest = rest.get(2..).unwrap_or("");
            }
        }
    }
    assert!(flagged.is_empty(), "{}", flagged.join("\n"));
}
