//! The strength limit: `Skill Level` 0–20 (UCI, UCCI `skilllevel`, XBoard option) or
//! `UCI_LimitStrength` with `UCI_Elo`, mapped to a level through the measured table
//! [`CALIBRATION`] (docs/engine.md, "Strength levels").
//!
//! A limited level plays like a weaker player, not like a strong one that now and then drops a
//! piece. Three knobs, all smooth in the (fractional) level:
//!
//! - **Less search**: a depth cap ([`Skill::depth`]) up to level 11, a node cap
//!   ([`Skill::nodes`]) above; the caps do not depend on the time control, so a level is
//!   equally strong at any time control that allows its caps.
//! - **Several candidates**: the search runs [`Skill::lines`] principal variations; the move is
//!   drawn among them with probabilities `exp((score − best) / T)` (a softmax at temperature
//!   [`Skill::temperature`] centipawns, high at the bottom and near zero at the top): close
//!   alternatives are played often, clearly worse ones rarely.
//! - **No gross errors by choice**: a candidate more than [`Skill::max_loss`] centipawns below
//!   the best line is never drawn, and a mate the search found is always played. The cap stays
//!   well below the value of a horse from the middle levels on, and below a chariot's at the
//!   lowest level, so a level never gives away a piece *because of the draw*; it can still miss
//!   what its short search does not see, as a weaker player does.
//!
//! The draw is a pure function of the seed, the position and the scores (see [`draw_seed`]), so
//! play is reproducible under a fixed `Random Seed`. Level 20 is full strength: no cap, no
//! draw, exactly the normal search.
//!
//! The idea of picking among MultiPV lines with a handicap follows Stockfish's `Skill`; the
//! softmax, the loss cap and the caps per level are Chariot's own.

use super::score::MATE_BOUND;

/// The highest level: full strength (no limit).
pub const MAX_LEVEL: f64 = 20.0;

/// A strength limit below full strength: a level in `0.0..20.0` (fractional levels come from
/// `UCI_Elo`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
}

impl Skill {
    /// The limit of `level`; `None` from [`MAX_LEVEL`] on (full strength). Levels below 0 count
    /// as 0; a NaN level counts as full strength.
    pub fn from_level(level: f64) -> Option<Skill> {
        if level.is_nan() || level >= MAX_LEVEL {
            return None;
        }
        Some(Skill {
            level: level.max(0.0),
        })
    }

    /// The limit a GUI asked for: `UCI_LimitStrength` with `UCI_Elo` wins over `Skill Level`.
    pub fn from_options(level: u32, limit_strength: bool, elo: i32) -> Option<Skill> {
        if limit_strength {
            Skill::from_level(level_for_elo(elo))
        } else {
            Skill::from_level(f64::from(level))
        }
    }

    /// The level, `0.0 ≤ level < 20.0`.
    pub fn level(&self) -> f64 {
        self.level
    }

    /// Levels below full strength, counted down from 19 (`0.0` at 19, `19.0` at level 0).
    fn handicap(&self) -> f64 {
        (MAX_LEVEL - 1.0 - self.level).max(0.0)
    }

    /// Deepest iteration: 1 at levels 0–1, one more every two levels up to 6 at levels 10–11;
    /// from level 12 on the node cap alone limits the search (the cap is then a depth no
    /// search reaches). A ply is worth roughly two levels at these depths.
    pub fn depth(&self) -> u32 {
        if self.level < 12.0 {
            1 + (self.level / 2.0).floor() as u32
        } else {
            100
        }
    }

    /// Most nodes per move: 23 000 at level 19, ÷1.24 per level down (about 12 000 at level
    /// 16 and 5 200 at level 12, where it takes over from the depth cap). At this scale a
    /// doubling of the nodes is worth a few hundred Elo, so a level is about a hundred. The
    /// search checks the count every 1024 nodes, which is why low levels use depth caps.
    pub fn nodes(&self) -> u64 {
        (23_000.0 * 1.24f64.powf(self.level - 19.0)).round() as u64
    }

