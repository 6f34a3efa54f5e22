//! Resident memory of the engine process: at `Hash 16` with one thread it must stay within
//! the hash plus 24 MiB, before and after a search (it was 58 MiB when the chariot/cannon
//! attacks came from one 35 MB table). Linux only: it reads `/proc/<pid>/status`.

#![cfg(target_os = "linux")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// `VmRSS` of `pid` in KiB.
fn resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("VmRSS in /proc/<pid>/status")
}

#[test]
fn hash_16_with_one_thread_stays_within_hash_plus_24_mib_resident() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut wait_for = |prefix: &str| loop {
        let line = lines.next().expect("the engine answers").unwrap();
        if line.starts_with(prefix) {
            break;
        }
    };
    writeln!(
        stdin,
        "uci\nsetoption name Hash value 16\nsetoption name Threads value 1\nisready"
    )
    .unwrap();
    wait_for("readyok");
    let limit = (16 + 24) * 1024;
    let ready = resident_kib(child.id());
    writeln!(stdin, "position startpos\ngo depth 9").unwrap();
    wait_for("bestmove");
    let searched = resident_kib(child.id());
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    assert!(ready <= limit, "{ready} KiB resident after isready");
    assert!(searched <= limit, "{searched} KiB resident after a search");
}
