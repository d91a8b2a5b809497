//! Bad input, proven (issue 10, item 4): every reader dealdex has — the 16 deal-file formats,
//! SquareDeal's `.sqd` and `.sqk`, the query language, deal strings, hand-record numbers, hex
//! indices and card encodings — is run on thousands of mutated real files.
//!
//! The mutator is seeded and deterministic: case `k` of reader `r` is the same input on every
//! machine and every run, so a failure reproduces with `FUZZ_READERS_ONLY=r:k` (and its input
//! is saved under the target directory). Each case must
//! - not panic (the reader, or the invariants checked on what it accepted);
//! - finish within [`CASE_TIME_LIMIT`] (a watchdog aborts the run, naming the case, if one
//!   hangs for [`HANG_LIMIT`]);
//! - allocate at most [`CASE_MEMORY_LIMIT`] at its peak (a counting global allocator tracks
//!   every thread's live bytes; [`HARD_MEMORY_LIMIT`] aborts naming the case).
//!
//! What a reader accepts is checked further: written back and read again it is the same
//! (files, queries, deal strings, indices, card texts, key files), or its number maps back
//! to itself (numbers). A sample of the inputs a reader rejects is given to the `dealdex`
//! binary, which must exit 2 with one line naming the file (or input) and the position.
//!
//! `FUZZ_READERS_SEED=<u64>` explores other inputs; `FUZZ_READERS_SCALE=<n>` runs n times
//! the CI cases (both only for local runs: CI uses the fixed seed and scale 1).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use dealdex::InputPosition;
use dealdex::encoding::{self, Encoding};
use dealdex::event::{ErrorKind, Event, Keys, SessionId};
use dealdex::formats::{self, Board, DealFormat, WriteOptions};
use dealdex::query::Query;
use dealdex::{BoardIndex, Card, Deal, DealIndex, Scheme, Seat, Seed, Vulnerability};

mod common;
use common::fixture;

/// The seed of the CI run (any fixed value would do; this one is the issue number and item).
const CI_SEED: u64 = 0x0010_0004;
/// A single case slower than this fails the test.
const CASE_TIME_LIMIT: Duration = Duration::from_secs(1);
/// A case still running after this long is a hang: the watchdog aborts the whole run.
const HANG_LIMIT: Duration = Duration::from_secs(20);
/// Peak bytes a case may allocate beyond what was live when it started.
const CASE_MEMORY_LIMIT: isize = 64 << 20;
/// Beyond this the allocator refuses (and the process aborts, naming the case) rather than
/// let a blow-up take the machine down.
const HARD_MEMORY_LIMIT: isize = 1 << 30;
/// Mutated inputs are cut to this length (duplications can otherwise grow them).
const MAX_INPUT: usize = 256 << 10;
/// Rejected inputs per reader given to the CLI.
const CLI_SAMPLE: usize = 20;

// ---------------------------------------------------------------------------------------------
// Memory: a global allocator counting each thread's live bytes and their peak.

struct Counting;

