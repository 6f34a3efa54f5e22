//! Playing people, for every dialect: the strength limit, the opening book, and the score
//! output (normalised centipawns, UCI `wdl`).
//!
//! The controller calls in at one place, when a search starts (its side of this module is
//! `controller/play.rs`):
//!
//! 1. **Book.** With `OwnBook` on, below `BookDepth` plies, and for a search that is to play a
//!    move (not `infinite`, `ponder` or `mate`), a book move the rules allow in the game so
//!    far ([`book::playable`]) is drawn by weight and played at once, announced with a
//!    dialect message (`info string book …`, `info message book …`, `# book …`).
//! 2. **Strength.** Below full strength ([`Skill`]), the depth and node caps go into the
//!    limits, the search runs the skill's number of lines, and [`PlayReporter`] draws the
//!    move among them when the search ends.
//! 3. **Output.** [`PlayReporter`] wraps the dialect's reporter: it prints centipawns on the
//!    normalised scale of [`crate::wdl`], adds `wdl W D L` with `UCI_ShowWDL`, and hides the
//!    extra lines a skill search runs. The result handed back to the controller keeps the
//!    internal score, so the draw and resign policies are unchanged.
//!
//! Random draws use `Random Seed`: with 0 (the default) every draw is fresh; with any other
//! value a draw depends only on the seed and the position, so play is reproducible.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::book::{self, Book};
use crate::position::Position;
use crate::search::report::{Reporter, Score, SearchInfo, SearchResult};
use crate::search::skill::{self, Skill};
use crate::types::Move;

/// The book in use.
#[derive(Clone, Debug)]
pub enum BookSource {
    /// The book compiled into the binary.
    Builtin,
    /// A book loaded from a file.
    File(PathBuf, Arc<Book>),
    /// A file that could not be loaded: no book until another is set.
    Unusable(PathBuf),
}

/// The value of `BookFile` that selects the built-in book.
pub const BUILTIN_BOOK: &str = "<built-in>";

/// One option of this module, as parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlaySetting {
    /// `Skill Level` 0–20.
    SkillLevel(u32),
    /// `UCI_LimitStrength`.
    LimitStrength(bool),
    /// `UCI_Elo`.
    Elo(i32),
    /// `UCI_ShowWDL`.
    ShowWdl(bool),
    /// `Random Seed` (0: fresh draws).
    RandomSeed(u64),
    /// `OwnBook`.
    OwnBook(bool),
    /// `BookFile` ([`BUILTIN_BOOK`] or a path).
    BookFile(String),
    /// `BookDepth` in plies.
    BookDepth(u32),
}

/// The option values of this module.
#[derive(Clone, Debug)]
pub struct PlaySettings {
    /// `Skill Level`.
    pub skill_level: u32,
    /// `UCI_LimitStrength`.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: i32,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `Random Seed`.
    pub seed: u64,
    /// `OwnBook`.
    pub own_book: bool,
    /// `BookFile`.
    pub book: BookSource,
    /// `BookDepth`.
    pub book_depth: u32,
    /// Where fresh draws come from (seed 0).
    session: u64,
    draws: u64,
}

/// `BookDepth` default: the book is consulted in the first 20 plies.
pub const DEFAULT_BOOK_DEPTH: u32 = 20;

impl Default for PlaySettings {
    fn default() -> PlaySettings {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        PlaySettings {
            skill_level: skill::MAX_LEVEL as u32,
            limit_strength: false,
            elo: skill::ELO_MIN,
            show_wdl: false,
            seed: 0,
            own_book: false,
            book: BookSource::Builtin,
            book_depth: DEFAULT_BOOK_DEPTH,
            session: nanos ^ u64::from(std::process::id()).rotate_left(32),
            draws: 0,
        }
    }
}

/// Salt that keeps book draws apart from skill draws of the same position.
pub(super) const BOOK_SALT: u64 = 0x00b0_0c0f_0be2_ab1e;

impl PlaySettings {
    /// The strength limit in force (`None`: full strength).
    pub fn skill(&self) -> Option<Skill> {
        Skill::from_options(self.skill_level, self.limit_strength, self.elo)
    }

    /// The book in force, if any.
    pub fn book(&self) -> Option<&Book> {
        match &self.book {
            BookSource::Builtin => book::builtin(),
            BookSource::File(_, b) => Some(b),
            BookSource::Unusable(_) => None,
        }
    }

