//! The staged move picker: hands out the legal moves of a node best-first without
//! generating or sorting what a cut-off makes unnecessary.
//!
//! Main search: TT move → good captures (MVV-LVA + capture history, SEE ≥ 0) → killers →
//! counter-move → quiets by history (butterfly + continuation) → bad captures.
//! In check: TT move → all evasions (captures first). Quiescence: TT move if a capture →
//! captures by MVV-LVA.

use arrayvec::ArrayVec;

use super::history::Histories;
use super::see::{see_ge, SEE_VALUE};
use crate::movegen::{self, generate_with_pins, GenKind, MoveSink, MAX_MOVES};
use crate::position::{PinInfo, Position};
use crate::types::{Bitboard, Move, Square};

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    GenEvasions,
    Evasions,
    Done,
}

/// Collects generated moves with a zero score, leaving out the TT move (already tried).
struct ScoredSink<'a> {
    moves: &'a mut ArrayVec<(Move, i32), MAX_MOVES>,
    skip: Move,
}

impl MoveSink for ScoredSink<'_> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        if mv != self.skip {
            // SAFETY: at most MAX_MOVES moves are ever generated (see movegen::MAX_MOVES).
            debug_assert!(!self.moves.is_full());
            unsafe { self.moves.push_unchecked((mv, 0)) };
        }
    }

    /// Writes every move and advances past all but the skipped one, without a branch per
    /// move and with the length kept in a register.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard) {
        let mut len = self.moves.len();
        let base = self.moves.as_mut_ptr();
        for to in targets {
            let mv = Move::new(from, to);
            debug_assert!(len < MAX_MOVES);
            // SAFETY: `len` counts moves generated so far (the skipped one at most once
            // written and then overwritten), which stays below MAX_MOVES (movegen::MAX_MOVES).
            unsafe { base.add(len).write((mv, 0)) };
            len += (mv != self.skip) as usize;
        }
        // SAFETY: every slot below `len` was written above or before.
        unsafe { self.moves.set_len(len) };
    }
}

/// Picks moves of one node in stages (see the module doc).
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    cont: [usize; 2],
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    cur: usize,
    bad: ArrayVec<Move, MAX_MOVES>,
    bad_cur: usize,
    qsearch: bool,
    /// Set by the search to skip the remaining quiet moves (late-move pruning).
    pub skip_quiets: bool,
    /// Quiet moves scoring below this are not sorted (they follow the sorted ones, see
    /// [`partial_insertion_sort`]); set by the search from the depth.
    pub sort_limit: i32,
    /// Quiets still to be handed out by selection before the rest is sorted at once.
    quiet_picks: u32,
    /// Bit `i` set: the `i`-th generated quiet scores at least `sort_limit`.
    quiet_good: u128,
    /// The side to move's pins, computed by the first generation of the node.
    pins: Option<PinInfo>,
    /// `(cur, i)`: `peek` found `moves[cur + i]` the best quiet left while `self.cur` was
    /// `cur`.
    selected: (usize, usize),
}

/// The first quiets are found by selection (one scan each), which costs less than sorting
/// them all when a cut-off or late-move pruning ends the node early, as it mostly does; the
/// moves left after this many are sorted at once.
const QUIET_SELECT_PICKS: u32 = 8;

impl MovePicker {
    /// A picker for the main search.
    pub fn new(
        pos: &Position,
        tt_move: Move,
        killers: [Move; 2],
        counter: Move,
        cont: [usize; 2],
    ) -> Self {
        let in_check = pos.in_check();
        let tt_ok = !tt_move.is_null() && pos.is_legal(tt_move);
        MovePicker {
            stage: if tt_ok {
                Stage::TtMove
            } else if in_check {
                Stage::GenEvasions
            } else {
                Stage::GenCaptures
            },
            tt_move: if tt_ok { tt_move } else { Move::NULL },
            killers,
            counter,
            cont,
            moves: ArrayVec::new(),
            cur: 0,
            bad: ArrayVec::new(),
            bad_cur: 0,
            qsearch: false,
            skip_quiets: false,
            sort_limit: i32::MIN,
            quiet_picks: 0,
            quiet_good: 0,
            pins: None,
            selected: (usize::MAX, 0),
        }
    }

