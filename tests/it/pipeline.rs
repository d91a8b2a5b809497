//! The deal pipeline's generated streams and its sink's ways of writing
//! (`dealdex::workflow::pipeline`): a stream source is the seed's boards (or Big Deal's) in
//! order, whatever its pieces; the sink writes standard output and Parquet piece by piece
//! and the rest whole.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use dealdex::ErrorKind;
use dealdex::bigdeal::BigDealStream;
use dealdex::formats::{self, Board, ReadOptions, WriteOptions};
use dealdex::workflow::output::Output;
use dealdex::workflow::pipeline::{
    DealFiles, DealSink, DealSource, DealStream, ReadAs, SourceOptions, StreamFilter, StreamSource,
};
use dealdex::{CHUNK, Seed};

fn seed() -> Seed {
    "42".repeat(32).parse().unwrap()
}

fn stream(stream: DealStream, first: u64, count: u64) -> DealSource {
    DealSource::Stream(StreamSource {
        stream,
        first,
        count,
        predeal: None,
        filter: None,
    })
}

/// Deals 5 .. 5 + 2·CHUNK + 99 of a seed, read in parallel pieces, are its boards 5.. in
/// order with their numbers; `read_with` runs its step on every piece, and the pieces'
/// sizes add up.
#[test]
fn a_seeded_stream_is_the_seeds_boards_in_order() {
    let count = 2 * CHUNK as u64 + 99;
    let source = stream(DealStream::Seeded(seed()), 5, count);
    let open = source.open(None, &SourceOptions::default()).unwrap();
    assert!(open.facts().numbered);
    let mut boards: Vec<Board> = Vec::new();
    let mut pieces = Vec::new();
    let read = open
        .read_with(
            &|piece: Vec<Board>| (piece.len(), piece),
            &mut |(len, piece)| -> Result<bool, dealdex::Error> {
                pieces.push(len);
                boards.extend(piece);
                Ok(true)
            },
        )
        .unwrap();
    assert!(read.complete);
    assert_eq!(read.boards, count);
    assert_eq!(pieces.iter().sum::<usize>() as u64, count);
    assert!(pieces.len() >= 3, "{pieces:?}");
    for (b, n) in boards.iter().zip(5u64..) {
        assert_eq!(b.number, Some(n));
    }
    for k in [0, CHUNK - 1, CHUNK, boards.len() - 1] {
        let n = boards[k].number.unwrap();
        assert_eq!(boards[k].deal, seed().board_deal(n), "board {n}");
    }
}

/// A consumer that stops after the first piece gets no more, and the read says so.
#[test]
fn a_consumer_stops_a_stream() {
    let source = stream(DealStream::Seeded(seed()), 1, 3 * CHUNK as u64);
    let mut seen = 0;
    let read = source
        .open(None, &SourceOptions::default())
        .unwrap()
        .read(&mut |piece| -> Result<bool, dealdex::Error> {
            seen += piece.len();
            Ok(false)
        })
        .unwrap();
    assert!(!read.complete);
    assert_eq!(read.boards as usize, seen);
    assert!(seen <= CHUNK);
}

/// Big Deal's stream from board 7 is the stream itself past its first six boards.
#[test]
fn a_big_deal_stream_from_a_later_board_skips_the_ones_before() {
    let reference = BigDealStream::new(b"wizard-devA", &[b"entropy-1".as_slice()]);
    let mut whole = reference.clone();
    let expected = whole.take_deals(20);
    let (boards, _) = stream(DealStream::BigDeal(reference), 7, 14)
        .open(None, &SourceOptions::default())
        .unwrap()
        .read_all()
        .unwrap();
    let deals: Vec<_> = boards.iter().map(|b| b.deal).collect();
    assert_eq!(deals, expected[6..]);
    assert_eq!(boards[0].number, Some(7));
}

