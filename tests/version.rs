//! The version the engine reports agrees everywhere: `chariot --version`, UCI and UCCI
//! `id name`, XBoard `myname`, and the latest release in `CHANGELOG.md` all name the crate
//! version of `Cargo.toml`.

#[path = "protocol_engine.rs"]
mod support;

use std::process::Command;

use support::Engine;

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[test]
fn command_line_version_is_the_crate_version() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("--version")
        .output()
        .expect("run chariot --version");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("chariot {VERSION}")
    );
}

#[test]
fn uci_and_ucci_id_name_is_the_crate_version() {
    for (hello, ok) in [("uci", "uciok"), ("ucci", "ucciok")] {
        let mut e = Engine::start();
        e.send(hello);
        let lines = e.expect_line(ok);
        let name = format!("id name Chariot {VERSION}");
        assert!(lines.contains(&name), "{hello}: no '{name}' in {lines:?}");
        e.send("quit");
        e.wait_exit();
    }
}

#[test]
fn xboard_myname_is_the_crate_version() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.expect_prefix("feature myname=");
    let name = format!("feature myname=\"Chariot {VERSION}\" ");
    assert!(features.starts_with(&name), "{features}");
    e.send("quit");
    e.wait_exit();
}

#[test]
fn changelog_latest_release_is_the_crate_version() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/CHANGELOG.md");
    let text = std::fs::read_to_string(path).expect("CHANGELOG.md");
    assert!(
        text.lines().any(|l| l == "## [Unreleased]"),
        "CHANGELOG.md has no Unreleased section"
    );
    let latest = text
        .lines()
        .filter_map(|l| l.strip_prefix("## ["))
        .filter_map(|l| l.split_once(']'))
        .map(|(version, _)| version)
        .find(|&v| v != "Unreleased")
        .expect("a released version in CHANGELOG.md");
    assert_eq!(latest, VERSION);
}
