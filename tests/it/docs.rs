//! The documentation against the code (issue 28, item 7: a manual beside the README), so the
//! docs cannot drift unnoticed:
//! - README's format table lists exactly the registry's formats, each with exactly its
//!   extensions (`dealdex::formats::registry()`), both ways;
//! - every link of README.md to a local file names a file that exists, and every `#anchor`
//!   names a heading of its file (GitHub's anchors); the same for the manual's own files
//!   (docs/, benches/RESULTS.md), which link to each other;
//! - README.md stays the short version: 150 to 250 lines.
//!
//! The help side (every format in `--help`) is checked by `cli_files`. Each check here has a
//! test of its own that feeds it a broken text and expects it to complain.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

use dealdex::formats;

/// The repository's root (this package's directory).
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    let path = root().join(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The heading of README's format table's section.
const FORMAT_SECTION: &str = "## Deal-file formats";

/// The rows of the format table in README's "Deal-file formats" section: each format's name
/// (the first cell, in backticks) and its extensions (the second cell, `.a, .b`).
fn format_table(readme: &str) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let mut lines = readme
        .lines()
        .skip_while(|l| l.trim_end() != FORMAT_SECTION);
    if lines.next().is_none() {
        return Err(format!("README has no {FORMAT_SECTION:?} section"));
    }
    let mut lines = lines.skip_while(|l| !l.starts_with('|'));
    let header = lines.next().ok_or("no table in the section")?;
    let columns: Vec<&str> = header.split('|').map(str::trim).collect();
    if columns.get(1..3) != Some(&["format", "extensions"][..]) {
        return Err(format!(
            "the table's first columns are not `format | extensions`: {header}"
        ));
    }
    let mut rows = BTreeMap::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        if line.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let name = cells
            .get(1)
            .and_then(|c| c.strip_prefix('`'))
            .and_then(|c| c.strip_suffix('`'))
            .ok_or_else(|| format!("a row whose first cell is not a `name`: {line}"))?;
        let extensions: BTreeSet<String> = cells
            .get(2)
            .unwrap_or(&"")
            .split(',')
            .map(|e| e.trim().trim_start_matches('.').to_owned())
            .filter(|e| !e.is_empty())
            .collect();
        if rows.insert(name.to_owned(), extensions).is_some() {
            return Err(format!("format `{name}` has two rows"));
        }
    }
    if rows.is_empty() {
        return Err("the format table has no rows".into());
    }
    Ok(rows)
}

/// How README's format table differs from the registry: one line a difference, none when the
/// table lists exactly the registered formats with exactly their extensions.
fn format_table_drift(readme: &str) -> Vec<String> {
    let table = match format_table(readme) {
        Ok(table) => table,
        Err(e) => return vec![e],
    };
    let registry: BTreeMap<String, BTreeSet<String>> = formats::registry()
        .iter()
        .map(|f| {
            let info = f.info();
            let extensions = info.extensions.iter().map(|e| (*e).to_owned()).collect();
            (info.name.to_owned(), extensions)
        })
        .collect();
    let mut drift = Vec::new();
    for (name, extensions) in &registry {
        match table.get(name) {
            None => drift.push(format!("format `{name}` is registered but not in README's table")),
            Some(listed) if listed != extensions => drift.push(format!(
                "format `{name}`: README lists extensions {listed:?}, the registry has {extensions:?}"
            )),
            Some(_) => {}
        }
    }
    for name in table.keys().filter(|n| !registry.contains_key(*n)) {
        drift.push(format!(
            "README's table lists `{name}`, which no registered format is"
        ));
    }
    drift
}

#[test]
fn readme_format_table_lists_exactly_the_registered_formats() {
    let drift = format_table_drift(&read("README.md"));
    assert!(
        drift.is_empty(),
        "README.md's format table:\n{}",
        drift.join("\n")
    );
    // The registry is the one the help lists (`cli_files` checks the help against it).
    assert_eq!(
        format_table(&read("README.md")).unwrap().len(),
        formats::registry().len()
    );
}

