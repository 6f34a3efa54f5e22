//! The text protocols spoken on stdin/stdout. For now a minimal UCI front (`uci.rs`); the full
//! UCI/UCCI/XBoard dialects come with the search.

pub mod uci;