    /// A picker for quiescence: captures only (all evasions when in check).
    pub fn new_qsearch(pos: &Position, tt_move: Move, cont: [usize; 2]) -> Self {
        let in_check = pos.in_check();
        let tt_ok =
            !tt_move.is_null() && (in_check || pos.is_capture(tt_move)) && pos.is_legal(tt_move);
        let mut p = MovePicker::new(pos, Move::NULL, [Move::NULL; 2], Move::NULL, cont);
        p.qsearch = true;
        if tt_ok {
            p.tt_move = tt_move;
            p.stage = Stage::TtMove;
        }
        p
    }

    fn score_captures(&mut self, pos: &Position, hist: &Histories) {
        for (mv, score) in self.moves.iter_mut() {
            let victim = pos.piece_at(mv.to()).map_or(0, |p| p.kind().index());
            let attacker = pos.piece_at(mv.from()).expect("own piece");
            *score = 16 * SEE_VALUE[victim].min(1000)
                - SEE_VALUE[attacker.kind().index()].min(1000) / 8
                + hist.capture(attacker, *mv, victim) / 16;
        }
    }

    /// Scores the quiets by history and notes which reach `sort_limit` (`quiet_good`).
    fn score_quiets(&mut self, pos: &Position, hist: &Histories) {
        let side = pos.side_to_move();
        let (mut good, mut bit) = (0u128, 1u128);
        for (mv, score) in self.moves.iter_mut() {
            let piece = pos.piece_at(mv.from()).expect("own piece");
            *score = hist.butterfly(side, *mv)
                + hist.continuation(self.cont[0], piece, *mv)
                + hist.continuation(self.cont[1], piece, *mv);
            if *score >= self.sort_limit {
                good |= bit;
            }
            bit <<= 1;
        }
        self.quiet_good = good;
    }

    fn load(&mut self, pos: &Position, kind: GenKind) {
        self.moves.clear();
        self.cur = 0;
        let pins = *self.pins.get_or_insert_with(|| movegen::pins(pos));
        let mut sink = ScoredSink {
            moves: &mut self.moves,
            skip: self.tt_move,
        };
        generate_with_pins(pos, kind, &pins, &mut sink);
    }

    /// Takes the best remaining move of `self.moves` (selection by score).
    fn pick_best(&mut self) -> Option<Move> {
        if self.cur >= self.moves.len() {
            return None;
        }
        let best = self.cur + first_best(&self.moves[self.cur..]);
        self.moves.swap(self.cur, best);
        self.cur += 1;
        Some(self.moves[self.cur - 1].0)
    }

    fn is_special_quiet(&self, mv: Move) -> bool {
        mv == self.killers[0] || mv == self.killers[1] || mv == self.counter
    }

    fn quiet_candidate(&self, pos: &Position, mv: Move) -> bool {
        !mv.is_null() && mv != self.tt_move && !pos.is_capture(mv) && pos.is_legal(mv)
    }

    /// A guess at the move that `next` hands out after the last one, for prefetching its TT
    /// cluster: the next in the current stage's list (the quiets' next selection is made
    /// here and kept for `next`; the captures' is only guessed), else the first of the stage
    /// after it. It may be null, illegal or pruned; it never changes what `next` returns.
    #[inline]
    pub fn peek(&mut self) -> Move {
        let rest = &self.moves[self.cur.min(self.moves.len())..];
        if !rest.is_empty() {
            if self.stage == Stage::Quiets && self.quiet_picks > 0 && !self.skip_quiets {
                // Select now; the next selection takes this result instead of scanning.
                let best = first_best(rest);
                self.selected = (self.cur, best);
                return rest[best].0;
            }
            return rest[0].0;
        }
        let quiets = !self.skip_quiets;
        let unless_tt = |m: Move| if m != self.tt_move { m } else { Move::NULL };
        match self.stage {
            Stage::GoodCaptures | Stage::Killer1 if quiets && !self.killers[0].is_null() => {
                unless_tt(self.killers[0])
            }
            Stage::Killer2 if quiets && self.killers[1] != self.killers[0] => {
                unless_tt(self.killers[1])
            }
            Stage::GoodCaptures | Stage::Killer1 | Stage::Killer2 | Stage::Counter if quiets => {
                unless_tt(self.counter)
            }
            Stage::GoodCaptures
            | Stage::Killer1
            | Stage::Killer2
            | Stage::Counter
            | Stage::Quiets
            | Stage::BadCaptures => self.bad.get(self.bad_cur).copied().unwrap_or(Move::NULL),
            _ => Move::NULL,
        }
    }