    /// 64 random bits for a draw in `pos`: a function of the seed and the position with a
    /// fixed seed, fresh otherwise.
    pub(super) fn random(&mut self, pos: &Position, salt: u64) -> u64 {
        if self.seed != 0 {
            skill::draw_seed(self.seed ^ salt, pos.key(), pos.game_ply())
        } else {
            self.draws += 1;
            skill::draw_seed(self.session ^ salt ^ self.draws, pos.key(), pos.game_ply())
        }
    }
}

/// The most weighted playable book move after `mv` (the expected reply, for `ponder`).
pub(super) fn book_reply(book: &Book, pos: &Position, mv: Move) -> Option<Move> {
    let mut after = pos.clone();
    after.make_move(mv);
    book.probe(after.key())
        .iter()
        .find(|e| book::playable(&after, e.mv))
        .map(|e| e.mv)
}

/// A candidate line of a skill search (internal score).
#[derive(Clone, Debug)]
struct Line {
    score: Score,
    pv: Vec<Move>,
}

/// The skill draw of one search.
struct SkillDraw {
    skill: Skill,
    random: u64,
    /// Lines of a complete iteration.
    lines: usize,
    /// The draw is among the first this many of them.
    drawn: usize,
    /// The latest report of each line.
    latest: Vec<Option<Line>>,
    /// The lines of the last complete iteration.
    complete: Option<Vec<Line>>,
}

/// Wraps a dialect's reporter (see the module docs).
pub struct PlayReporter {
    inner: Arc<dyn Reporter>,
    phase: i32,
    show_wdl: bool,
    shown_lines: usize,
    skill: Option<Mutex<SkillDraw>>,
}

/// A score for comparing skill candidates (mates far beyond any centipawn score).
fn internal(score: Score) -> i32 {
    use crate::search::score::MATE;
    match score {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE + 2 * n.abs(),
    }
}

impl PlayReporter {
    /// A reporter around `inner` for a search of `pos`; `shown_lines` lines are printed.
    pub fn new(
        inner: Arc<dyn Reporter>,
        pos: &Position,
        show_wdl: bool,
        shown_lines: usize,
    ) -> PlayReporter {
        PlayReporter {
            inner,
            phase: pos.phase(),
            show_wdl,
            shown_lines: shown_lines.max(1),
            skill: None,
        }
    }

    /// Draws the played move with `skill` among the best `drawn` of the `lines` lines of an
    /// iteration, using `random`.
    pub fn with_skill(
        mut self,
        skill: Skill,
        lines: usize,
        drawn: usize,
        random: u64,
    ) -> PlayReporter {
        self.skill = Some(Mutex::new(SkillDraw {
            skill,
            random,
            lines: lines.max(1),
            drawn: drawn.clamp(1, lines.max(1)),
            latest: vec![None; lines.max(1)],
            complete: None,
        }));
        self
    }
}

impl Reporter for PlayReporter {
    fn info(&self, info: &SearchInfo) {
        if let Some(draw) = &self.skill {
            let mut d = draw.lock().unwrap_or_else(|e| e.into_inner());
            let i = info.multipv as usize;
            if (1..=d.lines).contains(&i) && !info.pv.is_empty() {
                d.latest[i - 1] = Some(Line {
                    score: info.score,
                    pv: info.pv.clone(),
                });
                // The last line of an iteration comes after the others of the same report.
                if i == d.lines {
                    d.complete = d.latest.iter().cloned().collect();
                }
            }
        }
        if info.multipv as usize > self.shown_lines {
            return;
        }
        let mut shown = info.clone();
        shown.score = crate::wdl::normalize(info.score);
        if self.show_wdl {
            shown.wdl = Some(crate::wdl::wdl(info.score, self.phase));
        }
        self.inner.info(&shown);
    }

    fn message(&self, text: &str) {
        self.inner.message(text);
    }

