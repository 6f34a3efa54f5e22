//! Slow, obviously correct attack generators: step by step along rays and legs.
//! They define what the fast tables must return; the table builder, the magic finder and the
//! tests all use them.

use crate::types::{Bitboard, Color, Square};

/// Orthogonal unit steps: north, south, east, west (north = towards rank 9).
pub const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Diagonal unit steps.
pub const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Chariot attacks: along each ray up to and including the first occupied point.
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in ORTHOGONAL {
        let mut cur = sq;
        while let Some(next) = cur.offset(df, dr) {
            out.set(next);
            if occ.has(next) {
                break;
            }
            cur = next;
        }
    }
    out
}

/// Cannon capture targets: along each ray, the first occupied point after exactly one
/// occupied point (the screen). Quiet cannon moves are the empty part of [`rook`].
pub fn cannon(sq: Square, occ: Bitboard) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (df, dr) in ORTHOGONAL {
        let mut cur = sq;
        let mut screened = false;
        while let Some(next) = cur.offset(df, dr) {
            if occ.has(next) {
                if screened {
                    out.set(next);
                    break;
                }
                screened = true;
            }
            cur = next;
        }
    }
    out
}

/// The eight horse jumps from `sq` with the leg (orthogonal neighbour) each one needs empty:
/// `(leg, target)` pairs, only those on the board.
pub fn horse_jumps(sq: Square) -> impl Iterator<Item = (Square, Square)> {
    ORTHOGONAL.into_iter().flat_map(move |(df, dr)| {
        let leg = sq.offset(df, dr);
        // The two targets beyond the leg: one more step outward plus one sideways.
        let sides = if df == 0 {
            [(1, 0), (-1, 0)]
        } else {
            [(0, 1), (0, -1)]
        };
        sides.into_iter().filter_map(move |(sf, sr)| {
            let leg = leg?;
            let target = sq.offset(2 * df + sf, 2 * dr + sr)?;
            Some((leg, target))
        })
    })
}

/// Horse attacks from `sq` given the occupancy: jumps whose leg is empty.
pub fn horse(sq: Square, occ: Bitboard) -> Bitboard {
    horse_jumps(sq)
        .filter(|(leg, _)| !occ.has(*leg))
        .map(|(_, t)| t)
        .collect()
}

/// Squares from which a horse would attack `sq` given the occupancy.
pub fn horse_attackers(sq: Square, occ: Bitboard) -> Bitboard {
    Square::all()
        .filter(|&from| horse(from, occ).has(sq))
        .collect()
}

/// Elephant moves from `sq`: two diagonal steps within its own half, eye (midpoint) empty.
pub fn elephant(sq: Square, occ: Bitboard) -> Bitboard {
    let half = if sq.rank().index() <= 4 {
        Color::Red
    } else {
        Color::Black
    };
    let mut out = Bitboard::EMPTY;
    for (df, dr) in DIAGONAL {
        if let (Some(eye), Some(target)) = (sq.offset(df, dr), sq.offset(2 * df, 2 * dr)) {
            if !occ.has(eye) && Bitboard::half(half).has(target) {
                out.set(target);
            }
        }
    }
    out
}

/// The palace `sq` lies in, if any.
pub fn palace_of(sq: Square) -> Option<Bitboard> {
    Color::ALL
        .into_iter()
        .map(Bitboard::palace)
        .find(|p| p.has(sq))
}

/// General moves: one orthogonal step inside the palace.
pub fn king(sq: Square) -> Bitboard {
    steps_in_palace(sq, &ORTHOGONAL)
}

/// Advisor moves: one diagonal step inside the palace.
pub fn advisor(sq: Square) -> Bitboard {
    steps_in_palace(sq, &DIAGONAL)
}

fn steps_in_palace(sq: Square, steps: &[(i32, i32)]) -> Bitboard {
    let Some(palace) = palace_of(sq) else {
        return Bitboard::EMPTY;
    };
    steps
        .iter()
        .filter_map(|&(df, dr)| sq.offset(df, dr))
        .filter(|t| palace.has(*t))
        .collect()
}

/// Soldier moves of `color` from `sq`: forward, and sideways once across the river.
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    let forward = if color == Color::Red { 1 } else { -1 };
    let mut out = Bitboard::EMPTY;
    if let Some(t) = sq.offset(0, forward) {
        out.set(t);
    }
    if !sq.rank().is_own_half(color) {
        for df in [-1, 1] {
            if let Some(t) = sq.offset(df, 0) {
                out.set(t);
            }
        }
    }
    out
}

/// The slider mask of `sq`: its rank and file without `sq` itself and without the edge points
/// (whose occupancy never changes an attack set).
pub fn slider_mask(sq: Square) -> Bitboard {
    let (f, r) = (sq.file().index(), sq.rank().index());
    let mut mask = Bitboard::EMPTY;
    for file in 1..8 {
        if file != f {
            mask.set(Square::from_index(r * 9 + file));
        }
    }
    for rank in 1..9 {
        if rank != r {
            mask.set(Square::from_index(rank * 9 + f));
        }
    }
    mask
}

/// The chariot and cannon table entries of `sq` for `occ` restricted to the slider mask. The
/// points outside the mask (the edges) are taken as occupied: a chariot's ray ends there either
/// way, and a cannon's screened ray then names the edge point as its possible target, which
/// callers intersect with real pieces.
pub fn slider_entry(sq: Square, occ: Bitboard) -> [Bitboard; 2] {
    let occ = (occ & slider_mask(sq)) | !slider_mask(sq);
    [rook(sq, occ), cannon(sq, occ)]
}

/// The horse mask of `sq`: the legs of its jumps.
pub fn horse_mask(sq: Square) -> Bitboard {
    horse_jumps(sq).map(|(leg, _)| leg).collect()
}

/// The horse-attackers mask of `sq`: the legs of every horse that could jump to `sq`
/// (its diagonal neighbours).
pub fn horse_attackers_mask(sq: Square) -> Bitboard {
    Square::all()
        .flat_map(|from| {
            horse_jumps(from)
                .filter(move |(_, t)| *t == sq)
                .map(|(leg, _)| leg)
        })
        .collect()
}

/// The elephant mask of `sq`: the eyes of its possible moves.
pub fn elephant_mask(sq: Square) -> Bitboard {
    let full = elephant(sq, Bitboard::EMPTY);
    DIAGONAL
        .iter()
        .filter_map(|&(df, dr)| {
            let target = sq.offset(2 * df, 2 * dr)?;
            full.has(target).then(|| sq.offset(df, dr)).flatten()
        })
        .collect()
}