    /// The generated moves not handed out yet, best first only as far as the picker has
    /// selected (for prefetching their TT clusters).
    pub fn remaining(&self) -> impl Iterator<Item = Move> + '_ {
        self.moves[self.cur.min(self.moves.len())..]
            .iter()
            .map(|&(m, _)| m)
    }

    /// The next move, or `None` when all are done. Every move returned is legal.
    pub fn next(&mut self, pos: &Position, hist: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = if pos.in_check() {
                        Stage::GenEvasions
                    } else {
                        Stage::GenCaptures
                    };
                    return Some(self.tt_move);
                }
                Stage::GenCaptures => {
                    self.load(pos, GenKind::Captures);
                    self.score_captures(pos, hist);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some(mv) => {
                        if self.qsearch || see_ge(pos, mv, 0) {
                            return Some(mv);
                        }
                        self.bad.push(mv);
                    }
                    None => {
                        self.stage = if self.qsearch {
                            Stage::Done
                        } else {
                            Stage::Killer1
                        };
                    }
                },
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let k = self.killers[0];
                    if !self.skip_quiets && self.quiet_candidate(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let k = self.killers[1];
                    if !self.skip_quiets && k != self.killers[0] && self.quiet_candidate(pos, k) {
                        return Some(k);
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenQuiets;
                    let c = self.counter;
                    if !self.skip_quiets
                        && c != self.killers[0]
                        && c != self.killers[1]
                        && self.quiet_candidate(pos, c)
                    {
                        return Some(c);
                    }
                }
                Stage::GenQuiets => {
                    if self.skip_quiets {
                        self.moves.clear();
                        self.cur = 0;
                    } else {
                        self.load(pos, GenKind::Quiets);
                        let specials = [self.killers[0], self.killers[1], self.counter];
                        self.moves.retain(|(m, _)| !specials.contains(m));
                        self.score_quiets(pos, hist);
                        self.quiet_picks = QUIET_SELECT_PICKS;
                    }
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if !self.skip_quiets && self.cur < self.moves.len() {
                        if self.quiet_picks > 0 {
                            let known = (self.selected.0 == self.cur).then_some(self.selected.1);
                            if let Some(mv) = select_quiet(
                                &mut self.moves,
                                known,
                                &mut self.cur,
                                &mut self.quiet_picks,
                                self.sort_limit,
                                self.quiet_good,
                            ) {
                                return Some(mv);
                            }
                        }
                        self.cur += 1;
                        let mv = self.moves[self.cur - 1].0;
                        debug_assert!(!self.is_special_quiet(mv));
                        return Some(mv);
                    }
                    self.stage = Stage::BadCaptures;
                }
                Stage::BadCaptures => {
                    if self.bad_cur < self.bad.len() {
                        self.bad_cur += 1;
                        return Some(self.bad[self.bad_cur - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenEvasions => {
                    self.load(pos, GenKind::All);
                    let side = pos.side_to_move();
                    for (mv, score) in self.moves.iter_mut() {
                        let piece = pos.piece_at(mv.from()).expect("own piece");
                        *score = match pos.piece_at(mv.to()) {
                            Some(v) => {
                                1 << 20
                                    | (SEE_VALUE[v.kind().index()].min(1000) * 16
                                        - SEE_VALUE[piece.kind().index()].min(1000) / 8)
                            }
                            None => {
                                hist.butterfly(side, *mv)
                                    + hist.continuation(self.cont[0], piece, *mv)
                            }
                        };
                    }
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => {
                    return match self.pick_best() {
                        Some(mv) => Some(mv),
                        None => {
                            self.stage = Stage::Done;
                            None
                        }
                    };
                }
                Stage::Done => return None,
            }
        }
    }
}

/// Moves the moves scoring at least `limit` to the front, sorted by descending score (stable
/// among themselves); the rest follow unsorted. At low depth most quiets score below the
/// limit and are pruned or reduced anyway, so sorting them would be wasted work (the idea of
/// Stockfish's partial insertion sort).
fn partial_insertion_sort(moves: &mut [(Move, i32)], limit: i32) {
    let mut sorted = 0;
    for i in 0..moves.len() {
        let item = moves[i];
        if item.1 < limit {
            continue;
        }
        moves[i] = moves[sorted];
        let mut j = sorted;
        while j > 0 && moves[j - 1].1 < item.1 {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = item;
        sorted += 1;
    }
}

/// Index of the first highest-scoring move of a non-empty list.
#[inline(always)]
fn first_best(moves: &[(Move, i32)]) -> usize {
    let (mut best, mut best_score) = (0, moves[0].1);
    for (i, m) in moves.iter().enumerate().skip(1) {
        if m.1 > best_score {
            best = i;
            best_score = m.1;
        }
    }
    best
}

/// Hands out `moves[*cur]` after bringing the best remaining quiet there by selection
/// (the others stay in generation order), while `*picks` is not used up and a move scores at
/// least `limit`. When it stops selecting, it orders what is left exactly as
/// [`partial_insertion_sort`] of all the quiets would have, and from then on (or if it
/// returns `None`) the caller hands out the moves in array order. `good` as for
/// [`finish_partial_sort`].
fn select_quiet(
    moves: &mut [(Move, i32)],
    known: Option<usize>,
    cur: &mut usize,
    picks: &mut u32,
    limit: i32,
    good: u128,
) -> Option<Move> {
    let rest = &mut moves[*cur..];
    debug_assert!(known.is_none_or(|k| k == first_best(rest)));
    let best = known.unwrap_or_else(|| first_best(rest));
    if rest[best].1 < limit {
        *picks = 0;
        finish_partial_sort(rest, limit, good, *cur);
        return None;
    }
    rest[..=best].rotate_right(1);
    let mv = rest[0].0;
    *cur += 1;
    *picks -= 1;
    if *picks == 0 {
        finish_partial_sort(&mut moves[*cur..], limit, good, *cur);
    }
    Some(mv)
}

/// Orders `rest`, the moves not yet handed out (still in generation order), as
/// [`partial_insertion_sort`] would have placed them had it run over all quiets before
/// `picked` of them were handed out. `good` has bit `i` set if the `i`-th generated quiet
/// scores at least `limit`. The good ones follow stably by descending score. The others keep
/// the order in which that sort leaves them: as it meets a good move past the first bad one,
/// it moves the front bad move to the back of the bad ones.
fn finish_partial_sort(rest: &mut [(Move, i32)], limit: i32, good: u128, picked: usize) {
    let mut goods: ArrayVec<(Move, i32), MAX_MOVES> = ArrayVec::new();
    let mut bads: ArrayVec<(Move, i32), MAX_MOVES> = ArrayVec::new();
    for &m in rest.iter() {
        if m.1 >= limit {
            goods.push(m);
        } else {
            bads.push(m);
        }
    }
    partial_insertion_sort(&mut goods, limit);
    // Replay the queue of bad moves (indices into `bads`) through the generation order. Each
    // generated move appends at most one entry, so `tail` stays below `total` ≤ MAX_MOVES.
    let total = picked + rest.len();
    let mut queue = [0u8; MAX_MOVES];
    let (mut head, mut tail, mut next_bad) = (0, 0, 0);
    // The bits as two 64-bit words: a variable 128-bit shift costs several instructions.
    let words = [good as u64, (good >> 64) as u64];
    for i in 0..total {
        if words[(i >> 6) & 1] >> (i & 63) & 1 != 0 {
            if tail > head {
                queue[tail] = queue[head];
                head += 1;
                tail += 1;
            }
        } else {
            queue[tail] = next_bad;
            next_bad += 1;
            tail += 1;
        }
    }
    debug_assert_eq!(next_bad as usize, bads.len());
    let (g, b) = rest.split_at_mut(goods.len());
    g.copy_from_slice(&goods);
    for (slot, &k) in b.iter_mut().zip(&queue[head..tail]) {
        *slot = bads[k as usize];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    #[test]
    fn partial_sort_orders_the_good_moves_and_keeps_the_rest() {
        let mv = |i: u16| Move::from_raw(i + 1).unwrap();
        let scores = [5, -900, 40, -20, 40, -3000, 7, 0];
        let mut moves: Vec<(Move, i32)> = (0..8).map(|i| (mv(i), scores[i as usize])).collect();
        partial_insertion_sort(&mut moves, -100);
        let got: Vec<i32> = moves.iter().map(|m| m.1).collect();
        assert_eq!(&got[..6], &[40, 40, 7, 5, 0, -20]);
        // Stable among equals: the first 40 generated stays first.
        assert_eq!((moves[0].0, moves[1].0), (mv(2), mv(4)));
        let mut rest = got[6..].to_vec();
        rest.sort();
        assert_eq!(rest, [-3000, -900]);
        partial_insertion_sort(&mut moves, i32::MIN);
        assert!(moves.windows(2).all(|w| w[0].1 >= w[1].1));
    }

    /// Selecting the first quiets and sorting the rest gives the order of sorting them all.
    #[test]
    fn quiet_selection_orders_as_the_partial_sort() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rand = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..2000 {
            let len = rand(60) as usize + 1;
            let moves: Vec<(Move, i32)> = (0..len)
                .map(|i| {
                    (
                        Move::from_raw(i as u16 + 1).unwrap(),
                        rand(9) as i32 * 50 - 200,
                    )
                })
                .collect();
            let limit = rand(9) as i32 * 50 - 250;
            let mut want = moves.clone();
            partial_insertion_sort(&mut want, limit);
            let good = moves
                .iter()
                .enumerate()
                .filter(|(_, m)| m.1 >= limit)
                .fold(0u128, |bits, (i, _)| bits | 1 << i);
            let mut got = moves.clone();
            let (mut cur, mut picks) = (0, rand(12) as u32 + 1);
            let mut order = Vec::new();
            while cur < got.len() {
                if picks > 0 {
                    if let Some(mv) =
                        select_quiet(&mut got, None, &mut cur, &mut picks, limit, good)
                    {
                        order.push(mv);
                        continue;
                    }
                }
                order.push(got[cur].0);
                cur += 1;
            }
            let want: Vec<Move> = want.iter().map(|m| m.0).collect();
            assert_eq!(order, want, "{moves:?} limit {limit}");
        }
    }

    /// `peek` changes nothing that `next` returns, and names the next quiet exactly while
    /// the quiets are selected.
    #[test]
    fn peek_names_the_next_selected_quiet_and_changes_nothing() {
        let mut hist = Histories::new_boxed();
        let mut pos = Position::startpos();
        let mut exact = 0;
        for step in 0..40usize {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            // Varied quiet scores (ties included), so that the selection order matters.
            for (i, &m) in legal.iter().enumerate() {
                hist.update_butterfly(pos.side_to_move(), m, ((i * 37 + step) % 23) as i32 * 50);
            }
            let killers = [
                legal[step % legal.len()],
                legal[(step * 7 + 3) % legal.len()],
            ];
            let plain: Vec<Move> = {
                let mut p = MovePicker::new(&pos, Move::NULL, killers, Move::NULL, [14 * 90; 2]);
                p.sort_limit = -1000;
                std::iter::from_fn(|| p.next(&pos, &hist)).collect()
            };
            let mut p = MovePicker::new(&pos, Move::NULL, killers, Move::NULL, [14 * 90; 2]);
            p.sort_limit = -1000;
            let mut peeked = Vec::new();
            loop {
                let selecting = p.stage == Stage::Quiets && p.quiet_picks > 0;
                let guess = p.peek();
                let Some(mv) = p.next(&pos, &hist) else { break };
                // Every quiet scores above the limit, so each selection succeeds.
                if selecting {
                    assert_eq!(guess, mv, "{}", pos.fen());
                    exact += 1;
                }
                peeked.push(mv);
            }
            assert_eq!(peeked, plain, "{}", pos.fen());
            pos.make_move(legal[(step * 13 + 7) % legal.len()]);
        }
        assert!(exact > 100, "only {exact} selections checked");
    }

    /// The picker yields exactly the legal moves, each once, whatever the hints.
    #[test]
    fn picker_yields_exactly_the_legal_moves() {
        let hist = Histories::new_boxed();
        let mut pos = Position::startpos();
        for step in 0..60usize {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let hints: Vec<Move> = (0..4)
                .map(|i| legal[(step * 5 + i * 11) % legal.len()])
                .collect();
            let junk: Move = "a0a9".parse().unwrap();
            for (tt, k1, k2, c) in [
                (hints[0], hints[1], hints[2], hints[3]),
                (junk, junk, Move::NULL, hints[0]),
            ] {
                let mut picker = MovePicker::new(&pos, tt, [k1, k2], c, [14 * 90, 14 * 90]);
                let mut got = Vec::new();
                while let Some(m) = picker.next(&pos, &hist) {
                    got.push(m);
                }
                let mut want = legal.to_vec();
                got.sort();
                want.sort();
                assert_eq!(got, want, "{}", pos.fen());
            }
            pos.make_move(legal[(step * 13 + 7) % legal.len()]);
        }
    }
}