    fn best_move(&self, result: &SearchResult) {
        let mut result = result.clone();
        if let Some(draw) = &self.skill {
            let d = draw.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(all) = d.complete.as_ref().filter(|l| !l.is_empty()) {
                let lines = &all[..d.drawn.min(all.len())];
                let scores: Vec<i32> = lines.iter().map(|l| internal(l.score)).collect();
                let line = &lines[d.skill.choose(&scores, d.random)];
                result.best = line.pv.first().copied();
                result.ponder = line.pv.get(1).copied();
                result.score = line.score;
            }
        }
        self.inner.best_move(&result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::report::Bound;
    use std::time::Duration;

    /// Keeps what a dialect reporter would print.
    #[derive(Default)]
    struct Capture {
        infos: Mutex<Vec<SearchInfo>>,
        best: Mutex<Option<SearchResult>>,
    }

    impl Reporter for Capture {
        fn info(&self, info: &SearchInfo) {
            self.infos.lock().unwrap().push(info.clone());
        }
        fn best_move(&self, result: &SearchResult) {
            *self.best.lock().unwrap() = Some(result.clone());
        }
    }

    fn info(depth: u32, multipv: u32, cp: i32, pv: &[&str]) -> SearchInfo {
        SearchInfo {
            depth,
            seldepth: depth,
            multipv,
            score: Score::Cp(cp),
            bound: Bound::Exact,
            nodes: 1000,
            time: Duration::from_millis(5),
            hashfull: 0,
            pv: pv.iter().map(|m| m.parse().unwrap()).collect(),
            wdl: None,
        }
    }

    fn result(best: &str) -> SearchResult {
        SearchResult {
            best: Some(best.parse().unwrap()),
            ponder: None,
            score: Score::Cp(500),
            depth: 3,
            nodes: 1000,
        }
    }

    #[test]
    fn output_is_normalised_with_wdl_and_extra_lines_hidden() {
        let capture = Arc::new(Capture::default());
        let r = PlayReporter::new(capture.clone(), &Position::startpos(), true, 1);
        r.info(&info(1, 1, 518, &["h2e2"]));
        r.info(&info(1, 2, 10, &["b2e2"]));
        r.best_move(&result("h2e2"));
        let infos = capture.infos.lock().unwrap();
        assert_eq!(infos.len(), 1, "the second line is not shown");
        assert_eq!(infos[0].score, Score::Cp(crate::wdl::normalized_cp(518)));
        let wdl = infos[0].wdl.unwrap();
        assert_eq!(wdl.iter().sum::<u32>(), 1000);
        let best = capture.best.lock().unwrap().clone().unwrap();
        assert_eq!(
            best.score,
            Score::Cp(500),
            "the result keeps the internal score"
        );
    }

    #[test]
    fn the_skill_draws_from_the_last_complete_iteration() {
        let skill = Skill::from_level(0.0).unwrap();
        // Lines within the loss cap of each other at depth 2; at depth 3 only the first line
        // was reported (the search stopped): the draw still uses depth 2.
        let mut drawn = std::collections::BTreeSet::new();
        for random in 0..64u64 {
            let capture = Arc::new(Capture::default());
            let r = PlayReporter::new(capture.clone(), &Position::startpos(), false, 1).with_skill(
                skill,
                3,
                3,
                random.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            r.info(&info(2, 1, 40, &["h2e2", "h9g7"]));
            r.info(&info(2, 2, 30, &["b2e2", "b9c7"]));
            r.info(&info(2, 3, 20, &["h0g2", "h9g7"]));
            r.info(&info(3, 1, 45, &["a3a4", "a6a5"]));
            r.best_move(&result("a3a4"));
            let best = capture.best.lock().unwrap().clone().unwrap();
            let mv = best.best.unwrap().to_string();
            assert!(["h2e2", "b2e2", "h0g2"].contains(&mv.as_str()), "{mv}");
            assert!(
                best.ponder.is_some(),
                "the ponder move comes from the drawn line"
            );
            drawn.insert(mv);
            assert_eq!(
                capture.infos.lock().unwrap().len(),
                2,
                "only line 1 is shown"
            );
        }
        assert_eq!(
            drawn.len(),
            3,
            "level 0 draws every close candidate: {drawn:?}"
        );
    }

    #[test]
    fn without_a_complete_iteration_the_search_result_stands() {
        let skill = Skill::from_level(3.0).unwrap();
        let capture = Arc::new(Capture::default());
        let r = PlayReporter::new(capture.clone(), &Position::startpos(), false, 1)
            .with_skill(skill, 4, 4, 99);
        r.info(&info(1, 1, 40, &["h2e2"]));
        r.best_move(&result("b0c2"));
        let best = capture.best.lock().unwrap().clone().unwrap();
        assert_eq!(best.best.unwrap().to_string(), "b0c2");
    }
}