thread_local! {
    /// Bytes allocated minus bytes freed by this thread since the current case started.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    /// The highest `LIVE` since the current case started.
    static PEAK: Cell<isize> = const { Cell::new(0) };
    /// The case this thread runs, for the hard-limit message: reader and case index.
    static CASE: Cell<(&'static str, u64)> = const { Cell::new(("", 0)) };
}

/// Adds `delta` to this thread's live bytes; false when that passes [`HARD_MEMORY_LIMIT`].
fn note(delta: isize) -> bool {
    LIVE.try_with(|live| {
        let v = live.get() + delta;
        if delta > 0 && v > HARD_MEMORY_LIMIT {
            hard_limit_message(delta);
            return false;
        }
        live.set(v);
        let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
        true
    })
    .unwrap_or(true)
}

/// Names the case on stderr without allocating (we are inside the allocator).
fn hard_limit_message(request: isize) {
    use std::io::Write;
    let (reader, case) = CASE.try_with(Cell::get).unwrap_or(("?", 0));
    let mut buf = [0u8; 256];
    let mut w = std::io::Cursor::new(&mut buf[..]);
    let _ = writeln!(
        w,
        "fuzz_readers: reader {reader} case {case} asks for {request} bytes beyond the \
         {HARD_MEMORY_LIMIT}-byte hard limit (reproduce: FUZZ_READERS_ONLY={reader}:{case}, with the same FUZZ_READERS_SEED)"
    );
    let n = w.position() as usize;
    let _ = std::io::stderr().write_all(&buf[..n]);
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counting only
// touches thread-local `Cell`s with const initialisers (no allocation, no destructor).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !note(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !note(layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: forwarded with the caller's layout.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize));
        // SAFETY: `ptr` was allocated by `System` with `layout` (every path above forwards).
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !note(new_size as isize - layout.size() as isize) {
            return std::ptr::null_mut();
        }
        // SAFETY: as for `dealloc`; `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Starts counting a case on this thread.
fn start_counting(reader: &'static str, case: u64) {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    CASE.with(|c| c.set((reader, case)));
}

/// The peak live bytes since [`start_counting`].
fn peak_bytes() -> isize {
    PEAK.with(Cell::get)
}

// ---------------------------------------------------------------------------------------------
// The seeded mutator.

/// SplitMix64: seeds and case seeds.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xorshift64*: the mutator's random numbers.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(splitmix(seed) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-enough in `0..n` (`n` ≥ 1).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed of case `case` of reader `reader`: independent of every other case.
fn case_seed(seed: u64, reader: &str, case: u64) -> u64 {
    let name = reader.bytes().fold(0xCBF2_9CE4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
    });
    splitmix(seed ^ splitmix(name ^ case.wrapping_mul(0xD6E8_FEB8_6659_FD93)))
}

/// Numbers that break parsers: zero, signs, type boundaries, overflows.
const HUGE: &[&str] = &[
    "0",
    "00",
    "-1",
    "99",
    "100",
    "255",
    "256",
    "65535",
    "65536",
    "2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "53644737765488792839237440001",
    "340282366920938463463374607431768211456",
    "9999999999999999999999999999999999999999999999999999",
    "1e9",
    "0x",
];

/// Byte sequences that are not UTF-8 (and a byte-order mark, which is).
const NOT_UTF8: &[&[u8]] = &[
    b"\xFF",
    b"\xC3",
    b"\xE2\x82",
    b"\xED\xA0\x80",
    b"\xC0\x80",
    b"\xF4\x90\x80\x80",
    b"\xE9",
    b"\xEF\xBB\xBF",
    b"\0",
];

/// Bytes with a meaning in some format.
const SPECIAL: &[u8] = b"\n\r\t \"[]{}|,:;.-#%=0123456789?*!$";

/// Line spans `(start, end)` of `d`, the `\n` excluded.
fn lines(d: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in d.iter().enumerate() {
        if b == b'\n' {
            out.push((start, i));
            start = i + 1;
        }
    }
    out.push((start, d.len()));
    out
}

/// A random range of `d` of 1..=`max` bytes (`d` non-empty).
fn span(rng: &mut Rng, d: &[u8], max: usize) -> (usize, usize) {
    let a = rng.below(d.len());
    let len = 1 + rng.below(max.min(d.len() - a));
    (a, a + len)
}

/// Mutation `kind` (0..15) of [`mutate`] when it changes bytes, ranges or tokens of `d`
/// (`other` another corpus file); false when `kind` is none of those or does not apply to
/// `d` (then [`mutate_lines`], else [`glue`]).
fn mutate_bytes(kind: usize, rng: &mut Rng, d: &mut Vec<u8>, other: &[u8]) -> bool {
    match kind {
        // Bit flip.
        0 if !d.is_empty() => {
            let i = rng.below(d.len());
            d[i] ^= 1 << rng.below(8);
        }
        // A byte replaced by one that means something somewhere.
        1 if !d.is_empty() => {
            let i = rng.below(d.len());
            d[i] = if rng.below(4) == 0 {
                rng.next() as u8
            } else {
                *rng.pick(SPECIAL)
            };
        }
        // Bytes inserted.
        2 => {
            let i = rng.below(d.len() + 1);
            for _ in 0..1 + rng.below(4) {
                let b = if rng.below(2) == 0 {
                    rng.next() as u8
                } else {
                    *rng.pick(SPECIAL)
                };
                d.insert(i, b);
            }
        }
        // A range deleted.
        3 if !d.is_empty() => {
            let (a, b) = span(rng, d, 32);
            d.drain(a..b);
        }
        // A chunk duplicated, up to 8 times.
        4 if !d.is_empty() => {
            let (a, b) = span(rng, d, 256);
            let chunk = d[a..b].repeat(1 + rng.below(8));
            let at = rng.below(d.len() + 1);
            d.splice(at..at, chunk);
        }
        // Truncation.
        6 => {
            let n = rng.below(d.len() + 1);
            d.truncate(n);
        }
        // A run of digits replaced by a huge (or otherwise awkward) number.
        7 if !d.is_empty() => {
            let from = rng.below(d.len());
            let start = d[from..]
                .iter()
                .position(u8::is_ascii_digit)
                .map_or(from, |p| from + p);
            let end = start + d[start..].iter().take_while(|b| b.is_ascii_digit()).count();
            d.splice(start..end, rng.pick(HUGE).bytes());
        }
        // Bytes that are not UTF-8.
        8 => {
            let i = rng.below(d.len() + 1);
            d.splice(i..i, rng.pick(NOT_UTF8).iter().copied());
        }
        // A token of another file spliced in: inserted or overwriting.
        10 if !other.is_empty() => {
            let (a, b) = span(rng, other, 12);
            let token = other[a..b].to_vec();
            let at = rng.below(d.len() + 1);
            if rng.below(2) == 0 || at + token.len() > d.len() {
                d.splice(at..at, token);
            } else {
                d.splice(at..at + token.len(), token);
            }
        }
        _ => return false,
    }
    true
}

/// Mutation `kind` (0..15) of [`mutate`] when it works on whole lines of `d` (`other`
/// another corpus file); false when `kind` is none of those.
fn mutate_lines(kind: usize, rng: &mut Rng, d: &mut Vec<u8>, other: &[u8]) -> bool {
    match kind {
        // A line of another file spliced in (inserted or replacing one).
        5 => {
            let theirs = lines(other);
            let (a, b) = *rng.pick(&theirs);
            let mut line = other[a..b].to_vec();
            line.push(b'\n');
            let ours = lines(d);
            let (s, e) = *rng.pick(&ours);
            if rng.below(2) == 0 {
                d.splice(s..s, line);
            } else {
                d.splice(s..(e + 1).min(d.len()), line);
            }
        }
        // A line (a tag, a record) repeated up to 64 times.
        9 => {
            let ours = lines(d);
            let (s, e) = *rng.pick(&ours);
            let mut line = d[s..e].to_vec();
            line.push(b'\n');
            let copies = line.repeat(1 + rng.below(64));
            d.splice(s..s, copies);
        }
        // Two lines swapped.
        11 => {
            let ours = lines(d);
            let (a, b) = (*rng.pick(&ours), *rng.pick(&ours));
            let (first, second) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if first.1 < second.0 {
                let mut out = d[..first.0].to_vec();
                out.extend_from_slice(&d[second.0..second.1]);
                out.extend_from_slice(&d[first.1..second.0]);
                out.extend_from_slice(&d[first.0..first.1]);
                out.extend_from_slice(&d[second.1..]);
                *d = out;
            }
        }
        // Line ends changed: CRLF everywhere, bare CR, or none.
        12 => {
            let from: &[u8] = b"\n";
            const ENDS: [&[u8]; 4] = [b"\r\n", b"\r", b"", b"\n\n"];
            let to = *rng.pick(&ENDS);
            let mut out = Vec::with_capacity(d.len() * 2);
            for &b in d.iter() {
                if b == from[0] && rng.below(3) != 0 {
                    out.extend_from_slice(to);
                } else {
                    out.push(b);
                }
            }
            *d = out;
        }
        // A line deleted.
        13 => {
            let ours = lines(d);
            let (s, e) = *rng.pick(&ours);
            d.drain(s..(e + 1).min(d.len()));
        }
        _ => return false,
    }
    true
}

/// The other file's head or tail glued on `d` (two files in one): [`mutate`]'s mutation
/// when the drawn one does not apply.
fn glue(rng: &mut Rng, d: &mut Vec<u8>, other: &[u8]) {
    let cut = rng.below(other.len() + 1);
    if rng.below(2) == 0 {
        d.extend_from_slice(&other[cut..]);
    } else {
        d.splice(0..0, other[..cut].iter().copied());
    }
}

/// One to four mutations of `base`, drawing lines and tokens from `corpus`.
fn mutate(rng: &mut Rng, base: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut d = base.to_vec();
    if rng.below(32) == 0 {
        // Now and then plain random bytes, as the earlier property tests do.
        let n = rng.below(600);
        return (0..n).map(|_| rng.next() as u8).collect();
    }
    for _ in 0..1 + rng.below(4) {
        let other = rng.pick(corpus).as_slice();
        let kind = rng.below(15);
        if !mutate_bytes(kind, rng, &mut d, other) && !mutate_lines(kind, rng, &mut d, other) {
            glue(rng, &mut d, other);
        }
    }
    d.truncate(MAX_INPUT);
    d
}

// ---------------------------------------------------------------------------------------------
// The readers and their corpora.

/// What a reader made of an input: accepted, or rejected with this message.
type Verdict = Result<(), String>;

/// A reader under test.
#[derive(Clone, Copy)]
struct Reader {
    /// The reader's name: a format name, `sqd`, `sqk`, `query`, `deal-string`, `number`,
    /// `index` or `card`.
    name: &'static str,
    /// Cases CI runs.
    cases: u64,
    /// Reads one input and checks what it accepted.
    read: fn(&'static str, &[u8]) -> Verdict,
    /// The real files (or strings) it is fed, mutated.
    corpus: fn(&'static str) -> Vec<Vec<u8>>,
}

fn read_fixture(rel: &str) -> Vec<u8> {
    std::fs::read(fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Every `.pbn` fixture (Big Deal and SquareDeal sessions, joined files, the PBN standard's
/// example, an import-format file), sorted by path, then three games with double-dummy tags.
fn pbn_fixtures() -> &'static [Vec<u8>] {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut paths = vec![
            fixture("pbn-spec-example.pbn"),
            fixture("pbn-import-quirks.pbn"),
        ];
        for dir in ["squaredeal-wc2025", "squaredeal-wbg2024"] {
            let mut found: Vec<PathBuf> = std::fs::read_dir(fixture(dir))
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "pbn"))
                .collect();
            found.sort();
            paths.extend(found);
        }
        let mut files: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
        // Double-dummy tags in another program's layout: the first three games (CRLF).
        let dd = read_fixture("dd/composer-style.pbn");
        let games: Vec<usize> = dd
            .windows(7)
            .enumerate()
            .filter(|(_, w)| w == b"[Event ")
            .map(|(i, _)| i)
            .collect();
        files.push(dd[..games[3]].to_vec());
        files
    })
}

fn vectors() -> &'static serde_json::Value {
    static V: OnceLock<serde_json::Value> = OnceLock::new();
    V.get_or_init(|| serde_json::from_slice(&read_fixture("vectors.json")).unwrap())
}

/// Seeded boards: `n` boards numbered from `first`, every third with an explicit dealer and
/// vulnerability (formats that carry them write them).
fn seeded_boards(seed_byte: &str, first: u64, n: u64) -> Vec<Board> {
    let seed: Seed = seed_byte.repeat(32).parse().unwrap();
    (0..n)
        .map(|k| {
            let mut b = Board::new(first + k, seed.board_deal(first + k));
            if k % 3 == 2 {
                b.dealer = Some(Seat::from_index((k % 4) as usize));
                b.vulnerability = Some(
                    [
                        Vulnerability::None,
                        Vulnerability::NorthSouth,
                        Vulnerability::EastWest,
                        Vulnerability::All,
                    ][(k % 4) as usize],
                );
            }
            b
        })
        .collect()
}

