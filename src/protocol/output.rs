//! The protocol output: stdout (or a test's buffer), shared by the controller and the search
//! thread, written in whole lines.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// The protocol output: whole lines, flushed one by one, shared by the controller and the
/// search thread. Write errors (a closed pipe) are logged and otherwise ignored.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Output to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = writeln!(w, "{text}").and_then(|_| w.flush()) {
            log::debug!("cannot write to the GUI: {e}");
        }
    }

    /// Writes several lines at once (no other line comes between them).
    pub fn lines<S: AsRef<str>>(&self, lines: &[S]) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let result = lines.iter().try_for_each(|l| writeln!(w, "{}", l.as_ref()));
        if let Err(e) = result.and_then(|_| w.flush()) {
            log::debug!("cannot write to the GUI: {e}");
        }
    }
}