    /// Candidate lines searched and drawn from: 8 at level 0, 7 at levels 2–5, 6 at levels
    /// 6–7, and 4 from level 8 on (where the node cap may bind, so that the strength does not
    /// jump with the number of lines).
    pub fn lines(&self) -> usize {
        if self.level < 8.0 {
            4 + (self.handicap() / 5.0).round() as usize
        } else {
            4
        }
    }

    /// Softmax temperature in centipawns (internal scale): 250 at level 0, ×0.72 per level up
    /// (93 at level 3, 35 at level 6, 5 at level 12, under 1 at level 19).
    pub fn temperature(&self) -> f64 {
        250.0 * 0.72f64.powf(self.level)
    }

    /// The most a drawn move may score below the best line, in centipawns (internal scale):
    /// 445 at level 0, falling towards 15 (235 at level 3, 128 at level 6, 73 at level 9, 22 at
    /// level 19). A horse is worth about 330, a cannon about 480 and a chariot about 1000: no
    /// level gives away a chariot or a cannon by its draw, and from level 2 on not a horse.
    pub fn max_loss(&self) -> i32 {
        15 + (430.0 * 0.8f64.powf(self.level)).round() as i32
    }

    /// Draws the index of the move to play among candidate lines with internal `scores` (in
    /// the order of the lines, best first as the search reports them), using 64 random bits
    /// `random`. The best line is always a candidate; a mate score for the side to move is
    /// always played.
    pub fn choose(&self, scores: &[i32], random: u64) -> usize {
        let Some((best_index, &best)) = scores
            .iter()
            .enumerate()
            .max_by_key(|&(i, &s)| (s, std::cmp::Reverse(i)))
        else {
            return 0;
        };
        if best >= MATE_BOUND {
            return best_index;
        }
        let t = self.temperature().max(1.0);
        let max_loss = self.max_loss();
        let weights: Vec<f64> = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                if i != best_index && best.saturating_sub(s) > max_loss {
                    0.0
                } else {
                    (f64::from(s.saturating_sub(best)) / t).exp()
                }
            })
            .collect();
        let total: f64 = weights.iter().sum();
        // 53 random bits give a uniform number in [0, 1).
        let mut x = (random >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        best_index
    }
}

/// The random bits of one draw: a hash of the seed, the position's key and its game ply, so a
/// fixed seed makes every choice reproducible while different positions get independent draws.
pub fn draw_seed(seed: u64, key: u64, game_ply: u32) -> u64 {
    let mut x = splitmix(seed ^ 0x5ca1_ab1e_0dd5_eed5);
    x = splitmix(x ^ key);
    splitmix(x ^ u64::from(game_ply))
}

/// One step of SplitMix64 (a well-mixed 64-bit hash).
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Measured strength of the calibration ladder: (level, Elo), levels ascending, from 2 002
/// node-limited games rated by maximum likelihood with Fairy-Stockfish at its `Skill Level` 20
/// (12 000 nodes a move) anchored at 2000 (docs/engine.md, "Strength levels", has the table
/// with its margins and the command). `UCI_Elo` interpolates in it.
pub const CALIBRATION: &[(f64, i32)] = &[
    (0.0, 415),
    (2.0, 597),
    (4.0, 690),
    (6.0, 773),
    (8.0, 975),
    (10.0, 1180),
    (12.0, 1353),
    (14.0, 1630),
    (16.0, 1781),
    (18.0, 2019),
    (19.0, 2070),
];

/// The smallest `UCI_Elo` (the weakest measured level).
pub const ELO_MIN: i32 = CALIBRATION[0].1;
/// The largest `UCI_Elo` (the strongest measured limited level).
pub const ELO_MAX: i32 = CALIBRATION[CALIBRATION.len() - 1].1;