/// The real files of a format: its fixtures, files its own writer makes from seeded deals,
/// and the PBN fixtures' boards (with their auctions and plays) written in it.
fn format_corpus(name: &'static str) -> Vec<Vec<u8>> {
    let f = formats::by_name(name).unwrap();
    let mut files: Vec<Vec<u8>> = Vec::new();
    match name {
        "pbn" => {
            files.extend(pbn_fixtures().iter().cloned());
            // Files from the field (issue 15): auction-only boards, notes, a one-row table.
            files.push(read_fixture("field/teaching.pbn"));
            files.push(read_fixture("field/bidding-analyser.pbn"));
            files.push(read_fixture("field/dealer-seed15.pbn"));
        }
        "oneline" => {
            files.push(read_fixture("field/dealer-seed15.oneline"));
            files.push(read_fixture("field/dealer-seed3-hcp.oneline"));
            files.push(read_fixture("peers/endplay-dealer-s7-b.oneline"));
            files.push(read_fixture("peers/endplay-dealer-s11-voids.oneline"));
        }
        // The peers' own output (issue 26 item 6).
        "dealer-all" => files.push(read_fixture("peers/dealer-long-s5.all")),
        "dealer-ew" => files.push(read_fixture("peers/dealer-long-s5.ew")),
        "dealer-compact" => files.push(read_fixture("peers/dealer-voids-s7.compact-hcp")),
        "deal-lines" => files.push(read_fixture("peers/endplay-dealer-s7-b.deals")),
        "redeal" => {
            files.push(read_fixture("peers/redeal-s3-west-spades.short"));
            files.push(read_fixture("peers/redeal-s7-ascii.short"));
        }
        "redeal-long" => {
            files.push(read_fixture("peers/redeal-s3-west-spades-nes.long"));
            files.push(read_fixture("peers/redeal-s7-ascii.long"));
        }
        "endplay-json" => files.push(read_fixture("peers/endplay-boards-indent.json")),
        // The libraries' public samples, each also as the other library (both hold tables).
        "gib-library" | "rp-library" => {
            let gib = read_fixture("libraries/library.dat");
            let rp = read_fixture("libraries/rpdd_10First.zrd");
            let (own, other, other_name) = match name {
                "gib-library" => (gib, rp, "rp-library"),
                _ => (rp, gib, "gib-library"),
            };
            let boards = formats::by_name(other_name).unwrap().read(&other).unwrap();
            files.push(formats::write_set(f, &boards, &opts()).unwrap());
            files.push(own[..own.len() / 2].to_vec());
            files.push(own);
        }
        "lin" => {
            files.push(read_fixture("lin-with-play.lin"));
            files.push(read_fixture("field/teaching.lin"));
            let record = vectors()["lin_example"]["record"].as_str().unwrap();
            files.push(format!("{record}\n").into_bytes());
        }
        "dlm" => {
            let line = vectors()["dlm_line_example"]["line"].as_str().unwrap();
            files.push(
                format!(
                    "[Document]\r\nHeadline=x\r\nStatus=Show\r\nDuplicates=0\r\nFrom board=1\r\n\
                     To board=1\r\nChecksum=1\r\n{line}\r\n"
                )
                .into_bytes(),
            );
        }
        "bri" => {
            // The published BRI part as a record: 32 spaces and 18 NUL bytes after it.
            let bri = vectors()["dup_bri_example"]["bri"].as_str().unwrap();
            files.push(format!("{bri}{}{}", " ".repeat(32), "\0".repeat(18)).into_bytes());
        }
        _ => {}
    }
    // Big Deal 2.0's own files of this format, for boards 1–10, 11–20, 250–264, ….
    let big_deal =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bigdeal-ranges");
    let mut theirs: Vec<_> = std::fs::read_dir(&big_deal)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| formats::by_path(p).is_some_and(|g| g.info().name == name))
        .collect();
    theirs.sort();
    files.extend(theirs.iter().map(|p| std::fs::read(p).unwrap()));
    let sets = [("11", 1, 1), ("a5", 1, 16), ("3c", 7, 32), ("e0", 90, 10)];
    for (seed, first, n) in sets {
        if let Ok(out) = formats::write_set(f, &seeded_boards(seed, first, n), &opts()) {
            files.push(out);
        }
    }
    for pbn in pbn_fixtures().iter().take(6) {
        let boards = formats::Pbn.read(pbn).unwrap();
        if let Ok(out) = formats::write_set(f, &boards, &opts()) {
            files.push(out);
        }
    }
    files.retain(|f| f.len() <= 64 << 10);
    assert!(files.len() >= 3, "{name}: too small a corpus");
    files
}

fn opts() -> WriteOptions {
    WriteOptions {
        event: "Fuzz Cup".into(),
        ..WriteOptions::default()
    }
}

/// Reads a deal file; what it accepts must survive its own writer: written back and read
/// again, the same deals (and board numbers, where the format carries them).
fn read_format(name: &'static str, data: &[u8]) -> Verdict {
    let f = formats::by_name(name).unwrap();
    pieces_read_as_whole(f, data);
    let boards = f.read(data).map_err(|e| {
        // Every rejection says where: a line, column, byte offset or record.
        assert!(e.position().is_some(), "{name}: no position in: {e}");
        e.to_string()
    })?;
    let mut numbered = boards.clone();
    formats::number_boards(&mut numbered, 1);
    // A writer may refuse what the reader took (a board number above its limit): that is an
    // error, not a panic, and nothing is compared then.
    let Ok(out) = formats::write_set(f, &numbered, &WriteOptions::default()) else {
        return Ok(());
    };
    let again = f
        .read(&out)
        .unwrap_or_else(|e| panic!("{name}: its own output does not read back: {e}"));
    assert_eq!(again.len(), numbered.len(), "{name}: boards written back");
    for (a, b) in again.iter().zip(&numbered) {
        assert_eq!(a.deal, b.deal, "{name}: a deal written back");
        if f.info().board_numbers {
            assert_eq!(a.number, b.number, "{name}: a board number written back");
        }
    }
    Ok(())
}

/// Read in pieces of about a fifth of the file ([`read_stream_in_pieces`], as `import` reads
/// a file too large to hold), a file gives exactly what it gives read whole: the same
/// boards, numbers, skipped boards, warnings and inconsistencies, or the same error at the same
/// place.
fn pieces_read_as_whole(f: &'static dyn DealFormat, data: &[u8]) {
    use dealdex::formats::stream::{StreamError, read_stream_in_pieces};
    let opts = formats::ReadOptions::default();
    let whole = f.read_numbered(data, &opts);
    let mut read = formats::FileBoards::default();
    let piece = 1 + data.len() / 5;
    let streamed = read_stream_in_pieces::<()>(f, &mut &data[..], &opts, piece, &mut |p| {
        read.boards.extend(p.boards);
        read.skipped.extend(p.skipped);
        read.warnings.extend(p.warnings);
        read.inconsistencies.extend(p.inconsistencies);
        Ok(())
    });
    let name = f.info().name;
    match (whole, streamed) {
        (Ok(whole), Ok(n)) => {
            assert_eq!(
                n,
                whole.boards.len() as u64,
                "{name}: boards read in pieces"
            );
            assert_eq!(read, whole, "{name}: read in pieces of {piece} bytes");
        }
        (Err(whole), Err(StreamError::Format(e))) => {
            assert_eq!(
                common::refused(e),
                common::refused(whole),
                "{name}: the error read in pieces of {piece} bytes"
            )
        }
        (whole, streamed) => panic!(
            "{name}: read whole {:?}, in pieces of {piece} bytes {:?}",
            whole.map(|w| w.boards.len()),
            streamed.map_err(|e| format!("{e:?}"))
        ),
    }
}