#[test]
fn format_table_check_catches_a_missing_an_extra_and_a_changed_row() {
    let readme = read("README.md");
    let pbn_row = readme
        .lines()
        .find(|l| l.starts_with("| `pbn` |"))
        .expect("README's table has a pbn row");
    let missing = readme.replace(&format!("{pbn_row}\n"), "");
    assert_eq!(
        format_table_drift(&missing),
        ["format `pbn` is registered but not in README's table"]
    );
    let extra = readme.replace(
        &format!("{pbn_row}\n"),
        &format!("{pbn_row}\n| `pbn3` | .pbn3 | a format nobody wrote |\n"),
    );
    assert_eq!(
        format_table_drift(&extra),
        ["README's table lists `pbn3`, which no registered format is"]
    );
    let changed = readme.replace(pbn_row, &pbn_row.replace("| .pbn |", "| .pbn, .txt |"));
    assert_eq!(format_table_drift(&changed).len(), 1, "{changed}");
    let doubled = readme.replace(&format!("{pbn_row}\n"), &format!("{pbn_row}\n{pbn_row}\n"));
    assert_eq!(format_table_drift(&doubled), ["format `pbn` has two rows"]);
    let gone = readme.replace(FORMAT_SECTION, "## Formats");
    assert_eq!(format_table_drift(&gone).len(), 1);
}

/// A heading's anchor as GitHub makes it: the text lowercased, every character but letters,
/// digits, spaces, `-` and `_` dropped (backticks, colons, parentheses, `…`), spaces turned
/// into `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The text of a Markdown file outside its fenced code blocks, line by line (`None` for a line
/// inside a fence or a fence itself).
fn prose_lines(text: &str) -> Vec<Option<&str>> {
    let mut fence: Option<&str> = None;
    text.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match fence {
                Some(marker) => {
                    if trimmed.starts_with(marker) {
                        fence = None;
                    }
                    None
                }
                None if trimmed.starts_with("```") || trimmed.starts_with("~~~") => {
                    fence = Some(&trimmed[..3]);
                    None
                }
                None => Some(line),
            }
        })
        .collect()
}

/// Every anchor a Markdown file's headings make, with GitHub's `-1`, `-2` … for repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut all = BTreeSet::new();
    for line in prose_lines(text).into_iter().flatten() {
        let hashes = line.len() - line.trim_start_matches('#').len();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let count = seen.entry(base.clone()).or_insert(0);
        all.insert(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    all
}

/// The targets of a Markdown text's inline links `[text](target)`, outside fenced code blocks
/// and code spans, with their line numbers.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut targets = Vec::new();
    let mut in_span: Option<usize> = None; // the length of the backtick run that opened a span
    for (n, line) in prose_lines(text).into_iter().enumerate() {
        let Some(line) = line else {
            in_span = None;
            continue;
        };
        if line.trim().is_empty() {
            in_span = None; // a code span ends with its paragraph
            continue;
        }
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'`' {
                let run = bytes[i..].iter().take_while(|b| **b == b'`').count();
                in_span = match in_span {
                    None => Some(run),
                    Some(open) if open == run => None,
                    other => other,
                };
                i += run;
                continue;
            }
            if in_span.is_none() && bytes[i..].starts_with(b"](") {
                let rest = &line[i + 2..]; // `(` is one byte: a char boundary
                if let Some(end) = rest.find(')') {
                    targets.push((n + 1, rest[..end].to_owned()));
                }
            }
            i += 1;
        }
    }
    targets
}

