//! What the controller reacts to: lines from the reader thread, the ends of searches and of
//! background work, all through one channel.

use std::sync::Arc;

use super::command::{CommandError, EngineCommand};
use super::dialect::Dialect;
use crate::book::Book;
use crate::search::report::SearchResult;

/// What the controller reacts to: input from the reader thread and results from the search.
#[derive(Debug)]
pub enum Event {
    /// A line before any dialect was selected that selects none.
    Unrecognized(String),
    /// The first line chose a dialect.
    Select(Dialect),
    /// A parsed line (or why it did not parse), with the line as received.
    Command {
        /// The input line (trimmed).
        line: String,
        /// The command or the error.
        parsed: Result<EngineCommand, CommandError>,
    },
    /// `help` before any dialect.
    Help,
    /// End of input (or `quit` before any dialect).
    Eof,
    /// A background configuration change of the engine was made (one per change).
    Configured {
        /// What to tell the user (e.g. the hash size allocated).
        notes: Vec<String>,
    },
    /// A `perft` or `bench` job ended (finished or stopped).
    JobDone {
        /// The job.
        id: u64,
        /// Its output lines.
        lines: Vec<String>,
    },
    /// A book file was read (or could not be).
    BookLoaded {
        /// Matches the controller's [`Busy::Book`](super::controller::Busy::Book).
        id: u64,
        /// The `BookFile` value.
        name: String,
        /// The book, or why it cannot be used.
        result: Result<Arc<Book>, String>,
    },
    /// A search finished.
    SearchDone {
        /// The search it belongs to.
        id: u64,
        /// Its result.
        result: SearchResult,
    },
}