/// The dealdex-protocol event of the protocol's golden test, published.
fn dealdex_sqd(crlf: bool) -> Vec<u8> {
    let mut ev = Event::parse(
        "PV dealdex-event/1\nTN Golden Cup\nDI DJIA close 2026-03-20\n\
         VF decimal:2\nDV 44882.13\nSN 2:8:RR#:Round robin\nSN 1:12:FIN:Final\n",
    )
    .unwrap();
    ev.commit_keys(&golden_keys()).unwrap();
    ev.to_sqd(crlf).into_bytes()
}

/// The three keys of the protocol's golden test (sessions 1,1, 1,2 and 2,1).
fn golden_keys() -> Keys {
    let text = format!(
        "1,1:{}\r\n1,2:{}\r\n2,1:{}\r\n",
        "A".repeat(60),
        "B".repeat(60),
        "C".repeat(60)
    );
    Keys::parse(text.as_bytes()).unwrap()
}

/// SquareDeal's files of two championships, and a dealdex-protocol event (LF and CRLF).
fn event_corpus(name: &'static str) -> Vec<Vec<u8>> {
    let ext = if name == "sqd" { "sqd" } else { "sqk" };
    let mut files = vec![
        read_fixture(&format!("squaredeal-wc2025/WC2025.{ext}")),
        read_fixture(&format!("squaredeal-wbg2024/WBG2024.{ext}")),
    ];
    if name == "sqd" {
        files.push(dealdex_sqd(false));
        files.push(dealdex_sqd(true));
    } else {
        files.push(golden_keys().to_bytes());
    }
    files
}

/// Reads a `.sqd`; what it accepts must be written back (`to_sqd`) as the same event, and
/// its session names, files and manifest must be computable.
fn read_sqd(_: &'static str, data: &[u8]) -> Verdict {
    let ev = Event::parse_bytes(data).map_err(|e| {
        // Every rejection names its line.
        assert!(matches!(e.kind(), ErrorKind::Sqd { .. }), "no line in: {e}");
        e.to_string()
    })?;
    for crlf in [false, true] {
        let text = ev.to_sqd(crlf);
        let back = Event::parse(&text).unwrap_or_else(|e| panic!("to_sqd does not read back: {e}"));
        let or_empty = |s: &Option<String>| s.clone().unwrap_or_default();
        assert_eq!(back.protocol, ev.protocol);
        assert_eq!(or_empty(&back.name), or_empty(&ev.name));
        assert_eq!(or_empty(&back.delayed_info), or_empty(&ev.delayed_info));
        assert_eq!(back.delayed_value, ev.delayed_value);
        assert_eq!(back.phases, ev.phases);
        assert_eq!(back.key_hash, ev.key_hash);
        assert_eq!(back.value_format, ev.value_format);
        let mut a = back.key_commitments.clone();
        let mut b = ev.key_commitments.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
    }
    // What `event make` and `event verify` do with a parsed event, short of making deals.
    // (A variable phase's key is filed under session 0, which names no file.)
    for id in ev
        .key_sessions()
        .into_iter()
        .filter(|id| id.session > 0)
        .take(64)
    {
        if let Ok(name) = ev.session_name(id, false) {
            // `event verify` finds a session's deal file by its name.
            assert!(ev.match_file(&name).is_some(), "{name} (session {id})");
        }
    }
    let _ = ev.manifest();
    let _ = ev.missing_keys(&golden_keys());
    let _ = ev.check_keys(&golden_keys());
    Ok(())
}

/// Reads a `.sqk`; what it accepts must be written back (`to_bytes`, the CRLF form) as the
/// same keys with the same hash, and the keys must derive deals for the fixture's event.
fn read_sqk(_: &'static str, data: &[u8]) -> Verdict {
    let keys = Keys::parse(data).map_err(|e| {
        // Every rejection names its line.
        assert!(matches!(e.kind(), ErrorKind::Sqk { .. }), "no line in: {e}");
        e.to_string()
    })?;
    let bytes = keys.to_bytes();
    let back = Keys::parse(&bytes).unwrap_or_else(|e| panic!("to_bytes does not read back: {e}"));
    assert_eq!(back.hash(), keys.hash(), "KH is over the CRLF form");
    assert!(back.is_canonical(), "to_bytes is the CRLF form");
    assert_eq!(
        back.sessions().collect::<Vec<_>>(),
        keys.sessions().collect::<Vec<_>>()
    );
    for id in keys.sessions() {
        assert_eq!(back.get(id), keys.get(id), "key of {id}");
    }
    static EVENT: OnceLock<Event> = OnceLock::new();
    let ev = EVENT.get_or_init(|| {
        Event::parse_bytes(&read_fixture("squaredeal-wbg2024/WBG2024.sqd")).unwrap()
    });
    let _ = ev.check_keys(&keys);
    if let Some(id) = keys.sessions().next() {
        let _ = ev.session_deals(&keys, id, false, 4);
    }
    let _ = ev.session_deals(
        &keys,
        SessionId {
            phase: 1,
            session: 1,
        },
        true,
        4,
    );
    Ok(())
}

fn lines_of(text: &str) -> Vec<Vec<u8>> {
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.as_bytes().to_vec())
        .collect()
}

fn query_corpus(_: &'static str) -> Vec<Vec<u8>> {
    lines_of(
        "hcp(N) >= 20 and len(S, spades) >= 5 and shape(E) = 4432
HCP(north) IN 20..21 && Balanced(N)
not balanced(N) and balanced(S) or balanced(E)
22 <= hcp(W) and hcp(E) > 19
hcp(NS) >= 30
hcp(NS) in 20..25
len(EW, ♥) >= 8
len(S, S) = 5
not balanced(N) or ltc(S) <= 7
controls(EW) > longest(W)
12 <= hcp(E) && semibalanced(E)
semibalanced(E) and (hcp(E) = 12 or hcp(E) == 13) and not (hcp(W) < 3 || ltc(W) > 9)
hcp(N) > 1 or hcp(E) > 2 and hcp(S) > 3 or (hcp(W) > 4 or hcp(N) > 5)
pattern(W) != 5-4-3-1
4-3-3-3 != shape(S)
shape(N) = 13-0-0-0
len(N, hearts) = 6 and len(E, ♠) = 0 and len(S, D) = 5 and len(W, clubs) = 3
shape(N) = 6421 and shape(N) = 1-2-4-6 and pattern(N) = 4621 and pattern(N) != 6421
hcp(S) in 15..15 and hcp(S) in 0..37 and not hcp(S) in 16..20
hcp(S) > hcp(E) and ltc(E) < ltc(S) and 3 <= hcp(W)
hcp(N) > 9223372036854775807 or len(E, ♣) <> 0
((((((balanced(N))))))) and !!!(hcp(south) >= 3)",
    )
}

/// A few deals to evaluate accepted queries on.
fn sample_deals() -> &'static [Deal] {
    static D: OnceLock<Vec<Deal>> = OnceLock::new();
    D.get_or_init(|| {
        let seed: Seed = "5a".repeat(32).parse().unwrap();
        (1..=8).map(|k| seed.board_deal(k)).collect()
    })
}

/// Reads a query; what it accepts must print (Display) as a query that parses back equal, and
/// compile to SQL with one parameter per placeholder.
fn read_query(_: &'static str, data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let q = Query::parse(&text).map_err(|e| e.to_string())?;
    let printed = q.to_string();
    let back = Query::parse(&printed)
        .unwrap_or_else(|e| panic!("{printed:?} (printed from {text:?}) does not parse: {e}"));
    assert_eq!(back, q, "{text:?} printed as {printed:?}");
    let sql = q.to_sql();
    for k in 1..=sql.params.len() {
        assert!(
            sql.clause.contains(&format!("?{k}")),
            "placeholder ?{k} in {sql:?}"
        );
    }
    for d in sample_deals() {
        let _ = q.matches(d);
    }
    Ok(())
}