/// `base/rel` with `.` and `..` resolved in the path's text (the file need not exist).
fn join(base: &Path, rel: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for component in base.join(rel).components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The broken local links of the Markdown file `file` (a path relative to the root) whose text
/// is `text`: a target that does not exist, or an `#anchor` no heading of the target makes.
/// Web links (`https:`, `http:`, `mailto:`) are not followed.
fn broken_links(file: &str, text: &str) -> Vec<String> {
    let dir = root().join(file).parent().unwrap().to_path_buf();
    let mut broken = Vec::new();
    for (line, target) in link_targets(text) {
        if ["https:", "http:", "mailto:"]
            .iter()
            .any(|scheme| target.starts_with(scheme))
        {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((path, fragment)) => (path, Some(fragment)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            root().join(file)
        } else {
            join(&dir, path)
        };
        if !resolved.starts_with(root()) || !resolved.exists() {
            broken.push(format!("{file}:{line}: ({target}): no such file"));
            continue;
        }
        if let Some(fragment) = fragment {
            let is_markdown = resolved.extension().is_some_and(|e| e == "md");
            let headings = std::fs::read_to_string(&resolved)
                .ok()
                .filter(|_| is_markdown)
                .map(|t| anchors(&t));
            if !headings.is_some_and(|h| h.contains(fragment)) {
                broken.push(format!(
                    "{file}:{line}: ({target}): no heading makes #{fragment}"
                ));
            }
        }
    }
    broken
}

#[test]
fn readme_links_name_files_and_headings_that_exist() {
    let readme = read("README.md");
    let links = link_targets(&readme);
    // README links to each moved part of the manual (a guard against the parser finding none).
    for file in [
        "docs/GUIDE.md",
        "docs/formats.md",
        "docs/database.md",
        "docs/ARCHITECTURE.md",
        "benches/RESULTS.md",
        "docs/specs/README.md",
    ] {
        assert!(
            links.iter().any(|(_, t)| t.starts_with(file)),
            "README.md does not link to {file}"
        );
    }
    let broken = broken_links("README.md", &readme);
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The manual's own files, moved out of README, link to each other and back.
#[test]
fn manual_links_name_files_and_headings_that_exist() {
    let mut broken = Vec::new();
    for file in [
        "docs/GUIDE.md",
        "docs/formats.md",
        "docs/database.md",
        "docs/ARCHITECTURE.md",
        "docs/TESTS.md",
        "docs/specs/README.md",
        "benches/RESULTS.md",
    ] {
        broken.extend(broken_links(file, &read(file)));
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn link_check_catches_a_missing_file_and_a_missing_heading() {
    let text = "A [guide](docs/GUIDE.md#usage), [gone](docs/NOPE.md), [bad anchor](docs/GUIDE.md#no-such-heading),\n\
                [up](../outside.md), [self](#the-manual), [self, wrong](#nowhere) and `[code](docs/NOPE.md)`.\n\
                ```text\n[fenced](docs/NOPE.md)\n```\n";
    let broken = broken_links("README.md", text);
    assert_eq!(broken.len(), 4, "{broken:#?}");
    for target in [
        "docs/NOPE.md",
        "docs/GUIDE.md#no-such-heading",
        "../outside.md",
        "#nowhere",
    ] {
        assert!(
            broken.iter().any(|b| b.contains(&format!("({target})"))),
            "{target} not reported: {broken:#?}"
        );
    }
}

#[test]
fn anchors_follow_github() {
    assert_eq!(
        anchor("`generate --boards`: a tournament set"),
        "generate---boards-a-tournament-set"
    );
    assert_eq!(
        anchor("Double dummy: `dealdex solve`, `dd(…)` queries, `lookup`"),
        "double-dummy-dealdex-solve-dd-queries-lookup"
    );
    assert_eq!(
        anchor("dealdex's stricter protocol (`dealdex-event/1`, the default)"),
        "dealdexs-stricter-protocol-dealdex-event1-the-default"
    );
    assert_eq!(
        anchor("1a. Pavlicek (the default scheme)"),
        "1a-pavlicek-the-default-scheme"
    );
    let text = "# A\n## Usage\n```text\n# not a heading\n```\n### Usage\n";
    assert_eq!(
        anchors(text),
        BTreeSet::from(["a".to_owned(), "usage".to_owned(), "usage-1".to_owned()])
    );
}

/// README is the short version: the fresh machine's commands, six commands, the format table,
/// a performance summary and links; the rest is in docs/.
const README_LINES: std::ops::RangeInclusive<usize> = 150..=250;

#[test]
fn readme_is_the_short_version() {
    let lines = read("README.md").lines().count();
    assert!(
        README_LINES.contains(&lines),
        "README.md has {lines} lines, not {README_LINES:?}: move the detail into docs/"
    );
}

/// The two commands for a fresh machine open README, as `.ci/run` runs the second.
#[test]
fn readme_opens_with_the_fresh_machine_commands() {
    let readme = read("README.md");
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|l| *l != "```sh")
        .skip(1)
        .take_while(|l| *l != "```")
        .collect();
    assert!(block[0].starts_with("cargo run --release -- generate --boards 1-32 --out boards.pbn"));
    assert!(block[1].starts_with("cargo test --profile ci "));
    assert!(
        read(".ci/run")
            .lines()
            .any(|l| l == block[1].split('#').next().unwrap().trim_end())
    );
}