/// A writer whose bytes a test can look at while the sink still holds it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Standard output in a streaming format gets each piece as it is written (memory: a
/// piece), not the whole set at the end; a DUP output beside it (whose records carry the
/// set's size) is rendered at the end and then holds every board.
#[test]
fn standard_output_is_written_a_piece_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let dup = dir.path().join("set.dup");
    let outputs = vec![
        Output {
            path: None,
            format: formats::by_name("hex").unwrap(),
        },
        Output {
            path: Some(dup.clone()),
            format: formats::by_name("dup").unwrap(),
        },
    ];
    let sink = DealFiles::new(outputs, WriteOptions::default());
    assert!(!sink.streams());
    assert_eq!(sink.whole_outputs().count(), 1);
    let shared = Shared::default();
    let mut stdout = shared.clone();
    let mut open = sink.open(&mut stdout).unwrap();
    let boards: Vec<Board> = (1..=20)
        .map(|n| Board::new(n, seed().board_deal(n)))
        .collect();
    open.write(boards[..10].to_vec()).unwrap();
    assert_eq!(
        shared.0.borrow().iter().filter(|&&b| b == b'\n').count(),
        10
    );
    assert!(!dup.exists(), "the DUP file waits for the whole set");
    open.write(boards[10..].to_vec()).unwrap();
    let written = open.finish().unwrap();
    assert_eq!(
        shared.0.borrow().iter().filter(|&&b| b == b'\n').count(),
        20
    );
    let back = formats::by_name("dup")
        .unwrap()
        .read_numbered(&std::fs::read(&dup).unwrap(), &ReadOptions::default())
        .unwrap();
    assert_eq!(back.boards.len(), 20);
    assert_eq!(
        written.files.iter().map(|f| f.boards).collect::<Vec<_>>(),
        [20, 20]
    );
}

/// A Parquet file is written by its stateful writer as the pieces come (the sink streams),
/// appears only at the end, and reads back as the boards written.
#[test]
fn parquet_is_written_piece_by_piece_and_put_in_place_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deals.parquet");
    let parquet = formats::by_name("parquet").unwrap();
    let sink = DealFiles::new(
        vec![Output {
            path: Some(path.clone()),
            format: parquet,
        }],
        WriteOptions::default(),
    );
    assert!(sink.streams());
    let mut stdout = std::io::sink();
    let mut open = sink.open(&mut stdout).unwrap();
    let boards: Vec<Board> = (1..=3000)
        .map(|n| Board::new(n, seed().board_deal(n)))
        .collect();
    for piece in boards.chunks(1000) {
        open.write(piece.to_vec()).unwrap();
    }
    assert!(!path.exists());
    open.finish().unwrap();
    let back = parquet.read(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(back.len(), 3000);
    assert!(
        back.iter()
            .zip(&boards)
            .all(|(a, b)| a.deal == b.deal && a.number == b.number)
    );
}

