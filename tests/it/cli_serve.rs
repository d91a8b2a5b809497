//! `dealdex serve` through the binary: a file that is no database refused before anything
//! listens (exit 2); a server on a port the system picks, saying where in JSON, answering its
//! API over TCP and refusing a host name that is not its own.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

use crate::common::dealdex;

/// The child ended when dropped.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request to `address` with `host` as its Host header: the whole answer.
fn get(address: &str, host: &str, path: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn a_file_that_is_no_database_is_refused_before_listening() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.db"), "not sqlite").unwrap();
    let out = dealdex(dir.path())
        .args(["serve", "--db", "notes.db", "--port", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("notes.db"));
}

#[test]
fn a_server_says_where_it_listens_and_answers_its_own_host_only() {
    let dir = tempfile::tempdir().unwrap();
    let seed = "42".repeat(32);
    let made = dealdex(dir.path())
        .args([
            "generate", "--boards", "4", "--seed", &seed, "--name", "club",
        ])
        .args(["-o", "club.pbn", "-q"])
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_dealdex"))
        .current_dir(dir.path())
        .args(["--json", "serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let _server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let started: serde_json::Value = serde_json::from_str(&line).unwrap();
    let address = started["address"].as_str().unwrap().to_owned();
    assert_eq!(started["url"], format!("http://{address}/"));
    assert!(started["token"].is_null());
    let answer = get(&address, &address, "/api/sets");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"name\":\"club\""), "{answer}");
    let port = address.rsplit(':').next().unwrap();
    let rebound = get(&address, &format!("evil.example:{port}"), "/api/sets");
    assert!(rebound.starts_with("HTTP/1.1 403"), "{rebound}");
}