/// The (fractional) level whose measured strength is `elo`, interpolated linearly between the
/// measured levels and clamped to the measured range.
pub fn level_for_elo(elo: i32) -> f64 {
    let elo = f64::from(elo.clamp(ELO_MIN, ELO_MAX));
    for pair in CALIBRATION.windows(2) {
        let ((l0, e0), (l1, e1)) = (
            (pair[0].0, f64::from(pair[0].1)),
            (pair[1].0, f64::from(pair[1].1)),
        );
        if elo <= e1 {
            if e1 <= e0 {
                return l1;
            }
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0);
        }
    }
    CALIBRATION[CALIBRATION.len() - 1].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_twenty_and_above_is_full_strength() {
        assert_eq!(Skill::from_level(20.0), None);
        assert_eq!(Skill::from_level(f64::NAN), None);
        assert_eq!(Skill::from_options(20, false, 1000), None);
        assert!(Skill::from_level(19.99).is_some());
        assert_eq!(Skill::from_level(-3.0).map(|s| s.level()), Some(0.0));
    }

    #[test]
    fn lower_levels_search_less_and_draw_wider() {
        let mut last: Option<Skill> = None;
        for level in (0..20).rev() {
            let s = Skill::from_level(f64::from(level)).unwrap();
            if let Some(higher) = last {
                assert!(s.depth() <= higher.depth());
                assert!(s.nodes() < higher.nodes());
                assert!(s.lines() >= higher.lines());
                assert!(s.temperature() > higher.temperature());
                assert!(s.max_loss() > higher.max_loss());
            }
            last = Some(s);
        }
        let bottom = Skill::from_level(0.0).unwrap();
        assert_eq!((bottom.depth(), bottom.lines()), (1, 8));
        assert!(bottom.max_loss() < 900, "never a chariot by choice");
        assert!(
            Skill::from_level(8.0).unwrap().max_loss() < 250,
            "never a horse mid-ladder"
        );
    }

    #[test]
    fn the_draw_respects_the_loss_cap_and_mates() {
        let s = Skill::from_level(0.0).unwrap();
        let scores = [50, 40, -20, -700];
        let mut seen = [0usize; 4];
        for k in 0..2000u64 {
            seen[s.choose(&scores, draw_seed(k, 1, 2))] += 1;
        }
        assert_eq!(seen[3], 0, "a move 750 cp worse is never drawn");
        assert!(
            seen[0] > seen[1] && seen[1] > seen[2] && seen[2] > 0,
            "{seen:?}"
        );
        let mate = [MATE_BOUND + 10, 100, 90];
        assert!((0..100).all(|k| s.choose(&mate, draw_seed(k, 3, 4)) == 0));
    }

    #[test]
    fn draws_are_a_function_of_seed_and_position() {
        let s = Skill::from_level(5.0).unwrap();
        let scores = [10, 5, 0, -5, -10];
        let a: Vec<usize> = (0..50)
            .map(|p| s.choose(&scores, draw_seed(7, 99, p)))
            .collect();
        let b: Vec<usize> = (0..50)
            .map(|p| s.choose(&scores, draw_seed(7, 99, p)))
            .collect();
        let c: Vec<usize> = (0..50)
            .map(|p| s.choose(&scores, draw_seed(8, 99, p)))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn elo_maps_into_the_measured_levels() {
        assert_eq!(level_for_elo(ELO_MIN - 500), CALIBRATION[0].0);
        assert_eq!(
            level_for_elo(ELO_MAX + 500),
            CALIBRATION[CALIBRATION.len() - 1].0
        );
        let mut last = -1.0;
        for elo in ELO_MIN..=ELO_MAX {
            let l = level_for_elo(elo);
            assert!(l >= last, "monotone at {elo}");
            last = l;
        }
        for &(level, elo) in CALIBRATION {
            assert!((level_for_elo(elo) - level).abs() < 1e-9);
        }
    }
}