/// A named pipe can be read once only: an import of one whose format only its content shows
/// stores its deals, so import opens each file once (the format told from the bytes it
/// reads, not from a first opening), and records the SHA-256 of those bytes as the source
/// of the tables it carries, also when they are stored a batch at a time before the last
/// byte is read.
#[cfg(unix)]
#[test]
fn import_reads_each_file_once_a_named_pipe_included_and_hashes_what_it_read() {
    use dealdex::dd::TrickTable;
    use dealdex::workflow::import::{FileResult, ImportJob, import};
    use dealdex::{DdSource, DealIndex, Store};
    use sha2::{Digest, Sha256};

    let dir = tempfile::tempdir().unwrap();
    let boards: Vec<Board> = (1..=40)
        .map(|n| {
            let table = TrickTable::new([[(n % 14) as u8; 5]; 4].map(|row| row.map(|t| t.min(13))))
                .unwrap();
            Board {
                dd: Some(table),
                ..Board::new(n, seed().board_deal(n))
            }
        })
        .collect();
    let pbn = formats::by_name("pbn").unwrap();
    let bytes = formats::write_set(pbn, &boards, &WriteOptions::default()).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("[OptimumResultTable"));
    let sha: [u8; 32] = Sha256::digest(&bytes).into();
    // `.txt`: the extension says nothing; the content is PBN.
    let pipe = dir.path().join("deals.txt");
    let made = std::process::Command::new("mkfifo")
        .arg(&pipe)
        .status()
        .unwrap();
    assert!(made.success());
    let writer = {
        let (pipe, bytes) = (pipe.clone(), bytes.clone());
        std::thread::spawn(move || std::fs::write(pipe, bytes).unwrap())
    };
    let mut store = Store::open(&dir.path().join("d.db")).unwrap();
    let job = ImportJob {
        batch: 8,
        ..ImportJob::for_paths(std::slice::from_ref(&pipe), ReadAs::default())
    };
    let report = import(&job, &mut store, &mut |_| {}).unwrap();
    writer.join().unwrap();
    let outcome = &report.files[0];
    assert_eq!(outcome.format, "pbn");
    assert!(
        matches!(
            outcome.result,
            FileResult::Imported {
                boards: 40,
                dd_tables: 40,
                ..
            }
        ),
        "{:?}",
        outcome.result
    );
    for b in [&boards[0], &boards[39]] {
        let source = store.dd_source(&DealIndex::from_deal(&b.deal)).unwrap();
        assert_eq!(
            source,
            Some(DdSource::File {
                file: pipe.display().to_string(),
                format: "pbn".into(),
                sha256: Some(sha),
            })
        );
    }
}

/// A file whose content shows no format is rejected when it is read, like a file that does
/// not read; the other files are stored.
#[test]
fn import_rejects_a_file_of_no_format_and_stores_the_others() {
    use dealdex::Store;
    use dealdex::workflow::import::{FileResult, ImportJob, import};

    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
    let hex = formats::by_name("hex").unwrap();
    let boards: Vec<Board> = (1..=3)
        .map(|n| Board::new(n, seed().board_deal(n)))
        .collect();
    std::fs::write(
        &good,
        formats::write_set(hex, &boards, &WriteOptions::default()).unwrap(),
    )
    .unwrap();
    let bad = dir.path().join("notes.txt");
    std::fs::write(&bad, "shopping list\n").unwrap();
    let mut store = Store::open_in_memory().unwrap();
    let job = ImportJob::for_paths(&[bad.clone(), good.clone()], ReadAs::default());
    let report = import(&job, &mut store, &mut |_| {}).unwrap();
    assert_eq!(report.files[0].format, "unknown");
    match &report.files[0].result {
        FileResult::Rejected { reason } => {
            assert!(reason.reason().contains("format"), "{}", reason.reason())
        }
        r => panic!("{r:?}"),
    }
    assert_eq!(report.files[1].format, "hex");
    assert_eq!(store.deal_count().unwrap(), 3);
}

fn filtered(query: &str, count: u64, max_draws: Option<u64>) -> DealSource {
    DealSource::Stream(StreamSource {
        stream: DealStream::Seeded(seed()),
        first: 7,
        count,
        predeal: Some(dealdex::Predeal::parse("W:AQ4.J.KJ6543.632").unwrap()),
        filter: Some(StreamFilter {
            query: dealdex::query::Query::parse(query).unwrap(),
            max_draws,
        }),
    })
}