/// Deal strings: the Big Deal list's deals, the PBN fixtures' `[Deal]` values (any first seat,
/// import order), and hand-written forms (an unknown hand `-`, `10` for the ten, lower case).
fn deal_string_corpus(_: &'static str) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = String::from_utf8(read_fixture("bigdeal-wbg2024-deals.txt"))
        .unwrap()
        .lines()
        .step_by(40)
        .map(|l| format!("N:{l}").into_bytes())
        .collect();
    for pbn in pbn_fixtures().iter().take(4) {
        for line in String::from_utf8_lossy(pbn).lines() {
            if let Some(v) = line.strip_prefix("[Deal \"") {
                out.push(v.trim_end_matches("\"]").as_bytes().to_vec());
            }
        }
    }
    out.extend(lines_of(
        "W:458T.45TJQ.7.3QA 6KA.2KA.234.8TJK J92.3.KQT865.965 37Q.6789.9JA.247
e:AKQJT98765432... - ..AKQJT98765432. ...AKQJT98765432
N:J987.J107643.A4.Q .KQ2.QT9.AK98543 AQ42.A8.KJ762.J2 KT653.95.853.T76
  S:...AKQJT98765432 .AKQJT98765432.. ..AKQJT98765432. AKQJT98765432...  ",
    ));
    out
}

/// Reads a deal string; what it accepts must print as a string that parses back equal.
fn read_deal_string(_: &'static str, data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let deal = dealdex::parse_deal(&text).map_err(|e| e.to_string())?;
    for first in Seat::ALL {
        let printed = dealdex::format_deal(&deal, first);
        assert_eq!(dealdex::parse_deal(&printed), Ok(deal), "{printed:?}");
    }
    assert_eq!(DealIndex::from_deal(&deal).to_deal(), Ok(deal));
    Ok(())
}

fn number_corpus(_: &'static str) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vectors()["numbers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["number"].as_str().unwrap().as_bytes().to_vec())
        .collect();
    out.extend(lines_of(
        "1
53644737765488792839237440000
53,644,737,765,488,792,839,237,440,000
0xAD55E315634DDA658BF49200
0Xad55e315634dda658bf49200
1_000_000
  42  ",
    ));
    out
}

/// Reads a hand-record number in each scheme; what it accepts must be a deal's number there.
fn read_number(_: &'static str, data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    // Accepted when one scheme takes it (D is not Big Deal's, 0 only Big Deal's).
    let mut verdict = Err(String::new());
    for scheme in [Scheme::Pavlicek, Scheme::Andrews, Scheme::BigDeal] {
        let n = match dealdex::parse_scheme_number(&text, scheme) {
            Ok(n) => n,
            Err(e) => {
                if verdict.is_err() {
                    verdict = Err(e.to_string());
                }
                continue;
            }
        };
        verdict = Ok(());
        let deal = Deal::from_number(n, scheme)
            .unwrap_or_else(|e| panic!("{n} parsed but has no {scheme:?} deal: {e}"));
        assert_eq!(deal.number(scheme), n, "{scheme:?}");
    }
    verdict
}

fn index_corpus(_: &'static str) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vectors()["hex_index"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hex"].as_str().unwrap().as_bytes().to_vec())
        .collect();
    for (k, d) in sample_deals().iter().enumerate() {
        let hex = DealIndex::from_deal(d).to_string();
        out.push(match k % 3 {
            0 => hex.into_bytes(),
            1 => format!("{hex}-{:X}", k).into_bytes(),
            _ => format!(" {:x}-{} ", k, hex.to_lowercase()).into_bytes(),
        });
    }
    out
}

/// Reads a hex index (`BoardIndex`, and `DealIndex::parse_hex` on the same text); what it accepts
/// must print back equal, and a valid deal must index to the same bytes.
fn read_index(_: &'static str, data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let _ = DealIndex::parse_hex(&text);
    let h: BoardIndex = text
        .parse()
        .map_err(|e: dealdex::ModelError| e.to_string())?;
    let printed = h.to_string();
    assert_eq!(printed.parse::<BoardIndex>(), Ok(h), "{printed:?}");
    let _ = (h.dealer(), h.vulnerability());
    match h.index.to_deal() {
        Ok(deal) => assert_eq!(DealIndex::from_deal(&deal), h.index),
        Err(e) => return Err(e.to_string()),
    }
    Ok(())
}

fn card_corpus(_: &'static str) -> Vec<Vec<u8>> {
    lines_of(
        "QC
CQ
♣Q
Q♣
10H
TH
h10
10♥
A♠
2♦
🂡
🃞
seed004-byte
standard-card
Unicode
533383
0x1F0A1
U+1F0DE
67144223
51",
    )
}

/// Reads card text in every way the encodings module offers: `parse_card`, seed 003's display
/// text, each character as a Unicode card, the text as an encoding's name, and its bytes as a
/// number in each encoding. Whatever is accepted must encode back to the same card.
fn read_card(_: &'static str, data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    if let Ok(c) = encoding::card_from_symbol_text(&text) {
        let shown = encoding::symbol_text(c);
        assert_eq!(encoding::card_from_symbol_text(&shown), Ok(c), "{shown:?}");
    }
    for ch in text.chars().take(8) {
        if let Ok(c) = encoding::card_from_unicode_char(ch) {
            assert_eq!(encoding::unicode_char(c), ch);
        }
    }
    let _ = text.parse::<Encoding>();
    let mut word = [0u8; 8];
    let n = data.len().min(8);
    word[..n].copy_from_slice(&data[..n]);
    let value = u64::from_le_bytes(word);
    for v in [value, value & 0xFF, value & 0xFFFF_FFFF, value % 64] {
        for e in Encoding::ALL {
            if let Ok(c) = e.decode(v) {
                assert_eq!(e.decode(e.encode(c).into()), Ok(c), "{e} {v}");
            }
        }
    }
    let card: Card = encoding::parse_card(&text).map_err(|e| e.to_string())?;
    assert_eq!(
        encoding::parse_card(&card.to_string()),
        Ok(card),
        "{text:?}"
    );
    Ok(())
}

/// Cases CI runs for each deal-file format and each SquareDeal file.
const FILE_CASES: u64 = 5000;
/// Cases CI runs for each string reader (query, deal string, number, index, card).
const STRING_CASES: u64 = 4000;

/// Every reader, with the cases CI runs: 28 file readers and 5 string readers, 160,000 cases
/// in all (the figure docs/database.md "Reliability" gives).
fn readers() -> Vec<Reader> {
    type Read = fn(&'static str, &[u8]) -> Verdict;
    type Corpus = fn(&'static str) -> Vec<Vec<u8>>;
    let mut out: Vec<Reader> = formats::registry()
        .iter()
        .map(|f| Reader {
            name: f.info().name,
            cases: FILE_CASES,
            read: read_format,
            corpus: format_corpus,
        })
        .collect();
    let more: [(&'static str, u64, Read, Corpus); 7] = [
        ("sqd", FILE_CASES, read_sqd, event_corpus),
        ("sqk", FILE_CASES, read_sqk, event_corpus),
        ("query", STRING_CASES, read_query, query_corpus),
        (
            "deal-string",
            STRING_CASES,
            read_deal_string,
            deal_string_corpus,
        ),
        ("number", STRING_CASES, read_number, number_corpus),
        ("index", STRING_CASES, read_index, index_corpus),
        ("card", STRING_CASES, read_card, card_corpus),
    ];
    out.extend(more.map(|(name, cases, read, corpus)| Reader {
        name,
        cases,
        read,
        corpus,
    }));
    out
}

fn reader(name: &str) -> Reader {
    readers()
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("no reader {name}"))
}

// ---------------------------------------------------------------------------------------------
// The driver.

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}={v:?}: expected a number"))
    })
}

fn seed() -> u64 {
    env_u64("FUZZ_READERS_SEED").unwrap_or(CI_SEED)
}

