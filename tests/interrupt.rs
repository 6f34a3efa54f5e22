//! Ctrl-C stops the long command-line runs (`perft`, `bench`) with a summary so far and exit
//! status 130, instead of killing them silently.

#![cfg(target_os = "linux")]

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Starts `chariot args…` and waits until it catches SIGINT (its `SigCgt` mask in
/// `/proc/PID/status` has the SIGINT bit), so that the signal cannot arrive too early.
#[allow(clippy::zombie_processes)] // the caller waits for the child it gets
fn start_catching(args: &[&str]) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chariot starts");
    let status = format!("/proc/{}/status", child.id());
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&status).unwrap_or_default();
        let caught = text
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .is_some_and(|mask| mask & (1 << (libc::SIGINT - 1)) != 0);
        if caught {
            return child;
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chariot {args:?} never caught SIGINT");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Sends SIGINT and collects the output.
fn interrupt(child: Child) -> Output {
    // SAFETY: plain kill(2) on our own child.
    let sent = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(sent, 0);
    child.wait_with_output().expect("chariot ends")
}

#[test]
fn ctrl_c_stops_perft_with_a_summary() {
    for args in [
        &["perft", "12"][..],
        &["perft", "12", "--divide", "--threads", "2"],
    ] {
        let out = interrupt(start_catching(args));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(130), "{args:?}: {stderr}");
        assert!(stderr.contains("Interrupted after"), "{args:?}: {stderr}");
        assert!(stderr.contains("root moves counted"), "{args:?}: {stderr}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!stdout.contains("Nodes searched"), "no total: {stdout}");
    }
}

#[test]
fn ctrl_c_stops_an_epd_suite_with_a_summary() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/perft/xiangqi.epd");
    let out = interrupt(start_catching(&["perft", "--epd", suite]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Interrupted after"), "{stderr}");
}

#[test]
fn ctrl_c_stops_bench_with_a_summary_and_no_signature() {
    let out = interrupt(start_catching(&["bench", "--depth", "40"]));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("Interrupted after"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        !stdout.contains("Nodes searched"),
        "a partial total is no signature: {stdout}"
    );
}