/// A filtered seeded stream is the first matching deals of the seed's stream from its first
/// deal (as `first_matching` finds them, checked here deal by deal), numbered from the first
/// deal, with the deals drawn reported; too few within the bound, a query no deal can
/// satisfy and a filter on Big Deal's stream are refused.
#[test]
fn a_filtered_stream_is_the_streams_matching_deals() {
    let query = "hcp(N) >= 15 and len(N, spades) >= 5";
    let (boards, read) = filtered(query, 40, None)
        .open(None, &SourceOptions::default())
        .unwrap()
        .read_all()
        .unwrap();
    let q = dealdex::query::Query::parse(query).unwrap();
    let predeal = dealdex::Predeal::parse("W:AQ4.J.KJ6543.632").unwrap();
    // The stream's deals 7, 8, … in order, kept when they match: the reference, one by one.
    let mut dealt = vec![boards[0].deal; 20_000];
    seed().fill_predealt(&predeal, 7, &mut dealt);
    let mut want = vec![];
    let mut n = 7;
    for deal in dealt {
        if want.len() == 40 {
            break;
        }
        if q.matches(&deal) {
            want.push(deal);
        }
        n += 1;
    }
    assert_eq!(boards.iter().map(|b| b.deal).collect::<Vec<_>>(), want);
    assert_eq!(boards[0].number, Some(7));
    assert_eq!(boards[39].number, Some(46));
    assert_eq!(read.drawn, Some(n - 7));
    assert!(read.drawn.unwrap() > 100, "{read:?}");

    let e = filtered(query, 40, Some(50))
        .open(None, &SourceOptions::default())
        .unwrap()
        .read_all()
        .unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::TooFewMatches { drawn: 50, wanted: 40, matched } if *matched < 40),
        "{e}"
    );
    // West holds 10 HCP: North cannot have 31.
    let e = filtered("hcp(N) >= 31", 1, None)
        .open(None, &SourceOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("predealt"), "{e}");
    let big_deal = DealSource::Stream(StreamSource {
        stream: DealStream::BigDeal(BigDealStream::new(b"wizard-devA", &[b"e".as_slice()])),
        first: 1,
        count: 1,
        predeal: None,
        filter: Some(StreamFilter {
            query: q,
            max_draws: None,
        }),
    });
    assert!(matches!(
        big_deal
            .open(None, &SourceOptions::default())
            .err()
            .unwrap()
            .kind(),
        ErrorKind::Filter { .. }
    ));
}

/// A dealer script as a source is the deals `dealdex dealer` produces with the same seed
/// number (numbered 1, 2, …, with the draws reported); a reader that stops after the first
/// piece stops the run; too few within `generate` draws is `TooFewMatches`.
#[test]
fn a_script_source_is_the_deals_dealer_produces() {
    use dealdex::dealer::{DealerJob, Script, run};
    use dealdex::workflow::pipeline::ScriptSource;
    let script = Script::parse("condition hcp(north) >= 15 and shape(south, any 5xxx)").unwrap();
    let job = DealerJob {
        produce: Some(1500),
        seed: Some(9),
        quiet: true,
        keep_produced: true,
        ..DealerJob::default()
    };
    let report = run(&script, &job, &mut std::io::sink(), &mut |_| {}).unwrap();
    let source = ScriptSource::new(script.clone(), Some(9), 1500, None).unwrap();
    let (boards, read) = DealSource::Script(Box::new(source.clone()))
        .open(None, &SourceOptions::default())
        .unwrap()
        .read_all()
        .unwrap();
    let deals: Vec<_> = boards.iter().map(|b| b.deal).collect();
    assert_eq!(deals, report.kept);
    assert!(boards.iter().zip(1..).all(|(b, n)| b.number == Some(n)));
    assert_eq!(read.drawn, Some(report.generated));
    // Stopped after the first piece: fewer boards than asked, not complete.
    let mut pieces = 0;
    let read = DealSource::Script(Box::new(source))
        .open(None, &SourceOptions::default())
        .unwrap()
        .read(&mut |_| -> Result<bool, dealdex::Error> {
            pieces += 1;
            Ok(false)
        })
        .unwrap();
    assert_eq!((pieces, read.complete), (1, false));
    assert!(read.boards < 1500, "{}", read.boards);
    // At most 100 drawn: too few.
    let few = ScriptSource::new(script, Some(9), 1500, Some(100)).unwrap();
    let e = DealSource::Script(Box::new(few))
        .open(None, &SourceOptions::default())
        .unwrap()
        .read_all()
        .unwrap_err();
    assert!(
        matches!(
            e.kind(),
            ErrorKind::TooFewMatches {
                drawn: 100,
                wanted: 1500,
                ..
            }
        ),
        "{e}"
    );
}