/// `FUZZ_READERS_ONLY=reader:case`, if given.
fn only() -> Option<(String, u64)> {
    let v = std::env::var("FUZZ_READERS_ONLY").ok()?;
    let (r, c) = v.rsplit_once(':').expect("FUZZ_READERS_ONLY=reader:case");
    Some((
        r.to_string(),
        c.parse().expect("FUZZ_READERS_ONLY=reader:case"),
    ))
}

/// Case `case` of a reader's run: its input.
fn case_input(r: &Reader, corpus: &[Vec<u8>], seed: u64, case: u64) -> Vec<u8> {
    let mut rng = Rng::new(case_seed(seed, r.name, case));
    let base = rng.pick(corpus).clone();
    mutate(&mut rng, &base, corpus)
}

/// What one reader's run found.
struct Run {
    cases: u64,
    accepted: u64,
    rejected: u64,
    slowest: Duration,
    peak: isize,
    failures: Vec<String>,
}

/// Runs cases `cases` of reader `r`, keeping the first [`CLI_SAMPLE`] rejected inputs.
fn run_reader(r: &Reader, cases: std::ops::Range<u64>) -> Run {
    let corpus = (r.corpus)(r.name);
    let seed = seed();
    let (tx, rx) = mpsc::channel::<Option<u64>>();
    let name = r.name;
    // The watchdog: a case that never returns aborts the run, naming the case.
    let watchdog = std::thread::spawn(move || {
        let mut current = None;
        loop {
            match rx.recv_timeout(HANG_LIMIT) {
                Ok(Some(case)) => current = Some(case),
                Ok(None) | Err(mpsc::RecvTimeoutError::Disconnected) => return,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Some(case) = current {
                        eprintln!(
                            "fuzz_readers: reader {name} case {case} hangs (over {HANG_LIMIT:?}); \
                             reproduce: FUZZ_READERS_ONLY={name}:{case}, with the same \
                             FUZZ_READERS_SEED"
                        );
                        std::process::abort();
                    }
                }
            }
        }
    });
    let mut run = Run {
        cases: 0,
        accepted: 0,
        rejected: 0,
        slowest: Duration::ZERO,
        peak: 0,
        failures: Vec::new(),
    };
    for case in cases {
        let input = case_input(r, &corpus, seed, case);
        tx.send(Some(case)).unwrap();
        start_counting(r.name, case);
        let t0 = Instant::now();
        let verdict = catch_unwind(AssertUnwindSafe(|| (r.read)(r.name, &input)));
        let took = t0.elapsed();
        let peak = peak_bytes();
        run.cases += 1;
        run.slowest = run.slowest.max(took);
        run.peak = run.peak.max(peak);
        let mut failed = |what: String| {
            let saved = save_failure(r.name, case, &input);
            run.failures.push(format!(
                "{} case {case}: {what}; input saved to {}; reproduce (a debug build also \
                 checks overflow): FUZZ_READERS_SEED={seed} FUZZ_READERS_ONLY={}:{case} cargo \
                 test --test fuzz_readers",
                r.name,
                saved.display(),
                r.name
            ));
        };
        match verdict {
            Ok(Ok(())) => run.accepted += 1,
            Ok(Err(_)) => run.rejected += 1,
            Err(panic) => {
                let msg = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                failed(format!("panicked: {msg}"));
            }
        }
        if took > CASE_TIME_LIMIT {
            failed(format!("took {took:?} (limit {CASE_TIME_LIMIT:?})"));
        }
        if peak > CASE_MEMORY_LIMIT {
            failed(format!(
                "allocated {peak} bytes at its peak (limit {CASE_MEMORY_LIMIT})"
            ));
        }
    }
    tx.send(None).unwrap();
    watchdog.join().unwrap();
    eprintln!(
        "fuzz_readers: {:<12} {:>6} cases, {:>6} rejected, {:>6} accepted, slowest {:>9.3?}, \
         peak {:>6} KiB, {} failures",
        r.name,
        run.cases,
        run.rejected,
        run.accepted,
        run.slowest,
        run.peak >> 10,
        run.failures.len()
    );
    run
}

/// Writes a failing input where it can be inspected: `<target tmp>/fuzz_readers/<reader>-<case>`.
fn save_failure(reader: &str, case: u64, input: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_readers");
    let path = dir.join(format!("{reader}-{case}"));
    let _ = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, input));
    path
}

/// The CI cases of `name`, times `FUZZ_READERS_SCALE`; asserts none failed.
fn fuzz(name: &str) {
    let r = reader(name);
    let scale = env_u64("FUZZ_READERS_SCALE").unwrap_or(1);
    let run = match only() {
        None => run_reader(&r, 0..r.cases * scale),
        Some((n, k)) if n == name => run_reader(&r, k..k + 1),
        // Another reader's case is being reproduced.
        Some(_) => return,
    };
    // The point of the whole file: no panic, no slow case, no memory blow-up on any input.
    assert!(
        run.failures.is_empty(),
        "{} of {} cases failed:\n{}",
        run.failures.len(),
        run.cases,
        run.failures.join("\n")
    );
    // Mutations that are all rejected (or all accepted) would test nothing but the first
    // check of the reader: both outcomes must occur, unless a single case was asked for.
    if only().is_none() {
        assert!(run.rejected > 0, "{name}: no mutated input was rejected");
        assert!(run.accepted > 0, "{name}: no mutated input was accepted");
    }
}

macro_rules! fuzz_tests {
    ($($test:ident => $name:literal,)*) => {$(
        #[test]
        fn $test() {
            fuzz($name);
        }
    )*};
}

fuzz_tests! {
    pbn_reader_survives_mutated_files => "pbn",
    dup_reader_survives_mutated_files => "dup",
    bri_reader_survives_mutated_files => "bri",
    dge_reader_survives_mutated_files => "dge",
    dlm_reader_survives_mutated_files => "dlm",
    lin_reader_survives_mutated_files => "lin",
    csv_reader_survives_mutated_files => "csv",
    ber_reader_survives_mutated_files => "ber",
    borel_reader_survives_mutated_files => "borel",
    kops_reader_survives_mutated_files => "kops",
    cds_reader_survives_mutated_files => "cds",
    goedel_reader_survives_mutated_files => "goedel",
    hrf_reader_survives_mutated_files => "hrf",
    hex_reader_survives_mutated_files => "hex",
    json_reader_survives_mutated_files => "json",
    oneline_reader_survives_mutated_files => "oneline",
    parquet_reader_survives_mutated_files => "parquet",
    dealer_all_reader_survives_mutated_files => "dealer-all",
    dealer_ew_reader_survives_mutated_files => "dealer-ew",
    dealer_compact_reader_survives_mutated_files => "dealer-compact",
    deal_lines_reader_survives_mutated_files => "deal-lines",
    redeal_reader_survives_mutated_files => "redeal",
    redeal_long_reader_survives_mutated_files => "redeal-long",
    endplay_json_reader_survives_mutated_files => "endplay-json",
    gib_library_reader_survives_mutated_files => "gib-library",
    rp_library_reader_survives_mutated_files => "rp-library",
    sqd_reader_survives_mutated_files => "sqd",
    sqk_reader_survives_mutated_files => "sqk",
    query_parser_survives_mutated_queries => "query",
    deal_string_parser_survives_mutated_deals => "deal-string",
    number_parser_survives_mutated_numbers => "number",
    index_parser_survives_mutated_indices => "index",
    card_readers_survive_mutated_cards => "card",
}

#[test]
fn every_reader_is_fuzzed() {
    // The 26 formats of the registry, the two SquareDeal files and the five string readers:
    // a format added to the registry is fuzzed without touching this file, but must get a
    // test function above (this count says so).
    assert_eq!(formats::registry().len(), 26);
    assert_eq!(readers().len(), 33);
    // docs/database.md "Reliability" quotes this total.
    assert_eq!(readers().iter().map(|r| r.cases).sum::<u64>(), 160_000);
}

