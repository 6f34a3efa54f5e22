//! The controller's side of [`play`](crate::protocol::play): applying the strength, book and
//! output options, playing a book move, and starting a search under the strength limit with the
//! score output wrapper.

use std::path::PathBuf;
use std::sync::Arc;

use super::{ActiveSearch, Busy, Controller};
use crate::book::{self, Book, BookError};
use crate::movegen::legal_moves;
use crate::position::Position;
use crate::protocol::event::Event;
use crate::protocol::play::{
    book_reply, BookSource, PlayReporter, PlaySetting, BOOK_SALT, BUILTIN_BOOK,
};
use crate::protocol::ranks;
use crate::search::limits::Limits;
use crate::search::report::{Reporter, Score, SearchResult};
use crate::search::skill;
use crate::threads::spawn_or_return;
use crate::types::Move;

impl Controller {
    /// Applies an option of this module.
    pub(super) fn apply_play(&mut self, setting: PlaySetting) {
        let p = &mut self.play;
        match setting {
            PlaySetting::SkillLevel(n) => p.skill_level = n.min(skill::MAX_LEVEL as u32),
            PlaySetting::LimitStrength(on) => p.limit_strength = on,
            PlaySetting::Elo(elo) => p.elo = elo,
            PlaySetting::ShowWdl(on) => p.show_wdl = on,
            PlaySetting::RandomSeed(seed) => p.seed = seed,
            PlaySetting::OwnBook(on) => p.own_book = on,
            PlaySetting::BookDepth(n) => p.book_depth = n,
            PlaySetting::BookFile(name) => {
                let name = name.trim().to_string();
                if name.is_empty() || name.eq_ignore_ascii_case(BUILTIN_BOOK) {
                    self.play.book = BookSource::Builtin;
                    return;
                }
                self.load_book(name);
            }
        }
    }

    /// Reads the book file `name` on a thread of its own (a book may be up to
    /// [`book::MAX_FILE_BYTES`]): the controller is busy until [`Event::BookLoaded`], so
    /// `isready` is answered once the book is in use, and `quit` does not wait for the read.
    fn load_book(&mut self, name: String) {
        self.next_job += 1;
        let id = self.next_job;
        self.busy = Busy::Book { id };
        let events = self.events.clone();
        #[cfg(test)]
        let gate = self.book_gate.clone();
        let work = move || {
            #[cfg(test)]
            if let Some(gate) = gate {
                gate.pass();
            }
            let path = PathBuf::from(&name);
            let result = std::panic::catch_unwind(|| Book::load(&path))
                .unwrap_or_else(|_| Err(BookError::Io("the read failed".to_string())))
                .map(Arc::new)
                .map_err(|e| e.to_string());
            let _ = events.send(Event::BookLoaded { id, name, result });
            Some(())
        };
        if let Err(work) = spawn_or_return("book", work) {
            work();
        }
    }

    /// Puts the book read by [`Controller::load_book`] in use, or says why it is not used.
    pub(super) fn book_loaded(&mut self, name: String, result: Result<Arc<Book>, String>) {
        let path = PathBuf::from(&name);
        match result {
            Ok(b) => {
                let text = format!(
                    "book {name}: {} positions, {} moves",
                    b.positions(),
                    b.len()
                );
                self.play.book = BookSource::File(path, b);
                self.note(&text);
            }
            Err(e) => {
                self.play.book = BookSource::Unusable(path);
                self.report_failure(
                    &format!("book not used: {e}"),
                    &format!("book {name} not used: {e}; searching without a book"),
                    &name,
                );
            }
        }
    }

    /// The book move for a search of `pos` under `limits`, if the book is on and has one the
    /// rules allow; announced through `reporter`.
    pub(super) fn book_move(
        &mut self,
        pos: &Position,
        limits: &Limits,
        reporter: &dyn Reporter,
    ) -> Option<SearchResult> {
        if !self.play.own_book
            || limits.infinite
            || limits.ponder
            || limits.mate.is_some()
            || pos.game_ply() >= self.play.book_depth
        {
            return None;
        }
        let random = self.play.random(pos, BOOK_SALT);
        let book = self.play.book()?;
        let allowed = |m: Move| {
            !limits.ban_moves.contains(&m)
                && (limits.search_moves.is_empty() || limits.search_moves.contains(&m))
        };
        let chosen = book.choose(pos, allowed, random)?;
        let ponder = book_reply(book, pos, chosen.mv);
        reporter.message(&format!(
            "book {} weight {} of {}",
            ranks::format_move(chosen.mv, self.base),
            chosen.weight,
            chosen.total
        ));
        Some(SearchResult {
            best: Some(chosen.mv),
            ponder,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
        })
    }

    /// The limits and reporter of a search of `pos`: the strength limit's caps and lines, and
    /// the output wrapper.
    pub(super) fn play_limits(
        &mut self,
        pos: &Position,
        mut limits: Limits,
        reporter: Arc<dyn Reporter>,
    ) -> (Limits, Arc<dyn Reporter>) {
        let shown = self.engine.options().multipv;
        let wrapper = PlayReporter::new(reporter, pos, self.play.show_wdl, shown);
        let skill = self.play.skill().filter(|_| !limits.infinite);
        let Some(skill) = skill else {
            return (limits, Arc::new(wrapper));
        };
        limits.depth = Some(limits.depth.map_or(skill.depth(), |d| d.min(skill.depth())));
        limits.nodes = Some(limits.nodes.map_or(skill.nodes(), |n| n.min(skill.nodes())));
        let searched = skill.lines().max(shown);
        limits.lines = Some(searched);
        let roots = legal_moves(pos)
            .into_iter()
            .filter(|m| !limits.ban_moves.contains(m))
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .count();
        let random = self.play.random(pos, 0);
        let wrapper = wrapper.with_skill(skill, searched.min(roots), skill.lines(), random);
        (limits, Arc::new(wrapper))
    }

    /// XBoard `bk`: the book moves of the current position (lines starting with a blank, then
    /// an empty line).
    pub(super) fn book_listing(&self) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(book) = self.play.book() {
            let moves: Vec<_> = book
                .probe(self.pos.key())
                .iter()
                .filter(|e| book::playable(&self.pos, e.mv))
                .collect();
            let total: u32 = moves.iter().map(|e| u32::from(e.weight)).sum();
            for e in moves {
                lines.push(format!(
                    " {} {:.0}%",
                    ranks::format_move(e.mv, self.base),
                    100.0 * f64::from(e.weight) / f64::from(total.max(1))
                ));
            }
        }
        if lines.is_empty() {
            lines.push(" no book moves".to_string());
        }
        lines.push(String::new());
        lines
    }

    /// Starts the search of `search` unless the book answers at once: returns the book's
    /// result, or `None` once the search runs with the play limits and output.
    pub(super) fn play_search(
        &mut self,
        search: ActiveSearch,
        pos: &Position,
        limits: Limits,
        reporter: Arc<dyn Reporter>,
    ) -> Option<(ActiveSearch, SearchResult)> {
        if let Some(result) = self.book_move(pos, &limits, reporter.as_ref()) {
            return Some((search, result));
        }
        let (limits, reporter) = self.play_limits(pos, limits, reporter);
        self.search = Some(search);
        self.engine.go(pos, limits, reporter);
        None
    }
}
