//! Chariot: a Xiangqi (Chinese chess) engine.
//!
//! The library holds all the logic; `main.rs` is a thin command-line front. Data flows one
//! way: protocol line → command → engine → report → protocol line. Below the protocol layer
//! everything speaks ranks 0–9 (`h2e2` is the central cannon). The module map and the
//! direction of the dependencies are in `docs/architecture.md`.

#![warn(missing_docs)]

pub mod args;
pub mod attacks;
pub mod bench;
pub mod book;
pub mod eval;
pub mod game;
pub mod interrupt;
pub mod json;
pub mod matches;
pub mod movegen;
pub mod plot;
pub mod position;
pub mod protocol;
pub mod rating;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod shard;
pub mod spsa;
pub mod threads;
pub mod tt;
pub mod tune;
pub mod types;
pub mod wdl;
pub mod weights;