#[test]
fn every_corpus_file_is_read() {
    // The mutations start from real, valid files: each reader accepts its whole corpus
    // (the card corpus also holds encoding names and numbers for the other card readers).
    for r in readers().iter().filter(|r| r.name != "card") {
        let corpus = (r.corpus)(r.name);
        eprintln!(
            "fuzz_readers: {:<12} corpus of {} files",
            r.name,
            corpus.len()
        );
        for (i, file) in corpus.iter().enumerate() {
            assert_eq!((r.read)(r.name, file), Ok(()), "{} corpus file {i}", r.name);
        }
    }
}

#[test]
fn harness_catches_panics_slow_cases_and_memory_blowups() {
    // The guards themselves must work, or a green run proves nothing: three readers that
    // break each rule once.
    fn one(_: &'static str) -> Vec<Vec<u8>> {
        vec![b"x".to_vec()]
    }
    let panics = Reader {
        name: "test-panic",
        cases: 1,
        read: |_, _| panic!("deliberate"),
        corpus: one,
    };
    let slow = Reader {
        name: "test-slow",
        cases: 1,
        read: |_, _| {
            std::thread::sleep(CASE_TIME_LIMIT + Duration::from_millis(100));
            Ok(())
        },
        corpus: one,
    };
    let greedy = Reader {
        name: "test-memory",
        cases: 1,
        read: |_, _| {
            std::hint::black_box(vec![1u8; (CASE_MEMORY_LIMIT + (1 << 20)) as usize]);
            Ok(())
        },
        corpus: one,
    };
    for (r, what) in [
        (panics, "panicked: deliberate"),
        (slow, "took"),
        (greedy, "allocated"),
    ] {
        let run = run_reader(&r, 0..1);
        assert_eq!(run.failures.len(), 1, "{}", r.name);
        assert!(run.failures[0].contains(what), "{}", run.failures[0]);
        assert!(run.failures[0].contains(&format!("FUZZ_READERS_ONLY={}:0", r.name)));
    }
}

#[test]
fn mutator_is_deterministic_and_mutates() {
    // Reproduction by case index relies on the same case giving the same input.
    let r = reader("pbn");
    let corpus = (r.corpus)(r.name);
    let a: Vec<Vec<u8>> = (0..50)
        .map(|k| case_input(&r, &corpus, CI_SEED, k))
        .collect();
    let b: Vec<Vec<u8>> = (0..50)
        .map(|k| case_input(&r, &corpus, CI_SEED, k))
        .collect();
    assert_eq!(a, b);
    // And the inputs are mutations, not the corpus files themselves (at most a few of 50
    // mutations may cancel out).
    let unchanged = a.iter().filter(|d| corpus.contains(d)).count();
    assert!(
        unchanged <= 3,
        "{unchanged} of 50 cases are corpus files unchanged"
    );
}

// ---------------------------------------------------------------------------------------------
// The CLI: rejected inputs exit 2 with the file and the position.

/// Checks that `rest` (the message after the file name) starts with a position: `line N`,
/// `byte N` or `record N (byte N)`.
fn starts_with_position(rest: &str) -> bool {
    let number_after = |s: &str, prefix: &str| -> bool {
        s.strip_prefix(prefix)
            .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()))
    };
    number_after(rest, "line ") || number_after(rest, "byte ") || number_after(rest, "record ")
}

/// Runs `dealdex` with `args`; returns its exit code and stderr.
fn dealdex(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .args(args)
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The first [`CLI_SAMPLE`] inputs of reader `name` that the library rejects, with their case.
fn rejected_sample(name: &str) -> Vec<(u64, Vec<u8>, String)> {
    let r = reader(name);
    let corpus = (r.corpus)(r.name);
    let mut out = Vec::new();
    for case in 0..r.cases {
        if out.len() == CLI_SAMPLE {
            break;
        }
        let input = case_input(&r, &corpus, CI_SEED, case);
        if let Err(message) = (r.read)(r.name, &input) {
            out.push((case, input, message));
        }
    }
    out
}

/// Asserts the CLI's answer to a rejected file: exit 2, one line naming the file and starting
/// with a position, and the library's own message.
fn assert_cli_rejects(path: &Path, case: u64, library: &str, code: Option<i32>, stderr: &str) {
    let shown = path.display().to_string();
    // Exit 2 is "bad input" (docs/GUIDE.md "Usage"): never 0, never 1 ("anything else"), no crash.
    assert_eq!(code, Some(2), "{shown} (case {case}): {stderr}");
    // One line, so scripts can show it as it is.
    assert_eq!(stderr.lines().count(), 1, "{shown}: {stderr}");
    let rest = stderr
        .trim_end()
        .strip_prefix(&format!("dealdex: error: {shown}: "))
        .unwrap_or_else(|| panic!("stderr does not name the file {shown}: {stderr}"));
    // The position comes first: the user can go straight to it.
    assert!(starts_with_position(rest), "no position in: {stderr}");
    // And it is the library's message (the CLI adds only the file name).
    assert_eq!(rest, library.replace('\n', " "), "case {case}");
}

#[test]
fn cli_rejects_mutated_deal_files_with_exit_2_file_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let mut total = 0;
    for f in formats::registry() {
        let name = f.info().name;
        let sample = rejected_sample(name);
        assert_eq!(sample.len(), CLI_SAMPLE, "{name}: too few rejected inputs");
        for (case, input, message) in sample {
            let path = dir
                .path()
                .join(format!("{name}-{case}.{}", f.info().extensions[0]));
            std::fs::write(&path, &input).unwrap();
            let (code, stderr) = dealdex(&[
                "convert".as_ref(),
                path.as_os_str(),
                "-".as_ref(),
                "--from".as_ref(),
                name.as_ref(),
                "--to".as_ref(),
                "hex".as_ref(),
            ]);
            assert_cli_rejects(&path, case, &message, code, &stderr);
            total += 1;
        }
    }
    eprintln!("fuzz_readers: cli: {total} rejected deal files, each exit 2 with its position");
}

#[test]
fn cli_rejects_mutated_squaredeal_files_with_exit_2_file_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let good_sqd = fixture("squaredeal-wbg2024/WBG2024.sqd");
    let good_sqk = fixture("squaredeal-wbg2024/WBG2024.sqk");
    let pbn = fixture("squaredeal-wbg2024/OPRR01.pbn");
    let mut total = 0;
    for name in ["sqd", "sqk"] {
        for (case, input, message) in rejected_sample(name) {
            let path = dir.path().join(format!("{name}-{case}.{name}"));
            std::fs::write(&path, &input).unwrap();
            let (sqd, sqk) = if name == "sqd" {
                (path.as_path(), good_sqk.as_path())
            } else {
                (good_sqd.as_path(), path.as_path())
            };
            let (code, stderr) = dealdex(&[
                "event".as_ref(),
                "verify".as_ref(),
                sqd.as_os_str(),
                "--keys".as_ref(),
                sqk.as_os_str(),
                pbn.as_os_str(),
            ]);
            assert_cli_rejects(&path, case, &message, code, &stderr);
            total += 1;
        }
    }
    eprintln!("fuzz_readers: cli: {total} rejected .sqd/.sqk files, each exit 2 with its line");
}

/// The first `n` mutated texts of reader `name` that the library rejects and that the CLI
/// hands to that reader (`reaches`), as the reader saw them (lossy UTF-8), without NUL (which
/// no command-line argument can hold).
fn rejected_texts(name: &str, n: usize, reaches: impl Fn(&str) -> bool) -> Vec<(u64, String)> {
    let r = reader(name);
    let corpus = (r.corpus)(r.name);
    let mut out = Vec::new();
    for case in 0..r.cases {
        if out.len() == n {
            break;
        }
        let input = case_input(&r, &corpus, CI_SEED, case);
        let text = String::from_utf8_lossy(&input).into_owned();
        if !text.contains('\0') && reaches(&text) && (r.read)(r.name, &input).is_err() {
            out.push((case, text));
        }
    }
    assert_eq!(out.len(), n, "{name}: too few rejected inputs");
    out
}

