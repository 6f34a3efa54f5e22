//! Ctrl-C for the command-line tools: after [`install`], the first SIGINT only sets a flag that
//! long runs (`perft`, `bench`) poll, so that they stop and print what they have; a second
//! SIGINT ends the process as usual. (The protocol loop does not install it: GUIs stop a
//! search with `stop`, and XBoard's SIGINT is turned off with `feature sigint=0`.)

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The flag the first Ctrl-C sets.
pub fn flag() -> &'static AtomicBool {
    &INTERRUPTED
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Catches the first SIGINT (Linux; elsewhere Ctrl-C keeps ending the process at once).
pub fn install() {
    #[cfg(target_os = "linux")]
    {
        extern "C" fn on_sigint(_: libc::c_int) {
            // An atomic store is async-signal-safe.
            INTERRUPTED.store(true, Ordering::Relaxed);
        }
        // SAFETY: a zeroed sigaction is a valid start; the handler only stores to an atomic;
        // SA_RESETHAND restores the default action, so a second Ctrl-C ends the process.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESETHAND | libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut()) != 0 {
                log::warn!("cannot catch Ctrl-C: {}", std::io::Error::last_os_error());
            }
        }
    }
}