/// A number after `column ` somewhere in `message`.
fn names_column(message: &str) -> bool {
    message
        .match_indices("column ")
        .any(|(i, m)| message[i + m.len()..].starts_with(|c: char| c.is_ascii_digit()))
}

/// A reader the CLI reaches through a command-line argument.
struct ArgReader<'a> {
    /// The reader's name in [`readers`].
    name: &'static str,
    /// The command line before the argument.
    command: Vec<&'a str>,
    /// Which inputs the command hands to this reader (rather than to another, or as a file).
    reaches: Box<dyn Fn(&str) -> bool + 'a>,
    /// What the message (after `dealdex: error: `) must hold for input `t`, besides exit 2
    /// and one line.
    check: fn(&str, &str) -> bool,
}

#[test]
fn cli_rejects_mutated_arguments_with_exit_2_and_position() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("q.db");
    // `dealdex number` reads a 26/28-character hex argument as an index and one with ':' as a
    // deal string (else it is a file name); `dealdex deal` reads a range when there is '..'.
    let hexish = |t: &str| {
        let t = t.trim();
        t.chars().all(|c| c.is_ascii_hexdigit() || c == '-') && (t.len() == 26 || t.len() == 28)
    };
    let db_arg = db.to_str().unwrap();
    let cases = [
        ArgReader {
            name: "query",
            command: vec!["query", "--explain", "--db", db_arg, "--"],
            reaches: Box::new(|_| true),
            check: |_, m| m.starts_with("query: ") && names_column(m),
        },
        ArgReader {
            name: "number",
            command: vec!["deal", "--"],
            reaches: Box::new(|t| !t.contains("..")),
            // A value out of range is wrong as a whole: the message names it.
            check: |_, m| names_column(m) || m.contains("out of range"),
        },
        ArgReader {
            name: "deal-string",
            command: vec!["number", "--"],
            reaches: Box::new(move |t| t.contains(':') && !hexish(t)),
            check: |_, m| m.starts_with("deal: ") && names_column(m),
        },
        ArgReader {
            name: "index",
            command: vec!["number", "--"],
            reaches: Box::new(hexish),
            // An index whose bytes give a seat the wrong number of cards has no one bad
            // character: the message names the seat and count instead.
            check: |_, m| {
                m.starts_with("deal: ") && (names_column(m) || m.contains("cards, expected 13"))
            },
        },
        ArgReader {
            name: "card",
            command: vec!["card", "--"],
            reaches: Box::new(|_| true),
            // A card is a token of a few characters: the message quotes it.
            check: |t, m| m.contains(&format!("'{}'", t.trim().replace('\n', " "))),
        },
    ];
    let mut total = 0;
    for ArgReader {
        name,
        command,
        reaches,
        check,
    } in cases
    {
        for (case, text) in rejected_texts(name, 10, reaches) {
            let mut args: Vec<&std::ffi::OsStr> = command.iter().map(|a| a.as_ref()).collect();
            args.push(text.as_ref());
            let (code, stderr) = dealdex(&args);
            // Exit 2 is "bad input"; one line on stderr.
            assert_eq!(code, Some(2), "{name} case {case} {text:?}: {stderr}");
            assert_eq!(stderr.lines().count(), 1, "{name} {text:?}: {stderr}");
            let message = stderr
                .trim_end()
                .strip_prefix("dealdex: error: ")
                .unwrap_or_else(|| panic!("{stderr}"));
            // The position (or, for whole-value errors, the value) is named.
            assert!(
                check(&text, message),
                "{name} case {case} {text:?}: {stderr}"
            );
            total += 1;
        }
    }
    eprintln!("fuzz_readers: cli: {total} rejected arguments, each exit 2 with its column");
}

// ---------------------------------------------------------------------------------------------
// Regressions: the defects the runs above found, each on its smallest input.

/// A valid one-board DLM file (board 1 of the spec's line example).
fn dlm_one_board() -> String {
    let line = vectors()["dlm_line_example"]["line"].as_str().unwrap();
    format!("[Document]\nStatus=Show\nDuplicates=0\nFrom board=1\nTo board=1\nChecksum=1\n{line}\n")
}

#[test]
fn dlm_errors_that_had_no_position_name_a_line() {
    use dealdex::formats::Dlm;
    // The fixture reads: the errors below come from the one change made to it.
    assert_eq!(Dlm.read(dlm_one_board().as_bytes()).unwrap().len(), 1);
    // No [Document] section: reported at the file's last line (3), not nowhere.
    let e = common::refused(Dlm.read(b"Board 01=x\n\nHeadline=y\n").unwrap_err());
    assert_eq!(e.position, InputPosition::at_line(3), "{e}");
    assert!(e.message.contains("[Document]"), "{e}");
    // A header key missing: reported at the [Document] line.
    let text = format!(
        "; comment\n{}",
        dlm_one_board().replace("Status=Show\n", "")
    );
    let e = common::refused(Dlm.read(text.as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line(2), "{e}");
    assert!(e.message.contains("Status="), "{e}");
    // A board of From..To without its line: reported at the To board line, naming the board.
    let text = dlm_one_board().replace("To board=1\nChecksum=1", "To board=2\nChecksum=2");
    let e = common::refused(Dlm.read(text.as_bytes()).unwrap_err());
    assert_eq!(e.position, InputPosition::at_line(5), "{e}");
    assert!(e.message.contains("Board 02"), "{e}");
}

#[test]
fn deal_string_count_and_duplicate_errors_name_a_column() {
    // North (column 3) holds 12 cards: the hand's column, as for a bad character.
    let e =
        dealdex::parse_deal("N:AKQJT9876543... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
            .unwrap_err();
    assert_eq!(e.to_string(), "column 3: N holds 12 cards, expected 13");
    // ♠A in North's and West's hands: the column of West's (the second) copy.
    let e = dealdex::parse_deal(
        "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. A...KQJT98765432",
    )
    .unwrap_err();
    assert_eq!(e.to_string(), "column 54: SA is held by both N and W");
}

#[test]
fn index_length_errors_name_a_column() {
    use dealdex::formats::Hex;
    // 27 hex digits: the 27th is the error.
    let e = "0EDCCBA0976F2DA4945D8E9DC00"
        .parse::<BoardIndex>()
        .unwrap_err();
    assert!(e.to_string().starts_with("deal index: column 27: "), "{e}");
    // One short: the place of the missing digit.
    let e = "0EDCCBA0976F2DA4945D8E9DC"
        .parse::<BoardIndex>()
        .unwrap_err();
    assert!(e.to_string().starts_with("deal index: column 26: "), "{e}");
    // In a hex file: line and column (after two leading spaces).
    let e = Hex.read(b"\n  0EDCCBA0976F2DA4945D8E9DC00\n").unwrap_err();
    assert_eq!(
        e.position(),
        Some(InputPosition::at_line_column(2, 29)),
        "{e}"
    );
}

#[test]
fn board_number_u64_max_from_a_file_neither_overflows_nor_wraps() {
    use dealdex::formats::Pbn;
    // A PBN game numbered 2^64 − 1, then one without a number (it follows the previous).
    let deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432";
    let text =
        format!("[Board \"18446744073709551615\"]\n[Deal \"{deal}\"]\n\n[Deal \"{deal}\"]\n");
    let mut boards = Pbn.read(text.as_bytes()).unwrap();
    formats::number_boards(&mut boards, 1);
    // The next number saturates: it never wraps to board 0, which no format allows.
    assert_eq!(boards[1].number, Some(u64::MAX));
    // 2^64 − 1 ≡ 15 (mod 16): board 15's dealer and vulnerability (FORMATS.md §3). A debug
    // build used to panic here on `board + 3` and `board + 15`.
    assert_eq!(dealdex::board_dealer(u64::MAX), Seat::South);
    assert_eq!(
        dealdex::board_vulnerability(u64::MAX),
        Vulnerability::NorthSouth
    );
    let out = formats::write_set(&Pbn, &boards, &WriteOptions::default()).unwrap();
    assert!(String::from_utf8(out).unwrap().contains("[Dealer \"S\"]"));
}
